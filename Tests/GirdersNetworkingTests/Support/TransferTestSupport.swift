#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestProcesses
import GirdersNetworking
import Testing

/// The folder every temporary folder of this test run lives in; removed when the test process exits, so a
/// full run leaves nothing in the system's temporary folder.
let testRunFolder: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("girders-net-run-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: testRunFolder) }
    return folder
}()

/// A new empty folder under the system's temporary folder.
func temporaryFolder() throws -> URL {
    let folder = testRunFolder.appendingPathComponent("girders-net-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Writes `megabytes` MiB of a non-repeating pattern to `url` one MiB at a time.
func writePatternFile(_ url: URL, megabytes: Int) throws {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw ServerError("cannot create \(url.path)")
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<megabytes {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        for index in stride(from: 0, to: chunk.count, by: 8) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            withUnsafeBytes(of: state) { bytes in
                for offset in 0..<8 { chunk[index + offset] = bytes[offset] }
            }
        }
        try handle.write(contentsOf: chunk)
    }
}

/// The SHA-256 of a file as lower-case hex, computed by Python's hashlib (no crypto library in this package).
func sha256OfFile(_ url: URL) throws -> String {
    try runPython(
        "import hashlib,sys; h=hashlib.sha256(); f=open(sys.argv[1],'rb')\nfor c in iter(lambda: f.read(1<<20), b''): h.update(c)\nprint(h.hexdigest())",
        url.path)
}

/// The SHA-256 of bytes, by Python's hashlib.
func sha256(_ data: Data) throws -> String {
    let file = try temporaryFolder().appendingPathComponent("bytes")
    try data.write(to: file)
    return try sha256OfFile(file)
}

/// Runs a Python snippet and returns its trimmed standard output.
func runPython(_ code: String, _ arguments: String...) throws -> String {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", code] + arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw ServerError("python3 failed: \(code)") }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The names in `folder`, hidden files included (partial downloads are hidden).
func fileNames(in folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
}

/// A part of a multipart body as `/multipart` reports it.
struct ReceivedPart: Decodable, Sendable, Equatable {
    let name: String?
    let filename: String?
    let content_type: String?
    let length: Int
    let sha256: String
    let text: String?
}

/// What `/sink` reports about a body.
struct SinkReport: Decodable, Sendable {
    let length: Int
    let sha256: String
}

/// The size of a file, or `nil`.
func fileSize(_ url: URL) -> Int64? {
    (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
}
#endif

/// Polls `condition` every 5 ms until it holds; when it still does not after `seconds` (tripled under a sanitizer),
/// records a failure at the caller's line naming the wait, and returns so the caller's assertions report what is
/// missing. The bound is generous: a loaded machine can pause a test for seconds, and a condition that holds costs
/// no waiting.
func waitUntil(
    seconds: Double = 30, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column, _ condition: () -> Bool
) async throws {
    let end = ContinuousClock.now + .seconds(seconds * sanitizerSlowdown)
    while !condition() {
        guard ContinuousClock.now < end else {
            let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            return recordTimeout(seconds, location)
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// ``waitUntil(seconds:fileID:filePath:line:column:_:)`` for a condition that must ask something (a server's
/// counter).
func waitUntil(
    seconds: Double = 30, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column, asking condition: () async -> Bool
) async throws {
    let end = ContinuousClock.now + .seconds(seconds * sanitizerSlowdown)
    while await !condition() {
        guard ContinuousClock.now < end else {
            let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            return recordTimeout(seconds, location)
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// How much longer a wait may take in a sanitized build (GIRDERS_SANITIZER set), where everything runs slower.
let sanitizerSlowdown: Double = ProcessInfo.processInfo.environment["GIRDERS_SANITIZER"] == nil ? 1 : 3

private func recordTimeout(_ seconds: Double, _ location: SourceLocation) {
    Issue.record(
        "the awaited condition did not hold within \(seconds * sanitizerSlowdown) s", sourceLocation: location)
}

extension DispatchQueue {
    /// Returns once every block enqueued on this serial queue before the call has run: the condition "everything a
    /// task scheduled on its handler queue has happened", with no sleep.
    func drained() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            self.async { continuation.resume() }
        }
    }
}

/// Runs `work`, which blocks (a child process, a file's end), on a dispatch thread instead of one of Swift's
/// cooperative threads: a test that blocks those starves every other test of the run (two of them on two cores).
func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}
