import TrackeeCore
import TrackeeStore

/// Turns a change read from the hub into typed values, once, where it
/// leaves the hub: nothing past here reads its JSON or its clock's text.
/// What another program (or person) wrote there that is not a change
/// trackee makes is refused with one sentence naming the change and what
/// is wrong with it, and the pull goes on without it.
enum HubChangeDecoder {
    struct Refusal: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    static func decode(_ change: HubIncomingChange) -> Result<HubChange, Refusal> {
        let prefix = "hub change \(change.id) from \(change.device)"
        guard let stamp = HybridStamp(change.clock) else {
            return .failure(Refusal(description: "\(prefix) cannot be read (its clock \"\(change.clock)\" is not a stamp); skipped"))
        }
        guard stamp.device == change.device else {
            return .failure(Refusal(description:
                "\(prefix) cannot be read (its clock names device \(stamp.device)); skipped"))
        }
        let json: JSONNode
        do {
            json = try JSONReader.read(change.body)
        } catch {
            return .failure(Refusal(description: "\(prefix) cannot be read (\(change.kind): not JSON); skipped"))
        }
        do {
            let body: HubChange.Body
            if change.kind == "key" {
                body = try key(json)
            } else if let table = JournalTable(rawValue: change.kind) {
                body = .row(try row(table, json, text: change.body))
            } else {
                throw Refusal(description: "kind \(change.kind)")
            }
            return .success(HubChange(id: change.id, device: change.device, stamp: stamp, body: body))
        } catch let refusal as Refusal {
            if refusal.description.hasPrefix("log ") {
                return .failure(Refusal(description: "\(prefix) is not an intent (\(refusal)); skipped"))
            }
            return .failure(Refusal(description: "\(prefix) cannot be read (\(refusal)); skipped"))
        } catch {
            return .failure(Refusal(description: "\(prefix) cannot be read; skipped"))
        }
    }

    /// `{"id": 2001, "fields": {…}, "base": {…}}`.
    private static func row(_ table: JournalTable, _ json: JSONNode, text: String) throws -> HubRowChange {
        guard case .integer(let id)? = json["id"] else { throw Refusal(description: "\(table.rawValue): no id") }
        let row = HubRowKey(table, id)
        guard case .object(let fields)? = json["fields"], !fields.isEmpty else {
            throw Refusal(description: "\(row): no fields")
        }
        var values = [HubValue?](repeating: nil, count: table.fields.count)
        for member in fields {
            guard let field = table.field(member.key) else {
                throw Refusal(description: "\(row): no field \(member.key)")
            }
            let value: HubValue
            switch member.value {
            case .null: value = .null
            case .integer(let n): value = .integer(n)
            case .string(let s): value = .text(s)
            case .bool(let b): value = .integer(b ? 1 : 0)
            default: throw Refusal(description: "\(row): \(member.key) is \(member.text)")
            }
            guard value.fits(table.fieldKinds[field]) else {
                throw Refusal(description: "\(row): \(member.key) is \(member.text)")
            }
            values[field] = value
        }
        var bases = [HybridStamp?](repeating: nil, count: table.fields.count)
        if case .object(let given)? = json["base"] {
            for member in given {
                guard let field = table.field(member.key), case .string(let text) = member.value,
                      let stamp = HybridStamp(text)
                else { throw Refusal(description: "\(row): base of \(member.key) is \(member.text)") }
                bases[field] = stamp
            }
        }
        return HubRowChange(row: row, values: values, bases: bases, text: text)
    }

    /// `{"key": …, "kind": …, "row": {…}, "made": [[kind, id], …], "writes": [[stamp, kind, id], …]}`.
    private static func key(_ json: JSONNode) throws -> HubChange.Body {
        guard case .string(let key)? = json["key"], case .string(let kind)? = json["kind"],
              let ledger = json["row"], let ledgerText = json.text(of: "row")
        else { throw Refusal(description: "key: no key, kind or row") }
        if kind == "log" {
            guard let row = intent(ledger) else { throw Refusal(description: "log \(key)") }
            return .log(id: key, row, text: String(ledgerText))
        }
        guard let claimKind = HubClaimKind(rawValue: kind) else { throw Refusal(description: "key \(key): kind \(kind)") }
        let read: HubClaim.Ledger
        switch claimKind {
        case .intent:
            guard let row = intent(ledger), let fired = ledger["fired"].flatMap(integer) else {
                throw Refusal(description: "key \(key): its intent")
            }
            read = .intent(row, fired: fired)
        case .firing:
            guard case .string(let rule)? = ledger["rule"], let occurred = ledger["occurred"].flatMap(integer),
                  let fired = ledger["fired"].flatMap(integer), case .string(let description)? = ledger["description"],
                  case .string(let trigger)? = ledger["trigger"]
            else { throw Refusal(description: "key \(key): its firing") }
            read = .firing(HubLoggedFiring(
                rule: rule, occurred: occurred, fired: fired, description: description, trigger: trigger,
                anyOffset: ledger["any_offset"].flatMap(integer)))
        case .add:
            guard let entry = ledger["entry_id"].flatMap(integer), let added = ledger["added"].flatMap(integer) else {
                throw Refusal(description: "key \(key): its entry")
            }
            read = .add(entryID: entry, added: added)
        }
        var made: [HubRowKey] = []
        if case .array(let pairs)? = json["made"] {
            for pair in pairs {
                guard case .array(let parts) = pair, parts.count == 2, case .string(let table) = parts[0],
                      let kind = JournalTable(rawValue: table), case .integer(let id) = parts[1]
                else { throw Refusal(description: "key \(key): made") }
                made.append(HubRowKey(kind, id))
            }
        }
        var writes: [HubClaimWrite]?
        if case .array(let triples)? = json["writes"] {
            writes = try triples.map { triple in
                guard case .array(let parts) = triple, parts.count == 3, case .string(let text) = parts[0],
                      let stamp = HybridStamp(text), case .string(let table) = parts[1],
                      let kind = JournalTable(rawValue: table), case .integer(let id) = parts[2]
                else { throw Refusal(description: "key \(key): writes") }
                return HubClaimWrite(stamp: stamp, row: HubRowKey(kind, id))
            }
        }
        return .claim(HubClaim(
            key: HubClaimKey(claimKind, key), ledger: read, ledgerText: String(ledgerText), made: made, writes: writes))
    }

    /// An intent log row: a start, stop or cancel with its times, as
    /// ``HubLoggedIntent`` has it; nil for anything else.
    private static func intent(_ row: JSONNode) -> HubLoggedIntent? {
        guard let intent = HubLoggedIntent(reading: { name in
                  switch row[name] {
                  case nil, .null?: return .null
                  case .integer(let n)?: return .integer(n)
                  case .string(let s)?: return .text(s)
                  default: return nil
                  }
              }),
              ["start", "stop", "cancel"].contains(intent.action)
        else { return nil }
        return intent
    }

    private static func integer(_ value: JSONNode) -> Int64? {
        if case .integer(let n) = value { return n }
        return nil
    }
}
