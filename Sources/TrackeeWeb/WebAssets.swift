import TrackeeAPI
import TrackeeCore
import TrackeeReport

/// The page's files, compiled into `trackee-daemon` (Assets/, embedded
/// by the package): its style sheet (the HTML report's, which the week
/// shows, then the page's own), its script and its icon. Each is named in
/// the page with a hash of its bytes (`?v=`), so a browser may keep it
/// for a year and still never runs an old script against a new page.
enum WebAssets {
    enum Asset: String, CaseIterable {
        case css = "page.css"
        case js = "page.js"
        case icon = "icon.svg"

        var type: String {
            switch self {
            case .css: "text/css; charset=utf-8"
            case .js: "text/javascript; charset=utf-8"
            case .icon: "image/svg+xml"
            }
        }

        var bytes: [UInt8] {
            switch self {
            case .css: WebAssets.css
            case .js: PackageResources.page_js
            case .icon: PackageResources.icon_svg
            }
        }

        /// The path the page names it by: `/assets/page.css?v=` and the
        /// first 12 hex digits of its SHA-256.
        var path: String {
            "/assets/\(rawValue)?v=" + String(SHA256.hex(bytes).prefix(12))
        }
    }

    static let css: [UInt8] = Array(ReportHTML.style.utf8) + PackageResources.page_css

    /// The paths, hashed once.
    static let paths: [Asset: String] = Dictionary(uniqueKeysWithValues: Asset.allCases.map { ($0, $0.path) })

    static func response(_ asset: Asset) -> APIResponse {
        APIResponse(
            status: 200,
            headers: [("Content-Type", asset.type), ("Cache-Control", "public, max-age=31536000, immutable")]
                + WebGuard.headers,
            body: asset.bytes)
    }
}
