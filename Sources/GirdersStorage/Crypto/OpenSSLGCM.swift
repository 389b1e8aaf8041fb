#if !canImport(CryptoKit)
import CGirdersOpenSSL
import Foundation

/// AES-256-GCM through OpenSSL's EVP interface, 12-byte nonces and 16-byte tags.
enum OpenSSLGCM {
    static func seal(
        prefix: [UInt8], body: Data, tail: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8],
        into output: inout [UInt8]
    ) throws(Crypto.Failure) {
        guard let context = EVP_CIPHER_CTX_new() else { throw Crypto.Failure(reason: "EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        let length = prefix.count + body.count + tail.count + Crypto.tagLength
        let nonceLength = try Crypto.int32(nonce.count)
        let aadLength = try Crypto.int32(aad.count)
        let bodyLength = try Crypto.int32(body.count)
        let tailLength = try Crypto.int32(tail.count)
        var ok = true
        // Reuses the caller's buffer: no fresh pages to fault in for every large write.
        if output.count != length {
            output.removeAll(keepingCapacity: true)
            output.append(contentsOf: repeatElement(0, count: length))
        }
        output.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return ok = false }
            base.update(from: prefix, count: prefix.count)
            var written: Int32 = 0
            ok =
                EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1
                && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, nonceLength, nil) == 1
                && EVP_EncryptInit_ex(context, nil, nil, key, nonce) == 1
                && (aad.isEmpty || EVP_EncryptUpdate(context, nil, &written, aad, aadLength) == 1)
            guard ok else { return }
            body.withUnsafeBytes { source in
                guard let bytes = source.bindMemory(to: UInt8.self).baseAddress, source.count > 0 else { return }
                ok = EVP_EncryptUpdate(context, base + prefix.count, &written, bytes, bodyLength) == 1
            }
            let tailStart = base + prefix.count + body.count
            ok = ok && (tail.isEmpty || EVP_EncryptUpdate(context, tailStart, &written, tail, tailLength) == 1)
            let end = tailStart + tail.count
            ok =
                ok && EVP_EncryptFinal_ex(context, end, &written) == 1
                && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(Crypto.tagLength), end) == 1
        }
        guard ok else { throw Crypto.Failure(reason: "AES-GCM encryption failed") }
    }

    static func open(
        _ ciphertext: ArraySlice<UInt8>, tag: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8]
    ) throws -> Data {
        guard let context = EVP_CIPHER_CTX_new() else { throw Crypto.Failure(reason: "EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        var tag = tag
        var length: Int32 = 0
        let nonceLength = try Crypto.int32(nonce.count)
        let aadLength = try Crypto.int32(aad.count)
        let ciphertextLength = try Crypto.int32(ciphertext.count)
        let tagLength = try Crypto.int32(tag.count)
        guard EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, nonceLength, nil) == 1,
            EVP_DecryptInit_ex(context, nil, nil, key, nonce) == 1,
            aad.isEmpty || EVP_DecryptUpdate(context, nil, &length, aad, aadLength) == 1
        else { throw Crypto.Failure(reason: "AES-GCM decryption setup failed") }
        // Decrypted straight into the Data the caller keeps: one allocation for any size.
        var plaintext = Data(count: ciphertext.count)
        var updated: Int32 = 1
        if !ciphertext.isEmpty {
            updated = ciphertext.withUnsafeBufferPointer { source in
                plaintext.withUnsafeMutableBytes { target in
                    EVP_DecryptUpdate(
                        context, target.bindMemory(to: UInt8.self).baseAddress, &length, source.baseAddress,
                        ciphertextLength)
                }
            }
        }
        guard updated == 1 else { throw Crypto.AuthenticationFailure() }
        guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, tagLength, &tag) == 1 else {
            throw Crypto.Failure(reason: "AES-GCM tag setup failed")
        }
        let finished = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { trailing in
            EVP_DecryptFinal_ex(context, trailing.baseAddress, &length)
        }
        guard finished == 1 else { throw Crypto.AuthenticationFailure() }
        return plaintext
    }
}
#endif
