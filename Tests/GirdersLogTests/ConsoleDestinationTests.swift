import Foundation
import Testing

@testable import GirdersLog

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct ConsoleDestinationTests {
    /// Writes through a console destination into a pipe and returns what arrived.
    func captured(colors: ConsoleDestination.ColorMode, _ log: (Logger) -> Void) throws -> String {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let console = ConsoleDestination(
            output: DescriptorOutput(descriptor: ends[1]), minimumLevel: .info, formatter: MessageOnlyFormatter(),
            colors: colors, revealsPrivateData: false)
        let reader = PipeReader(descriptor: ends[0])
        log(Logger(label: "console", destination: console))
        close(ends[1])
        return reader.waitForEnd()
    }

    @Test func linesReachThePipeWithoutColourWhenItIsNotATerminal() throws {
        let output = try captured(colors: .automatic) { logger in
            logger.debug("below the level")
            logger.info("one")
            logger.error("two")
        }
        #expect(output == "one\ntwo\n")
    }

    @Test func colourCanBeForced() throws {
        let output = try captured(colors: .always) { $0.warning("careful") }
        #expect(output == "\u{1B}[33mcareful\u{1B}[0m\n")
    }

    @Test func aTerminalGetsColourAutomatically() throws {
        let (primary, secondary) = try #require(openPseudoTerminal())
        defer {
            close(secondary)
            close(primary)
        }
        let onTerminal = ConsoleDestination(
            output: DescriptorOutput(descriptor: secondary), minimumLevel: .verbose, formatter: MessageOnlyFormatter(),
            colors: .automatic, revealsPrivateData: false)
        #expect(onTerminal.usesColor)
        let never = ConsoleDestination(
            output: DescriptorOutput(descriptor: secondary), minimumLevel: .verbose, formatter: MessageOnlyFormatter(),
            colors: .never, revealsPrivateData: false)
        #expect(!never.usesColor)
    }

    @Test func eachLevelHasItsOwnColour() {
        let codes = Set(LogLevel.allCases.map(ConsoleDestination.colorCode(for:)))
        #expect(codes.count == LogLevel.allCases.count)
    }

    @Test func linesFromManyThreadsDoNotInterleave() throws {
        let output = try captured(colors: .never) { logger in
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                for index in 0..<500 {
                    logger.info("worker \(worker) line \(index) \(String(repeating: "x", count: 200))")
                }
            }
        }
        let lines = output.split(separator: "\n")
        #expect(lines.count == 2_000)
        #expect(lines.allSatisfy { $0.hasPrefix("worker ") && $0.hasSuffix(String(repeating: "x", count: 200)) })
    }

    @Test func theStandardStreamsAreDescriptorsOneAndTwo() {
        #expect(ConsoleDestination(stream: .standardOutput).output.descriptor == 1)
        #expect(ConsoleDestination(stream: .standardError).output.descriptor == 2)
    }
}

/// Drains a pipe on a background thread, so writers never block on a full pipe.
final class PipeReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(descriptor: Int32) {
        DispatchQueue.global().async {
            self.data = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readDataToEndOfFile()
            self.done.signal()
        }
    }

    func waitForEnd() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Opens a pseudo-terminal pair. The pty functions are looked up at run time because Glibc's module map hides
/// them (they need `_XOPEN_SOURCE`).
func openPseudoTerminal() -> (primary: Int32, secondary: Int32)? {
    typealias OpenPrimary = @convention(c) (Int32) -> Int32
    typealias Prepare = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    guard let library = dlopen(nil, RTLD_NOW),
        let openSymbol = dlsym(library, "posix_openpt"), let grantSymbol = dlsym(library, "grantpt"),
        let unlockSymbol = dlsym(library, "unlockpt"), let nameSymbol = dlsym(library, "ptsname")
    else { return nil }
    let primary = unsafeBitCast(openSymbol, to: OpenPrimary.self)(O_RDWR | O_NOCTTY)
    guard primary >= 0 else { return nil }
    guard unsafeBitCast(grantSymbol, to: Prepare.self)(primary) == 0,
        unsafeBitCast(unlockSymbol, to: Prepare.self)(primary) == 0,
        let name = unsafeBitCast(nameSymbol, to: Name.self)(primary)
    else {
        close(primary)
        return nil
    }
    let secondary = open(name, O_RDWR | O_NOCTTY)
    guard secondary >= 0 else {
        close(primary)
        return nil
    }
    return (primary, secondary)
}
