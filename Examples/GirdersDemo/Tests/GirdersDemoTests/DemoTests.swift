#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersDI
import GirdersHTTPCache
import GirdersLog
import GirdersNetworking
import GirdersNetworkingTesting
import Testing

@testable import GirdersDemoKit

/// The demo's commands, with the stub repository swapped in through DI and against the local server.
struct DemoTests {
    static let example = URL(fileURLWithPath: #filePath + "/../../..").standardized  // the example's folder

    /// A container wired as the app wires it, against `baseURL`, with its state in a fresh folder.
    func container(baseURL: String, state: URL) throws -> (Container, LogRecorder) {
        let settings = try Settings.load(
            folder: Self.example.appendingPathComponent("Config"), environment: "local",
            variables: ["GIRDERS_DEMO_baseURL": baseURL, "GIRDERS_DEMO_retries__baseDelay": "0.01"])
        let container = Container()
        Demo.register(in: container, settings: settings, stateFolder: state)
        let recorder = LogRecorder()
        container.register((any LogProtocol).self, lifetime: .singleton) { _ in
            Logger(label: "test", destination: recorder)
        }
        return (container, recorder)
    }

    @Test func theSettingsComeFromTheBaseTheOverlayAndTheEnvironmentInThatOrder() throws {
        let folder = Self.example.appendingPathComponent("Config")
        let production = try Settings.load(folder: folder, environment: nil, variables: [:])
        #expect(production.baseURL.absoluteString == "https://api.example.com" && production.logLevel == .warning)
        let local = try Settings.load(folder: folder, environment: "local", variables: [:])
        #expect(local.baseURL.absoluteString == "http://127.0.0.1:8765" && local.logLevel == .debug)
        #expect(local.retryAttempts == 3 && local.retryBaseDelay == 0.05)
        let overridden = try Settings.load(
            folder: folder, environment: "local", variables: ["GIRDERS_DEMO_logLevel": "4"])
        #expect(overridden.logLevel == .error)
    }

    @Test func aDIOverrideSwapsTheLiveRepositoryForTheStub() async throws {
        let state = try TemporaryFolder()
        let (container, _) = try container(baseURL: "http://127.0.0.1:9", state: state.url)
        let stub = StubItemRepository([Item(id: 1, name: "girder"), Item(id: 2, name: "beam")])
        await container.withOverrides({ $0.register((any ItemRepository).self) { _ in stub } }) {
            #expect(
                await Demo.run(["list"], container: container, language: "en") == (
                    "Items (2):\n  #1 girder\n  #2 beam", 0
                ))
            #expect(
                await Demo.run(["add", "Träger"], container: container, language: "de") == ("#3 „Träger“ angelegt.", 0))
        }
        #expect(try await stub.list().count == 3)
        let (output, status) = await Demo.run(["list"], container: container, language: "en")
        #expect(status == 1 && output.hasPrefix("Failed: "), "without the override the live repository is used")
    }

    /// The app's whole flow, a restart halfway, through `transport` (the app's own when `nil`) with its state in
    /// `state`: each command's status and output, and what both halves logged.
    func flow(
        _ baseURL: String, in state: URL, through transport: (any HTTPTransport)? = nil
    ) async throws -> (outputs: [String], records: [LogRecord]) {
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let upload = state.appending(path: "upload.bin")
        try Data(repeating: 7, count: 200_000).write(to: upload)
        var result: (outputs: [String], records: [LogRecord]) = ([], [])
        for half in [
            [["list"], ["signin", "ada", "lovelace"], ["add", "first girder"], ["upload", upload.path]],
            [["list"], ["delete", "1"], ["signout"]],
        ] {
            let (app, log) = try container(baseURL: baseURL, state: state)  // the second half: after a restart
            if let transport { app.register((any HTTPTransport).self, lifetime: .singleton) { _ in transport } }
            for arguments in half {
                let (output, status) = await Demo.run(arguments, container: app, language: "en")
                result.outputs.append("\(status) \(output)")
            }
            result.records += log.records
        }
        return result
    }

    @Test func theWholeFlowRunsAgainstTheLocalServerAndSurvivesARestart() async throws {
        let server = try DemoServer()
        defer { server.stop() }
        let state = try TemporaryFolder()
        let (outputs, records) = try await flow(server.url, in: state.url)
        #expect(outputs[0].hasPrefix("1 ") && outputs[3].hasPrefix("0 Uploaded 200000 bytes (SHA-256 "))
        #expect(
            outputs.dropFirst().filter { !$0.contains("SHA-256") } == [
                "0 Signed in as ada.", "0 Created #1 \"first girder\".", "0 Items (1):\n  #1 first girder",
                "0 Deleted #1.", "0 Signed out.",
            ])
        #expect(records.contains { $0.message.redactedText.hasPrefix("upload 100 %") })
        let stats = try await server.stats()
        #expect(stats["logins"] == 1 && stats["unavailable"]! >= 1 && stats["uploads"] == 1)
        let text = records.map { DefaultLogFormatter().format($0, revealingPrivate: false) }.joined()
        #expect(text.contains("Authorization=<redacted>") && !text.contains("secret-"))
    }

    @Test func theFlowRecordedAgainstTheServerReplaysWithNoServer() async throws {
        let folder = try TemporaryFolder()
        let har = folder.url.appendingPathComponent("flow.har")
        let server = try DemoServer()
        let recorder = HARRecorder(HTTPClient.defaultTransport(), file: har, redaction: Demo.redaction)
        let (recorded, _) = try await flow(server.url, in: folder.url.appending(path: "1"), through: recorder)
        server.stop()
        let text = String(decoding: try Data(contentsOf: har), as: UTF8.self)
        #expect(!text.contains("lovelace") && !text.contains("secret-"), "the password or a token is in the recording")
        let replay = try HARReplayTransport(contentsOf: har, redaction: Demo.redaction)
        let (replayed, _) = try await flow(server.url, in: folder.url.appending(path: "2"), through: replay)
        #expect(replayed == recorded && recorded.filter { $0.hasPrefix("0 ") }.count == 6, "\(replayed)")
        #expect(replay.unmatchedRequests.isEmpty && replay.unusedEntries.isEmpty, "\(replay.unmatchedRequests)")
    }

    @Test func theHTTPCacheIsEncryptedAtRestAndSignOutEmptiesIt() async throws {
        let server = try DemoServer()
        defer { server.stop() }
        let state = try TemporaryFolder()
        let (app, _) = try container(baseURL: server.url, state: state.url)
        for command in [["signin", "ada", "lovelace"], ["add", "secret girder"], ["list"]] {
            _ = await Demo.run(command, container: app)
        }
        let store = try #require(try app.resolveOrThrow() as any HTTPCacheStore as? EncryptedCacheStore)
        #expect(!store.names().isEmpty, "the list's response is stored")
        let files = try FileManager.default.subpathsOfDirectory(atPath: state.url.path)
        let disk = files.compactMap { try? Data(contentsOf: state.url.appending(path: $0)) }
        #expect(!disk.contains { $0.range(of: Data("secret girder".utf8)) != nil }, "a body in plain text on disk")
        #expect(await Demo.run(["signout"], container: app).status == 0 && store.names().isEmpty)
    }

    @Test func theLiveFeedAnnouncesChangesOverAWebSocketSignedWithTheToken() async throws {
        let server = try DemoServer()
        defer { server.stop() }
        let (app, _) = try container(baseURL: server.url, state: try TemporaryFolder().url)
        #expect(await Demo.run(["signin", "ada", "lovelace"], container: app).status == 0)
        let watch = Task { await Demo.run(["watch", "2"], container: app, language: "en") }
        while try await server.stats()["watchers"] != 1 { await Task.yield() }  // the feed is open
        for command in [["add", "live girder"], ["delete", "1"]] { _ = await Demo.run(command, container: app) }
        #expect(await watch.value == ("Created #1 \"live girder\".\nDeleted #1.", 0))
    }

    @Test func tenRequestsRefusedAtOnceShareOneRefresh() async throws {
        let server = try DemoServer(accessUses: 100)
        defer { server.stop() }
        let state = try TemporaryFolder()
        let (app, _) = try container(baseURL: server.url, state: state.url)
        #expect(await Demo.run(["signin", "ada", "lovelace"], container: app).status == 0)
        #expect(await Demo.run(["list"], container: app).status == 0)
        let before = try #require(try await server.stats()["refreshes"])
        try await server.post("/expire")
        let statuses = await withTaskGroup(of: Int32.self) { group in
            for _ in 0..<10 { group.addTask { await Demo.run(["list"], container: app).status } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 0, count: 10))
        #expect(try await server.stats()["refreshes"] == before + 1)
    }
}
#endif
