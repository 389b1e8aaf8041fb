import Dispatch
public import Foundation
import GirdersSupport

/// Appends lines to a file through a buffer written in the background, with optional size-based rotation.
///
/// - Lines below ``durableLevel`` (error by default) are buffered and written within a few milliseconds by a
///   background queue; ``flush()`` writes and `fsync`s everything buffered so far, and so does releasing the
///   destination. Call ``flush()`` before the process exits: `exit` does not wait for the background queue.
/// - Lines at or above ``durableLevel`` are written and `fsync`ed before `write` returns, together with every
///   line before them, so an error or fatal line is on disk when the logging call returns.
/// - With a ``Rotation``, a file that would grow past the maximum size is renamed to `name.1` (older archives
///   shift to `name.2` ... `name.N`) and a new file is started; lines are never split between files.
/// - A file that cannot be created or opened is an error from the initialiser. A write that fails later is
///   reported once on standard error; the logger and other destinations keep working.
///
/// ```swift
/// let file = try FileDestination(
///     url: logsFolder.appendingPathComponent("app.log"),
///     rotation: .init(maximumFileSize: 10 << 20, keptFiles: 5))
/// ```
public final class FileDestination: LogDestination {
    /// When and how the file rotates.
    public struct Rotation: Sendable, Equatable {
        /// The size in bytes a file may reach before lines go to a new file.
        public var maximumFileSize: Int
        /// How many rotated files (`name.1` ... `name.N`) are kept; 0 deletes the full file.
        public var keptFiles: Int

        /// Creates rotation settings.
        public init(maximumFileSize: Int, keptFiles: Int) {
            self.maximumFileSize = maximumFileSize
            self.keptFiles = keptFiles
        }
    }

    /// The lowest level written.
    public let minimumLevel: LogLevel
    /// Lines at or above this level are on disk before the logging call returns.
    public let durableLevel: LogLevel
    /// The file being written.
    public let url: URL
    /// The rotation settings, if any.
    public let rotation: Rotation?
    /// Whether private values are written as they are.
    public let revealsPrivateData: Bool

    /// Buffered lines are written once the buffer reaches this size, by the caller, so memory stays bounded.
    static let highWaterMark = 1 << 20

    let formatter: any LogFormatter
    let standardFormatter: DefaultLogFormatter?
    let diagnostics: any LogDiagnostics
    let flushDelay: DispatchTimeInterval
    let pending = LockedState(PendingLines())
    let file: LockedState<OpenFile>
    let queue = DispatchQueue(label: "GirdersLog.FileDestination", qos: .utility)

    struct PendingLines {
        var bytes: [UInt8] = []
        var drainScheduled = false
    }

    struct OpenFile {
        var descriptor: Int32
        var size: Int
        var spare: [UInt8] = []
        var failureReported = false
    }

    /// Opens (or creates) the log file for appending, creating its folder if needed.
    /// - Parameters:
    ///   - url: A file URL.
    ///   - minimumLevel: The lowest level written.
    ///   - rotation: Size-based rotation; `nil` lets the file grow.
    ///   - formatter: Builds each line; ``DefaultLogFormatter`` by default.
    ///   - durableLevel: Lines at or above this level are `fsync`ed before the call returns.
    ///   - revealsPrivateData: Write private values instead of `<redacted>`.
    /// - Throws: ``LogError`` naming the path when the folder or file cannot be created or opened for writing.
    public convenience init(
        url: URL, minimumLevel: LogLevel = .verbose, rotation: Rotation? = nil,
        formatter: any LogFormatter = DefaultLogFormatter(), durableLevel: LogLevel = .error,
        revealsPrivateData: Bool = false
    ) throws {
        try self.init(
            url: url, minimumLevel: minimumLevel, rotation: rotation, formatter: formatter, durableLevel: durableLevel,
            revealsPrivateData: revealsPrivateData, diagnostics: StandardErrorDiagnostics(),
            flushDelay: .milliseconds(2))
    }

    init(
        url: URL, minimumLevel: LogLevel, rotation: Rotation?, formatter: any LogFormatter, durableLevel: LogLevel,
        revealsPrivateData: Bool, diagnostics: any LogDiagnostics, flushDelay: DispatchTimeInterval
    ) throws {
        if let rotation {
            guard rotation.maximumFileSize > 0 else {
                throw LogError.invalidRotation("maximumFileSize must be positive, not \(rotation.maximumFileSize)")
            }
            guard rotation.keptFiles >= 0 else {
                throw LogError.invalidRotation("keptFiles must not be negative, not \(rotation.keptFiles)")
            }
        }
        let folder = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw LogError.cannotCreateDirectory(path: folder.path, reason: "\(error.localizedDescription)")
            }
        }
        switch POSIXFile.openForAppending(url.path) {
        case .failure(let failure):
            throw LogError.cannotOpenFile(path: url.path, reason: failure.description)
        case .success(let descriptor):
            self.file = LockedState(OpenFile(descriptor: descriptor, size: POSIXFile.size(of: descriptor)))
        }
        self.url = url
        self.minimumLevel = minimumLevel
        self.rotation = rotation
        self.formatter = formatter
        self.standardFormatter = formatter as? DefaultLogFormatter
        self.durableLevel = durableLevel
        self.revealsPrivateData = revealsPrivateData
        self.diagnostics = diagnostics
        self.flushDelay = flushDelay
    }

    deinit {
        drain(synchronize: true)
        file.withLock { POSIXFile.closeDescriptor($0.descriptor) }
    }

    /// Buffers one line; writes it and everything before it durably when its level is at least ``durableLevel``.
    public func write(_ record: LogRecord) {
        let durable = record.level >= durableLevel
        enum Next { case nothing, schedule, drainNow }
        // The standard formatter is a pure function of the record, so it formats straight into the shared buffer,
        // saving a copy and an allocation per line. A custom formatter runs outside the lock: it may log itself.
        var formatted: [UInt8] = []
        if standardFormatter == nil {
            formatter.format(record, revealingPrivate: revealsPrivateData, into: &formatted)
        }
        let next: Next = pending.withLock { pending in
            if let standardFormatter {
                standardFormatter.format(record, revealingPrivate: revealsPrivateData, into: &pending.bytes)
            } else {
                pending.bytes.append(contentsOf: formatted)
            }
            pending.bytes.append(UInt8(ascii: "\n"))
            if durable || pending.bytes.count >= Self.highWaterMark { return .drainNow }
            if pending.drainScheduled { return .nothing }
            pending.drainScheduled = true
            return .schedule
        }
        switch next {
        case .nothing: break
        case .drainNow: drain(synchronize: durable)
        case .schedule:
            // Weak, so that releasing the destination writes and closes at once (deinit) instead of when the timer
            // fires.
            queue.asyncAfter(deadline: .now() + flushDelay) { [weak self] in self?.drain(synchronize: false) }
        }
    }

    /// Writes every buffered line and `fsync`s the file.
    public func flush() {
        drain(synchronize: true)
    }

    /// Moves the buffered bytes to the file. Holding the file lock while taking the buffer keeps lines in order.
    func drain(synchronize: Bool) {
        let failure: String? = file.withLock { file in
            var chunk = file.spare
            pending.withLock { pending in
                swap(&pending.bytes, &chunk)
                pending.drainScheduled = false
            }
            defer {
                chunk.removeAll(keepingCapacity: true)
                file.spare = chunk
            }
            var failure: String?
            if !chunk.isEmpty {
                failure = append(chunk, to: &file)
            }
            if synchronize && file.descriptor >= 0 {
                _ = POSIXFile.synchronize(file.descriptor)
            }
            guard let failure, !file.failureReported else { return nil }
            file.failureReported = true
            return failure
        }
        if let failure {
            diagnostics.report("cannot write log file \(url.path): \(failure); later lines may be lost")
        }
    }
}
