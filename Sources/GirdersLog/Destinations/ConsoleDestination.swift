import Foundation
import GirdersSupport

/// Writes lines to standard output or standard error, in colour only when the stream is a terminal.
///
/// Each line goes out with a single `write` call under a lock shared by every console destination on the same
/// stream, so lines from many threads never interleave.
///
/// ```swift
/// let console = ConsoleDestination(stream: .standardOutput, minimumLevel: .info)
/// ```
public struct ConsoleDestination: LogDestination {
    /// The stream to write to.
    public enum Stream: Sendable {
        /// File descriptor 1.
        case standardOutput
        /// File descriptor 2.
        case standardError
    }

    /// When ANSI colours are used.
    public enum ColorMode: Sendable {
        /// Only when the stream is a terminal.
        case automatic
        /// Always, for example when a pager that understands ANSI reads the output.
        case always
        /// Never.
        case never
    }

    /// The lowest level written.
    public let minimumLevel: LogLevel
    /// Whether private values are printed as they are.
    public let revealsPrivateData: Bool
    /// Whether lines are coloured.
    public let usesColor: Bool
    let formatter: any LogFormatter
    let output: DescriptorOutput

    /// Creates a console destination.
    /// - Parameters:
    ///   - stream: Standard output or standard error (the default).
    ///   - minimumLevel: The lowest level written.
    ///   - formatter: Builds each line; ``DefaultLogFormatter`` by default.
    ///   - colors: When to colour lines by level.
    ///   - revealsPrivateData: Print private values instead of `<redacted>`.
    public init(
        stream: Stream = .standardError, minimumLevel: LogLevel = .verbose,
        formatter: any LogFormatter = DefaultLogFormatter(), colors: ColorMode = .automatic,
        revealsPrivateData: Bool = false
    ) {
        let output = stream == .standardOutput ? DescriptorOutput.standardOutput : DescriptorOutput.standardError
        self.init(
            output: output, minimumLevel: minimumLevel, formatter: formatter, colors: colors,
            revealsPrivateData: revealsPrivateData)
    }

    init(
        output: DescriptorOutput, minimumLevel: LogLevel, formatter: any LogFormatter, colors: ColorMode,
        revealsPrivateData: Bool
    ) {
        self.output = output
        self.minimumLevel = minimumLevel
        self.formatter = formatter
        self.revealsPrivateData = revealsPrivateData
        switch colors {
        case .automatic: self.usesColor = POSIXFile.isTerminal(output.descriptor)
        case .always: self.usesColor = true
        case .never: self.usesColor = false
        }
    }

    /// Formats and writes one line.
    public func write(_ record: LogRecord) {
        var line: [UInt8] = []
        if usesColor {
            line.append(contentsOf: Self.colorCode(for: record.level).utf8)
        }
        formatter.format(record, revealingPrivate: revealsPrivateData, into: &line)
        if usesColor {
            line.append(contentsOf: "\u{1B}[0m".utf8)
        }
        line.append(UInt8(ascii: "\n"))
        output.write(line)
    }

    static func colorCode(for level: LogLevel) -> String {
        switch level {
        case .verbose: "\u{1B}[90m"
        case .debug: "\u{1B}[36m"
        case .info: "\u{1B}[32m"
        case .warning: "\u{1B}[33m"
        case .error: "\u{1B}[31m"
        case .fatal: "\u{1B}[1;31m"
        }
    }
}

/// A file descriptor with a lock, so whole lines are written one at a time.
final class DescriptorOutput: Sendable {
    static let standardOutput = DescriptorOutput(descriptor: 1)
    static let standardError = DescriptorOutput(descriptor: 2)

    let descriptor: Int32
    /// The descriptor again, written to only under this lock.
    private let writing: LockedState<Int32>

    init(descriptor: Int32) {
        self.descriptor = descriptor
        self.writing = LockedState(descriptor)
    }

    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { bytes in
            writing.withLock { descriptor in _ = POSIXFile.writeAll(descriptor, bytes) }
        }
    }
}
