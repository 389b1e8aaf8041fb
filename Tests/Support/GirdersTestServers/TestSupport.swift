#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
public import Foundation
public import Dispatch
import GirdersTestProcesses
import GirdersNetworking
import Testing

/// The folder every temporary folder of this test run lives in; removed when the test process exits, so a
/// full run leaves nothing in the system's temporary folder.
public let testRunFolder: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("girders-net-run-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: testRunFolder) }
    return folder
}()

/// A new empty folder under the system's temporary folder.
public func temporaryFolder() throws -> URL {
    let folder = testRunFolder.appendingPathComponent("girders-net-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Writes `megabytes` MiB of a non-repeating pattern to `url` one MiB at a time.
public func writePatternFile(_ url: URL, megabytes: Int) async throws {
    // Python's generator writes 200 MiB in well under a second, off Swift's cooperative threads; a byte loop in a
    // debug build took them for many seconds.
    _ = try await runPython(
        "import random,sys; r=random.Random(0x9E3779B9); f=open(sys.argv[1],'wb')\n"
            + "for _ in range(int(sys.argv[2])): f.write(r.randbytes(1<<20))",
        url.path, String(megabytes))
}

/// The SHA-256 of a file as lower-case hex, computed by Python's hashlib (no crypto library in this package).
public func sha256OfFile(_ url: URL) async throws -> String {
    try await runPython(
        "import hashlib,sys; h=hashlib.sha256(); f=open(sys.argv[1],'rb')\nfor c in iter(lambda: f.read(1<<20), b''): h.update(c)\nprint(h.hexdigest())",
        url.path)
}

/// The SHA-256 of bytes, by Python's hashlib.
public func sha256(_ data: Data) async throws -> String {
    let file = try temporaryFolder().appendingPathComponent("bytes")
    try data.write(to: file)
    return try await sha256OfFile(file)
}

/// Runs a Python snippet and returns its trimmed standard output.
public func runPython(_ code: String, _ arguments: String...) async throws -> String {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", code] + arguments
    let run = try await process.runToEnd()
    guard run.status == 0 else { throw ServerError("python3 failed: \(code): \(run.errorText)") }
    return run.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The names in `folder`, hidden files included (partial downloads are hidden).
public func fileNames(in folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
}

/// A part of a multipart body as `/multipart` reports it.
public struct ReceivedPart: Decodable, Sendable, Equatable {
    public let name: String?
    public let filename: String?
    public let content_type: String?
    public let length: Int
    public let sha256: String
    public let text: String?
}

/// What `/sink` reports about a body.
public struct SinkReport: Decodable, Sendable {
    public let length: Int
    public let sha256: String
}

/// The size of a file, or `nil`.
public func fileSize(_ url: URL) -> Int64? {
    (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
}
#endif

/// Polls `condition` every 5 ms until it holds; when it still does not after `seconds` (tripled under a sanitizer),
/// records a failure at the caller's line naming the wait, and returns so the caller's assertions report what is
/// missing. The bound is generous: a loaded machine can pause a test for seconds, and a condition that holds costs
/// no waiting. Only the time this task had to run counts (see ``WaitBudget``): a stall of the whole process is not
/// the condition's fault.
public func waitUntil(
    seconds: Double = 30, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column, _ condition: () -> Bool
) async throws {
    var budget = WaitBudget(seconds: seconds * sanitizerSlowdown)
    while !condition() {
        guard budget.remains() else {
            let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            return recordTimeout(seconds, location)
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// ``waitUntil(seconds:fileID:filePath:line:column:_:)`` for a condition that must ask something (a server's
/// counter).
public func waitUntil(
    seconds: Double = 30, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column, asking condition: () async -> Bool
) async throws {
    var budget = WaitBudget(seconds: seconds * sanitizerSlowdown)
    while await !condition() {
        guard budget.remains() else {
            let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            return recordTimeout(seconds, location)
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// The time a polling wait may still take, counting each gap between two polls as at most a quarter of a second.
///
/// A gap far longer than the poll's 5 ms means this task was not run at all: Swift's cooperative threads (two on CI)
/// were all blocked, and so were the tasks that make the condition hold. A CI run failed three tests that way:
/// a 30 s stall of every thread, then each wait found its deadline passed before the task it waited for had run
/// again. Counting only the time the waiter could run keeps a real hang (every gap short) failing after `seconds`.
public struct WaitBudget {
    private var left: Duration
    private let clock: () -> ContinuousClock.Instant
    private var last: ContinuousClock.Instant

    /// A budget of `seconds`, read off `clock` (a test's fake one, or the system's).
    public init(seconds: Double, clock: @escaping () -> ContinuousClock.Instant = { .now }) {
        left = .seconds(seconds)
        self.clock = clock
        last = clock()
    }

    /// Counts the time since the last call (at most 250 ms of it); whether any of the budget is left.
    public mutating func remains() -> Bool {
        let now = clock()
        left -= min(now - last, .milliseconds(250))
        last = now
        return left > .zero
    }
}

/// How much longer a wait may take in a sanitized build (GIRDERS_SANITIZER set), where everything runs slower.
public let sanitizerSlowdown: Double = ProcessInfo.processInfo.environment["GIRDERS_SANITIZER"] == nil ? 1 : 3

private func recordTimeout(_ seconds: Double, _ location: SourceLocation) {
    Issue.record(
        "the awaited condition did not hold within \(seconds * sanitizerSlowdown) s", sourceLocation: location)
}

extension DispatchQueue {
    /// Returns once every block enqueued on this serial queue before the call has run: the condition "everything a
    /// task scheduled on its handler queue has happened", with no sleep.
    public func drained() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            self.async { continuation.resume() }
        }
    }
}

/// The helper executable `name` the build put beside the test bundles (`TransferProbe`, `StorageStress`).
public func testExecutable(_ name: String) -> URL {
    Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent(name)
}

/// The name of the thread this runs on (a synchronous function: `Thread.current` is not for async code).
public func currentThreadName() -> String {
    Thread.current.name ?? ""
}
