/// The candidate closest to what was typed, for "did you mean" hints: at
/// most two edits away (insertions, deletions, substitutions, or swaps of
/// neighbours) and fewer edits than the typed text has characters, ignoring
/// case. Ties go to the earlier candidate; nil when none is close.
///
///     nearest(to: "projet", among: ["project", "client"])  // "project"
///     nearest(to: "xyz", among: ["project", "client"])     // nil
public func nearest(to typed: String, among candidates: [String]) -> String? {
    let a = Array(typed.lowercased())
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let d = editDistance(a, Array(candidate.lowercased()))
        if d <= 2, d < a.count, d < (best?.distance ?? .max) {
            best = (candidate, d)
        }
    }
    return best?.candidate
}

/// Optimal string alignment distance (Damerau–Levenshtein without
/// overlapping edits).
private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                current[j] = min(current[j], before[j - 2] + 1)
            }
        }
        (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
}
