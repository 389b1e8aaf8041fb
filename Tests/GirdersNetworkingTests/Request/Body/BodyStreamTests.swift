#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import Testing

/// Request bodies produced while they are sent (`BodyStream`), on both transports: with and without a known
/// length, from a slow producer, a producer that fails, and under retries.
struct BodyStreamTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    /// `count` chunks of 64 KiB (byte `i % 251`), each after `pause` milliseconds.
    static func chunks(_ count: Int, pause: Int = 0, failAt: Int? = nil) -> AsyncThrowingStream<Data, any Error> {
        AsyncThrowingStream { continuation in
            Task {
                for index in 0..<count {
                    if pause > 0 { try? await Task.sleep(for: .milliseconds(pause)) }
                    if index == failAt {
                        continuation.finish(throwing: ServerError("the producer broke"))
                        return
                    }
                    continuation.yield(Data(repeating: UInt8(index % 251), count: 65_536))
                }
                continuation.finish()
            }
        }
    }

    func post(_ stream: BodyStream, to path: String = "/echo") -> Request {
        Request(MutableRequest(method: .post, url: server.url(path)) |> withBodyStream(stream))
    }

    @Test(arguments: TransportKind.allCases)
    func aStreamOfKnownLengthArrivesWholeWithItsContentLength(_ kind: TransportKind) async throws {
        let progress = LockedList<Int64>()
        let response = try await kind.client().upload(post(BodyStream(Self.chunks(48), length: 48 * 65_536))) {
            if $0.direction == .upload { progress.append($0.completedBytes) }
        }
        let echo = try JSONDecoder().decode(Echo.self, from: response.body)
        #expect(echo.body_length == 48 * 65_536)
        if kind == .urlSession {
            // URLSessionTransport sends it from a temporary file, which FoundationNetworking streams chunked.
            #expect(echo.header("Content-Length") == "\(48 * 65_536)" || echo.header("Transfer-Encoding") == "chunked")
        } else {
            #expect(echo.header("Content-Length") == "\(48 * 65_536)")
            #expect(echo.header("Transfer-Encoding") == nil)
        }
        let uploaded: Int64 = progress.values.max() ?? 0
        #expect(uploaded == Int64(48 * 65_536), "\(progress.values.suffix(3))")
    }

    @Test(arguments: TransportKind.allCases)
    func aStreamOfUnknownLengthFromASlowProducerArrivesChunked(_ kind: TransportKind) async throws {
        let response = try await kind.client().perform(post(BodyStream(Self.chunks(8, pause: 30))))
        let echo = try JSONDecoder().decode(Echo.self, from: response.body)
        #expect(echo.body_length == 8 * 65_536)
        #expect(echo.header("Transfer-Encoding") == "chunked")
        let expected = (0..<8).flatMap { Array(repeating: UInt8($0), count: 65_536) }
        #expect(Array(echo.body.unicodeScalars.map { UInt8($0.value) }) == expected)
    }

    @Test(arguments: TransportKind.allCases)
    func aProducerThatFailsFailsTheRequestWithItsReason(_ kind: TransportKind) async throws {
        let error = await responseError {
            _ = try await kind.client().perform(post(BodyStream(Self.chunks(8, failAt: 3))))
        }
        #expect(error != nil)
        #expect(error?.description.contains("the producer broke") == true, "\(String(describing: error))")
    }

    @Test(arguments: TransportKind.allCases)
    func aBodyMadeOnceIsNeverSentTwiceAndAReplayableOneIsSentAgain(_ kind: TransportKind) async throws {
        let client = HTTPClient(
            transport: kind.transport(), interceptors: [RetryPolicy(maximumAttempts: 2, baseDelay: 0.01)])
        let once = UUID().uuidString
        var request =
            MutableRequest(method: .post, url: server.url("/flaky?id=\(once)&fail=1&status=503"))
            |> withBodyStream(BodyStream(Self.chunks(2), length: 2 * 65_536))
        request.allowsRetries = true
        let refused = await responseError { _ = try await client.perform(Request(request)) }
        #expect(refused?.kind == .invalidRequest)
        #expect(refused?.reason.contains("cannot be sent again") == true)
        let again = UUID().uuidString
        var replayable =
            MutableRequest(method: .post, url: server.url("/flaky?id=\(again)&fail=1&status=503"))
            |> withBodyStream(BodyStream(length: 2 * 65_536, replayable: { Self.chunks(2) }))
        replayable.allowsRetries = true
        #expect(try await client.perform(Request(replayable)).statusCode == 200)
    }
}
#endif
