import Foundation

#if canImport(CryptoKit)
import CryptoKit
import CommonCrypto
#else
import CGirdersOpenSSL
#endif

/// The system's cryptography behind one small interface: CryptoKit and CommonCrypto on Apple platforms, OpenSSL's
/// libcrypto on Linux. Nothing here implements a primitive; every call goes to the system library.
enum Crypto {
    /// Why a primitive failed.
    struct Failure: Error {
        let reason: String
    }

    /// The AES-GCM tag did not verify: wrong key or altered data.
    struct AuthenticationFailure: Error {}

    /// Why the system's cryptography cannot be used, or `nil`: on Linux, `libcrypto.so.3` is loaded at run time
    /// (once) and may be missing, lack a function or be too old; Apple platforms always have CryptoKit.
    static var libraryFailure: String? {
        #if !canImport(CryptoKit)
        if let failure = girders_crypto_load() { return String(cString: failure) }
        #endif
        return nil
    }

    static let keyLength = 32
    static let nonceLength = 12
    static let tagLength = 16

    /// `count` bytes from the system's cryptographic random generator: `SystemRandomNumberGenerator`, which is
    /// `arc4random_buf` on Apple platforms and `getrandom` on Linux, so every platform runs this one function.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes += $0 }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// AES-256-GCM encryption of `body ‖ tail` into one buffer: `prefix ‖ ciphertext ‖ tag`. On Linux the
    /// ciphertext is written in place, so a large value is copied once.
    static func seal(
        prefix: [UInt8], body: Data, tail: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8],
        into output: inout [UInt8]
    ) throws(Failure) {
        #if canImport(CryptoKit)
        do {
            let box = try AES.GCM.seal(
                body + Data(tail), using: SymmetricKey(data: key), nonce: try AES.GCM.Nonce(data: nonce),
                authenticating: aad)
            output = prefix + Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw Failure(reason: "AES-GCM: \(error)")
        }
        #else
        try OpenSSLGCM.seal(
            prefix: prefix, body: body, tail: tail, key: key, nonce: nonce, aad: aad, into: &output)
        #endif
    }

    /// AES-256-GCM decryption; throws ``AuthenticationFailure`` when the tag does not verify.
    static func open(
        _ ciphertext: ArraySlice<UInt8>, tag: ArraySlice<UInt8>, key: [UInt8], nonce: ArraySlice<UInt8>,
        aad: [UInt8]
    ) throws -> Data {
        #if canImport(CryptoKit)
        let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
        do {
            return try AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: aad)
        } catch {
            throw AuthenticationFailure()
        }
        #else
        return try OpenSSLGCM.open(ciphertext, tag: Array(tag), key: key, nonce: Array(nonce), aad: aad)
        #endif
    }

    /// HMAC-SHA256; throws when the library reports a failure instead of returning a MAC.
    static func hmacSHA256(key: [UInt8], data: [UInt8]) throws(Failure) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: key)))
        #else
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard HMAC(EVP_sha256(), key, try int32(key.count), data, data.count, &output, &length) != nil, length == 32
        else { throw Failure(reason: "HMAC-SHA256 failed") }
        return output
        #endif
    }

    /// PBKDF2-HMAC-SHA256 with `iterations` rounds, 32 bytes. The copy of the password is wiped afterwards.
    static func pbkdf2SHA256(password: String, salt: [UInt8], iterations: Int) throws(Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: keyLength)
        var password = password.utf8.map { CChar(bitPattern: $0) }
        defer { Secret.wipe(&password) }
        #if canImport(CryptoKit)
        guard let rounds = UInt32(exactly: iterations) else { throw Failure(reason: "\(iterations) PBKDF2 rounds") }
        let status = CCKeyDerivationPBKDF(
            CCPBKDFAlgorithm(kCCPBKDF2), password, password.count, salt, salt.count,
            CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256), rounds, &output, keyLength)
        guard status == kCCSuccess else { throw Failure(reason: "PBKDF2 failed (\(status))") }
        #else
        let status = PKCS5_PBKDF2_HMAC(
            password, try int32(password.count), salt, try int32(salt.count), try int32(iterations), EVP_sha256(),
            Int32(keyLength), &output)
        guard status == 1 else { throw Failure(reason: "PKCS5_PBKDF2_HMAC failed") }
        #endif
        return output
    }

    /// HKDF-Expand (RFC 5869) of a 32-byte pseudorandom key to 32 bytes: `HMAC-SHA256(prk, info || 0x01)`.
    static func expand(_ prk: [UInt8], info: String) throws(Failure) -> [UInt8] {
        try hmacSHA256(key: prk, data: Array(info.utf8) + [0x01])
    }

    /// `value` as the `Int32` a C length parameter takes; a failure instead of a trap when it does not fit.
    static func int32(_ value: Int) throws(Failure) -> Int32 {
        guard let converted = Int32(exactly: value) else {
            throw Failure(reason: "\(value) does not fit the library's 32-bit length")
        }
        return converted
    }
}
