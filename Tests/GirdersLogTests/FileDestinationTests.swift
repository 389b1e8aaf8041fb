import Foundation
import Testing

@testable import GirdersLog

struct FileDestinationTests {
    @Test func linesAreAppendedToAnExistingFile() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.log")
        try Data("earlier line\n".utf8).write(to: url)
        let file = try bufferedFileDestination(url, formatter: MessageOnlyFormatter())
        Logger(label: "t", destination: file).info("new line")
        file.flush()
        #expect(contents(of: url) == "earlier line\nnew line\n")
    }

    @Test func bufferedLinesReachTheFileOnFlush() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.log")
        let file = try bufferedFileDestination(url, formatter: MessageOnlyFormatter())
        let logger = Logger(label: "t", destination: file)
        logger.info("first")
        logger.warning("second")
        #expect(contents(of: url) == "", "lines below the durable level are buffered")
        file.flush()
        #expect(contents(of: url) == "first\nsecond\n")
    }

    @Test(arguments: [LogLevel.error, .fatal])
    func errorAndFatalLinesAreOnDiskBeforeTheCallReturns(level: LogLevel) throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.log")
        let file = try bufferedFileDestination(url, formatter: MessageOnlyFormatter())
        let logger = Logger(label: "t", destination: file)
        logger.info("context before")
        logger.log(level, "it failed")
        #expect(contents(of: url) == "context before\nit failed\n")
    }

    @Test func aFullBufferIsWrittenByTheCallerSoMemoryStaysBounded() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.log")
        let file = try bufferedFileDestination(url, formatter: MessageOnlyFormatter())
        let logger = Logger(label: "t", destination: file)
        let line = String(repeating: "b", count: 1023)
        let linesInHighWaterMark = FileDestination.highWaterMark / 1024
        for _ in 0..<(linesInHighWaterMark - 1) {
            logger.info("\(line)")
        }
        #expect(contents(of: url).isEmpty, "below the high-water mark lines stay buffered")
        logger.info("\(line)")
        #expect(contents(of: url).utf8.count == FileDestination.highWaterMark)
    }

    @Test func releasingTheDestinationWritesWhatIsBuffered() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.log")
        do {
            let file = try bufferedFileDestination(url, formatter: MessageOnlyFormatter())
            Logger(label: "t", destination: file).info("last words")
            #expect(contents(of: url).isEmpty)
        }
        #expect(contents(of: url) == "last words\n")
    }

    @Test func theBackgroundWriterWritesWithoutAFlush() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("app.log")
        let file = try FileDestination(url: url, formatter: MessageOnlyFormatter())
        Logger(label: "t", destination: file).info("eventually")
        // Polled for up to 30 s: a loaded machine may pause the writer; a working one writes within its interval.
        let end = ContinuousClock.now + .seconds(30)
        while contents(of: url).isEmpty && ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(10)) }
        #expect(contents(of: url) == "eventually\n")
    }

    @Test func aMissingFolderIsCreated() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("nested/deeper/app.log")
        let file = try bufferedFileDestination(url, formatter: MessageOnlyFormatter())
        Logger(label: "t", destination: file).error("created")
        #expect(contents(of: url) == "created\n")
    }

    @Test func aFolderThatIsAFileIsAnErrorNamingThePath() throws {
        let folder = try TemporaryFolder()
        let blocker = folder.file("not-a-folder")
        try Data().write(to: blocker)
        let url = blocker.appendingPathComponent("app.log")
        #expect {
            _ = try FileDestination(url: url)
        } throws: { error in
            guard let error = error as? LogError else { return false }
            return "\(error)".contains(blocker.path)
        }
    }

    @Test func aPathThatIsAFolderIsAnErrorNamingThePath() throws {
        let folder = try TemporaryFolder()
        #expect {
            _ = try FileDestination(url: folder.url)
        } throws: { error in
            guard case .cannotOpenFile(let path, let reason)? = error as? LogError else { return false }
            return path == folder.url.path && !reason.isEmpty
        }
    }

    @Test func invalidRotationSettingsAreRejected() throws {
        let folder = try TemporaryFolder()
        #expect(throws: LogError.self) {
            _ = try FileDestination(url: folder.file("a.log"), rotation: .init(maximumFileSize: 0, keptFiles: 1))
        }
        #expect(throws: LogError.self) {
            _ = try FileDestination(url: folder.file("b.log"), rotation: .init(maximumFileSize: 10, keptFiles: -1))
        }
    }

    @Test func aWriteFailureIsReportedOnceAndOtherDestinationsKeepWorking() throws {
        let diagnostics = CapturedDiagnostics()
        let full = try bufferedFileDestination(URL(fileURLWithPath: "/dev/full"), diagnostics: diagnostics)
        let recorder = LogRecorder()
        let logger = Logger(label: "t", destination: FanOutDestination([full, recorder]))
        for index in 0..<3 {
            logger.error("line \(index)")
        }
        #expect(recorder.messages == ["line 0", "line 1", "line 2"])
        #expect(diagnostics.reports.count == 1)
        #expect(diagnostics.reports.first?.contains("/dev/full") == true)
    }

    @Test func eightTasksWritingTenThousandLinesEachLeaveEightyThousandIntactLines() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("concurrent.log")
        let file = try FileDestination(url: url)
        let logger = Logger(label: "load", destination: file)
        let padding = String(repeating: "p", count: 40)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<10_000 {
                        logger.info("task=\(task) index=\(index) \(padding)")
                    }
                }
            }
        }
        file.flush()
        let lines = lines(of: url)
        #expect(lines.count == 80_000)
        var nextIndex = Array(repeating: 0, count: 8)
        var intact = 0
        for line in lines {
            guard line.hasSuffix(" " + padding), let range = line.range(of: "task=") else { continue }
            let fields = line[range.upperBound...].split(separator: " ")
            guard fields.count == 3, let task = Int(fields[0]), fields[1].hasPrefix("index="),
                let index = Int(fields[1].dropFirst(6)), (0..<8).contains(task), nextIndex[task] == index
            else { continue }
            nextIndex[task] += 1
            intact += 1
        }
        #expect(intact == 80_000, "every line whole and each task's lines in order")
        #expect(nextIndex == Array(repeating: 10_000, count: 8))
    }
}
