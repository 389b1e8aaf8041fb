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
