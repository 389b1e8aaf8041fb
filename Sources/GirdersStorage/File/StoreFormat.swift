import Foundation

/// The byte layouts of FORMAT.md: the store header and the item files.
enum StoreFormat {
    static let headerMagic: [UInt8] = Array("GSSH".utf8)
    static let itemMagic: [UInt8] = Array("GSSI".utf8)
    static let version: UInt8 = 1
    static let saltLength = 16
    /// magic 4, version 1, derivation 1, iterations 4, salt 16, generation 4.
    static let headerPrefixLength = 30
    static let headerLength = headerPrefixLength + Crypto.nonceLength + Crypto.tagLength
    /// magic 4, version 1, nonce 12.
    static let itemPrefixLength = 5 + Crypto.nonceLength

    /// The parsed header.
    struct Header {
        var derivation: UInt8
        var iterations: UInt32
        var salt: [UInt8]
        var generation: UInt32
        var checkNonce: [UInt8]
        var checkTag: [UInt8]

        var prefix: [UInt8] {
            headerMagic + [version, derivation] + bigEndian(iterations) + salt + bigEndian(generation)
        }

        var bytes: [UInt8] { prefix + checkNonce + checkTag }

        /// A new header whose check tag proves `encryptionKey`.
        static func make(
            derivation: UInt8, iterations: UInt32, salt: [UInt8], generation: UInt32, encryptionKey: [UInt8]
        ) throws(StorageError) -> Header {
            var header = Header(
                derivation: derivation, iterations: iterations, salt: salt, generation: generation, checkNonce: [],
                checkTag: [])
            do {
                header.checkNonce = try Crypto.randomBytes(Crypto.nonceLength)
                try Crypto.seal(
                    prefix: [], body: Data(), tail: [], key: encryptionKey, nonce: header.checkNonce,
                    aad: header.prefix,
                    into: &header.checkTag)
            } catch {
                throw .unavailable(reason: error.reason)
            }
            return header
        }

        static func parse(_ bytes: [UInt8], path: String) throws(StorageError) -> Header {
            guard bytes.count == headerLength else {
                throw .corrupted(path: path, reason: "the header has \(bytes.count) bytes, not \(headerLength)")
            }
            guard bytes.starts(with: headerMagic) else {
                throw .corrupted(path: path, reason: "not a Girders store header")
            }
            guard bytes[4] == version else {
                throw .corrupted(path: path, reason: "unknown format version \(bytes[4])")
            }
            guard bytes[5] <= 2 else { throw .corrupted(path: path, reason: "unknown key derivation \(bytes[5])") }
            return Header(
                derivation: bytes[5], iterations: readBigEndian(bytes[6..<10]), salt: Array(bytes[10..<26]),
                generation: readBigEndian(bytes[26..<30]), checkNonce: Array(bytes[30..<42]),
                checkTag: Array(bytes[42..<58]))
        }

        /// Whether `encryptionKey` is the key this header was made with.
        func verifies(_ encryptionKey: [UInt8]) -> Bool {
            (try? Crypto.open([], tag: checkTag[...], key: encryptionKey, nonce: checkNonce[...], aad: prefix)) != nil
        }
    }

    /// An item file's bytes: the name and value encrypted, the file name bound in as associated data.
    static func sealItem(
        name: String, value: Data, fileName: String, key: [UInt8], into output: inout [UInt8]
    ) throws(StorageError) {
        let nameBytes = Array(name.utf8)
        do {
            let nonce = try Crypto.randomBytes(Crypto.nonceLength)
            let prefix = itemMagic + [version] + nonce
            try Crypto.seal(
                prefix: prefix, body: value, tail: nameBytes + bigEndian(UInt32(nameBytes.count)), key: key,
                nonce: nonce, aad: associatedData(prefix[...], fileName), into: &output)
        } catch {
            throw .unavailable(reason: error.reason)
        }
    }

    /// The name and value in an item file.
    static func openItem(
        _ bytes: [UInt8], fileName: String, key: [UInt8], path: String
    ) throws(StorageError)
        -> (name: String, value: Data)
    {
        guard bytes.count >= itemPrefixLength + 4 + Crypto.tagLength else {
            throw .corrupted(path: path, reason: "truncated item (\(bytes.count) bytes)")
        }
        guard bytes.starts(with: itemMagic) else { throw .corrupted(path: path, reason: "not a Girders store item") }
        guard bytes[4] == version else { throw .corrupted(path: path, reason: "unknown item version \(bytes[4])") }
        var plaintext: Data
        do {
            plaintext = try Crypto.open(
                bytes[itemPrefixLength..<(bytes.count - Crypto.tagLength)],
                tag: bytes[(bytes.count - Crypto.tagLength)...],
                key: key, nonce: bytes[5..<itemPrefixLength], aad: associatedData(bytes[0..<itemPrefixLength], fileName)
            )
        } catch {
            throw .corrupted(path: path, reason: "authentication failed: the item was altered or belongs elsewhere")
        }
        // value ‖ name ‖ name length: the value keeps the decrypted buffer, truncated in place.
        let count = plaintext.count
        let nameLength = Int(plaintext[(count - 4)..<count].reduce(0) { $0 << 8 | UInt32($1) })
        guard nameLength <= count - 4 else { throw .corrupted(path: path, reason: "inconsistent name length") }
        let name = String(decoding: plaintext[(count - 4 - nameLength)..<(count - 4)], as: UTF8.self)
        plaintext.count = count - 4 - nameLength
        return (name, plaintext)
    }

    /// An item's associated data: its first 17 bytes, then the file name.
    static func associatedData(_ prefix: ArraySlice<UInt8>, _ fileName: String) -> [UInt8] {
        var aad: [UInt8] = []
        aad.reserveCapacity(prefix.count + fileName.utf8.count)
        aad += prefix
        aad += fileName.utf8
        return aad
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func readBigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
