import TrackeeCore
import TrackeeSettings
import TrackeeStore

extension Trackee.Sync {
    /// A target's hourly quota as `sync status` shows it: requests left
    /// of the hour, and the wait when it is used up.
    struct QuotaView: Encodable {
        var requests_per_hour: Int
        /// Of `requests_per_hour`, not yet used in the last hour.
        var left: Int
        /// Toggl Track's `/me` quota (30 an hour): left of it; nil for Clockify.
        var user_left: Int?
        /// Nothing goes out before this: the quota is used up.
        var waiting_until: String?
        private var service: String
        private var until: String?

        init(_ s: OutboxSummary, _ setting: PushSetting, use: [QuotaScope: Int], now: Instant, zone: Zone) {
            requests_per_hour = setting.hourlyQuota
            left = max(0, requests_per_hour - (use[.workspace] ?? 0))
            user_left = setting.service == .toggl ? max(0, 30 - (use[.user] ?? 0)) : nil
            service = setting.service == .toggl ? "Toggl Track" : "Clockify"
            if s.waitingForQuota, let at = s.retryAt, at > now {
                waiting_until = zone.iso8601(at)
                left = 0
                // The time alone reads well when it is within half a day.
                let local = zone.localDateTime(at)
                let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
                until = at - now < 43_200 ? "\(two(local.hour)):\(two(local.minute))" : zone.iso8601(at)
            }
        }

        enum CodingKeys: String, CodingKey { case requests_per_hour, left, user_left, waiting_until }

        /// Requests were sent in the last hour, or the quota holds the target back.
        var inUse: Bool { left < requests_per_hour || until != nil || (user_left ?? 30) < 30 }

        /// `waiting for Toggl Track's hourly quota until 14:32; 0 of 30 requests left`.
        var sentence: String {
            var text = "\(left) of \(requests_per_hour) requests left this hour"
            if let until { text = "waiting for \(service)'s hourly quota until \(until); " + text }
            if let user_left, user_left < 30 { text += " (\(user_left) of 30 for /me)" }
            return text
        }
    }
}
