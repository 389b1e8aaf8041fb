#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// The built-in response handlers and validation, against real responses from the loopback server.
struct ResponseDecodingTests {
    struct Item: Decodable, Equatable { let name: String }
    struct Dated: Decodable { let created: Date; let updated: Date }
    struct Wrong: Decodable { let name: String; let tags: [Int] }

    let server: LoopbackServer
    let client = makeClient()

    init() throws {
        server = try LoopbackServer.get()
    }

    func get<T>(_ path: String, as type: T.Type, client: HTTPClient? = nil) async throws -> Response<T> {
        try await (client ?? self.client).executeRequest(
            request: Request(URL: server.url(path), method: .get), as: T.self)
    }

    @Test func jsonObjectsAndArraysDecodeAsFoundationValues() async throws {
        let object = try await get("/json/object", as: [String: Any].self)
        #expect(object.bodyObject?["name"] as? String == "Girders")
        #expect(object.bodyObject?["tags"] as? [String] == ["a", "b"])
        let array = try await get("/json/array", as: [Any].self)
        #expect(array.bodyObject?.count == 2)
        let objects = try await get("/json/array", as: [[String: Any]].self)
        #expect(objects.bodyObject?.last?["name"] as? String == "two")
    }

    @Test func decodableTypesAndArraysDecodeWithRFC3339Dates() async throws {
        let items = try await get("/json/array", as: [Item].self)
        #expect(items.bodyObject == [Item(name: "one"), Item(name: "two")])
        let dated = try #require(try await get("/json/dates", as: Dated.self).bodyObject)
        #expect(dated.created.timeIntervalSince1970 == 1_795_354_256.123)
        #expect(dated.updated.timeIntervalSince1970 == 1_795_354_256)
    }

    @Test func stringsDataAndEmptyResponsesAreHandled() async throws {
        #expect(try await get("/delay?ms=0", as: String.self).bodyObject == "done")
        #expect(
            try await get("/json/object", as: Data.self).bodyObject
                == Data(#"{"name":"Girders","count":3,"tags":["a","b"]}"#.utf8))
        #expect(try await get("/json/object", as: EmptyResponse.self).bodyObject == EmptyResponse())
    }

    @Test func malformedJSONIsADecodingFailureWithTheStartOfTheBody() async throws {
        for type in [[String: Any].self, Item.self] as [Any.Type] {
            let error = await responseError {
                if type == Item.self {
                    _ = try await get("/json/malformed", as: Item.self)
                } else {
                    _ = try await get("/json/malformed", as: [String: Any].self)
                }
            }
            guard case .decodingFailed(let failure) = error else {
                Issue.record("expected decodingFailed, got \(String(describing: error))")
                continue
            }
            #expect(failure.bodyPrefix == #"{"name": "Girders", "count": }"#)
            #expect(failure.response.statusCode == 200)
            #expect("\(error!)".contains("/json/malformed"))
        }
    }

    @Test func aTypeMismatchNamesTheCodingPath() async throws {
        let error = await responseError { _ = try await get("/json/object", as: Wrong.self) }
        guard case .decodingFailed(let failure) = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(failure.type == "Wrong")
        #expect(
            failure.codingPath == "tags.[0]" || failure.codingPath == "tags.Index 0"
                || failure.codingPath.hasPrefix("tags"))
        #expect(failure.reason.contains("expected Int"))
    }

    @Test func anEmptyOKIsAnErrorUnlessOptedIn() async throws {
        let error = await responseError { _ = try await get("/json/empty200", as: Item.self) }
        guard case .emptyBody(let response) = error else {
            Issue.record("expected emptyBody, got \(String(describing: error))")
            return
        }
        #expect(response.statusCode == 200)
        let lenient = makeClient(handlers: .standard(allowsEmpty200: true))
        let lenientResponse = try await get("/json/empty200", as: Item.self, client: lenient)
        #expect(lenientResponse.statusCode == 200 && lenientResponse.bodyObject == nil)
    }

    @Test func aTypeNoHandlerProducesIsReportedByName() async throws {
        struct NotDecodable {}
        let error = await responseError { _ = try await get("/json/object", as: NotDecodable.self) }
        guard case .noHandler(let type, _) = error else {
            Issue.record("expected noHandler, got \(String(describing: error))")
            return
        }
        #expect(type == "NotDecodable")
    }

    @Test func aCustomHandlerPrecedesTheBuiltInOnes() async throws {
        struct Uppercased: ResponseHandler {
            func handle<T>(_ response: HTTPResponse, as type: T.Type) throws(ResponseError) -> HandlerOutcome<T> {
                guard T.self == String.self else { return .notHandled }
                return .handled(String(decoding: response.body, as: UTF8.self).uppercased() as? T)
            }
        }
        let custom = makeClient(handlers: ResponseHandlerChain.standard.prepending(Uppercased()))
        #expect(try await get("/delay?ms=0", as: String.self, client: custom).bodyObject == "DONE")
    }

    @Test func contentTypeValidationAcceptsListedTypesAndWildcards() async throws {
        let strict = makeClient(validation: ResponseValidation(acceptableContentTypes: ["application/json"]))
        #expect(
            try await get("/content-type?type=application/json;%20charset=utf-8", as: Data.self, client: strict)
                .statusCode == 200)
        let error = await responseError {
            _ = try await get("/content-type?type=text/html", as: Data.self, client: strict)
        }
        guard case .unacceptableContentType(let expected, let response) = error else {
            Issue.record("expected unacceptableContentType, got \(String(describing: error))")
            return
        }
        #expect(expected == ["application/json"] && response.mimeType == "text/html")
        let wildcard = makeClient(validation: ResponseValidation(acceptableContentTypes: ["text/*"]))
        #expect(try await get("/content-type?type=text/html", as: String.self, client: wildcard).bodyObject == "{}")
    }
}
#endif
