import Foundation
import GirdersStorage
import Testing

/// The behaviour every `SecureStorage` must have, run against each implementation.
struct ConformanceTests {
    struct Credentials: Codable, Equatable {
        let user: String
        let password: String
        let expires: Date
    }

    enum Kind: String, CaseIterable, CustomStringConvertible {
        case inMemory, file
        var description: String { rawValue }

        func make() throws -> any SecureStorage {
            switch self {
            case .inMemory: InMemorySecureStorage()
            case .file:
                try FileSecureStorage(folder: try temporaryFolder().appendingPathComponent("store"), key: rawKey())
            }
        }
    }

    @Test(arguments: Kind.allCases)
    func stringsDataCodableAndEmptyValuesRoundTrip(_ kind: Kind) throws {
        let storage = try kind.make()
        try storage.writeString("t0k3n ✓ 漢字", forKey: "token")
        try storage.writeData(Data([0, 1, 2, 255]), forKey: "blob")
        try storage.writeData(Data(), forKey: "empty")
        try storage.writeString("", forKey: "empty string")
        let credentials = Credentials(
            user: "ada", password: "p\"w\n", expires: Date(timeIntervalSince1970: 1_800_000_000))
        try storage.set(credentials, forKey: "credentials")
        #expect(try storage.readString(forKey: "token") == "t0k3n ✓ 漢字")
        #expect(try storage.readData(forKey: "blob") == Data([0, 1, 2, 255]))
        #expect(try storage.readData(forKey: "empty") == Data())
        #expect(try storage.readString(forKey: "empty string") == "")
        #expect(try storage.value(Credentials.self, forKey: "credentials") == credentials)
        #expect(try storage.allKeys() == ["blob", "credentials", "empty", "empty string", "token"])
    }

    @Test(arguments: Kind.allCases)
    func girdersSwiftsAPIKeepsWorking(_ kind: Kind) throws {
        let storage = try kind.make()
        #expect(storage.save(string: "token-1", forKey: "token"))
        #expect(storage.string(forKey: "token") == "token-1")
        #expect(storage.save(value: Data("blob".utf8), key: "blob"))
        #expect(storage.data(forKey: "blob") == Data("blob".utf8))
        #expect(storage.removeString(forKey: "token"))
        #expect(storage.string(forKey: "token") == nil)
        #expect(storage.removeData(forKey: "blob"))
        #expect(storage.data(forKey: "blob") == nil)
        storage.save(string: "x", forKey: "x")
        #expect(storage.clearSecureStorage())
        #expect(try storage.allKeys().isEmpty)
    }

    @Test(arguments: Kind.allCases)
    func missingKeysAreNotFoundAndOverwritesReplace(_ kind: Kind) throws {
        let storage = try kind.make()
        #expect(storageError { _ = try storage.readData(forKey: "nothing") } == .notFound(key: "nothing"))
        #expect(try storage.contains("nothing") == false)
        try storage.deleteData(forKey: "nothing")
        try storage.writeString("one", forKey: "k")
        try storage.writeString("two", forKey: "k")
        #expect(try storage.readString(forKey: "k") == "two")
        #expect(try storage.contains("k"))
        try storage.deleteData(forKey: "k")
        #expect(storageError { _ = try storage.readData(forKey: "k") } == .notFound(key: "k"))
    }

    @Test(arguments: Kind.allCases)
    func wrongTypesAreCodingErrorsNamingTheKey(_ kind: Kind) throws {
        let storage = try kind.make()
        try storage.writeData(Data([0xFF, 0xFE]), forKey: "binary")
        #expect(
            storageError { _ = try storage.readString(forKey: "binary") }
                == .codingFailed(key: "binary", reason: "the stored bytes are not UTF-8 text"))
        if case .codingFailed(let key, _) = storageError({ _ = try storage.value(Credentials.self, forKey: "binary") })
        {
            #expect(key == "binary")
        } else {
            Issue.record("expected codingFailed")
        }
    }

    @Test(arguments: Kind.allCases)
    func manyThreadsWritingAndReadingLoseNothing(_ kind: Kind) async throws {
        let storage = try kind.make()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<25 {
                        try? storage.writeString("\(task)-\(index)", forKey: "key-\(task)-\(index)")
                        _ = try? storage.readString(forKey: "key-\(task)-\(max(0, index - 1))")
                    }
                }
            }
        }
        let keys = try storage.allKeys()
        #expect(keys.count == 200)
        #expect(try storage.readString(forKey: "key-7-24") == "7-24")
    }

    @Test(arguments: Kind.allCases)
    func canonicallyEqualNamesAreOneItemListedInNFC(_ kind: Kind) throws {
        let storage = try kind.make()
        try storage.writeString("decomposed", forKey: "cafe\u{301}")
        #expect(try storage.readString(forKey: "caf\u{E9}") == "decomposed")
        try storage.writeString("precomposed", forKey: "caf\u{E9}")
        #expect(try storage.readString(forKey: "cafe\u{301}") == "precomposed")
        let keys = try storage.allKeys()
        #expect(keys.count == 1)
        #expect(keys.first.map { Array($0.unicodeScalars) } == Array("caf\u{E9}".unicodeScalars))
        try storage.deleteData(forKey: "cafe\u{301}")
        #expect(try storage.allKeys().isEmpty)
    }
}
