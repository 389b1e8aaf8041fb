import Foundation
import Testing

@testable import GirdersLog

/// What `OSLogDestination` sends to the unified log, decided by `OSLogLine` on every platform.
struct OSLogLineTests {
    func record(_ message: LogMessage, _ metadata: LogMetadata = [:], level: LogLevel = .info) -> LogRecord {
        LogRecord(
            timestamp: Date(), level: level, label: "app", message: message, metadata: metadata, fileID: "A/B.swift",
            function: "f()", line: 1)
    }

    @Test func privateMetadataOnAPublicMessageIsSentPrivateWhenRevealedAndRedactedOtherwise() {
        let line = record("signed in", ["token": .private("s3cr3t"), "user": "ada"])
        let revealed = OSLogLine(line, revealsPrivateData: true)
        #expect(revealed.isPrivate)
        #expect(revealed.text == "signed in token=s3cr3t user=ada")
        let hidden = OSLogLine(line, revealsPrivateData: false)
        #expect(!hidden.isPrivate)
        #expect(hidden.text == "signed in token=<redacted> user=ada")
    }

    @Test func aPrivateValueDeepInsideMetadataCountsAsPrivate() {
        let line = record("sync", ["request": ["headers": [.private("Bearer x")], "path": "/a"]])
        #expect(OSLogLine(line, revealsPrivateData: true).isPrivate)
        #expect(OSLogLine(line, revealsPrivateData: false).text == "sync request=[headers: [<redacted>], path: /a]")
    }

    @Test func aPrivateMessageIsPrivateWhenRevealedAndALineWithNothingPrivateIsPublic() {
        let secret = "pw"
        let privateMessage = record("password \(secret, privacy: .private)")
        #expect(OSLogLine(privateMessage, revealsPrivateData: true) == OSLogLine.expected(.info, "password pw", true))
        #expect(
            OSLogLine(privateMessage, revealsPrivateData: false)
                == OSLogLine.expected(.info, "password <redacted>", false))
        #expect(
            OSLogLine(record("plain", ["k": "v"]), revealsPrivateData: true) == .expected(.info, "plain k=v", false))
    }

    @Test(arguments: [
        (LogLevel.verbose, OSLogLine.Level.debug), (.debug, .debug), (.info, .info), (.warning, .default),
        (.error, .error), (.fatal, .fault),
    ])
    func levelsMapToTheUnifiedLogsLevels(level: LogLevel, expected: OSLogLine.Level) {
        #expect(OSLogLine(record("x", level: level), revealsPrivateData: false).level == expected)
    }

    /// The destination passes these straight to `OSLogType(rawValue:)`: they must be `<os/log.h>`'s values.
    @Test func levelsCarryTheRawValuesOfOSLogType() {
        let raw = [OSLogLine.Level.default, .info, .debug, .error, .fault].map(\.rawValue)
        #expect(raw == [0x00, 0x01, 0x02, 0x10, 0x11])
    }
}

extension OSLogLine {
    static func expected(_ level: Level, _ text: String, _ isPrivate: Bool) -> OSLogLine {
        OSLogLine(level: level, text: text, isPrivate: isPrivate)
    }
}

/// `OSLogDestination` itself, on every platform, with a recorder in place of `os.Logger`.
struct OSLogDestinationTests {
    final class RecordingUnifiedLog: UnifiedLog, @unchecked Sendable {
        private let lock = NSLock()
        private var written: [OSLogLine] = []
        func write(_ line: OSLogLine) { lock.withLock { written.append(line) } }
        var lines: [OSLogLine] { lock.withLock { written } }
    }

    func record(_ message: LogMessage, _ metadata: LogMetadata, level: LogLevel) -> LogRecord {
        LogRecord(
            timestamp: Date(), level: level, label: "app", message: message, metadata: metadata, fileID: "A/B.swift",
            function: "f()", line: 1)
    }

    @Test func eachRecordReachesTheUnifiedLogWithTheLevelAndPrivacyOSLogLineChose() {
        let log = RecordingUnifiedLog()
        let revealing = OSLogDestination(log: log, minimumLevel: .info, revealsPrivateData: true)
        let hiding = OSLogDestination(log: log, minimumLevel: .info, revealsPrivateData: false)
        let line = record("paid", ["card": .private("4111")], level: .error)
        revealing.write(line)
        hiding.write(line)
        hiding.write(record("sync", [:], level: .fatal))
        #expect(
            log.lines == [
                OSLogLine(level: .error, text: "paid card=4111", isPrivate: true),
                OSLogLine(level: .error, text: "paid card=<redacted>", isPrivate: false),
                OSLogLine(level: .fault, text: "sync", isPrivate: false),
            ])
        #expect(revealing.minimumLevel == .info && revealing.revealsPrivateData && !hiding.revealsPrivateData)
    }
}
