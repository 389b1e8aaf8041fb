#if os(macOS) || os(Linux)  // records against a server on 127.0.0.1 first
import Foundation
import GirdersNetworking
import GirdersNetworkingTesting
import Testing

/// `HARReplayTransport` answers a recorded session again with no server, and fails loudly on what it does not hold.
struct HARReplayTransportTests {
    /// Records the session to a file, stops the server and returns the file, the requests and their outcomes.
    func recordedSession(in folder: TemporaryFolder) async throws -> (URL, [Request], [(Int, Data)]) {
        let session = try HARSession()
        defer { session.stop() }
        let upload = folder.url.appendingPathComponent("upload.bin")
        try Data(repeating: 3, count: 10_000).write(to: upload)
        let file = folder.url.appendingPathComponent("session.har")
        let requests = session.requests(uploading: upload)
        let recorder = HARRecorder(HARSession.transport(), file: file, redaction: HARSession.redaction)
        let outcomes = try await HARSession.run(requests, on: HARSession.client(recorder))
        return (file, requests, outcomes)
    }

    @Test func aRecordedSessionReplaysWithNoServerRedirectsAndRetriesIncluded() async throws {
        let folder = try TemporaryFolder()
        let (file, requests, recorded) = try await recordedSession(in: folder)
        let replay = try HARReplayTransport(contentsOf: file, redaction: HARSession.redaction)
        let replayed = try await HARSession.run(requests, on: HARSession.client(replay))
        #expect(replayed.map(\.0) == recorded.map(\.0))
        // Bodies come back as recorded: hidden values stay hidden.
        #expect(replayed[0].1 == Data(#"{"accessToken":"<redacted>","user":"ada"}"#.utf8))
        #expect(Array(replayed.dropFirst().map(\.1)) == Array(recorded.dropFirst().map(\.1)))
        #expect(replay.unmatchedRequests.isEmpty && replay.unusedEntries.isEmpty)
    }

    @Test func aRequestTheArchiveDoesNotHoldFailsNamingTheFileTheMethodAndTheURL() async throws {
        let folder = try TemporaryFolder()
        let (file, _, _) = try await recordedSession(in: folder)
        let replay = try HARReplayTransport(contentsOf: file, redaction: HARSession.redaction)
        let url = URL(string: "http://127.0.0.1:9/nowhere")!
        let error = await #expect(throws: ResponseError.self) {
            _ = try await HTTPClient(transport: replay, cookieJar: RFC6265CookieJar()).perform(
                Request(MutableRequest(method: .delete, url: url)))
        }
        let reason = error?.reason ?? ""
        #expect(reason.contains(file.path) && reason.contains("DELETE http://127.0.0.1:9/nowhere"), "\(reason)")
        #expect(replay.unmatchedRequests == ["DELETE http://127.0.0.1:9/nowhere"])
    }

    @Test func aRecordedURLWithAnotherBodyIsNotAnswered() async throws {
        let folder = try TemporaryFolder()
        let (file, requests, _) = try await recordedSession(in: folder)
        let replay = try HARReplayTransport(contentsOf: file, redaction: HARSession.redaction)
        let other = Request(
            MutableRequest(method: .post, url: requests[0].fullURL)
                |> withJSONBody(dictionary: ["user": "grace", "password": "hopper"]))
        let error = await #expect(throws: ResponseError.self) {
            _ = try await HTTPClient(transport: replay, cookieJar: RFC6265CookieJar()).perform(other)
        }
        #expect(error?.reason.contains("with this body") == true, "\(String(describing: error))")
        // The same form with another password is the recorded request: the password is hidden on both sides.
        let same = Request(
            MutableRequest(method: .post, url: requests[0].fullURL)
                |> withJSONBody(dictionary: ["user": "ada", "password": "another"]))
        #expect(try await HTTPClient(transport: replay, cookieJar: RFC6265CookieJar()).perform(same).statusCode == 200)
    }

    @Test func aMultipartFormMatchesWhateverItsRandomBoundary() async throws {
        let session = try HARSession()
        defer { session.stop() }
        func upload() -> Request {
            var form = MultipartFormData()  // a new random boundary each time
            form.append("girder", name: "title")
            return Request(MutableRequest(method: .post, url: session.server.url("/upload")) |> withMultipartBody(form))
        }
        let recorder = HARRecorder(HARSession.transport())
        let recorded = try await HTTPClient(transport: recorder, cookieJar: RFC6265CookieJar()).perform(upload())
        let replay = HARReplayTransport(recorder.archive)
        #expect(
            try await HTTPClient(transport: replay, cookieJar: RFC6265CookieJar()).perform(upload()).body
                == recorded.body)
        // Another form is still another body.
        var other = MultipartFormData()
        other.append("beam", name: "title")
        let different = Request(
            MutableRequest(method: .post, url: session.server.url("/upload")) |> withMultipartBody(other))
        await #expect(throws: ResponseError.self) {
            _ = try await HTTPClient(transport: replay, cookieJar: RFC6265CookieJar()).perform(different)
        }
    }

    @Test func aRecordedFailureFailsTheSameWay() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:\(try TestHTTPServer.refusedPort())/items"))
        let recorder = HARRecorder(HARSession.transport())
        _ = try? await HTTPClient(transport: recorder, cookieJar: RFC6265CookieJar()).perform(
            Request(MutableRequest(url: url)))
        let replay = HARReplayTransport(recorder.archive)
        let error = await #expect(throws: ResponseError.self) {
            _ = try await HTTPClient(transport: replay, cookieJar: RFC6265CookieJar()).perform(
                Request(MutableRequest(url: url)))
        }
        #expect(error?.kind == .cannotConnect, "\(String(describing: error))")
    }

    @Test func aFileThatIsNoArchiveNamesTheFileAndTheField() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("broken.har")
        try Data(#"{"log":{"version":"1.2","creator":{"name":"x","version":"1"}}}"#.utf8).write(to: file)
        let error = #expect(throws: HARError.self) { _ = try HARReplayTransport(contentsOf: file) }
        #expect(error == .unreadable(file: file.path, reason: "log.entries: missing"), "\(String(describing: error))")
    }
}
#endif
