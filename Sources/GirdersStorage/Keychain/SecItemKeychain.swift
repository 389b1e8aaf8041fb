import Foundation

/// Security's `SecItem*` functions as they are: a dictionary in, an `OSStatus` (and a result) out, plus the two
/// dictionary values that are system objects. `SystemSecItems` calls Security itself on Apple platforms; the Linux
/// tests record what each call was given.
protocol SecItemFunctions: Sendable {
    /// `SecItemCopyMatching`.
    func copyMatching(_ query: [String: Any]) -> (status: Int32, result: Any?)
    /// `SecItemAdd`.
    func add(_ attributes: [String: Any]) -> Int32
    /// `SecItemUpdate`.
    func update(_ query: [String: Any], changes: [String: Any]) -> Int32
    /// `SecItemDelete`.
    func delete(_ query: [String: Any]) -> Int32
    /// `SecCopyErrorMessageString`.
    func message(for status: Int32) -> String?
    /// `SecAccessControlCreateWithFlags` with `.biometryCurrentSet` and this `kSecAttrAccessible…` value, or `nil`
    /// when the system cannot create one.
    func biometryAccessControl(accessible: String) -> Any?
    /// An `LAContext` showing `prompt`, or `nil` where LocalAuthentication has none (tvOS, watchOS).
    func authenticationContext(prompt: String) -> Any?
}

/// ``KeychainAPI`` over the `SecItem*` functions: each ``KeychainQuery`` becomes the dictionary Security reads
/// (``KeychainAttribute/entry`` gives every key and value), on every platform, so the Linux tests check each
/// dictionary exactly as the functions receive it.
///
/// A biometric item whose access control cannot be created is not stored unprotected: the call fails with
/// `errSecParam` and Security is not called. Where there is no `LAContext` the prompt entry is left out.
struct SecItemKeychain<Functions: SecItemFunctions>: KeychainAPI {
    let functions: Functions

    func copyMatching(_ query: KeychainQuery) -> (status: Int32, answer: KeychainAnswer) {
        guard let dictionary = dictionary(query.attributes) else { return (KeychainStatus.param, .none) }
        let (status, result) = functions.copyMatching(dictionary)
        return (status, query.answer(result))
    }

    func add(_ query: KeychainQuery, data: Data, protection: KeychainProtection) -> Int32 {
        dictionary(query.attributes + protection.attributes + [.value(data)]).map(functions.add)
            ?? KeychainStatus.param
    }

    func update(_ query: KeychainQuery, data: Data) -> Int32 {
        guard let search = dictionary(query.attributes), let changes = dictionary([.value(data)]) else {
            return KeychainStatus.param
        }
        return functions.update(search, changes: changes)
    }

    func delete(_ query: KeychainQuery) -> Int32 {
        dictionary(query.attributes).map(functions.delete) ?? KeychainStatus.param
    }

    func message(for status: Int32) -> String? { functions.message(for: status) }

    /// The `SecItem*` dictionary of `attributes`, or `nil` when an access control cannot be created. `true` is
    /// bridged to `kCFBooleanTrue` on Apple platforms.
    func dictionary(_ attributes: [KeychainAttribute]) -> [String: Any]? {
        var result: [String: Any] = [:]
        for (key, value) in attributes.map(\.entry) {
            switch value {
            case .text(let text): result[key] = text
            case .yes: result[key] = true
            case .data(let data): result[key] = data
            case .biometryAccessControl(let accessible):
                guard let access = functions.biometryAccessControl(accessible: accessible) else { return nil }
                result[key] = access
            case .authenticationContext(let prompt):
                result[key] = functions.authenticationContext(prompt: prompt)
            }
        }
        return result
    }
}
