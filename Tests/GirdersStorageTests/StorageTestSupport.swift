import Foundation
import GirdersStorage
import Testing

/// The folder every temporary folder of this test run lives in; removed when the test process exits, so a
/// full run leaves nothing in the system's temporary folder.
let testRunFolder: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "girders-storage-run-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: testRunFolder) }
    return folder
}()

/// A new empty temporary folder.
func temporaryFolder() throws -> URL {
    let folder = testRunFolder.appendingPathComponent("girders-storage-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// A raw 256-bit key made of one repeated byte.
func rawKey(_ byte: UInt8 = 7) -> StorageKey {
    .raw(Data(repeating: byte, count: 32))
}

/// The `StorageError` `body` throws, or `nil`.
func storageError(_ body: () throws -> Void) -> StorageError? {
    do {
        try body()
        return nil
    } catch {
        return error as? StorageError
    }
}

/// Every file below `folder` with its bytes.
func snapshot(_ folder: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    while let path = enumerator?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        let url = folder.appendingPathComponent(path)
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            result[path] = try Data(contentsOf: url)
        }
    }
    return result
}

/// The POSIX permission bits of a file or folder.
func mode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// The `store.header` of the store in `folder`.
func headerURL(_ folder: URL) -> URL {
    folder.appendingPathComponent("store.header")
}

/// The item files of the store in `folder`, generation `generation`.
func itemFiles(_ folder: URL, generation: Int = 1) throws -> [URL] {
    let items = folder.appendingPathComponent("items-\(generation)")
    return try FileManager.default.contentsOfDirectory(atPath: items.path).filter { !$0.hasPrefix(".") }.sorted()
        .map { items.appendingPathComponent($0) }
}

/// Replaces the big-endian 32-bit field at `offset` of the header.
func setHeaderField(_ folder: URL, offset: Int, to value: UInt32) throws {
    var bytes = try Data(contentsOf: headerURL(folder))
    for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
    try bytes.write(to: headerURL(folder))
}

/// Runs `body` on a thread of its own and waits at most `seconds` for it: a test of "never blocks" that ends
/// even when the code under test does block. `nil` when it did not finish in time.
func withoutHanging<Result: Sendable>(
    seconds: Double = 30, _ body: @escaping @Sendable () -> Result
) -> Result? {
    let box = ResultBox<Result>()
    let done = DispatchSemaphore(value: 0)
    Thread {
        box.set(body())
        done.signal()
    }.start()
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return box.get()
}

/// One value handed from a thread to the test.
final class ResultBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value? { lock.withLock { value } }
}

/// Whether `error` is `corrupted` with a path ending in `suffix` and a reason containing `reason`.
func isCorrupted(_ error: StorageError?, pathSuffix: String = "", reason: String = "") -> Bool {
    guard case .corrupted(let path, let text) = error else { return false }
    return path.hasSuffix(pathSuffix) && (reason.isEmpty || text.contains(reason))
}

/// Whether `error` is `refused` for `path`.
func isRefused(_ error: StorageError?, path: String) -> Bool {
    if case .refused(let refusedPath, _) = error { return refusedPath == path }
    return false
}
