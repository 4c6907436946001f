/// The web page's routes, in one table as the API's are: what a path and
/// method ask for, and the path as the access log shows it.
struct WebRoute: Equatable {
    enum Target: Equatable {
        /// `GET /`: the page, or the sign-in form without a session.
        case home
        /// `GET /entries/ID`: an entry's edit form.
        case editForm(Int64)
        /// `GET /events`: the event stream, for the page's script.
        case events
        /// `GET /assets/NAME`.
        case asset(WebAssets.Asset)
        case signIn, signOut
        /// `POST /timer/start|stop|cancel`.
        case timer(TimerAction)
        /// `POST /entries/ID`: save the edit form.
        case edit(Int64)
        /// `POST /entries/ID/delete`.
        case delete(Int64)
        /// `POST /undo`: `trackee undo`.
        case undo
        /// A path the page does not have.
        case unknown
        /// A path it has, asked with another method.
        case wrongMethod(allowed: String)
    }

    enum TimerAction: String, Equatable {
        case start, stop, cancel
    }

    var target: Target
    /// The path with any id as `{id}`, for the access log.
    var logged: String

    init(method: String, path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        let (get, post) = (method == "GET", method == "POST")
        func only(_ wanted: Bool, _ allowed: String, _ target: Target, _ logged: String) -> WebRoute {
            WebRoute(target: wanted ? target : .wrongMethod(allowed: allowed), logged: logged)
        }
        let unknown = WebRoute(target: .unknown, logged: "-")
        switch (parts.count, parts.first ?? "") {
        case (1, ""): self = only(get, "GET", .home, "/")
        case (1, "events"): self = only(get, "GET", .events, "/events")
        case (1, "sign-in"): self = only(post, "POST", .signIn, "/sign-in")
        case (1, "sign-out"): self = only(post, "POST", .signOut, "/sign-out")
        case (1, "undo"): self = only(post, "POST", .undo, "/undo")
        // What a browser asks for on its own when a page names no icon.
        case (1, "favicon.ico"): self = only(get, "GET", .asset(.icon), "/favicon.ico")
        case (2, "assets"):
            guard let asset = WebAssets.Asset(rawValue: parts[1]) else { self = unknown; return }
            self = only(get, "GET", .asset(asset), "/assets/" + parts[1])
        case (2, "timer"):
            guard let action = TimerAction(rawValue: parts[1]) else { self = unknown; return }
            self = only(post, "POST", .timer(action), "/timer/" + action.rawValue)
        case (2, "entries"):
            guard let id = Self.id(parts[1]) else { self = unknown; return }
            self = WebRoute(target: get ? .editForm(id) : post ? .edit(id) : .wrongMethod(allowed: "GET, POST"),
                            logged: "/entries/{id}")
        case (3, "entries") where parts[2] == "delete":
            guard let id = Self.id(parts[1]) else { self = unknown; return }
            self = only(post, "POST", .delete(id), "/entries/{id}/delete")
        default: self = unknown
        }
    }

    init(target: Target, logged: String) {
        self.target = target
        self.logged = logged
    }

    /// A positive entry id of at most 18 digits (no sign, no leading zero).
    static func id(_ text: String) -> Int64? {
        guard (1...18).contains(text.utf8.count), text.utf8.first != UInt8(ascii: "0"),
              text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        return Int64(text)
    }

    /// Whether the request changes something, and so needs the session,
    /// the same origin and the CSRF token.
    var changes: Bool {
        switch target {
        case .signIn, .signOut, .timer, .edit, .delete, .undo: true
        default: false
        }
    }
}
