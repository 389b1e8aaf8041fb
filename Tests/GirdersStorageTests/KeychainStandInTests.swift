#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestProcesses
@testable import GirdersStorage
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `KeychainStorage` where there is no keychain: a file store in the user's data folder.
struct KeychainStandInTests {
    func mode(_ url: URL) -> mode_t {
        var status = stat()
        return lstat(url.path, &status) == 0 ? status.st_mode & 0o777 : 0
    }

    @Test func itLivesInXDGDataHomePerServiceWithAPrivateFolderAndKeyFile() throws {
        let home = try temporaryFolder()
        let storage = KeychainStorage(
            service: "ch.girders.app", accessGroup: nil, accessibility: .afterFirstUnlock,
            environment: ["XDG_DATA_HOME": home.path])
        #expect(storage.folder!.path == home.path + "/ch.girders.app/keychain")
        #expect(storage.keyFile!.path == home.path + "/ch.girders.app/keychain.key")
        #expect(storage.save(string: "ada", forKey: "username"))
        #expect(storage.string(forKey: "username") == "ada")
        #expect(mode(storage.folder!) == 0o700)
        #expect(mode(storage.keyFile!) == 0o600)
        #expect(mode(storage.folder!.deletingLastPathComponent()) == 0o700)
        let reopened = KeychainStorage(
            service: "ch.girders.app", accessGroup: nil, accessibility: .afterFirstUnlock,
            environment: ["XDG_DATA_HOME": home.path])
        #expect(reopened.string(forKey: "username") == "ada")
        #expect(try reopened.allKeys() == ["username"])
    }

    @Test func aRelativeXDGDataHomeIsIgnoredForHomesLocalShare() throws {
        let home = try temporaryFolder()
        let storage = KeychainStorage(
            service: "app", accessGroup: nil, accessibility: .afterFirstUnlock,
            environment: ["XDG_DATA_HOME": "relative", "HOME": home.path])
        #expect(storage.folder!.path == home.path + "/.local/share/app/keychain")
    }

    @Test(arguments: ["../../escape", "", ".", "..", "a/b", "line\nbreak", "ü"])
    func aHostileServiceNameStaysOneFolderInsideTheDataHome(service: String) throws {
        let home = try temporaryFolder()
        let storage = KeychainStorage(
            service: service, accessGroup: nil, accessibility: .afterFirstUnlock,
            environment: ["XDG_DATA_HOME": home.path])
        let application = storage.folder!.deletingLastPathComponent()
        #expect(application.deletingLastPathComponent().path == home.path, "\(service.debugDescription)")
        #expect(![".", ".."].contains(application.lastPathComponent))
        #expect(storage.save(string: "v", forKey: "k"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == [application.lastPathComponent])
    }

    @Test func aStoreThatCannotOpenFailsEachCallAndOpensOnceTheCauseIsGone() throws {
        let home = try temporaryFolder()
        let blocker = home.appendingPathComponent("app")
        try Data("not a folder".utf8).write(to: blocker)
        let storage = KeychainStorage(
            service: "app", accessGroup: nil, accessibility: .afterFirstUnlock,
            environment: ["XDG_DATA_HOME": home.path])
        #expect(throws: StorageError.self) { try storage.writeString("v", forKey: "k") }
        #expect(throws: StorageError.self) { try storage.readData(forKey: "k") }
        try FileManager.default.removeItem(at: blocker)
        try storage.writeString("v", forKey: "k")
        #expect(try storage.readString(forKey: "k") == "v")
    }

    @Test func theSharedStoreIsGirdersSwiftsCallShapeAndPersistsAcrossProcesses() async throws {
        let home = try temporaryFolder()
        func run(_ arguments: [String]) async throws -> [String] {
            let process = ChildProcess()
            process.executableURL = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent(
                "StorageStress")
            process.arguments = ["shared"] + arguments
            process.environment = ["XDG_DATA_HOME": home.path, "HOME": home.path]
            let finished = try await process.runToEnd()
            #expect(finished.status == 0, "\(finished.errorText)")
            return finished.outputText.split(separator: "\n").map(String.init)
        }
        let written = try await run(["username", "ada"])
        #expect(written == ["ada", home.path + "/StorageStress/keychain"])
        #expect(try await run(["username"]) == written, "a second process reads what the first saved")
        #expect(try await run(["password"]).first == "nil")
    }

    @available(*, deprecated, message: "exercises GirdersSwift's deprecated optional setters")
    @Test func girdersSwiftsOptionalSettersStoreAValueAndRemoveOnNil() throws {
        let home = try temporaryFolder()
        let storage = KeychainStorage(
            service: "app", accessGroup: nil, accessibility: .afterFirstUnlock,
            environment: ["XDG_DATA_HOME": home.path])
        var token: String? = "t0k3n"
        #expect(storage.save(string: token, forKey: "token"))
        #expect(storage.string(forKey: "token") == "t0k3n")
        token = nil
        #expect(storage.save(string: token, forKey: "token"))
        #expect(storage.string(forKey: "token") == nil)
        var bytes: Data? = Data([1, 2])
        #expect(storage.save(value: bytes, key: "bytes"))
        #expect(storage.data(forKey: "bytes") == Data([1, 2]))
        bytes = nil
        #expect(storage.save(value: bytes, key: "bytes"))
        #expect(storage.data(forKey: "bytes") == nil)
    }

    @available(*, deprecated, message: "exercises GirdersSwift's deprecated biometric setters")
    @Test func biometricFormsWithoutAKeychainReportNothingStoredAndCallBackOnceWithNil() async throws {
        let home = try temporaryFolder()
        let storage = KeychainStorage(
            service: "app", accessGroup: nil, accessibility: .afterFirstUnlock,
            environment: ["XDG_DATA_HOME": home.path])
        #expect(!storage.saveWithBiometricProtection(string: "secret", forKey: "pin"))
        #expect(storage.string(forKey: "pin") == nil)
        let queue = DispatchQueue(label: "biometric-result")
        let marker = DispatchSpecificKey<Int>()
        queue.setSpecific(key: marker, value: 1)
        let (value, onQueue): (String?, Bool) = await withCheckedContinuation { continuation in
            storage.biometricProtectedString(forKey: "pin", withPrompt: "Unlock", queue: queue) { value in
                continuation.resume(returning: (value, DispatchQueue.getSpecific(key: marker) == 1))
            }
        }
        #expect(value == nil)
        #expect(onQueue, "the result arrives on the given queue")
    }
}
#endif
