/// The keys and header of an open store: what every operation of a ``FileSecureStorage`` works with.
struct StoreKeys {
    /// `KE`, which encrypts items and proves the header.
    var encryption: [UInt8]
    /// `KN`, which names item files.
    var names: [UInt8]
    /// The header these keys opened, byte for byte: compared with the file to notice re-keys by other processes.
    var header: StoreHeader
    /// The buffer item files are encrypted into, reused between writes (kept only up to 4 MiB).
    var scratch: [UInt8] = []

    /// The subkeys of `master` (FORMAT.md, "Keys"), for `header`.
    init(master: [UInt8], header: StoreHeader) throws(StorageError) {
        do {
            encryption = try Crypto.expand(master, info: "girders-storage/v1/encryption")
            names = try Crypto.expand(master, info: "girders-storage/v1/names")
        } catch {
            throw .unavailable(reason: error.reason)
        }
        self.header = header
    }

    var item: StoreItem.Context {
        StoreItem.Context(
            encryptionKey: encryption, nameKey: names, storeIdentifier: header.salt, version: header.version)
    }

    /// The item folder of this generation.
    func itemsFolder(in folder: String) -> String {
        folder + "/items-\(header.generation)"
    }

    /// Overwrites the keys; the value is unusable afterwards.
    mutating func wipe() {
        Secret.wipe(&encryption)
        Secret.wipe(&names)
        Secret.wipe(&scratch)
    }
}
