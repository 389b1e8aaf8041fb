import Foundation
import GirdersStorage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The folder and its files are what they claim to be: links, FIFOs, devices, foreign owners and oversized files
/// are errors, never a hang, a flood of memory or a file written elsewhere.
struct StoreFilesTests {
    @Test func aStoreFolderThatIsASymbolicLinkIsRefused() throws {
        let base = try temporaryFolder()
        let real = base.appendingPathComponent("real")
        _ = try FileSecureStorage(folder: real, key: rawKey())
        let link = base.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        #expect(isRefused(storageError { _ = try FileSecureStorage(folder: link, key: rawKey()) }, path: link.path))
    }

    @Test func aStoreFolderOwnedByAnotherUserIsRefusedAndNotTouched() throws {
        let folder: URL
        if geteuid() == 0 {
            folder = try temporaryFolder().appendingPathComponent("foreign")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            #expect(chown(folder.path, 65_534, 65_534) == 0)
        } else {
            folder = URL(fileURLWithPath: "/usr/share")
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(isRefused(storageError { _ = try FileSecureStorage(folder: folder, key: rawKey()) }, path: folder.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == before)
    }

    @Test func aStoreFolderOfOursThatOthersCanEnterIsTightenedTo0700() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        try FileSecureStorage(folder: folder, key: rawKey()).writeString("v", forKey: "k")
        #expect(try mode(folder) == 0o700)
    }

    @Test func aLockFileThatIsALinkOrAFifoIsRefusedAndNothingIsCreatedElsewhere() throws {
        let base = try temporaryFolder()
        let folder = base.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let target = base.appendingPathComponent("outside")
        let lock = folder.appendingPathComponent("store.lock")
        try FileManager.default.createSymbolicLink(at: lock, withDestinationURL: target)
        #expect(isRefused(storageError { _ = try FileSecureStorage(folder: folder, key: rawKey()) }, path: lock.path))
        #expect(!FileManager.default.fileExists(atPath: target.path))
        try FileManager.default.removeItem(at: lock)
        #expect(mkfifo(lock.path, 0o600) == 0)
        let error = withoutHanging { storageError { _ = try FileSecureStorage(folder: folder, key: rawKey()) } }
        #expect(isRefused(error ?? nil, path: lock.path))
    }

    @Test func anItemThatIsAFifoIsCorruptedAndTheReadDoesNotBlock() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: rawKey())
        try storage.writeString("v", forKey: "k")
        let item = try #require(try itemFiles(folder).first)
        try FileManager.default.removeItem(at: item)
        #expect(mkfifo(item.path, 0o600) == 0)
        let error = withoutHanging { storageError { _ = try storage.readData(forKey: "k") } }
        #expect(isCorrupted(error ?? nil, pathSuffix: item.lastPathComponent, reason: "not a regular file"))
        let listing = withoutHanging { storageError { _ = try storage.allKeys() } }
        #expect(isCorrupted(listing ?? nil, reason: "not a regular file"))
    }

    @Test func anItemLinkedToADeviceOrAnotherFileIsCorrupted() throws {
        let base = try temporaryFolder()
        let folder = base.appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: rawKey())
        try storage.writeString("v", forKey: "k")
        let item = try #require(try itemFiles(folder).first)
        let copy = base.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: item, to: copy)
        for target in [URL(fileURLWithPath: "/dev/zero"), copy] {
            try FileManager.default.removeItem(at: item)
            try FileManager.default.createSymbolicLink(at: item, withDestinationURL: target)
            #expect(
                isCorrupted(storageError { _ = try storage.readData(forKey: "k") }, reason: "symbolic link"),
                "\(target.path)")
        }
    }

    @Test func anItemFileOfTwoGibibytesOrMoreIsCorruptedWithoutBeingRead() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: rawKey())
        try storage.writeString("v", forKey: "k")
        let item = try #require(try itemFiles(folder).first)
        #expect(truncate(item.path, 3 << 30) == 0)  // sparse: costs no disk
        #expect(isCorrupted(storageError { _ = try storage.readData(forKey: "k") }, reason: "more than the"))
        #expect(isCorrupted(storageError { _ = try storage.allKeys() }, reason: "more than the"))
    }

    @Test func aValueOfTwoGibibytesIsTooLargeAndNothingIsWritten() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: rawKey())
        let huge = Data(count: Int(Int32.max))  // calloc'd: no page is touched unless the code reads it
        guard
            case .tooLarge(let key, let bytes, let limit) = storageError({ try storage.writeData(huge, forKey: "big") })
        else {
            Issue.record("a 2 GiB value was not refused as too large")
            return
        }
        #expect(key == "big" && bytes == Int(Int32.max) && limit == Int(Int32.max) - 37 - 3)
        #expect(try itemFiles(folder).isEmpty)
    }
}
