import GirdersLog
import Testing

struct FanOutAndRecorderTests {
    @Test func eachDestinationReceivesOnlyLinesAtItsOwnLevel() {
        let everything = LogRecorder()
        let warnings = LogRecorder(minimumLevel: .warning)
        let fanOut = FanOutDestination([everything, warnings])
        #expect(fanOut.minimumLevel == .verbose)
        let logger = Logger(label: "f", destination: fanOut)
        logger.debug("d")
        logger.warning("w")
        #expect(everything.messages == ["d", "w"])
        #expect(warnings.messages == ["w"])
    }

    @Test func theFanOutsLevelIsItsLowestDestinationsLevel() {
        let fanOut = FanOutDestination([LogRecorder(minimumLevel: .error), LogRecorder(minimumLevel: .info)])
        #expect(fanOut.minimumLevel == .info)
        #expect(FanOutDestination([]).minimumLevel == .fatal)
        let logger = Logger(label: "f", destination: fanOut)
        #expect(!logger.isEnabled(.debug) && logger.isEnabled(.info))
    }

    @Test func flushReachesEveryDestination() {
        let first = LogRecorder()
        let second = LogRecorder()
        Logger(label: "f", destination: FanOutDestination([first, second])).fatal("stop")
        #expect(first.flushCount == 1 && second.flushCount == 1)
    }

    @Test func theRecorderAnswersQuestionsAboutWhatWasLogged() {
        let recorder = LogRecorder()
        let logger = Logger(label: "r", destination: recorder)
        logger.info("Disk almost full")
        logger.error("Disk full")
        #expect(recorder.contains(.info, message: "almost"))
        #expect(!recorder.contains(.error, message: "almost"))
        #expect(recorder.contains(message: "full"))
        #expect(recorder.records(at: .error).map(\.message.revealedText) == ["Disk full"])
        recorder.removeAll()
        #expect(recorder.records.isEmpty && recorder.flushCount == 0)
    }
}
