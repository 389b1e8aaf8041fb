#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersStorage
import Testing

/// A store written by Swift, read by Python's `cryptography` package following only FORMAT.md.
@Suite(.requires(.cryptography))
struct IndependentDecryptionTests {
    func pythonRead(
        _ folder: URL, _ mode: String, _ secret: String, _ name: String
    ) async throws -> (status: Int32, output: Data) {
        try await runPython("decrypt_store", [folder.path, mode, secret, name])
    }

    @Test func pythonDecryptsARawKeyStoreFromTheFormatDescriptionAlone() async throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let key = Data((0..<32).map { UInt8($0 * 7 & 0xFF) })
        let storage = try FileSecureStorage(folder: folder, key: .raw(key))
        let value = Data("refresh token ✓ \u{0}\u{1} end".utf8)
        try storage.writeData(value, forKey: "refresh-token")
        try storage.writeData(Data(), forKey: "empty")
        let hex = key.map { String(format: "%02x", $0) }.joined()
        let read = try await pythonRead(folder, "raw", hex, "refresh-token")
        #expect(read.status == 0)
        #expect(read.output == value)
        #expect(try await pythonRead(folder, "raw", hex, "empty").output == Data())
        #expect(try await pythonRead(folder, "raw", String(repeating: "00", count: 32), "refresh-token").status != 0)
    }

    @Test func pythonDecryptsAPassphraseStoreAfterRekeying() async throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: .raw(Data(repeating: 1, count: 32)))
        try storage.writeString("s3cr3t", forKey: "password")
        try storage.rekey(to: .passphrase("correct horse battery staple"))
        let read = try await pythonRead(folder, "passphrase", "correct horse battery staple", "password")
        #expect(read.status == 0)
        #expect(String(decoding: read.output, as: UTF8.self) == "s3cr3t")
    }

    @Test func pythonDecryptsAKeyFileStoreAndNormalisesPassphrasesAndNamesToNFC() async throws {
        let base = try temporaryFolder()
        let keyFile = base.appendingPathComponent("secrets.key")
        let folder = base.appendingPathComponent("store")
        let storage = try FileSecureStorage(folder: folder, key: .keyFile(keyFile))
        try storage.writeString("k\u{E4}se", forKey: "caf\u{E9}")
        let read = try await pythonRead(folder, "keyfile", keyFile.path, "cafe\u{301}")
        #expect(read.status == 0)
        #expect(String(decoding: read.output, as: UTF8.self) == "k\u{E4}se")
        try storage.rekey(to: .passphrase("cr\u{E8}me br\u{FB}l\u{E9}e"))
        // Decomposed on the Python side: PBKDF2 runs over the NFC bytes on both sides.
        let fromPassphrase = try await pythonRead(
            folder, "passphrase", "cre\u{300}me bru\u{302}le\u{301}e", "caf\u{E9}")
        #expect(fromPassphrase.status == 0)
        #expect(String(decoding: fromPassphrase.output, as: UTF8.self) == "k\u{E4}se")
        let decomposed = StorageKey.passphrase("cre\u{300}me bru\u{302}le\u{301}e")
        #expect(try FileSecureStorage(folder: folder, key: decomposed).readString(forKey: "caf\u{E9}") == "k\u{E4}se")
    }
}
#endif
