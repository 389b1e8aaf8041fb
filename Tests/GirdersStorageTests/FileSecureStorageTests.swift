import Foundation
import GirdersStorage
import Testing

struct FileSecureStorageTests {
    @Test func aWrongKeyIsItsOwnErrorAndChangesNothing() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: rawKey(1))
        try storage.writeString("secret", forKey: "token")
        let before = try snapshot(folder)
        #expect(
            storageError { _ = try FileSecureStorage(folder: folder, key: rawKey(2)) }
                == .wrongKey(path: folder.appendingPathComponent("store.header").path))
        #expect(
            storageError { _ = try FileSecureStorage(folder: folder, key: .passphrase("secret")) }
                == .wrongKey(path: folder.appendingPathComponent("store.header").path))
        #expect(try snapshot(folder) == before)
        #expect(try FileSecureStorage(folder: folder, key: rawKey(1)).readString(forKey: "token") == "secret")
    }

    @Test func aPassphraseIsStretchedWithPBKDF2AndAWrongOneIsRefused() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        try FileSecureStorage(folder: folder, key: .passphrase("correct horse")).writeString("v", forKey: "k")
        let header = try Data(contentsOf: folder.appendingPathComponent("store.header"))
        #expect(header[5] == 1)
        #expect(header[6..<10].reduce(0) { $0 << 8 | Int($1) } == 600_000)
        #expect(try FileSecureStorage(folder: folder, key: .passphrase("correct horse")).readString(forKey: "k") == "v")
        #expect(
            storageError { _ = try FileSecureStorage(folder: folder, key: .passphrase("wrong horse")) }
                == .wrongKey(path: folder.appendingPathComponent("store.header").path))
    }

    @Test func unusableKeyMaterialIsRefused() throws {
        let folder = try temporaryFolder()
        #expect(
            storageError {
                _ = try FileSecureStorage(folder: folder.appendingPathComponent("a"), key: .raw(Data(count: 16)))
            } == .invalidKey(reason: "a raw key has 32 bytes, not 16"))
        #expect(
            storageError {
                _ = try FileSecureStorage(
                    folder: folder.appendingPathComponent("b"), key: .passphrase("x", iterations: 1000))
            } == .invalidKey(reason: "PBKDF2 needs 600000 to 10000000 iterations, not 1000"))
        let loose = folder.appendingPathComponent("loose.key")
        try Data(repeating: 1, count: 32).write(to: loose)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: loose.path)
        #expect(
            storageError {
                _ = try FileSecureStorage(folder: folder.appendingPathComponent("c"), key: .keyFile(loose))
            }?.description.contains("readable by others") == true)
    }

    @Test func aKeyFileIsCreatedOnFirstUseWithMode0600AndReused() throws {
        let folder = try temporaryFolder()
        let keyFile = folder.appendingPathComponent("secrets.key")
        let store = folder.appendingPathComponent("store")
        try FileSecureStorage(folder: store, key: .keyFile(keyFile)).writeString("v", forKey: "k")
        #expect(try mode(keyFile) == 0o600)
        #expect(try Data(contentsOf: keyFile).count == 32)
        #expect(try FileSecureStorage(folder: store, key: .keyFile(keyFile)).readString(forKey: "k") == "v")
    }

    @Test func filesAre0600FoldersAre0700AndKeyNamesAreNotReadable() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: rawKey())
        try storage.writeString("super-secret-value", forKey: "refresh-token-for-ada")
        #expect(try mode(folder) == 0o700)
        #expect(try mode(folder.appendingPathComponent("items-1")) == 0o700)
        for (path, bytes) in try snapshot(folder) {
            #expect(try mode(folder.appendingPathComponent(path)) == 0o600, "\(path)")
            let text = String(decoding: bytes, as: UTF8.self) + path
            #expect(!text.contains("refresh-token") && !text.contains("super-secret"), "\(path)")
        }
    }

    @Test func everyRegionOfAnItemFileIsTamperEvident() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: rawKey())
        try storage.writeString("value", forKey: "k")
        let items = folder.appendingPathComponent("items-1")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: items.path).first)
        let url = items.appendingPathComponent(name)
        let original = try Data(contentsOf: url)
        // magic, version, nonce, name length, name, value, tag
        for offset in [0, 4, 5, 16, 17, 21, 22, original.count - 17, original.count - 1] {
            var damaged = original
            damaged[offset] ^= 0x01
            try damaged.write(to: url)
            guard case .corrupted(let path, _) = storageError({ _ = try storage.readData(forKey: "k") }) else {
                Issue.record("offset \(offset) was not detected")
                continue
            }
            #expect(path == url.path)
        }
        for length in [0, 10, 20, original.count - 1] {
            try original.prefix(length).write(to: url)
            #expect(
                storageError { _ = try storage.readData(forKey: "k") }.map {
                    if case .corrupted = $0 { true } else { false }
                } == true, "truncated to \(length)")
        }
        try Data("not a store file at all".utf8).write(to: url)
        #expect(
            storageError { _ = try storage.readData(forKey: "k") }.map {
                if case .corrupted = $0 { true } else { false }
            } == true)
        try original.write(to: url)
        #expect(try storage.readString(forKey: "k") == "value")
    }

    @Test func anItemMovedToAnotherNameIsDetected() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: rawKey())
        try storage.writeString("a-value", forKey: "a")
        try storage.writeString("b-value", forKey: "b")
        let items = folder.appendingPathComponent("items-1")
        let names = try FileManager.default.contentsOfDirectory(atPath: items.path).sorted()
        let first = try Data(contentsOf: items.appendingPathComponent(names[0]))
        try first.write(to: items.appendingPathComponent(names[1]))
        let failures = ["a", "b"].compactMap { key in storageError { _ = try storage.readData(forKey: key) } }
        #expect(failures.count == 1)
    }

    @Test func everyRegionOfTheHeaderIsCheckedAndNothingIsChanged() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        try FileSecureStorage(folder: folder, key: rawKey()).writeString("v", forKey: "k")
        let url = folder.appendingPathComponent("store.header")
        let original = try Data(contentsOf: url)
        for offset in [0, 4, 5, 9, 10, 29, 30, 45, 57] {
            var damaged = original
            damaged[offset] ^= 0x01
            try damaged.write(to: url)
            let error = storageError { _ = try FileSecureStorage(folder: folder, key: rawKey()) }
            switch error {
            case .corrupted, .wrongKey: break
            default: Issue.record("header offset \(offset): \(String(describing: error))")
            }
            #expect(try Data(contentsOf: url) == damaged)
        }
        try original.prefix(20).write(to: url)
        #expect(
            storageError { _ = try FileSecureStorage(folder: folder, key: rawKey()) }
                == .corrupted(path: url.path, reason: "the header has 20 bytes, not 58"))
    }

    @Test func rekeyingKeepsEveryValueAndRetiresTheOldKey() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: rawKey(1))
        for index in 0..<20 { try storage.writeString("value \(index)", forKey: "key \(index)") }
        try storage.rekey(to: rawKey(2))
        #expect(try storage.readString(forKey: "key 7") == "value 7")
        #expect(
            storageError { _ = try FileSecureStorage(folder: folder, key: rawKey(1)) }
                == .wrongKey(path: folder.appendingPathComponent("store.header").path))
        let reopened = try FileSecureStorage(folder: folder, key: rawKey(2))
        #expect(try reopened.allKeys().count == 20)
        #expect(try reopened.readString(forKey: "key 19") == "value 19")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "items-2", "store.header", "store.lock",
            ])
        #expect(storageError { _ = try FileSecureStorage(folder: folder, key: rawKey(1)) } != nil)
    }

    @Test func aStoreRekeyedElsewhereIsNoticedByAnOpenInstance() throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let first = try FileSecureStorage(folder: folder, key: rawKey(1))
        let second = try FileSecureStorage(folder: folder, key: rawKey(1))
        try first.writeString("v", forKey: "k")
        try second.rekey(to: rawKey(3))
        #expect(
            storageError { _ = try first.readData(forKey: "k") }
                == .wrongKey(path: folder.appendingPathComponent("store.header").path))
    }

    @Test func aFolderThatCannotBeCreatedIsUnavailableNamingThePath() throws {
        let file = try temporaryFolder().appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        let error = storageError {
            _ = try FileSecureStorage(folder: file.appendingPathComponent("store"), key: rawKey())
        }
        guard case .unavailable(let reason) = error else {
            Issue.record("expected unavailable, got \(String(describing: error))")
            return
        }
        #expect(reason.contains(file.appendingPathComponent("store").path))
        #expect(
            StorageError.unavailable(reason: reason).description.hasPrefix("secure storage unavailable: create folder"))
    }

    @Test func theNonThrowingAPIReportsFailuresToTheDiagnosticsHandler() throws {
        let storage = try FileSecureStorage(
            folder: try temporaryFolder().appendingPathComponent("store"), key: rawKey())
        let key = "binary-\(UUID().uuidString)"
        try storage.writeData(Data([0xFF]), forKey: key)
        let reported = LockedErrors()
        StorageDiagnostics.handler = { reported.append($0) }
        defer { StorageDiagnostics.handler = nil }
        #expect(storage.string(forKey: key) == nil)
        #expect(storage.string(forKey: "missing") == nil)
        #expect(
            reported.values.filter { $0 == .codingFailed(key: key, reason: "the stored bytes are not UTF-8 text") }
                .count == 1)
        #expect(!reported.values.contains(.notFound(key: "missing")))
    }

    @Test func biometricCallsOutsideTheKeychainAreUnsupported() throws {
        do {
            let storage = try FileSecureStorage(
                folder: try temporaryFolder().appendingPathComponent("store"), key: rawKey())
            #expect(
                storageError { try storage.saveWithBiometricProtection(Data(), forKey: "k") }
                    == .unsupported(feature: "biometric protection needs the Apple keychain"))
            #expect(
                storageError { _ = try InMemorySecureStorage().readWithBiometricProtection(forKey: "k", prompt: "p") }
                    == .unsupported(feature: "biometric protection needs the Apple keychain"))
        }
    }
}

/// Errors collected from any thread.
final class LockedErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [StorageError] = []

    func append(_ error: StorageError) { lock.withLock { errors.append(error) } }
    var values: [StorageError] { lock.withLock { errors } }
}
