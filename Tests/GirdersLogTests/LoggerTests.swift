import GirdersLog
import Testing

struct LoggerTests {
    @Test func aMessageBelowTheLevelIsNeverBuilt() {
        let recorder = LogRecorder(minimumLevel: .warning)
        let logger = Logger(label: "test", destination: recorder)
        var builds = 0
        func expensive() -> LogMessage {
            builds += 1
            return "built"
        }
        var metadataBuilds = 0
        func metadata() -> LogMetadata {
            metadataBuilds += 1
            return ["k": "v"]
        }
        logger.debug(expensive(), metadata: metadata())
        logger.info(expensive(), metadata: metadata())
        #expect(builds == 0 && metadataBuilds == 0)
        logger.warning(expensive(), metadata: metadata())
        #expect(builds == 1 && metadataBuilds == 1)
        #expect(recorder.messages == ["built"])
    }

    @Test func theLoggersOwnLevelFiltersBeforeTheDestination() {
        let recorder = LogRecorder()
        var logger = Logger(label: "test", destination: recorder, level: .error)
        logger.warning("dropped")
        logger.error("kept")
        logger.level = .verbose
        logger.verbose("now kept")
        #expect(recorder.messages == ["kept", "now kept"])
        #expect(logger.isEnabled(.verbose))
    }

    @Test func theCallSiteIsCaptured() throws {
        let recorder = LogRecorder()
        let logger = Logger(label: "test", destination: recorder)
        let expectedLine: UInt = #line + 1
        logger.info("here")
        let record = try #require(recorder.records.first)
        #expect(record.line == expectedLine)
        #expect(record.file == "GirdersLogTests/LoggerTests.swift")
        #expect(record.function == "theCallSiteIsCaptured()")
        #expect(record.label == "test")
        #expect(record.level == .info)
    }

    @Test func callMetadataIsMergedOverTheLoggersMetadata() throws {
        let recorder = LogRecorder()
        var logger = Logger(label: "test", destination: recorder, metadata: ["a": "logger", "b": "logger"])
        logger[metadataKey: "c"] = "added"
        logger.info("m", metadata: ["b": "call", "d": "call"])
        let record = try #require(recorder.records.first)
        #expect(record.metadata == ["a": "logger", "b": "call", "c": "added", "d": "call"])
        #expect(logger[metadataKey: "c"] == "added")
    }

    @Test func copiesOfALoggerHaveIndependentMetadata() throws {
        let recorder = LogRecorder()
        let original = Logger(label: "test", destination: recorder)
        var copy = original
        copy[metadataKey: "request"] = "42"
        original.info("original")
        copy.info("copy")
        #expect(recorder.records.map(\.metadata) == [[:], ["request": "42"]])
    }

    @Test func fatalLogsAndFlushesWithoutTerminating() {
        let recorder = LogRecorder()
        let logger = Logger(label: "test", destination: recorder)
        logger.error("not flushed")
        #expect(recorder.flushCount == 0)
        logger.fatal("flushed")
        #expect(recorder.flushCount == 1)
        #expect(recorder.records(at: .fatal).count == 1)
    }

    @Test func plainStringsAreAccepted() {
        let recorder = LogRecorder()
        let logger = Logger(label: "test", destination: recorder)
        let text = "from a variable"
        logger.verbose(text)
        logger.debug(text)
        logger.info(text)
        logger.warning(text)
        logger.error(text)
        logger.fatal(text)
        logger.log(.info, text)
        #expect(recorder.messages == Array(repeating: text, count: 7))
        #expect(recorder.records.map(\.level) == LogLevel.allCases + [.info])
    }

    @Test func withDestinationKeepsLabelLevelAndMetadata() throws {
        let first = LogRecorder()
        let second = LogRecorder()
        let logger = Logger(label: "svc", destination: first, level: .info, metadata: ["x": "1"])
        let moved = logger.withDestination(second)
        moved.debug("dropped by level")
        moved.info("kept")
        #expect(first.records.isEmpty)
        let record = try #require(second.records.first)
        #expect(second.records.count == 1 && record.label == "svc" && record.metadata == ["x": "1"])
    }

    @Test func aLoggerUsedThroughTheProtocolBehavesTheSame() {
        let recorder = LogRecorder(minimumLevel: .info)
        let log: any LogProtocol = Logger(label: "test", destination: recorder)
        log.debug("dropped")
        log.info("kept")
        #expect(log.isEnabled(.info) && !log.isEnabled(.debug))
        #expect(recorder.messages == ["kept"])
    }
}
