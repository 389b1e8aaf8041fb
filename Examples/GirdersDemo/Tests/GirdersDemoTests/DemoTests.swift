#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersDI
import GirdersLog
import Testing

@testable import GirdersDemoKit

/// The demo's commands, with the stub repository swapped in through DI and against the local server.
struct DemoTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

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

    @Test func theWholeFlowRunsAgainstTheLocalServerAndSurvivesARestart() async throws {
        let server = try DemoServer()
        defer { server.stop() }
        let state = try TemporaryFolder()
        var (app, log) = try container(baseURL: server.url, state: state.url)
        #expect(await Demo.run(["list"], container: app).status == 1)
        #expect(
            await Demo.run(["signin", "ada", "lovelace"], container: app, language: "en") == ("Signed in as ada.", 0))
        #expect(
            await Demo.run(["add", "first girder"], container: app, language: "en") == (
                "Created #1 \"first girder\".", 0
            ))
        let file = state.url.appendingPathComponent("upload.bin")
        try Data(repeating: 7, count: 200_000).write(to: file)
        let upload = await Demo.run(["upload", file.path], container: app, language: "en")
        #expect(upload.status == 0 && upload.output.hasPrefix("Uploaded 200000 bytes (SHA-256 "))
        #expect(log.records.contains { $0.message.redactedText.hasPrefix("upload 100 %") })

        (app, log) = try container(baseURL: server.url, state: state.url)  // a restart: new services, same store
        #expect(await Demo.run(["list"], container: app, language: "en") == ("Items (1):\n  #1 first girder", 0))
        #expect(await Demo.run(["delete", "1"], container: app, language: "en") == ("Deleted #1.", 0))
        let stats = try server.stats()
        #expect(stats["logins"] == 1 && stats["unavailable"]! >= 1 && stats["uploads"] == 1)

        let text = log.records.map { DefaultLogFormatter().format($0, revealingPrivate: false) }.joined()
        #expect(text.contains("Authorization=<redacted>") && !text.contains("secret-"))
        #expect(await Demo.run(["signout"], container: app, language: "en") == ("Signed out.", 0))
    }

    @Test func tenRequestsRefusedAtOnceShareOneRefresh() async throws {
        let server = try DemoServer(accessUses: 100)
        defer { server.stop() }
        let state = try TemporaryFolder()
        let (app, _) = try container(baseURL: server.url, state: state.url)
        #expect(await Demo.run(["signin", "ada", "lovelace"], container: app).status == 0)
        #expect(await Demo.run(["list"], container: app).status == 0)
        let before = try #require(try server.stats()["refreshes"])
        try server.post("/expire")
        let statuses = await withTaskGroup(of: Int32.self) { group in
            for _ in 0..<10 { group.addTask { await Demo.run(["list"], container: app).status } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 0, count: 10))
        #expect(try server.stats()["refreshes"] == before + 1)
    }
}
#endif
