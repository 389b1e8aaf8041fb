#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What reaches the wire after the client lowered a request once: repeated field lines in order, the exact
/// timeout, `URLRequest` edits applied once for every transport, and typed requests like any other.
struct LoweringTests {
    /// `POST /echo` with two `X-Repeat` lines around an `X-Middle` line, as a typed request (which, before the
    /// lowering was made once, always took a `URLRequest` detour).
    struct RepeatedFields: TypedRequest {
        typealias Success = Echo
        let url: URL
        var request: Request {
            var mutable = MutableRequest(method: .post, url: url) |> withJSONBody(["a": 1])
            mutable.headers.add(name: "X-Repeat", value: "one")
            mutable.headers.add(name: "X-Middle", value: "two")
            mutable.headers.add(name: "X-Repeat", value: "three")
            return Request(mutable)
        }
    }

    struct Slow: TypedRequest {
        typealias Success = Echo
        let url: URL
        var request: Request { Request(MutableRequest(method: .get, url: url) |> withTimeout(0.5)) }
    }

    struct Plain: TypedRequest {
        typealias Success = Echo
        let url: URL
        var request: Request { Request(URL: url, method: .get) }
    }

    /// DotDotDot's `editRequest`: a field set on the `URLRequest`.
    struct Edited: TypedRequest {
        typealias Success = Echo
        let url: URL
        var request: Request {
            var mutable = MutableRequest(method: .get, url: url)
            mutable.headers.add(name: "X-Kept", value: "a")
            mutable.headers.add(name: "X-Kept", value: "b")
            mutable.headers["X-Replaced"] = "old"
            mutable.headers["X-Removed"] = "gone"
            return Request(mutable)
        }
        func editRequest(_ request: inout URLRequest) {
            request.setValue("new", forHTTPHeaderField: "X-Replaced")
            request.setValue(nil, forHTTPHeaderField: "X-Removed")
            request.setValue("added", forHTTPHeaderField: "X-Added")
        }
    }

    func lines(_ echo: Echo, _ names: Set<String>) -> [[String]] {
        echo.header_lines.filter { names.contains($0[0].lowercased()) }
    }

    #if os(Linux)
    @Test func aTypedRequestSendsRepeatedFieldLinesApartAndInOrderOnCurlTransport() async throws {
        let server = try LoopbackServer.get()
        let echo = try await TransportKind.curl.client().send(RepeatedFields(url: server.url("/echo")))
        #expect(
            lines(echo, ["x-repeat", "x-middle"]) == [
                ["X-Repeat", "one"], ["X-Middle", "two"], ["X-Repeat", "three"],
            ])
    }

    @Test func aTypedRequestKeepsAHalfSecondTimeoutOnCurlTransport() async throws {
        let server = try LoopbackServer.get()
        // The server answers after 1.5 s: a 0.5 s timeout fails first, a timeout stretched to 2 s would not.
        let error = await responseError {
            _ = try await TransportKind.curl.client().send(Slow(url: server.url("/delay?ms=1500")))
        }
        #expect(error?.kind == .timedOut)
    }

    @Test func anEditReplacesAddsAndRemovesFieldsAndKeepsTheLinesItDidNotTouchOnCurlTransport() async throws {
        let server = try LoopbackServer.get()
        let echo = try await TransportKind.curl.client().send(Edited(url: server.url("/echo")))
        #expect(
            lines(echo, ["x-kept", "x-replaced", "x-removed", "x-added"]) == [
                ["X-Kept", "a"], ["X-Kept", "b"], ["X-Replaced", "new"], ["X-Added", "added"],
            ])
    }

    @Test func anEditOfAPropertyCurlTransportCannotHonourFailsInsteadOfDoingNothing() async throws {
        let server = try LoopbackServer.get()
        let request = Request(
            MutableRequest(method: .get, url: server.url("/echo"))
                |> withURLRequestEdit { $0.cachePolicy = .returnCacheDataDontLoad })
        let error = await responseError { _ = try await TransportKind.curl.client().perform(request) }
        #expect(error?.kind == .unsupported)
        #expect(error?.reason.contains("cachePolicy") == true)
    }
    #endif

    @Test(arguments: TransportKind.allCases)
    func anEditSetsItsFieldOnEveryTransport(_ kind: TransportKind) async throws {
        let server = try LoopbackServer.get()
        let echo = try await kind.client().send(Edited(url: server.url("/echo")))
        #expect(echo.header("X-Replaced") == "new")
        #expect(echo.header("X-Added") == "added")
        #expect(echo.header("X-Removed") == nil)
    }

    @Test func identicalTypedRequestsInFlightAtOnceShareOneCall() async throws {
        let server = try LoopbackServer.get()
        let coalescing = CoalescingTransport(TransportKind.underTest.transport())
        let client = HTTPClient(transport: coalescing)
        let name = "typed-\(UInt32.random(in: 0...UInt32.max))"
        let url = server.url("/delay?ms=400&name=\(name)")
        struct Delayed: TypedRequest {
            typealias Success = String
            let url: URL
            var request: Request { Request(URL: url, method: .get) }
        }
        async let first = client.send(Delayed(url: url))
        async let second = client.send(Delayed(url: url))
        let (a, b) = try await (first, second)
        #expect(a == "done" && b == "done")
        #expect(try await server.count("delay-\(name)") == 1)
    }
}
#endif
