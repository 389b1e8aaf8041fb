import GirdersLog
import Testing

struct LogFacadeTests {
    @Test func aScopedLoggerReceivesTheFacadesLines() {
        let recorder = LogRecorder()
        Log.withLogger(Logger(label: "scoped", destination: recorder)) {
            Log.verbose("v")
            Log.debug("d")
            Log.info("i")
            Log.warning("w")
            Log.error("e")
            Log.fatal("f")
        }
        #expect(recorder.messages == ["v", "d", "i", "w", "e", "f"])
        #expect(recorder.records.allSatisfy { $0.label == "scoped" })
        #expect(recorder.flushCount == 1)
    }

    @Test func scopedLoggersInParallelTasksDoNotSeeEachOthersLines() async {
        let recorders = (0..<8).map { _ in LogRecorder() }
        await withTaskGroup(of: Void.self) { group in
            for (index, recorder) in recorders.enumerated() {
                group.addTask {
                    await Log.withLogger(Logger(label: "task \(index)", destination: recorder)) {
                        for line in 0..<100 {
                            await Task.yield()
                            Log.info("task \(index) line \(line)")
                        }
                    }
                }
            }
        }
        for (index, recorder) in recorders.enumerated() {
            #expect(recorder.messages == (0..<100).map { "task \(index) line \($0)" })
        }
    }

    @Test func theScopeReachesChildTasks() async {
        let recorder = LogRecorder()
        await Log.withLogger(Logger(label: "parent", destination: recorder)) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { Log.info("from a child task") }
            }
        }
        #expect(recorder.messages == ["from a child task"])
    }

    @Test func theFacadeDoesNotBuildMessagesBelowTheScopedLevel() {
        let recorder = LogRecorder(minimumLevel: .error)
        var builds = 0
        func message() -> String {
            builds += 1
            return "m"
        }
        Log.withLogger(Logger(label: "s", destination: recorder)) {
            Log.info(message())
            Log.error(message())
        }
        #expect(builds == 1)
    }
}

/// Tests that replace the process-wide logger run one at a time and put the original back.
@Suite(.serialized)
struct GlobalLogTests {
    @Test func theProcessWideLoggerCanBeReplacedAtAnyTime() {
        let original = Log.logger
        defer { Log.logger = original }
        let first = LogRecorder()
        let second = LogRecorder()
        Log.logger = Logger(label: "first", destination: first)
        Log.info("to first")
        Log.logger = Logger(label: "second", destination: second)
        Log.info("to second")
        #expect(first.messages == ["to first"])
        #expect(second.messages == ["to second"])
    }

    @Test func theDefaultLevelIsWarningAsInGirdersSwift() {
        #expect(Log.logger.label == "girders")
        #expect(Log.level == .warning)
    }

    @Test func theLevelIsReadFromTheLegacyConfigurationValue() throws {
        let original = Log.logger
        defer { Log.logger = original }
        let recorder = LogRecorder()
        Log.logger = Logger(label: "cfg", destination: recorder)
        try Log.configureLevel(fromConfigurationValue: 1)
        #expect(Log.level == .debug)
        Log.verbose("dropped")
        Log.debug("kept")
        #expect(recorder.messages == ["kept"])
        try Log.configureLevel(fromConfigurationValue: nil)
        #expect(Log.level == .warning)
        #expect(throws: LogError.self) { try Log.configureLevel(fromConfigurationValue: "shouty") }
        #expect(Log.level == .warning, "a bad value leaves the level alone")
    }
}
