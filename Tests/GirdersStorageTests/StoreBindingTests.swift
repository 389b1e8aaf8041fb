import Foundation
import Testing

@testable import GirdersStorage

#if canImport(Glibc)
import Glibc
#endif

/// Items belong to one store and one name; re-keys by other instances are noticed by content; a re-key whose
/// last step fails says so without losing the new key.
struct StoreBindingTests {
    @Test func anItemCopiedFromAnotherStoreWithTheSameRawKeyIsCorrupted() throws {
        let base = try temporaryFolder()
        let first = try FileSecureStorage(folder: base.appendingPathComponent("first"), key: rawKey())
        let second = try FileSecureStorage(folder: base.appendingPathComponent("second"), key: rawKey())
        try first.writeString("first's token", forKey: "token")
        try second.writeString("second's token", forKey: "token")
        let target = try #require(try itemFiles(base.appendingPathComponent("first")).first)
        let foreign = try #require(try itemFiles(base.appendingPathComponent("second")).first)
        #expect(target.lastPathComponent == foreign.lastPathComponent)  // same raw key, same file name
        try FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: foreign, to: target)
        #expect(
            isCorrupted(storageError { _ = try first.readData(forKey: "token") }, reason: "another store or name"))
    }

    @Test func anItemFromBeforeAReKeyToTheSameKeyIsCorrupted() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: rawKey())
        try storage.writeString("old", forKey: "token")
        let old = try Data(contentsOf: try #require(try itemFiles(folder).first))
        try storage.rekey(to: rawKey())
        try storage.writeString("new", forKey: "token")
        let current = try #require(try itemFiles(folder, generation: 2).first)
        try old.write(to: current)
        #expect(isCorrupted(storageError { _ = try storage.readData(forKey: "token") }))
    }

    /// An item sealed under the store's keys for one name but stored under another name's file: the tag verifies
    /// (the file name is authenticated, and it is the right one), only the name check can catch it.
    @Test func listingAndReKeyingCheckTheEmbeddedNameAgainstTheFileName() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: rawKey())
        try storage.writeString("a", forKey: "alpha")
        let header = try StoreHeader.parse(Array(try Data(contentsOf: headerURL(folder))), path: "header")
        let keys = try StoreKeys(master: [UInt8](repeating: 7, count: 32), header: header)
        let file = try #require(try itemFiles(folder).first)
        var forged: [UInt8] = []
        try StoreItem.seal(
            name: "beta", value: Data("b".utf8), fileName: file.lastPathComponent, context: keys.item, into: &forged)
        try Data(forged).write(to: file)
        let reason = "the embedded name does not belong to this file name"
        #expect(isCorrupted(storageError { _ = try storage.allKeys() }, reason: reason))
        #expect(isCorrupted(storageError { try storage.rekey(to: rawKey(9)) }, reason: reason))
        #expect(isCorrupted(storageError { _ = try storage.readData(forKey: "alpha") }, reason: reason))
        // The failed re-key changed nothing: the same key still opens the store, generation 1.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "items-1", "store.header", "store.lock",
            ])
    }

    /// Another instance re-keys K1 → K2 → K1 and the new header gets the old header's inode (ext4 may do that;
    /// here a hard link makes it certain). The first instance must not trust the inode.
    @Test(arguments: [false, true])
    func aReKeyElsewhereIsNoticedEvenWhenTheHeaderKeepsItsInode(passphrase: Bool) throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let first: StorageKey = passphrase ? .passphrase("first") : rawKey(1)
        let second: StorageKey = passphrase ? .passphrase("second") : rawKey(2)
        let earlier = try FileSecureStorage(folder: folder, key: first)
        try earlier.writeString("v", forKey: "k")
        let keep = folder.appendingPathComponent(".keep")
        #expect(link(headerURL(folder).path, keep.path) == 0)  // the old inode stays allocated
        let other = try FileSecureStorage(folder: folder, key: first)
        try other.rekey(to: second)
        try other.rekey(to: first)
        try other.writeString("w", forKey: "k2")
        let newest = try Data(contentsOf: headerURL(folder))
        let handle = try FileHandle(forWritingTo: keep)  // rewrite the old inode in place ...
        try handle.write(contentsOf: newest)
        try handle.close()
        #expect(rename(keep.path, headerURL(folder).path) == 0)  // ... and make it the header again
        if passphrase {
            // A new salt makes a new key from the same passphrase: this instance cannot follow.
            #expect(storageError { _ = try earlier.readData(forKey: "k") } == .wrongKey(path: headerURL(folder).path))
            #expect(
                storageError { try earlier.writeString("x", forKey: "k") } == .wrongKey(path: headerURL(folder).path))
        } else {
            // The same raw key opens the new header: this instance follows it.
            #expect(try earlier.readString(forKey: "k") == "v")
            #expect(try earlier.readString(forKey: "k2") == "w")
            try earlier.writeString("x", forKey: "k3")
            #expect(try other.readString(forKey: "k3") == "x")
        }
    }

    @Test func aReKeyWhoseFinalFolderSyncFailsSucceedsAndWarnsThatTheNewKeyIsInEffect() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: rawKey(1))
        try storage.writeString("v", forKey: "k")
        let storePath = folder.standardizedFileURL.path
        let header = headerURL(folder)
        // Fails the store folder's fsync only once the header of generation 2 is in place: the last step.
        DurableFile.injectedFolderSyncFailure.value = { path in
            path == storePath && (try? Data(contentsOf: header))?[29] == 2
        }
        let warnings = LockedErrors()
        StorageDiagnostics.handler = { warnings.append($0) }
        defer {
            DurableFile.injectedFolderSyncFailure.value = nil
            StorageDiagnostics.handler = nil
        }
        try storage.rekey(to: rawKey(2))
        DurableFile.injectedFolderSyncFailure.value = nil
        #expect(try storage.readString(forKey: "k") == "v")
        try storage.writeString("w", forKey: "k")
        #expect(try FileSecureStorage(folder: folder, key: rawKey(2)).readString(forKey: "k") == "w")
        let warning = try #require(warnings.values.first { $0.description.contains("the one to keep") })
        #expect(warning.description.contains("generation 2"))
    }

    @Test func secretsAreWipedInPlace() {
        var key = [UInt8](repeating: 0xA5, count: 32)
        Secret.wipe(&key)
        #expect(key == [UInt8](repeating: 0, count: 32))
    }
}
