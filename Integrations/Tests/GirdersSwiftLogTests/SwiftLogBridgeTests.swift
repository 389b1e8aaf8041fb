import Foundation
import GirdersLog
import Logging
import Testing

@testable import GirdersSwiftLog

/// Both bridges, with a recording handler on swift-log's side and GirdersLog's `LogRecorder` on the other; no global
/// bootstrap (swift-log allows one per process), every logger made with its handler.
struct SwiftLogBridgeTests {
    /// A swift-log handler that keeps what it is given.
    struct RecordingHandler: LogHandler {
        let events: Events
        var logLevel: Logging.Logger.Level = .trace
        var metadata: Logging.Logger.Metadata = [:]
        var metadataProvider: Logging.Logger.MetadataProvider?

        subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            events.append(event)
        }
    }

    /// Invariant: `events` is read and written only under `lock`.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [LogEvent] = []
        func append(_ event: LogEvent) { lock.withLock { events.append(event) } }
        var all: [LogEvent] { lock.withLock { events } }
    }

    @Test func girdersRecordsReachSwiftLogWithLevelsMetadataAndPrivateValuesRedacted() {
        let events = Events()
        let swiftLogger = Logging.Logger(label: "server") { _ in RecordingHandler(events: events) }
        let logger = GirdersLog.Logger(label: "app.sync", destination: SwiftLogDestination(swiftLogger))
        logger.log(
            .fatal, "signed in \("ada") with \("t0k3n", privacy: .private)",
            metadata: ["account": .private("ada@example.com"), "attempt": "2", "ids": ["1", .private("2")]])
        logger.verbose("details")
        let received = events.all
        try? #require(received.count == 2)
        #expect(received.map(\.level) == [.critical, .trace])
        #expect(received[0].message.description == "signed in ada with <redacted>")
        #expect(received[0].metadata?["account"] == .string("<redacted>"))
        #expect(received[0].metadata?["attempt"] == .string("2"))
        #expect(received[0].metadata?["ids"] == .array([.string("1"), .string("<redacted>")]))
        #expect(received[0].metadata?["label"] == .string("app.sync"))
        #expect(received[0].file.hasSuffix("SwiftLogBridgeTests.swift"))
    }

    @Test func anAppThatSaysSoRevealsPrivateValuesToSwiftLog() {
        let events = Events()
        let swiftLogger = Logging.Logger(label: "server") { _ in RecordingHandler(events: events) }
        let logger = GirdersLog.Logger(
            label: "app", destination: SwiftLogDestination(swiftLogger, revealsPrivateData: true))
        logger.info("token \("t0k3n", privacy: .private)", metadata: ["account": .private("ada")])
        #expect(events.all.first?.message.description == "token t0k3n")
        #expect(events.all.first?.metadata?["account"] == .string("ada"))
    }

    @Test func swiftLogLinesReachGirdersDestinationsWithTheirCallSiteAndMergedMetadata() {
        let recorder = LogRecorder()
        var logger = Logging.Logger(label: "nio") { label in
            GirdersLogHandler(
                label: label, destination: recorder, logLevel: .trace,
                metadataProvider: .init { ["request": "42"] })
        }
        logger[metadataKey: "component"] = "pool"
        logger.notice("connected", metadata: ["peer": .stringConvertible(8080)], source: "NIOPosix")
        logger.critical("gone")
        let records = recorder.records
        try? #require(records.count == 2)
        #expect(records.map(\.level) == [.info, .fatal])
        #expect(records[0].label == "nio")
        #expect(records[0].message.redactedText == "connected")
        #expect(records[0].metadata["component"] == .string("pool"))
        #expect(records[0].metadata["request"] == .string("42"))
        #expect(records[0].metadata["peer"] == .string("8080"))
        #expect(records[0].metadata["source"] == .string("NIOPosix"))
        #expect(records[0].file.hasSuffix("SwiftLogBridgeTests.swift") && records[0].fileID == nil)
        #expect(recorder.flushCount == 1, "a critical line is flushed, as GirdersLog flushes fatal lines")
    }

    @Test func aSwiftLogLoggersOwnLevelHoldsForGirdersRecords() {
        let events = Events()
        var swiftLogger = Logging.Logger(label: "server") { _ in RecordingHandler(events: events) }
        swiftLogger.logLevel = .warning
        let logger = GirdersLog.Logger(label: "app", destination: SwiftLogDestination(swiftLogger))
        logger.info("below")
        logger.error("above")
        #expect(events.all.map(\.message.description) == ["above"])
    }

    @Test func aGirdersDestinationsMinimumLevelHolds() {
        let recorder = LogRecorder(minimumLevel: .warning)
        let logger = Logging.Logger(label: "l") {
            GirdersLogHandler(label: $0, destination: recorder, logLevel: .trace)
        }
        logger.info("below")
        logger.error("above")
        #expect(recorder.records.map(\.message.redactedText) == ["above"])
    }

    @Test func installingBothBridgesCannotLoop() {
        // swift-log writes to GirdersLog, whose destinations include swift-log again: each line crosses once.
        let recorder = LogRecorder()
        let events = Events()
        let backToSwiftLog = SwiftLogDestination(
            Logging.Logger(label: "loop") { GirdersLogHandler(label: $0, destination: recorder, logLevel: .trace) })
        let swiftSide = Logging.Logger(label: "server") { label in
            MultiplexLogHandler([
                RecordingHandler(events: events),
                GirdersLogHandler(
                    label: label, destination: FanOutDestination([recorder, backToSwiftLog]), logLevel: .trace),
            ])
        }
        swiftSide.info("from swift-log")
        let girdersSide = GirdersLog.Logger(label: "app", destination: SwiftLogDestination(swiftSide))
        girdersSide.info("from GirdersLog")
        #expect(recorder.records.map(\.message.redactedText) == ["from swift-log"])
        #expect(events.all.map(\.message.description) == ["from swift-log", "from GirdersLog"])
    }

    @Test(arguments: GirdersLog.LogLevel.allCases)
    func everyGirdersLevelSurvivesTheRoundTrip(level: GirdersLog.LogLevel) {
        #expect(GirdersLog.LogLevel(level.swiftLogLevel) == level)
    }

    @Test func noticeIsInfoAndEverySwiftLogLevelHasAGirdersLevel() {
        #expect(GirdersLog.LogLevel(Logging.Logger.Level.notice) == .info)
        #expect(
            Logging.Logger.Level.allCases.map { GirdersLog.LogLevel($0) } == [
                .verbose, .debug, .info, .info, .warning, .error, .fatal,
            ])
    }
}
