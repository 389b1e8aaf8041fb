import Foundation
import GirdersSupport

/// An item file (FORMAT.md): a key name and its value, encrypted and bound to its file name and its store.
enum StoreItem {
    static let magic: [UInt8] = Array("GSSI".utf8)
    /// magic 4, version 1, nonce 12.
    static let prefixLength = 5 + Crypto.nonceLength
    /// An item with an empty name and an empty value: prefix, name length, tag.
    static let minimumLength = prefixLength + 4 + Crypto.tagLength
    /// The largest item file: 2 GiB - 1, the most one AES-GCM call of the system libraries takes at once.
    static let maximumLength = Int(Int32.max)

    /// What sealing and opening an item needs from the open store.
    struct Context {
        var encryptionKey: [UInt8]
        var nameKey: [UInt8]
        /// The header's salt; version 2 items authenticate it, so an item copied from another store fails.
        var storeIdentifier: [UInt8]
        var version: UInt8
    }

    /// The file name of `name`: the lower-case hexadecimal HMAC-SHA256 of its UTF-8 bytes under the name key.
    static func fileName(for name: String, nameKey: [UInt8]) throws(StorageError) -> String {
        let mac: [UInt8]
        do {
            mac = try Crypto.hmacSHA256(key: nameKey, data: Array(name.utf8))
        } catch {
            throw .unavailable(reason: error.reason)
        }
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(mac.count * 2)
        for byte in mac {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The bytes of the item file `fileName` holding `name` and `value`, written into `output`.
    /// - Throws: ``StorageError/tooLarge(key:bytes:limit:)`` when the file would reach 2 GiB.
    static func seal(
        name: String, value: Data, fileName: String, context: Context, into output: inout [UInt8]
    ) throws(StorageError) {
        let nameBytes = Array(name.utf8)
        let limit = maximumLength - minimumLength - nameBytes.count
        guard value.count <= limit, let nameLength = UInt32(exactly: nameBytes.count) else {
            throw .tooLarge(key: name, bytes: value.count, limit: max(limit, 0))
        }
        do {
            let nonce = Crypto.randomBytes(Crypto.nonceLength)
            let prefix = magic + [context.version] + nonce
            try Crypto.seal(
                prefix: prefix, body: value, tail: nameBytes + StoreHeader.bigEndian(nameLength),
                key: context.encryptionKey, nonce: nonce, aad: associatedData(prefix[...], fileName, context),
                into: &output)
        } catch {
            throw .unavailable(reason: error.reason)
        }
    }

    /// The name and value in the item file `fileName`, after checking its tag, its version, that the embedded
    /// name is valid UTF-8 and that the name's HMAC is the file name. `expectedName`, when the caller derived
    /// `fileName` from it, stands in for that HMAC: an embedded name equal to it needs no second one.
    static func open(
        _ bytes: [UInt8], fileName: String, context: Context, path: String, expectedName: String? = nil
    ) throws(StorageError) -> (name: String, value: Data) {
        func corrupted(_ reason: String) -> StorageError { .corrupted(path: path, reason: reason) }
        guard bytes.count >= minimumLength else { throw corrupted("truncated item (\(bytes.count) bytes)") }
        guard bytes.count <= maximumLength else { throw corrupted("\(bytes.count) bytes, more than an item may have") }
        guard bytes.starts(with: magic) else { throw corrupted("bytes 0-3: not a Girders store item") }
        guard bytes[4] == context.version else {
            throw corrupted("byte 4: item version \(bytes[4]) in a version \(context.version) store")
        }
        var plaintext: Data
        do {
            plaintext = try Crypto.open(
                bytes[prefixLength..<(bytes.count - Crypto.tagLength)], tag: bytes[(bytes.count - Crypto.tagLength)...],
                key: context.encryptionKey, nonce: bytes[5..<prefixLength],
                aad: associatedData(bytes[0..<prefixLength], fileName, context))
        } catch {
            throw corrupted("authentication failed: the item was altered or belongs to another store or name")
        }
        // value ‖ name ‖ name length: the value keeps the decrypted buffer, truncated in place.
        let count = plaintext.count
        let nameLength = Int(StoreHeader.readBigEndian(Array(plaintext[(count - 4)..<count])[...]))
        guard nameLength <= count - 4 else { throw corrupted("the name length \(nameLength) exceeds the item") }
        guard let name = ValidatedText.utf8(plaintext[(count - 4 - nameLength)..<(count - 4)])
        else { throw corrupted("the embedded name is not valid UTF-8") }
        if name != expectedName, try self.fileName(for: name, nameKey: context.nameKey) != fileName {
            throw corrupted("the embedded name does not belong to this file name")
        }
        plaintext.count = count - 4 - nameLength
        return (name, plaintext)
    }

    /// An item's associated data: its first 17 bytes, then (version 2) the store identifier, then the file name.
    static func associatedData(_ prefix: ArraySlice<UInt8>, _ fileName: String, _ context: Context) -> [UInt8] {
        var aad: [UInt8] = []
        aad.reserveCapacity(prefix.count + context.storeIdentifier.count + fileName.utf8.count)
        aad += prefix
        if context.version >= 2 { aad += context.storeIdentifier }
        aad += fileName.utf8
        return aad
    }
}
