import Foundation

/// `store.header` (FORMAT.md): the key derivation and its parameters, the store identifier, the generation in
/// use, and a check tag that tells a wrong key from damage.
///
/// ``parse(_:path:)`` validates every field before anything uses it, so a damaged or hostile header is
/// ``StorageError/corrupted(path:reason:)`` naming the byte offset, never a trap or a 15-minute key derivation.
struct StoreHeader: Equatable {
    static let magic: [UInt8] = Array("GSSH".utf8)
    static let length = 58
    /// The version written; version 1 stores are read and migrated to it on open.
    static let currentVersion: UInt8 = 2
    static let saltLength = 16
    /// magic 4, version 1, derivation 1, iterations 4, salt 16, generation 4.
    static let prefixLength = 30

    var version: UInt8
    var derivation: UInt8
    var iterations: UInt32
    /// The PBKDF2 salt, and the store identifier every version 2 item authenticates: fresh at creation and at
    /// every re-key.
    var salt: [UInt8]
    var generation: UInt32
    var checkNonce: [UInt8]
    var checkTag: [UInt8]

    var prefix: [UInt8] {
        Self.magic + [version, derivation] + Self.bigEndian(iterations) + salt + Self.bigEndian(generation)
    }

    var bytes: [UInt8] { prefix + checkNonce + checkTag }

    /// A new header whose check tag proves `encryptionKey`.
    static func make(
        version: UInt8 = currentVersion, derivation: UInt8, iterations: UInt32, salt: [UInt8], generation: UInt32,
        encryptionKey: [UInt8]
    ) throws(StorageError) -> StoreHeader {
        var header = StoreHeader(
            version: version, derivation: derivation, iterations: iterations, salt: salt, generation: generation,
            checkNonce: [], checkTag: [])
        do {
            header.checkNonce = Crypto.randomBytes(Crypto.nonceLength)
            try Crypto.seal(
                prefix: [], body: .init(), tail: [], key: encryptionKey, nonce: header.checkNonce, aad: header.prefix,
                into: &header.checkTag)
        } catch {
            throw .unavailable(reason: error.reason)
        }
        return header
    }

    /// The header in `bytes`, every field checked against FORMAT.md.
    static func parse(_ bytes: [UInt8], path: String) throws(StorageError) -> StoreHeader {
        func corrupted(_ reason: String) -> StorageError { .corrupted(path: path, reason: reason) }
        guard bytes.count == length else { throw corrupted("the header has \(bytes.count) bytes, not \(length)") }
        guard bytes.starts(with: magic) else { throw corrupted("bytes 0-3: not a Girders store header") }
        guard (1...currentVersion).contains(bytes[4]) else {
            throw corrupted("byte 4: unknown format version \(bytes[4])")
        }
        guard bytes[5] <= 2 else { throw corrupted("byte 5: unknown key derivation \(bytes[5])") }
        let iterations = readBigEndian(bytes[6..<10])
        if bytes[5] == StorageKey.passphraseCode {
            guard StorageKey.iterationRange.contains(Int(iterations)) else {
                throw corrupted(
                    "bytes 6-9: \(iterations) PBKDF2 iterations, outside \(StorageKey.iterationRange.lowerBound)"
                        + "...\(StorageKey.iterationRange.upperBound)")
            }
        } else if iterations != 0 {
            throw corrupted("bytes 6-9: \(iterations) iterations for a key that is not a passphrase (must be 0)")
        }
        let generation = readBigEndian(bytes[26..<30])
        guard generation >= 1 else { throw corrupted("bytes 26-29: generation 0") }
        return StoreHeader(
            version: bytes[4], derivation: bytes[5], iterations: iterations, salt: Array(bytes[10..<26]),
            generation: generation, checkNonce: Array(bytes[30..<42]), checkTag: Array(bytes[42..<58]))
    }

    /// A header for keys that have none yet (while the real one is being made from them).
    static let placeholder = StoreHeader(
        version: currentVersion, derivation: 0, iterations: 0, salt: [], generation: 1, checkNonce: [], checkTag: [])

    /// Whether `encryptionKey` is the key this header was made with.
    func verifies(_ encryptionKey: [UInt8]) -> Bool {
        (try? Crypto.open([], tag: checkTag[...], key: encryptionKey, nonce: checkNonce[...], aad: prefix)) != nil
    }

    /// The next generation, or an error when the counter is exhausted (after four billion re-keys).
    func nextGeneration(path: String) throws(StorageError) -> UInt32 {
        let (next, overflow) = generation.addingReportingOverflow(1)
        guard !overflow else { throw .unavailable(reason: "\(path): the generation counter is exhausted") }
        return next
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func readBigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
