import Foundation
import GirdersStorage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Damaged or hostile headers, lost headers and mistaken key files: errors that name the file, and no change.
struct DamagedStoreTests {
    @Test(arguments: [
        UInt32(0x8000_0000 | 600_000),  // one flipped bit: used to trap in Int32(iterations)
        UInt32(Int32.max),  // used to run PBKDF2 for about 15 minutes
        UInt32.max, 10_000_001, 599_999, 0,
    ])
    func anIterationCountOutsideTheDocumentedRangeIsCorruptedNotATrap(_ iterations: UInt32) throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        try FileSecureStorage(folder: folder, key: .passphrase("correct horse")).writeString("v", forKey: "k")
        try setHeaderField(folder, offset: 6, to: iterations)
        let before = try snapshot(folder)
        let error = storageError { _ = try FileSecureStorage(folder: folder, key: .passphrase("correct horse")) }
        #expect(isCorrupted(error, pathSuffix: "store.header", reason: "bytes 6-9: \(iterations) PBKDF2 iterations"))
        #expect(try snapshot(folder) == before)
    }

    @Test func aRawKeyHeaderWithIterationsIsCorrupted() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        _ = try FileSecureStorage(folder: folder, key: rawKey())
        try setHeaderField(folder, offset: 6, to: 5)
        #expect(
            isCorrupted(
                storageError { _ = try FileSecureStorage(folder: folder, key: rawKey()) }, reason: "must be 0"))
    }

    @Test func aPassphraseWithMoreThanTheMaximumIterationsIsRefusedBeforeAnythingIsWritten() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        #expect(
            storageError { _ = try FileSecureStorage(folder: folder, key: .passphrase("p", iterations: 10_000_001)) }
                == .invalidKey(reason: "PBKDF2 needs 600000 to 10000000 iterations, not 10000001"))
        #expect(try snapshot(folder).keys.sorted() == ["store.lock"])
    }

    @Test func aMissingHeaderNeverRecreatesTheStoreOverItsItems() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        try FileSecureStorage(folder: folder, key: .passphrase("the real one")).writeString("v", forKey: "k")
        try FileManager.default.removeItem(at: headerURL(folder))
        let before = try snapshot(folder)
        for key in [StorageKey.passphrase("any passphrase at all"), rawKey()] {
            let error = storageError { _ = try FileSecureStorage(folder: folder, key: key) }
            #expect(isCorrupted(error, pathSuffix: "store.header", reason: "missing while the folder holds items-1"))
        }
        #expect(try snapshot(folder) == before)
        #expect(try itemFiles(folder).count == 1)
    }

    @Test func aFolderThatIsNotEmptyAndNotAStoreIsRefusedAndLeftAsItWas() throws {
        let folder = try temporaryFolder()
        try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let error = storageError { _ = try FileSecureStorage(folder: folder, key: rawKey()) }
        #expect(isRefused(error, path: folder.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
    }

    @Test func aStoreIsCreatedBesideItsOwnKeyFileAndDotFiles() throws {
        let folder = try temporaryFolder()
        try Data().write(to: folder.appendingPathComponent(".DS_Store"))
        let keyFile = folder.appendingPathComponent("secrets.key")
        try FileSecureStorage(folder: folder, key: .keyFile(keyFile)).writeString("v", forKey: "k")
        #expect(try FileSecureStorage(folder: folder, key: .keyFile(keyFile)).readString(forKey: "k") == "v")
    }

    @Test func aWrongKeyFilePathCreatesNothingAndNamesThePath() throws {
        let base = try temporaryFolder()
        let folder = base.appendingPathComponent("store")
        let keyFile = base.appendingPathComponent("secrets.key")
        let mistyped = base.appendingPathComponent("secret.key")
        try FileSecureStorage(folder: folder, key: .keyFile(keyFile)).writeString("v", forKey: "k")
        let before = try snapshot(base)
        #expect(
            storageError { _ = try FileSecureStorage(folder: folder, key: .keyFile(mistyped)) }
                == .keyFileMissing(path: mistyped.path))
        #expect(try snapshot(base) == before)
        #expect(!FileManager.default.fileExists(atPath: mistyped.path))
    }

    @Test func aKeyFileThatIsAFifoOrHasTheWrongSizeIsRefusedWithoutBlocking() throws {
        let base = try temporaryFolder()
        let fifo = base.appendingPathComponent("fifo.key")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let folder = base.appendingPathComponent("store")
        let error = withoutHanging { storageError { _ = try FileSecureStorage(folder: folder, key: .keyFile(fifo)) } }
        #expect(error != nil, "opening a store with a FIFO key file blocked")
        guard case .invalidKey(let reason)?? = error else {
            Issue.record("expected invalidKey, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("not a regular file"))
        let long = base.appendingPathComponent("long.key")
        try Data(repeating: 1, count: 33).write(to: long)
        chmod(long.path, 0o600)
        guard case .invalidKey = storageError({ _ = try FileSecureStorage(folder: folder, key: .keyFile(long)) }) else {
            Issue.record("a 33-byte key file was accepted")
            return
        }
    }

    @Test func aHeaderThatIsAFifoOrALinkIsCorruptedWithoutBlocking() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        _ = try FileSecureStorage(folder: folder, key: rawKey())
        let saved = try Data(contentsOf: headerURL(folder))
        let elsewhere = try temporaryFolder().appendingPathComponent("header-copy")
        try saved.write(to: elsewhere)
        try FileManager.default.removeItem(at: headerURL(folder))
        #expect(mkfifo(headerURL(folder).path, 0o600) == 0)
        let error = withoutHanging { storageError { _ = try FileSecureStorage(folder: folder, key: rawKey()) } }
        #expect(isCorrupted(error ?? nil, pathSuffix: "store.header", reason: "not a regular file"))
        try FileManager.default.removeItem(at: headerURL(folder))
        try FileManager.default.createSymbolicLink(at: headerURL(folder), withDestinationURL: elsewhere)
        #expect(
            isCorrupted(
                storageError { _ = try FileSecureStorage(folder: folder, key: rawKey()) },
                pathSuffix: "store.header", reason: "symbolic link"))
    }

    @Test func errorDescriptionsEscapeControlCharactersSoAKeyCannotForgeALogLine() {
        let description = StorageError.notFound(key: "k\nGirdersStorage: all good\u{2028}").description
        #expect(description == "no value stored for 'k\\u{A}GirdersStorage: all good\\u{2028}'")
        #expect(!description.contains("\n"))
    }
}
