import Foundation
import GirdersStorage
import Testing

/// The GirdersStorage example from README.md, compiled and run as printed there.
struct StorageReadmeExampleTests {
    struct Credentials: Codable, Equatable {
        let user: String
        let password: String
    }

    @Test func theReadmeExampleRuns() throws {
        let folder = try temporaryFolder().appendingPathComponent("secrets")
        // --- README example begins ---
        let storage = try FileSecureStorage(folder: folder, key: .keyFile(folder.appendingPathComponent("secrets.key")))
        storage.save(string: "t0k3n", forKey: "token")  // GirdersSwift's API: false (and a report) on failure
        let token = storage.string(forKey: "token")  // "t0k3n"
        try storage.set(Credentials(user: "ada", password: "pw"), forKey: "credentials")
        let credentials = try storage.value(Credentials.self, forKey: "credentials")
        do {
            _ = try storage.readData(forKey: "nothing")
        } catch .notFound(let key) {
            print("no \(key)")  // the other cases: .unavailable, .wrongKey, .corrupted, ...
        }
        try storage.rekey(to: .passphrase("correct horse battery staple"))
        // --- README example ends ---
        #expect(token == "t0k3n")
        #expect(credentials == Credentials(user: "ada", password: "pw"))
        #expect(
            try FileSecureStorage(folder: folder, key: .passphrase("correct horse battery staple")).readString(
                forKey: "token") == "t0k3n")
    }
}
