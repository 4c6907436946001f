import Foundation
import TrackeeTestSupport

/// Sources/TrackeeAPI/openapi.json, the API's reference, read the way a
/// recipe uses it: which method and path pairs exist, and which fields a
/// request body may have.
struct APIReference {
    let document: JSONValue

    static func load() throws -> APIReference {
        let url = RecipeTests.root.appendingPathComponent("Sources/TrackeeAPI/openapi.json")
        return APIReference(document: try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url)))
    }

    /// "POST /v1/start" for every operation the document describes.
    var operations: Set<String> {
        var found: Set<String> = []
        for path in document["paths"].keys {
            for method in document["paths"][path].keys { found.insert("\(method.uppercased()) \(path)") }
        }
        return found
    }

    /// The fields the JSON body of `method path` may have; empty for an
    /// operation without a JSON object body.
    func bodyFields(_ method: String, _ path: String) -> Set<String> {
        let body = document["paths"][path][method.lowercased()]["requestBody"]["content"]["application/json"]["schema"]
        return Set(body["properties"].keys)
    }

    /// The fields of the answer `GET /v1/status` documents.
    var statusFields: Set<String> {
        Set(document["paths"]["/v1/status"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["properties"].keys)
    }
}

/// The path of a URL a recipe calls, such as `/v1/start` for
/// `{{url}}/v1/start` or `https://trackee.example.org/v1/start`.
func apiPath(_ url: String) -> String? {
    guard let range = url.range(of: "/v1/") else { return nil }
    return String(url[range.lowerBound...].prefix { $0 != "?" && $0 != "`" && $0 != " " })
}
