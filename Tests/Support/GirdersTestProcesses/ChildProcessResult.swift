#if os(macOS) || os(Linux)
public import Foundation

/// How a child run by ``ChildProcess/runToEnd()`` ended, and everything it printed.
public struct ChildProcessResult: Sendable {
    /// The exit status, or the signal that ended the child.
    public let status: Int32
    /// Whether the child exited or was ended by a signal.
    public let reason: Process.TerminationReason
    /// Its standard output, whole.
    public let output: Data
    /// Its standard error, whole.
    public let errors: Data

    /// ``output`` as UTF-8 (a broken sequence shown as U+FFFD).
    public var outputText: String { String(decoding: output, as: UTF8.self) }
    /// ``errors`` as UTF-8 (a broken sequence shown as U+FFFD).
    public var errorText: String { String(decoding: errors, as: UTF8.self) }
}

extension ChildProcess {
    /// Starts the child with its standard output and error in pipes of their own (whatever they were set to),
    /// reads both to their ends at the same time (so neither fills while the other is read) and waits for it to end,
    /// all on threads of their own: see ``offThePool(_:)`` for why a test never blocks on a child itself.
    public func runToEnd() async throws -> ChildProcessResult {
        let output = Pipe()
        let errors = Pipe()
        standardOutput = output
        standardError = errors
        try run()
        let outputEnd = output.fileHandleForReading
        let errorsEnd = errors.fileHandleForReading
        async let printed = offThePool { outputEnd.readDataToEndOfFile() }
        async let complained = offThePool { errorsEnd.readDataToEndOfFile() }
        let (out, err) = await (printed, complained)
        await exited()
        return ChildProcessResult(status: terminationStatus, reason: terminationReason, output: out, errors: err)
    }

    /// Waits until the child ends, on a thread of its own.
    public func exited() async {
        await offThePool { self.waitUntilExit() }
    }
}
#endif
