import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// The GirdersNetworking example from README.md, compiled and run as printed there.
struct NetworkingReadmeExampleTests {
    @Test func theReadmeDateExampleRuns() throws {
        // --- README example begins ---
        let lastModified = HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")  // also "Sunday, 06-Nov-94 ..." and asctime
        let header = Date().toRFC822String()  // "Sun, 22 Nov 2026 13:30:56 GMT"
        let created = Date.parseRFC3339Timestamp("2026-11-22t13:30:56.123456789+01:00")
        // --- README example ends ---

        #expect(lastModified?.timeIntervalSince1970 == 784_111_777)
        #expect(header.hasSuffix(" GMT") && header.count == 29)
        #expect(abs((created?.timeIntervalSince1970 ?? 0) - 1_795_350_656.123456789) < 1e-6)
    }

    @Test func theReadmeRequestBuildingExampleBuildsTheDocumentedURL() throws {
        struct NewItem: Encodable { let name: String }
        let token = "t0k3n"
        // --- README example begins ---
        let upload = Request(
            MutableRequest(method: .post, url: URL(string: "https://api.example.com/items")!)
                |> withJsonSupport
                |> withJSONBody(NewItem(name: "girder"))
                |> withBearerToken(token)
                |> withQueryItem("dry run", "yes"))  // ...items?dry%20run=yes
        // --- README example ends ---
        #expect(upload.fullURL.absoluteString == "https://api.example.com/items?dry%20run=yes")
        #expect(upload.body == Data(#"{"name":"girder"}"#.utf8))
        #expect(upload.headers["Authorization"] == "Bearer t0k3n")
    }
}
