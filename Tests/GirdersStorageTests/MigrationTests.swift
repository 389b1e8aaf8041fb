#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersStorage
import Testing

/// Version 1 stores, written by an independent Python writer from FORMAT.md, open and become version 2.
@Suite(.requires(.cryptography))
struct MigrationTests {
    static let keyHex = String(repeating: "5a", count: 32)

    @Test func aVersionOneStoreOpensKeepsEveryValueAndIsMigratedToVersionTwo() async throws {
        let folder = try temporaryFolder().appendingPathComponent("store")
        #expect(
            try await runPython("write_v1_store", [folder.path, Self.keyHex, "token=t0k3n", "user=ada"]).status == 0)
        let key = StorageKey.raw(Data(repeating: 0x5A, count: 32))
        let storage = try FileSecureStorage(folder: folder, key: key)
        #expect(try storage.readString(forKey: "token") == "t0k3n")
        #expect(try storage.allKeys() == ["token", "user"])
        let header = try Data(contentsOf: headerURL(folder))
        #expect(header[4] == 2 && header[29] == 2)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "items-2", "store.header", "store.lock",
            ])
        #expect(try itemFiles(folder, generation: 2).allSatisfy { try Data(contentsOf: $0)[4] == 2 })
        let read = try await runPython("decrypt_store", [folder.path, "raw", Self.keyHex, "user"])
        #expect(read.status == 0 && read.output == Data("ada".utf8))
        #expect(try FileSecureStorage(folder: folder, key: key).readString(forKey: "user") == "ada")
    }
}
#endif
