/// What answers the requests outside `/v1/` beside the API: the web page
/// (TrackeeWeb), which only `trackee-daemon` links. Without one, the API
/// answers every path (404 for those it does not have).
public protocol WebPageServing: Sendable {
    /// The answer to a request whose path does not start with `/v1/`;
    /// never throws, as ``API/answer(_:)`` does not.
    func answer(_ request: APIRequest) async -> APIResponse
    /// The access line of a request to the page that the server refused
    /// itself (413, 408, 503), as ``API/refused(method:path:status:arrived:)``
    /// writes the API's.
    func refused(method: String, path: String, status: Int, arrived: UInt64?)
}
