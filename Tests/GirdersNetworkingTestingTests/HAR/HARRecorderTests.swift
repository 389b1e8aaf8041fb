#if os(macOS) || os(Linux)  // runs the HAR checker (python3)
import Foundation
import GirdersTestProcesses
import GirdersNetworking
import GirdersNetworkingTesting
import Testing

/// `HARRecorder` writes what passed through its transport as HAR 1.2, each hop and retry an entry, credentials
/// hidden, and the file passes the HAR 1.2 field list.
struct HARRecorderTests {
    /// Records the whole session into `file`.
    func record(to file: URL, folder: TemporaryFolder) async throws -> (HARRecorder, [(Int, Data)]) {
        let session = try HARSession()
        defer { session.stop() }
        let upload = folder.url.appendingPathComponent("upload.bin")
        try Data(repeating: 3, count: 10_000).write(to: upload)
        let recorder = HARRecorder(HARSession.transport(), file: file, redaction: HARSession.redaction)
        let outcomes = try await HARSession.run(session.requests(uploading: upload), on: HARSession.client(recorder))
        return (recorder, outcomes)
    }

    @Test func everyHopAndEveryRetryIsAnEntryOfItsOwnInTheOrderSent() async throws {
        let folder = try TemporaryFolder()
        let (recorder, outcomes) = try await record(to: folder.url.appendingPathComponent("s.har"), folder: folder)
        #expect(outcomes.map(\.0) == [200, 200, 200, 200, 201, 201])
        let entries = recorder.archive.log.entries
        let summary = entries.map {
            "\($0.request.method) \(URL(string: $0.request.url)?.path ?? "?") \($0.response.status)"
        }
        #expect(
            summary == [
                "POST /login 200", "GET /moved 302", "GET /items 200", "GET /flaky 503", "GET /flaky 200",
                "GET /binary 200", "POST /upload 201", "PUT /upload 201",
            ])
        #expect(entries[1].response.redirectURL.hasSuffix("/items"))
        #expect(entries.allSatisfy { $0.startedDateTime.hasSuffix("Z") && $0.time >= 0 && $0.timings.wait >= 0 })
        #expect(entries[4].response.content.text == "steady" && entries[3].response.content.text == "busy")
    }

    @Test func credentialsAreHiddenAndCookiesKeepTheirNames() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("s.har")
        let (recorder, _) = try await record(to: file, folder: folder)
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        for secret in ["lovelace", "YWRhOmxvdmVsYWNl", "secret-token", "s3cr3t", "key=abc"] {
            #expect(!text.contains(secret), "\(secret) is in the archive")
        }
        let login = try #require(recorder.archive.log.entries.first)
        #expect(login.request.url.contains("key=%3Credacted%3E") && login.request.url.contains("lang=en"))
        #expect(login.request.headers.contains { $0.name == "Authorization" && $0.value == "<redacted>" })
        #expect(login.request.postData?.text == #"{"password":"<redacted>","user":"ada"}"#)
        #expect(login.response.content.text == #"{"accessToken":"<redacted>","user":"ada"}"#)
        #expect(login.response.cookies == [HARArchive.Cookie(name: "session", value: "<redacted>")])
        #expect(
            login.response.headers.contains {
                $0.name.lowercased() == "set-cookie" && $0.value == "session=<redacted>; Path=/; HttpOnly"
            })
    }

    @Test func bodiesOfEveryKindAreKeptAndBinaryOnesInBase64() async throws {
        let folder = try TemporaryFolder()
        let (recorder, _) = try await record(to: folder.url.appendingPathComponent("s.har"), folder: folder)
        let entries = recorder.archive.log.entries
        let binary = entries[5].response.content
        #expect(binary.encoding == "base64" && binary.data == Data((0...255).map { UInt8($0) }) && binary.size == 256)
        let multipart = try #require(entries[6].request.postData)
        #expect(multipart.mimeType.hasPrefix("multipart/form-data; boundary=har-session-boundary"))
        #expect(multipart.data?.count == Int(entries[6].request.bodySize))
        #expect(
            String(decoding: entries[6].response.content.data ?? Data(), as: UTF8.self)
                == "\(multipart.data?.count ?? -1) bytes")
        #expect(entries[7].request.postData?.data == Data(repeating: 3, count: 10_000))
    }

    @Test func aStreamedRequestBodyIsMarkedNotRecordedAndStillSent() async throws {
        let session = try HARSession()
        defer { session.stop() }
        let recorder = HARRecorder(HARSession.transport())
        let stream = BodyStream(length: nil) {
            AsyncStream { continuation in
                continuation.yield(Data("chunk".utf8))
                continuation.finish()
            }
        }
        let response = try await HTTPClient(transport: recorder, cookieJar: RFC6265CookieJar()).perform(
            Request(MutableRequest(method: .post, url: session.server.url("/upload")) |> withBodyStream(stream)))
        #expect(String(decoding: response.body, as: UTF8.self) == "5 bytes")
        let post = try #require(recorder.archive.log.entries.first?.request.postData)
        #expect(post._notRecorded == true && post.text.isEmpty)
    }

    @Test func aBodyPastTheLimitIsCutAndMarkedAndOneWithHiddenKeysIsLeftOut() async throws {
        let session = try HARSession()
        defer { session.stop() }
        let plain = HARRecorder(HARSession.transport(), maximumBodyBytes: 100)
        _ = try await HTTPClient(transport: plain, cookieJar: RFC6265CookieJar()).perform(
            Request(MutableRequest(url: session.server.url("/binary"))))
        let content = try #require(plain.archive.log.entries.first?.response.content)
        #expect(content._truncated == true && content.data == Data((0..<100).map { UInt8($0) }) && content.size == 256)
        let hiding = HARRecorder(HARSession.transport(), redaction: HARSession.redaction, maximumBodyBytes: 10)
        _ = try await HTTPClient(transport: hiding, cookieJar: RFC6265CookieJar()).perform(
            Request(
                MutableRequest(method: .post, url: session.server.url("/login"))
                    |> withJSONBody(dictionary: ["password": "lovelace"])))
        let login = try #require(hiding.archive.log.entries.first)
        #expect(login.request.postData?._notRecorded == true && login.response.content.text == "")
    }

    @Test func aFailedExchangeIsAnEntryWithItsErrorAndStatusZero() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:\(try TestHTTPServer.refusedPort())/items"))
        let recorder = HARRecorder(HARSession.transport())
        await #expect(throws: ResponseError.self) {
            _ = try await HTTPClient(transport: recorder, cookieJar: RFC6265CookieJar()).perform(
                Request(MutableRequest(url: url)))
        }
        let entry = try #require(recorder.archive.log.entries.first)
        #expect(
            entry.response.status == 0 && entry._error?.kind == "cannotConnect", "\(String(describing: entry._error))")
    }

    @Test func theArchivePassesTheHAR12FieldList() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("s.har")
        _ = try await record(to: file, folder: folder)
        let (status, output) = try await HARChecker.run(file)
        #expect(status == 0, "\(output)")
    }

    @Test func theCheckerFindsAMissingFieldAWrongTypeAndATimeThatIsNotTheSum() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("s.har")
        _ = try await record(to: file, folder: folder)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var log = try #require(json["log"] as? [String: Any])
        var entries = try #require(log["entries"] as? [[String: Any]])
        var request = try #require(entries[0]["request"] as? [String: Any])
        request.removeValue(forKey: "httpVersion")
        entries[0]["request"] = request
        entries[1]["time"] = 1e9
        entries[2]["startedDateTime"] = "yesterday"
        entries[3]["surprise"] = 1
        log["entries"] = entries
        json["log"] = log
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        let (status, output) = try await HARChecker.run(file)
        #expect(status == 1)
        #expect(output.contains("log.entries[0].request.httpVersion: missing"), "\(output)")
        #expect(output.contains("log.entries[1].time"), "\(output)")
        #expect(output.contains("log.entries[2].startedDateTime"), "\(output)")
        #expect(output.contains("log.entries[3].surprise: not a HAR 1.2 field"), "\(output)")
    }
}

/// `Scripts/har-check.py`, the HAR 1.2 field list as a checker.
enum HARChecker {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts/har-check.py")

    /// The checker's exit status, and what it printed (errors last).
    static func run(_ file: URL) async throws -> (Int32, String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, file.path]
        let run = try await process.runToEnd()
        return (run.status, run.outputText + run.errorText)
    }
}
#endif
