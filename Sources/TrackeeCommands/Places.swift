import ArgumentParser
import TrackeeAutomation
import TrackeeCore
import TrackeeLocation
import TrackeeStore

extension Trackee {
    struct Places: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "places",
            abstract: "List the places of the rule files, with where the last fixes put you.",
            discussion: """
                For each place: its shape and size, and its state (inside, outside, or unknown \
                before any fix), with the time of the fix that began it, as trackee feed and \
                trackee run left it in the store.
                """)

        @OptionGroup var common: CommonOptions
        @OptionGroup var rules: RulesOption

        struct View: Encodable {
            var name: String
            var shape: String
            var latitude: Double?
            var longitude: Double?
            var radius: Double?
            var corners: [[Double]]?
            var hysteresis: Double
            var max_accuracy: Double
            var state: String
            var since: String?
        }

        func run() throws {
            try Session.run(common) { session in
                let automation = try session.strictRules(rules, calendars: false)
                let store = try session.openStore()
                let places = PlaceRuntime(automation, stored: try store.placeTrackers(),
                                         defaultAccuracy: session.settings.defaultAccuracy)
                let views = places.geofences.states.map { place, tracker in
                    var view = View(
                        name: place.name, shape: "", hysteresis: place.hysteresis, max_accuracy: place.maxAccuracy,
                        state: tracker.state.rawValue, since: tracker.since.map(session.zone.iso8601))
                    switch place.shape {
                    case .circle(let lat, let lon, let radius):
                        view.shape = "circle"
                        (view.latitude, view.longitude, view.radius) = (lat, lon, radius)
                    case .polygon(let corners):
                        view.shape = "polygon"
                        view.corners = corners.map { [$0.latitude, $0.longitude] }
                    }
                    return view
                }
                if session.out.json {
                    session.out.emit(views)
                    return
                }
                if views.isEmpty { session.out.line("no places; define them under places: in a rule file (trackee-rules(5))") }
                for (view, (place, _)) in zip(views, places.geofences.states) {
                    let shape: String
                    switch place.shape {
                    case .circle(let lat, let lon, let radius): shape = "circle of \(meters(radius)) around \(lat), \(lon)"
                    case .polygon(let corners): shape = "polygon of \(corners.count) corners"
                    }
                    let state = view.since.map { "\(view.state) since \($0)" } ?? view.state
                    session.out.line("\(view.name)  \(shape)  \(state)")
                }
            }
        }

        private func meters(_ value: Double) -> String {
            value == value.rounded() ? "\(Int(value)) m" : "\(value) m"
        }
    }
}
