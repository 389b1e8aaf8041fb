public import Foundation
import GirdersSupport

/// A ``SecureStorage`` in memory, for tests and previews: nothing is encrypted or persisted. Key names are kept in
/// Unicode NFC, as every store keeps them, so ``allKeys()`` lists the same names as a ``FileSecureStorage``.
public final class InMemorySecureStorage: SecureStorage {
    private let values = LockedState<[String: Data]>([:])

    /// An empty store, or one holding `initial`.
    public init(_ initial: [String: Data] = [:]) {
        values.value = Dictionary(initial.map { (KeyName.canonical($0.key), $0.value) }) { _, last in last }
    }

    /// The bytes under `key`.
    public func readData(forKey key: String) throws(StorageError) -> Data {
        guard let data = values.value[KeyName.canonical(key)] else { throw .notFound(key: key) }
        return data
    }

    /// Stores `data` under `key`.
    public func writeData(_ data: Data, forKey key: String) throws(StorageError) {
        values.withLock { $0[KeyName.canonical(key)] = data }
    }

    /// Removes `key`.
    public func deleteData(forKey key: String) throws(StorageError) {
        values.withLock { $0[KeyName.canonical(key)] = nil }
    }

    /// The keys, sorted.
    public func allKeys() throws(StorageError) -> [String] {
        values.value.keys.sorted()
    }

    /// Removes everything.
    public func removeAll() throws(StorageError) {
        values.value = [:]
    }
}
