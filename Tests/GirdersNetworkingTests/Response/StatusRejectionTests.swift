import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// ``ResponseError/statusRejection``: the response of an error that only rejects a status, and no other.
struct StatusRejectionTests {
    func response(_ status: Int) -> HTTPResponse {
        let url = URL(string: "https://api.example.com/items") ?? URL(fileURLWithPath: "/")
        return HTTPResponse(
            statusCode: status, headers: HTTPHeaders(), body: Data("{}".utf8), url: url,
            request: Request(URL: url, method: .get))
    }

    @Test(arguments: [400, 401, 403, 404, 405, 406, 408, 409, 410, 418, 422, 429, 500, 501, 502, 503, 504, 599])
    func everyStatusCaseCarriesItsResponse(status: Int) {
        #expect(ResponseError.forStatus(response(status)).statusRejection?.statusCode == status)
    }

    @Test func contentTypeEmptyBodyAndTransportFailuresAreNoStatusRejection() {
        #expect(
            ResponseError.unacceptableContentType(expected: ["application/json"], response(200)).statusRejection == nil)
        #expect(ResponseError.emptyBody(response(200)).statusRejection == nil)
        #expect(ResponseError.noHandler(type: "Item", response(200)).statusRejection == nil)
        #expect(ResponseError.timedOut(url: nil).statusRejection == nil)
        #expect(ResponseError.unacceptableContentType(expected: [], response(200)).response != nil, "it has one")
    }
}
