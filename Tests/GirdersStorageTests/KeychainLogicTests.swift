import Foundation
import Testing

@testable import GirdersStorage

/// ``KeychainStorage``'s keychain logic on Linux, against ``FakeKeychain``: the queries, the save / update /
/// delete flow, every `OSStatus` it tells apart, access groups, biometry and the macOS keychain choice.
struct KeychainLogicTests {
    static let iOS = KeychainItems.Platform(fallsBackToLegacyKeychain: false, supportsBiometry: true)
    static let macOS = KeychainItems.Platform(fallsBackToLegacyKeychain: true, supportsBiometry: true)
    static let tvOS = KeychainItems.Platform(fallsBackToLegacyKeychain: false, supportsBiometry: false)

    func storage(
        _ fake: FakeKeychain, service: String = "app", group: String? = nil,
        accessibility: KeychainStorage.Accessibility = .afterFirstUnlock, platform: KeychainItems.Platform = iOS
    ) -> KeychainStorage {
        KeychainStorage(
            service: service, accessGroup: group, accessibility: accessibility, api: fake, platform: platform)
    }

    @Test func itemsAreStoredReadListedAndRemovedAsGenericPasswordsOfTheService() throws {
        let fake = FakeKeychain()
        let storage = storage(fake, accessibility: .whenUnlockedThisDeviceOnly)
        try storage.writeString("one", forKey: "b")
        try storage.writeString("two", forKey: "a")
        try storage.writeString("café", forKey: "cafe\u{301}")  // NFD: stored under the NFC name
        #expect(try storage.readString(forKey: "a") == "two")
        #expect(try storage.readString(forKey: "caf\u{E9}") == "café")
        #expect(try storage.allKeys() == ["a", "b", "caf\u{E9}"])
        #expect(try storage.contains("a") && !storage.contains("z"))
        let items = fake.state.value.items
        #expect(items.allSatisfy { $0.service == "app" && $0.group == "TEAM.app" && $0.dataProtection })
        #expect(
            items.allSatisfy {
                $0.protection == KeychainProtection(accessibility: .whenUnlockedThisDeviceOnly, biometric: false)
            })
        try storage.deleteData(forKey: "a")
        try storage.deleteData(forKey: "a")  // a missing item is not an error
        #expect(throws: StorageError.notFound(key: "a")) { try storage.readData(forKey: "a") }
        #expect(storage.usesDataProtectionKeychain)
    }

    @Test func writingAnExistingKeyUpdatesTheItemInsteadOfAddingASecond() throws {
        let fake = FakeKeychain()
        let storage = storage(fake)
        try storage.writeString("1", forKey: "k")
        try storage.writeString("2", forKey: "k")
        #expect(fake.state.value.items.map(\.data) == [Data("2".utf8)])
        #expect(fake.state.value.calls == ["update", "add", "update"])
    }

    @Test func anAddThatLosesARaceToAnotherWriterUpdatesTheItemThatWon() throws {
        let fake = FakeKeychain()
        let other = storage(fake)
        try other.writeString("theirs", forKey: "k")
        // Our update runs before their add; our add finds their item.
        fake.state.withLock { $0.scripted = ["update": [KeychainStatus.itemNotFound]] }
        try storage(fake).writeString("ours", forKey: "k")
        #expect(try other.readString(forKey: "k") == "ours")
        #expect(fake.state.value.items.count == 1)
    }

    @Test func eachStatusBecomesTheErrorThatSaysWhatHappened() throws {
        let fake = FakeKeychain()
        let storage = storage(fake)
        try storage.writeString("v", forKey: "k")
        fake.state.withLock { $0.locked = true }
        let locked = try #require(storageError { _ = try storage.readData(forKey: "k") })
        #expect("\(locked)".contains("locked") && "\(locked)".contains("-25308"))
        fake.state.withLock {
            $0.locked = false
            $0.scripted = ["copy": [-99_999]]
        }
        #expect(
            storageError { _ = try storage.readData(forKey: "k") }
                == .unavailable(reason: "SecItemCopyMatching: OSStatus -99999"))
        fake.state.withLock { $0.scripted = ["delete": [KeychainStatus.interactionNotAllowed]] }
        #expect(storageError { try storage.deleteData(forKey: "k") }.map { "\($0)".contains("locked") } == true)
    }

    @Test func withoutTheEntitlementIOSFailsClearlyAndMacOSFallsBackToTheLegacyKeychainOnce() throws {
        let iPhone = FakeKeychain()
        iPhone.state.withLock { $0.dataProtectionEntitled = false }
        let failed = try #require(storageError { try storage(iPhone).writeString("v", forKey: "k") })
        #expect("\(failed)".contains("keychain entitlement") && "\(failed)".contains("-34018"))
        #expect(iPhone.state.value.items.isEmpty)

        let mac = FakeKeychain()
        mac.state.withLock { $0.dataProtectionEntitled = false }
        let service = "unsigned-tool-\(UUID().uuidString)"
        let reports = LockedErrors()
        StorageDiagnostics.handler = { reports.append($0) }
        defer { StorageDiagnostics.handler = nil }
        let tool = storage(mac, service: service, platform: Self.macOS)
        try tool.writeString("v", forKey: "k")
        try tool.writeString("w", forKey: "j")
        #expect(try tool.readString(forKey: "k") == "v")
        #expect(!tool.usesDataProtectionKeychain)
        #expect(mac.state.value.items.allSatisfy { !$0.dataProtection })
        #expect(reports.values.filter { "\($0)".contains(service) && "\($0)".contains("legacy") }.count == 1)
    }

    @Test func anAccessGroupSeparatesItemsAndAGroupTheAppIsNotInIsRefused() throws {
        let fake = FakeKeychain()
        fake.state.withLock { $0.groups = ["TEAM.app", "TEAM.shared"] }
        // Without a group, a new item goes to the app's first group; a search sees every group the app is in.
        try storage(fake).writeString("own", forKey: "k")
        try storage(fake, group: "TEAM.shared").writeString("shared", forKey: "k")
        #expect(try storage(fake, group: "TEAM.shared").readString(forKey: "k") == "shared")
        #expect(try storage(fake, group: "TEAM.app").readString(forKey: "k") == "own")
        #expect(fake.state.value.items.map(\.group).sorted() == ["TEAM.app", "TEAM.shared"])
        let refused = try #require(
            storageError { try storage(fake, group: "OTHER.team").writeString("v", forKey: "k") })
        #expect("\(refused)".contains("entitlement"))
    }

    @Test func removeAllRemovesEveryItemWhereOneDeleteRemovesOnlyOne() throws {
        let fake = FakeKeychain()
        fake.state.withLock { $0.dataProtectionEntitled = false }
        StorageDiagnostics.handler = { _ in }
        defer { StorageDiagnostics.handler = nil }
        let legacy = storage(fake, platform: Self.macOS)
        for key in ["a", "b", "c", "d"] { try legacy.writeString(key, forKey: key) }
        try storage(fake, service: "other", platform: Self.macOS).writeString("kept", forKey: "a")
        // What one SecItemDelete for the whole service does there: one item goes.
        let wholeService = KeychainQuery(
            service: "app", account: nil, accessGroup: nil, usesDataProtectionKeychain: false)
        #expect(fake.delete(wholeService) == KeychainStatus.success)
        #expect(try legacy.allKeys().count == 3)
        try legacy.removeAll()
        #expect(try legacy.allKeys().isEmpty)
        #expect(fake.state.value.items.map(\.service) == ["other"])
    }

    @Test func biometricItemsPromptOnReadNotOnListingAndACancelIsAnAuthenticationFailure() throws {
        let fake = FakeKeychain()
        let storage = storage(fake)
        try storage.saveWithBiometricProtection(Data("secret".utf8), forKey: "k")
        #expect(fake.state.value.items.first?.protection.biometric == true)
        #expect(try storage.contains("k"))
        #expect(try storage.allKeys() == ["k"])
        #expect(fake.state.value.prompts.isEmpty)
        #expect(try storage.readWithBiometricProtection(forKey: "k", prompt: "Unlock") == Data("secret".utf8))
        #expect(fake.state.value.prompts == ["Unlock"])
        fake.state.withLock { $0.biometricAnswer = KeychainStatus.userCanceled }
        #expect(
            storageError { _ = try storage.readWithBiometricProtection(forKey: "k", prompt: "Unlock") }
                == .authenticationFailed(key: "k", reason: "the user cancelled the prompt"))
        fake.state.withLock { $0.biometricAnswer = KeychainStatus.authFailed }
        #expect(
            storageError { _ = try storage.readWithBiometricProtection(forKey: "k", prompt: "Unlock") }
                == .authenticationFailed(key: "k", reason: "the user could not be authenticated"))
    }

    @Test func eachCallCarriesTheSecItemEntriesItsPurposeNeeds() throws {
        let fake = FakeKeychain()
        let storage = storage(fake, group: "TEAM.shared", accessibility: .whenUnlocked)
        fake.state.withLock { $0.groups.append("TEAM.shared") }
        try storage.writeString("v", forKey: "k")
        _ = try storage.readString(forKey: "k")
        _ = try storage.allKeys()
        try storage.saveWithBiometricProtection(Data("s".utf8), forKey: "b")
        _ = try storage.readWithBiometricProtection(forKey: "b", prompt: "Unlock")
        let base: [KeychainAttribute] = [.genericPassword, .service("app")]
        let calls = fake.state.value.dictionaries
        let key = base + [.account("k"), .accessGroup("TEAM.shared"), .dataProtectionKeychain]
        #expect(calls.contains(key))  // update, add and delete: the item, nothing returned
        #expect(calls.contains(key + [.returnData, .matchLimitOne]))  // a read: one item's data
        // A listing asks for attributes only, of every item, and never shows a prompt.
        #expect(
            calls.contains(
                base + [.accessGroup("TEAM.shared"), .dataProtectionKeychain, .returnAttributes, .matchLimitAll]))
        let biometricRead =
            base + [
                .account("b"), .accessGroup("TEAM.shared"), .dataProtectionKeychain, .returnData, .matchLimitOne,
                .authenticationPrompt("Unlock"),
            ]
        #expect(calls.contains(biometricRead))
        #expect(calls.allSatisfy { !$0.contains(.authenticationPrompt("Unlock")) || $0 == biometricRead })

        // What a new item gets besides the query: its accessibility, or for biometric items the access control
        // (which implies "this device, passcode set") and no accessibility that would contradict it.
        #expect(
            KeychainProtection(accessibility: .whenUnlocked, biometric: false).attributes == [
                .accessible(.whenUnlocked)
            ])
        #expect(KeychainProtection(accessibility: .whenUnlocked, biometric: true).attributes == [.biometryCurrentSet])
        let items = fake.state.value.items
        #expect(
            items.first { $0.account == "k" }?.protection
                == KeychainProtection(accessibility: .whenUnlocked, biometric: false))
        #expect(items.first { $0.account == "b" }?.protection.biometric == true)
    }

    @Test func aReadAnswersWithTheKindOfResultItAskedFor() {
        var query = KeychainQuery(service: "s", usesDataProtectionKeychain: true)
        let listing: [[String: Any]] = [["acct": "x", "svce": "s"], ["svce": "s"], ["acct": "y"], ["acct": 3]]
        query.returning = .data
        #expect(query.answer(Data([1])) == .data(Data([1])))
        #expect(query.answer(nil) == .none)
        #expect(query.answer(listing) == .none)
        query.returning = .accounts
        #expect(query.answer(listing) == .accounts(["x", "y"]))
        #expect(query.answer(Data([1])) == .accounts([]))
        #expect(query.answer(nil) == .accounts([]))
        query.returning = .nothing
        #expect(query.answer(Data([1])) == .none)
    }

    @Test func eachEntryHasTheKeyAndValueSecurityReads() {
        func entries(_ attributes: [KeychainAttribute]) -> [String: KeychainAttribute.Value] {
            Dictionary(attributes.map(\.entry), uniquingKeysWith: { _, _ in .text("duplicate key") })
        }
        var query = KeychainQuery(service: "app", account: "k", accessGroup: "TEAM.g", usesDataProtectionKeychain: true)
        query.returning = .data
        query.prompt = "Unlock"
        #expect(
            entries(query.attributes) == [
                "class": .text("genp"), "svce": .text("app"), "acct": .text("k"), "agrp": .text("TEAM.g"),
                "nleg": .yes, "r_Data": .yes, "m_Limit": .text("m_LimitOne"),
                "u_AuthCtx": .authenticationContext(prompt: "Unlock"),
            ])
        query.returning = .accounts
        query.prompt = nil
        #expect(entries(query.attributes)["r_Attributes"] == .yes)
        #expect(entries(query.attributes)["m_Limit"] == .text("m_LimitAll"))
        #expect(entries(query.attributes)["r_Data"] == nil)
        #expect(entries([.value(Data([7]))]) == ["v_Data": .data(Data([7]))])
        #expect(
            entries(KeychainProtection(accessibility: .afterFirstUnlock, biometric: true).attributes) == [
                "accc": .biometryAccessControl(accessible: "akpu")
            ])
        let accessibility: [KeychainStorage.Accessibility: String] = [
            .whenUnlocked: "ak", .afterFirstUnlock: "ck", .whenUnlockedThisDeviceOnly: "aku",
            .afterFirstUnlockThisDeviceOnly: "cku", .whenPasscodeSetThisDeviceOnly: "akpu",
        ]
        for (level, constant) in accessibility {
            #expect(
                entries(KeychainProtection(accessibility: level, biometric: false).attributes) == [
                    "pdmn": .text(constant)
                ])
        }
    }

    @Test func tvOSAndWatchOSHaveNoBiometryToAskAndSaySo() {
        let storage = storage(FakeKeychain(), platform: Self.tvOS)
        #expect(
            storageError { try storage.saveWithBiometricProtection(Data(), forKey: "k") }
                == .unsupported(feature: "biometric protection on this platform"))
        #expect(
            storageError { _ = try storage.readWithBiometricProtection(forKey: "k", prompt: "p") }
                == .unsupported(feature: "biometric protection on this platform"))
    }

    @Test func theFileStoreHasTheSameAPIAndRefusesBiometry() throws {
        let folder = try temporaryFolder()
        let storage = KeychainStorage(
            folder: folder.appendingPathComponent("keychain"), keyFile: folder.appendingPathComponent("k.key"))
        try storage.writeString("v", forKey: "k")
        #expect(try storage.contains("k"))
        #expect(storage.folder?.path == folder.appendingPathComponent("keychain").path)
        #expect(!storage.usesDataProtectionKeychain)
        #expect(
            storageError { try storage.saveWithBiometricProtection(Data(), forKey: "k") }
                == .unsupported(feature: "biometric protection needs the Apple keychain"))
    }
}
