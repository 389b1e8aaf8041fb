import Foundation

@testable import GirdersLog

/// A folder under the system's temporary directory, removed when the value is released.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("GirdersLogTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Collects what a destination reports about its own failures.
final class CapturedDiagnostics: LogDiagnostics, @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func report(_ message: String) {
        lock.lock()
        storage.append(message)
        lock.unlock()
    }

    var reports: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// Reads a whole file as UTF-8 text, or "" when it does not exist.
func contents(of url: URL) -> String {
    (try? String(contentsOf: url, encoding: .utf8)) ?? ""
}

/// The non-empty lines of a file.
func lines(of url: URL) -> [String] {
    contents(of: url).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
}

/// A file destination whose background flush effectively never fires, so tests see exactly what is durable.
func bufferedFileDestination(
    _ url: URL, minimumLevel: LogLevel = .verbose, rotation: FileDestination.Rotation? = nil,
    formatter: any LogFormatter = DefaultLogFormatter(), revealsPrivateData: Bool = false,
    diagnostics: any LogDiagnostics = CapturedDiagnostics()
) throws -> FileDestination {
    try FileDestination(
        url: url, minimumLevel: minimumLevel, rotation: rotation, formatter: formatter, durableLevel: .error,
        revealsPrivateData: revealsPrivateData, diagnostics: diagnostics, flushDelay: .seconds(3600))
}

/// Formats only the message, to make file contents easy to assert on.
struct MessageOnlyFormatter: LogFormatter {
    func format(_ record: LogRecord, revealingPrivate: Bool) -> String {
        record.message.text(revealingPrivate: revealingPrivate)
    }
}
