#if os(Linux)
public import Foundation
import CGirdersTestSpawn
import Glibc

/// A child process for the tests, with the part of `Process`'s API they use.
///
/// On Linux, Foundation's `Process.run()` finds the highest open descriptor by reading `/proc/self/fd` and copies
/// each entry's whole 256-byte name field, reading past glibc's buffer (swift-corelibs-foundation #5472, fixed after
/// Swift 6.3.1): a test run with about 1,500 descriptors open (hundreds of tests in flight, each with a transport)
/// crashed in it. This one starts the child with `posix_spawn` and closes every descriptor from 3 up in the child
/// (`closefrom`), as `Process` does. On other systems `ChildProcess` is `Process`.
public final class ChildProcess: @unchecked Sendable {
    // Invariant: the settings are written before `run()` by the one thread that made the process; the pid and the
    // exit are read and written under `lock` only; `waitpid` runs under `waitLock`, never under `lock`.
    /// The program to run.
    public var executableURL: URL?
    /// Its arguments, without the program.
    public var arguments: [String]?
    /// Its environment; `nil` passes this process's on.
    public var environment: [String: String]?
    /// A `Pipe` (the child reads its reading end) or a `FileHandle`; `nil` inherits this process's.
    public var standardInput: Any?
    /// A `Pipe` (the child writes its writing end) or a `FileHandle`; `nil` inherits this process's.
    public var standardOutput: Any?
    /// As ``standardOutput``.
    public var standardError: Any?

    private let lock = NSLock()
    private let waitLock = NSLock()
    private var pid: pid_t = 0
    private var exit: (status: Int32, reason: Process.TerminationReason)?

    /// A process not yet started.
    public init() {}

    /// The child's process ID, 0 before ``run()``.
    public var processIdentifier: Int32 { lock.withLock { pid } }

    /// Starts the child; the parent's copies of the child's pipe ends are closed, so a reader sees the end of the
    /// output when the child ends.
    public func run() throws {
        guard let path = executableURL?.path else { throw POSIXError(.ENOENT) }
        let argv = [path] + (arguments ?? [])
        let envp = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        let descriptors = [
            Self.descriptor(standardInput, childReads: true), Self.descriptor(standardOutput, childReads: false),
            Self.descriptor(standardError, childReads: false),
        ]
        var child: pid_t = 0
        let status = Self.withCStrings(argv) { argv in
            guard let envp else {
                return girders_test_spawn(path, argv, nil, descriptors[0], descriptors[1], descriptors[2], &child)
            }
            return Self.withCStrings(envp) { envp in
                girders_test_spawn(path, argv, envp, descriptors[0], descriptors[1], descriptors[2], &child)
            }
        }
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        lock.withLock { pid = child }
        var closed = Set<ObjectIdentifier>()
        for (io, childReads) in [(standardInput, true), (standardOutput, false), (standardError, false)] {
            guard let pipe = io as? Pipe else { continue }
            let end = childReads ? pipe.fileHandleForReading : pipe.fileHandleForWriting
            if closed.insert(ObjectIdentifier(end)).inserted { try? end.close() }
        }
    }

    /// Waits until the child ends (at once if it has). Waiters take turns to reap it; the pid and the exit stay
    /// readable meanwhile (a test may kill the child another thread waits for).
    public func waitUntilExit() {
        waitLock.withLock {
            let (child, ended) = lock.withLock { (pid, exit != nil) }
            guard !ended, child > 0 else { return }
            var status: Int32 = 0
            while waitpid(child, &status, 0) == -1 && errno == EINTR {}
            lock.withLock { exit = Self.decode(status) }
        }
    }

    /// Whether the child was started and has not ended.
    public var isRunning: Bool {
        waitLock.withLock {
            let (child, ended) = lock.withLock { (pid, exit != nil) }
            guard !ended, child > 0 else { return false }
            var status: Int32 = 0
            guard waitpid(child, &status, WNOHANG) == child else { return true }
            lock.withLock { exit = Self.decode(status) }
            return false
        }
    }

    /// The exit status, or the signal that ended the child; 0 before it ended.
    public var terminationStatus: Int32 { lock.withLock { exit?.status ?? 0 } }

    /// Whether the child exited or was ended by a signal.
    public var terminationReason: Process.TerminationReason { lock.withLock { exit?.reason ?? .exit } }

    /// Sends the child SIGTERM.
    public func terminate() {
        let child = processIdentifier
        if child > 0 { kill(child, SIGTERM) }
    }

    private static func decode(_ status: Int32) -> (Int32, Process.TerminationReason) {
        let signal = status & 0x7F
        return signal == 0 ? ((status >> 8) & 0xFF, .exit) : (signal, .uncaughtSignal)
    }

    private static func descriptor(_ io: Any?, childReads: Bool) -> Int32 {
        switch io {
        case let pipe as Pipe:
            (childReads ? pipe.fileHandleForReading : pipe.fileHandleForWriting).fileDescriptor
        case let handle as FileHandle: handle.fileDescriptor
        default: -1
        }
    }

    /// Calls `body` with `strings` as a NULL-terminated array of C strings, freed afterwards.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}
#elseif os(macOS)
public import Foundation

/// `Process`: the fault `ChildProcess` works around is in Linux's Foundation only (and iOS and tvOS start no
/// processes).
public typealias ChildProcess = Process
#endif
