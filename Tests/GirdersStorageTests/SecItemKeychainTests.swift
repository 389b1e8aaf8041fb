import Foundation
import GirdersSupport
import Testing

@testable import GirdersStorage

/// ``SecItemKeychain`` on Linux: the exact dictionaries the `SecItem*` functions receive, and what becomes of
/// their answers. Only `SystemSecItems`, the calls themselves, is left to the macOS job.
struct SecItemKeychainTests {
    /// Records every call's dictionaries and answers with scripted statuses and results.
    final class RecordingSecItems: SecItemFunctions {
        struct State {
            var calls: [(name: String, dictionaries: [[String: Any]])] = []
            var status: Int32 = 0
            var result: Any?
            var accessControlFails = false
            var hasAuthenticationContext = true
        }

        let state = LockedState(State())

        private func record(_ name: String, _ dictionaries: [String: Any]...) -> Int32 {
            state.withLock { state in
                state.calls.append((name, dictionaries))
                return state.status
            }
        }

        func copyMatching(_ query: [String: Any]) -> (status: Int32, result: Any?) {
            (record("copy", query), state.value.result)
        }
        func add(_ attributes: [String: Any]) -> Int32 { record("add", attributes) }
        func update(_ query: [String: Any], changes: [String: Any]) -> Int32 { record("update", query, changes) }
        func delete(_ query: [String: Any]) -> Int32 { record("delete", query) }
        func message(for status: Int32) -> String? { "message \(status)" }
        func biometryAccessControl(accessible: String) -> Any? {
            state.value.accessControlFails ? nil : "access control for \(accessible)"
        }
        func authenticationContext(prompt: String) -> Any? {
            state.value.hasAuthenticationContext ? "context for \(prompt)" : nil
        }
    }

    /// A dictionary's entries as text, so dictionaries of `Any` compare (a `Bool` prints as `true`).
    func described(_ dictionary: [String: Any]) -> [String: String] {
        dictionary.mapValues { value in
            if let data = value as? Data { return "data \(Array(data))" }
            if let flag = value as? Bool { return "bool \(flag)" }
            return "\(value)"
        }
    }

    @Test func aReadSendsTheQueryAsSecurityReadsItAndAnswersWithTheItemsData() throws {
        let functions = RecordingSecItems()
        functions.state.withLock { $0.result = Data([4, 2]) }
        let keychain = SecItemKeychain(functions: functions)
        var query = KeychainQuery(service: "app", account: "k", accessGroup: "TEAM.g", usesDataProtectionKeychain: true)
        query.returning = .data
        query.prompt = "Unlock"
        let (status, answer) = keychain.copyMatching(query)
        #expect(status == 0 && answer == .data(Data([4, 2])))
        let calls = functions.state.value.calls
        try #require(calls.count == 1 && calls[0].name == "copy")
        #expect(
            described(calls[0].dictionaries[0]) == [
                "class": "genp", "svce": "app", "acct": "k", "agrp": "TEAM.g", "nleg": "bool true",
                "r_Data": "bool true", "m_Limit": "m_LimitOne", "u_AuthCtx": "context for Unlock",
            ])
    }

    @Test func anAddCarriesTheProtectionAndTheDataAndAnUpdateOnlyTheNewData() throws {
        let functions = RecordingSecItems()
        let keychain = SecItemKeychain(functions: functions)
        let query = KeychainQuery(service: "app", account: "k", usesDataProtectionKeychain: false)
        #expect(
            keychain.add(query, data: Data([1]), protection: .init(accessibility: .whenUnlocked, biometric: false)) == 0
        )
        #expect(keychain.update(query, data: Data([2])) == 0)
        #expect(keychain.delete(query) == 0)
        let calls = functions.state.value.calls
        try #require(calls.map(\.name) == ["add", "update", "delete"])
        #expect(
            described(calls[0].dictionaries[0]) == [
                "class": "genp", "svce": "app", "acct": "k", "pdmn": "ak", "v_Data": "data [1]",
            ])
        #expect(described(calls[1].dictionaries[0]) == ["class": "genp", "svce": "app", "acct": "k"])
        #expect(described(calls[1].dictionaries[1]) == ["v_Data": "data [2]"])
        #expect(described(calls[2].dictionaries[0]) == ["class": "genp", "svce": "app", "acct": "k"])
    }

    @Test func aBiometricItemGetsItsAccessControlOrIsNotStoredAtAll() throws {
        let functions = RecordingSecItems()
        let keychain = SecItemKeychain(functions: functions)
        let query = KeychainQuery(service: "app", account: "k", usesDataProtectionKeychain: true)
        let biometric = KeychainProtection(accessibility: .afterFirstUnlock, biometric: true)
        #expect(keychain.add(query, data: Data([1]), protection: biometric) == 0)
        let added = try #require(functions.state.value.calls.first?.dictionaries.first)
        #expect(described(added)["accc"] == "access control for akpu")
        #expect(added["pdmn"] == nil)
        functions.state.withLock { $0.accessControlFails = true }
        #expect(keychain.add(query, data: Data([1]), protection: biometric) == KeychainStatus.param)
        #expect(functions.state.value.calls.count == 1)
    }

    @Test func wherePromptsHaveNoContextTheEntryIsLeftOut() throws {
        let functions = RecordingSecItems()
        functions.state.withLock { $0.hasAuthenticationContext = false }
        var query = KeychainQuery(service: "app", account: "k", usesDataProtectionKeychain: true)
        query.returning = .data
        query.prompt = "Unlock"
        _ = SecItemKeychain(functions: functions).copyMatching(query)
        let sent = try #require(functions.state.value.calls.first?.dictionaries.first)
        #expect(sent["u_AuthCtx"] == nil && sent.count == 6)
    }

    @Test func statusesAndMessagesComeBackAsSecurityGaveThem() {
        let functions = RecordingSecItems()
        functions.state.withLock {
            $0.status = KeychainStatus.missingEntitlement
            $0.result = [["acct": "x"]] as [[String: Any]]
        }
        let keychain = SecItemKeychain(functions: functions)
        var query = KeychainQuery(service: "app", usesDataProtectionKeychain: true)
        query.returning = .accounts
        let (status, answer) = keychain.copyMatching(query)
        #expect(status == KeychainStatus.missingEntitlement && answer == .accounts(["x"]))
        #expect(keychain.message(for: -5) == "message -5")
    }
}
