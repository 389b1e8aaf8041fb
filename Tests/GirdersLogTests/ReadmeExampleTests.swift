import Foundation
import GirdersLog
import Testing

/// The GirdersLog example from README.md, compiled and run as it is printed there. It replaces the process-wide
/// logger, so it runs in the serialized ``GlobalLogTests`` suite.
extension GlobalLogTests {
    @Test func theReadmeExampleRunsAndLogsWhatItPromises() throws {
        let original = Log.logger
        defer { Log.logger = original }
        let logsFolder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: logsFolder) }
        let recorder = LogRecorder(minimumLevel: .debug)

        // --- README example begins ---
        let file = try FileDestination(
            url: logsFolder.appendingPathComponent("app.log"), minimumLevel: .debug,
            rotation: .init(maximumFileSize: 10 << 20, keptFiles: 5))
        var logger = Logger(
            label: "com.example.app",
            destination: FanOutDestination([ConsoleDestination(minimumLevel: .warning), file, recorder]))
        logger[metadataKey: "session"] = .private("a1b2c3")

        logger.info("Signed in \("alice") with token \("t0k3n", privacy: .private)")
        logger.debug("Cache state: \(String(repeating: "x", count: 3))")  // built only when debug is enabled
        logger.verbose("Never built: below every destination's level")

        Log.logger = logger  // the GirdersSwift-style facade forwards to it from now on
        try Log.configureLevel(fromConfigurationValue: 2)  // legacy `logLevel`: 2 = info
        Log.info("Ready")
        file.flush()
        // --- README example ends ---

        #expect(recorder.messages == ["Signed in alice with token <redacted>", "Cache state: xxx", "Ready"])
        let written = try String(contentsOf: logsFolder.appendingPathComponent("app.log"), encoding: .utf8)
        #expect(written.contains("INFO [com.example.app]") && written.contains("session=<redacted>"))
        #expect(!written.contains("t0k3n") && !written.contains("a1b2c3"))
    }
}
