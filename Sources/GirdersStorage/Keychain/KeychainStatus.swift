/// The `OSStatus` values the keychain answers that Girders tells apart, and what each means for a caller.
enum KeychainStatus {
    static let success: Int32 = 0
    /// `errSecParam`: a call that could not be made as asked (here: an access control the system would not create).
    static let param: Int32 = -50
    /// `errSecUserCanceled`: the user dismissed the authentication prompt.
    static let userCanceled: Int32 = -128
    /// `errSecAuthFailed`: the user could not be authenticated.
    static let authFailed: Int32 = -25293
    /// `errSecDuplicateItem`: an add found the item already there.
    static let duplicateItem: Int32 = -25299
    /// `errSecItemNotFound`.
    static let itemNotFound: Int32 = -25300
    /// `errSecInteractionNotAllowed`: the device is locked, or a prompt is needed where none may be shown.
    static let interactionNotAllowed: Int32 = -25308
    /// `errSecMissingEntitlement`: the process is not signed with a keychain entitlement (on macOS: an unsigned
    /// tool or `swift test` using the data protection keychain), or asks for an access group it is not in.
    static let missingEntitlement: Int32 = -34018

    /// The ``StorageError`` for a failed `operation` on `key` (`nil` for the whole service).
    static func error(
        _ status: Int32, operation: String, key: String?, service: String, message: String?
    ) -> StorageError {
        let name = key ?? "(every item of \(service))"
        switch status {
        case itemNotFound: return .notFound(key: name)
        case userCanceled: return .authenticationFailed(key: name, reason: "the user cancelled the prompt")
        case authFailed: return .authenticationFailed(key: name, reason: "the user could not be authenticated")
        case interactionNotAllowed:
            return .unavailable(reason: "the keychain is locked or may not prompt now (\(operation), \(status))")
        case missingEntitlement:
            return .unavailable(
                reason: "\(operation): the process has no keychain entitlement for this item (\(status)); sign it "
                    + "with keychain-access-groups, or check the access group")
        default:
            return .unavailable(reason: "\(operation): \(message ?? "OSStatus \(status)")")
        }
    }
}
