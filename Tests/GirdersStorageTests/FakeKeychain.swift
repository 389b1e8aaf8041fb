import Foundation
import GirdersSupport

@testable import GirdersStorage

/// A keychain that answers as `SecItem*` does, for the logic the Linux tests cannot run against a real one:
/// generic passwords keyed by keychain, access group, service and account; access groups the app is or is not
/// entitled to; a data protection keychain the process may lack the entitlement for (macOS); a locked device;
/// biometric items and the user's answer to their prompt; the legacy keychain's one-item `SecItemDelete`.
final class FakeKeychain: KeychainAPI {
    struct Item: Equatable {
        var dataProtection: Bool
        var group: String
        var service: String
        var account: String
        var data: Data
        var protection: KeychainProtection
    }

    struct State {
        var items: [Item] = []
        /// The access groups the app is entitled to; the first is where items without a group go.
        var groups = ["TEAM.app"]
        var dataProtectionEntitled = true
        var locked = false
        /// What the user does at a biometric prompt: success, `userCanceled` or `authFailed`.
        var biometricAnswer = KeychainStatus.success
        /// The legacy keychain deletes one item per `SecItemDelete` without a match limit.
        var legacyDeletesOne = true
        var prompts: [String] = []
        var calls: [String] = []
        /// The `SecItem*` dictionary entries of each call, as ``SecItemKeychain`` builds them.
        var dictionaries: [[KeychainAttribute]] = []
        /// Statuses to answer instead, first in first out, per call name ("add", "update", ...).
        var scripted: [String: [Int32]] = [:]
    }

    let state = LockedState(State())

    private func matches(_ item: Item, _ query: KeychainQuery, _ state: State) -> Bool {
        item.dataProtection == query.usesDataProtectionKeychain && item.service == query.service
            && (query.account == nil || item.account == query.account)
            && (query.accessGroup.map { item.group == $0 } ?? state.groups.contains(item.group))
    }

    /// The status that stops `call` before it looks at any item, if any.
    private func refusal(_ call: String, _ query: KeychainQuery, _ state: inout State) -> Int32? {
        state.calls.append(call)
        state.dictionaries.append(query.attributes)
        if var answers = state.scripted[call], !answers.isEmpty {
            let answer = answers.removeFirst()
            state.scripted[call] = answers
            return answer
        }
        if query.usesDataProtectionKeychain && !state.dataProtectionEntitled {
            return KeychainStatus.missingEntitlement
        }
        if let group = query.accessGroup, !state.groups.contains(group) { return KeychainStatus.missingEntitlement }
        if state.locked { return KeychainStatus.interactionNotAllowed }
        return nil
    }

    func copyMatching(_ query: KeychainQuery) -> (status: Int32, answer: KeychainAnswer) {
        state.withLock { state in
            if let refused = refusal("copy", query, &state) { return (refused, .none) }
            let found = state.items.filter { matches($0, query, state) }
            guard let first = found.first else { return (KeychainStatus.itemNotFound, .none) }
            switch query.returning {
            case .accounts, .nothing:
                return (KeychainStatus.success, query.answer(found.map { [KeychainConstant.account: $0.account] }))
            case .data:
                if first.protection.biometric {
                    guard let prompt = query.prompt else { return (KeychainStatus.interactionNotAllowed, .none) }
                    state.prompts.append(prompt)
                    guard state.biometricAnswer == KeychainStatus.success else { return (state.biometricAnswer, .none) }
                }
                return (KeychainStatus.success, query.answer(first.data))
            }
        }
    }

    func add(_ query: KeychainQuery, data: Data, protection: KeychainProtection) -> Int32 {
        state.withLock { state in
            if let refused = refusal("add", query, &state) { return refused }
            guard let account = query.account else { return -50 }  // errSecParam
            var exact = query
            exact.accessGroup = query.accessGroup ?? state.groups[0]
            if state.items.contains(where: { matches($0, exact, state) }) { return KeychainStatus.duplicateItem }
            state.items.append(
                Item(
                    dataProtection: query.usesDataProtectionKeychain, group: exact.accessGroup ?? "",
                    service: query.service, account: account, data: data, protection: protection))
            return KeychainStatus.success
        }
    }

    func update(_ query: KeychainQuery, data: Data) -> Int32 {
        state.withLock { state in
            if let refused = refusal("update", query, &state) { return refused }
            var found = false
            for index in state.items.indices where matches(state.items[index], query, state) {
                state.items[index].data = data
                found = true
            }
            return found ? KeychainStatus.success : KeychainStatus.itemNotFound
        }
    }

    func delete(_ query: KeychainQuery) -> Int32 {
        state.withLock { state in
            if let refused = refusal("delete", query, &state) { return refused }
            let found = state.items.indices.filter { matches(state.items[$0], query, state) }
            guard !found.isEmpty else { return KeychainStatus.itemNotFound }
            let doomed = !query.usesDataProtectionKeychain && state.legacyDeletesOne ? [found[0]] : found
            for index in doomed.reversed() { state.items.remove(at: index) }
            return KeychainStatus.success
        }
    }

    func message(for status: Int32) -> String? { nil }
}
