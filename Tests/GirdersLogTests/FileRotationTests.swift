import Foundation
import Testing

@testable import GirdersLog

struct FileRotationTests {
    /// A buffered destination writing bare messages to `app.log` in `folder`, rotating as given.
    func rotatingFile(in folder: TemporaryFolder, maximumSize: Int, keep: Int) throws -> (URL, FileDestination) {
        let url = folder.file("app.log")
        let file = try bufferedFileDestination(
            url, rotation: .init(maximumFileSize: maximumSize, keptFiles: keep), formatter: MessageOnlyFormatter())
        return (url, file)
    }

    /// Writes `count` numbered lines of 20 bytes and a newline each ("line 0000 ..........").
    func writeNumberedLines(_ count: Int, to file: FileDestination) {
        let logger = Logger(label: "r", destination: file)
        for index in 0..<count {
            logger.info("line \(String(format: "%04d", index)) ..........")
        }
        file.flush()
    }

    @Test func aFullFileRotatesAndOnlyTheNewestArchivesAreKept() throws {
        let folder = try TemporaryFolder()
        let (url, file) = try rotatingFile(in: folder, maximumSize: 200, keep: 2)
        writeNumberedLines(55, to: file)  // 21 bytes a line: 9 lines a file, so 6 full files and 1 line
        let archives = [url.path + ".2", url.path + ".1", url.path].map { URL(fileURLWithPath: $0) }
        #expect(!FileManager.default.fileExists(atPath: url.path + ".3"))
        let perFile = archives.map { lines(of: $0) }
        #expect(perFile.map(\.count) == [9, 9, 1])
        #expect(
            perFile.joined().map { String($0.dropFirst(5).prefix(4)) } == (36..<55).map { String(format: "%04d", $0) })
        for archive in archives {
            let size = try #require(try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int)
            #expect(size <= 200)
        }
    }

    @Test func rotationNeverSplitsALine() throws {
        let folder = try TemporaryFolder()
        let (url, file) = try rotatingFile(in: folder, maximumSize: 50, keep: 5)
        writeNumberedLines(7, to: file)
        for suffix in ["", ".1", ".2", ".3"] {
            let text = contents(of: URL(fileURLWithPath: url.path + suffix))
            #expect(text.hasSuffix("\n") && text.split(separator: "\n").allSatisfy { $0.count == 20 }, "\(suffix)")
        }
    }

    @Test func aLineLongerThanTheMaximumGoesAloneIntoItsOwnFile() throws {
        let folder = try TemporaryFolder()
        let (url, file) = try rotatingFile(in: folder, maximumSize: 10, keep: 3)
        let logger = Logger(label: "r", destination: file)
        logger.info("short")
        logger.info("a line that is far too long")
        logger.info("tail")
        file.flush()
        #expect(contents(of: URL(fileURLWithPath: url.path + ".2")) == "short\n")
        #expect(contents(of: URL(fileURLWithPath: url.path + ".1")) == "a line that is far too long\n")
        #expect(contents(of: url) == "tail\n")
    }

    @Test func keepingNoArchivesStartsAFreshFile() throws {
        let folder = try TemporaryFolder()
        let (url, file) = try rotatingFile(in: folder, maximumSize: 45, keep: 0)
        writeNumberedLines(5, to: file)
        #expect(lines(of: url).count == 1)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".1"))
    }

    @Test func anExistingFileCountsTowardsTheMaximum() throws {
        let folder = try TemporaryFolder()
        try Data(String(repeating: "x", count: 39).appending("\n").utf8).write(to: folder.file("app.log"))
        let (url, file) = try rotatingFile(in: folder, maximumSize: 50, keep: 1)
        writeNumberedLines(1, to: file)
        #expect(lines(of: URL(fileURLWithPath: url.path + ".1")).count == 1)
        #expect(lines(of: url) == ["line 0000 .........."])
    }
}
