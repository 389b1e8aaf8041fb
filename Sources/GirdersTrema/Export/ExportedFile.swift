public import Foundation
import GirdersSupport

/// A file an exporter produced: a path relative to the output folder and its bytes.
public struct ExportedFile: Sendable, Equatable {
    /// The path below the output folder, with `/` separators: `de.lproj/messages.strings`.
    public let path: String
    /// The complete contents.
    public let data: Data

    /// An exported file.
    public init(path: String, data: Data) {
        self.path = path
        self.data = data
    }

    /// The contents as UTF-8 text.
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// Writes every file below `folder`, creating folders as needed: all of them or none.
    ///
    /// Every path is checked before the first file is written: it must be relative, made of non-empty
    /// components other than `.` and `..`, free of NUL and backslashes, and unique in `files`, so no file can land
    /// outside `folder`; a folder on the way that is a symbolic link leading outside `folder` is refused too. Each
    /// file goes to a temporary file beside its destination and is renamed into place, so a reader sees the old
    /// file or the new one, never a part; files are not flushed to the disk (a power loss may take the newest
    /// exports, which the next conversion writes again). Several files are written at once.
    /// When any write fails, the files and folders this call created are removed again before the error is
    /// thrown (a file that existed before and was already replaced keeps its new contents).
    /// - Throws: ``TremaError/cannotWrite(path:reason:)`` naming the path.
    public static func write(_ files: [ExportedFile], to folder: URL) throws(TremaError) {
        var seen: Set<String> = []
        for file in files {
            if let problem = problem(with: file.path) {
                throw .cannotWrite(path: file.path, reason: problem)
            }
            if !seen.insert(file.path).inserted {
                throw .cannotWrite(path: file.path, reason: "two exported files have this path")
            }
        }
        var written = OutputTransaction()
        var destinations: [URL] = []
        for file in files {
            let destination = folder.appendingPathComponent(file.path)
            do {
                try written.createFolders(for: file.path, in: folder)
                let root = folder.resolvingSymlinksInPath().path
                let parent = destination.deletingLastPathComponent().resolvingSymlinksInPath().path
                guard parent == root || parent.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
                    throw CocoaError(
                        .fileWriteNoPermission,
                        userInfo: [NSLocalizedDescriptionKey: "a symbolic link leads outside the output folder"])
                }
            } catch {
                written.rollBack()
                throw .cannotWrite(path: destination.path, reason: error.localizedDescription)
            }
            destinations.append(destination)
        }
        if let (index, error) = written.write(files.map(\.data), to: destinations) {
            written.rollBack()
            let reason = (error as? AtomicFile.Failure).map { "\($0.operation): \($0.reason)" }
            throw .cannotWrite(path: destinations[index].path, reason: reason ?? error.localizedDescription)
        }
    }

    /// Why `path` may not be written below an output folder, or `nil` when it may.
    static func problem(with path: String) -> String? {
        if path.isEmpty { return "the path is empty" }
        if path.hasPrefix("/") { return "the path is absolute" }
        // By scalars: a combining mark after `/` or `\\` makes one Character of the two, and the file system
        // reads bytes.
        if path.utf8.contains(0) || path.utf8.contains(UInt8(ascii: "\\")) {
            return "the path contains NUL or a backslash"
        }
        for component in path.split(atScalar: "/", omittingEmptySubsequences: false) {
            if component.isEmpty || component == "." || component == ".." {
                return "the path has an empty, '.' or '..' component, so it could leave the output folder"
            }
        }
        return nil
    }
}

/// What one ``ExportedFile/write(_:to:)`` call created, so a failure can remove it again.
private struct OutputTransaction {
    private var createdFiles: [URL] = []
    private var createdFolders: [URL] = []
    private let manager = FileManager.default

    /// Creates the folders of `path` below `folder` one by one, remembering those that did not exist.
    mutating func createFolders(for path: String, in folder: URL) throws {
        if !manager.fileExists(atPath: folder.path) {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            createdFolders.append(folder)
        }
        var current = folder
        for component in path.split(atScalar: "/").dropLast() {
            current = current.appendingPathComponent(String(component))
            var isFolder: ObjCBool = false
            if manager.fileExists(atPath: current.path, isDirectory: &isFolder) {
                if !isFolder.boolValue { throw CocoaError(.fileWriteFileExists) }
                continue
            }
            try manager.createDirectory(at: current, withIntermediateDirectories: false)
            createdFolders.append(current)
        }
    }

    /// The most files written at once (the caller and threads of its own): each write may wait for the disk, so
    /// several overlap even on one core.
    static let maximumConcurrentWrites = 8

    /// Writes each of `contents` atomically to the destination at the same index, several at once, remembering
    /// the files that are new; the first failure (by index) with its error, or `nil`.
    mutating func write(_ contents: [Data], to destinations: [URL]) -> (Int, any Error)? {
        guard !destinations.isEmpty else { return nil }
        let existed = destinations.map { manager.fileExists(atPath: $0.path) }
        let failures = LockedState([(any Error)?](repeating: nil, count: destinations.count))
        // The next file to write and how many are left; the caller writes too, and waits for the last file, not
        // for the threads, so a thread that could not start delays nothing.
        let progress = LockedState((next: 0, left: destinations.count))
        let allWritten = DispatchSemaphore(value: 0)
        @Sendable func writeUntilNoneIsLeft() {
            while true {
                let index = progress.withLock { state -> Int in
                    defer { state.next += 1 }
                    return state.next
                }
                guard index < destinations.count else { return }
                do throws(AtomicFile.Failure) {
                    // Not flushed to the disk: exports are rebuilt from the trema file, and a flush of each
                    // took longer than writing them all. Readers still see the old file or the new one.
                    try AtomicFile.write(contents[index], to: destinations[index].path, durable: false, mode: 0o666)
                } catch {
                    failures.withLock { $0[index] = error }
                }
                let last = progress.withLock { state -> Bool in
                    state.left -= 1
                    return state.left == 0
                }
                if last { allWritten.signal() }
            }
        }
        for _ in 1..<min(destinations.count, Self.maximumConcurrentWrites) {
            Thread { writeUntilNoneIsLeft() }.start()
        }
        writeUntilNoneIsLeft()
        allWritten.wait()
        let outcome = failures.withLock { $0 }
        for (index, destination) in destinations.enumerated() where !existed[index] && outcome[index] == nil {
            createdFiles.append(destination)
        }
        return outcome.enumerated().lazy.compactMap { index, error in error.map { (index, $0) } }.first
    }

    /// Removes every file and folder created, newest first.
    func rollBack() {
        for url in createdFiles.reversed() + createdFolders.reversed() { try? manager.removeItem(at: url) }
    }
}
