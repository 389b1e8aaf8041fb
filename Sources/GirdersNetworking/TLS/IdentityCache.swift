import Foundation
import GirdersSupport

/// Client identities imported once per transport: `SecPKCS12Import` is slow, and before macOS 15 it also
/// writes into the login keychain on every call. A failed import is remembered too, so a wrong password fails
/// each request at once instead of importing again on every challenge.
///
/// Generic over the imported type so the Linux tests drive it with a stand-in for `SecIdentity`.
final class IdentityCache<Identity>: Sendable {
    private let entries = LockedState<[TLSCredentials.ClientIdentity: Result<Identity, ImportFailure>]>([:])

    /// Why an identity could not be imported.
    struct ImportFailure: Error, Equatable {
        let reason: String
    }

    /// The identity for `archive`, importing it with `importer` only the first time.
    func identity(
        for archive: TLSCredentials.ClientIdentity,
        importer: (TLSCredentials.ClientIdentity) -> Result<Identity, ImportFailure>
    ) -> Result<Identity, ImportFailure> {
        if let known = entries.withLock({ $0[archive] }) { return known }
        let imported = importer(archive)  // outside the lock: it may take a while
        return entries.withLock { entries in
            if let raced = entries[archive] { return raced }
            entries[archive] = imported
            return imported
        }
    }
}
