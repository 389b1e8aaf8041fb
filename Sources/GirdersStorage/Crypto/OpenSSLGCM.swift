#if !canImport(CryptoKit)
    import CGirdersOpenSSL

    /// AES-256-GCM through OpenSSL's EVP interface, 12-byte nonces and 16-byte tags.
    enum OpenSSLGCM {
        static func seal(
            _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8]
        ) throws(Crypto.Failure) -> (ciphertext: [UInt8], tag: [UInt8]) {
            guard let context = EVP_CIPHER_CTX_new() else { throw Crypto.Failure(reason: "EVP_CIPHER_CTX_new failed") }
            defer { EVP_CIPHER_CTX_free(context) }
            var ciphertext = [UInt8](repeating: 0, count: plaintext.count + 16)
            var tag = [UInt8](repeating: 0, count: Crypto.tagLength)
            var length: Int32 = 0
            var total = 0
            guard EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(nonce.count), nil) == 1,
                EVP_EncryptInit_ex(context, nil, nil, key, nonce) == 1,
                aad.isEmpty || EVP_EncryptUpdate(context, nil, &length, aad, Int32(aad.count)) == 1
            else { throw Crypto.Failure(reason: "AES-GCM encryption setup failed") }
            if !plaintext.isEmpty {
                guard EVP_EncryptUpdate(context, &ciphertext, &length, plaintext, Int32(plaintext.count)) == 1 else {
                    throw Crypto.Failure(reason: "AES-GCM encryption failed")
                }
                total = Int(length)
            }
            let finished = ciphertext.withUnsafeMutableBufferPointer { buffer in
                EVP_EncryptFinal_ex(context, buffer.baseAddress.map { $0 + total }, &length)
            }
            guard finished == 1, EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(Crypto.tagLength), &tag) == 1
            else { throw Crypto.Failure(reason: "AES-GCM finalisation failed") }
            total += Int(length)
            ciphertext.removeLast(ciphertext.count - total)
            return (ciphertext, tag)
        }

        static func open(
            _ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8]
        ) throws -> [UInt8] {
            guard let context = EVP_CIPHER_CTX_new() else { throw Crypto.Failure(reason: "EVP_CIPHER_CTX_new failed") }
            defer { EVP_CIPHER_CTX_free(context) }
            var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
            var tag = tag
            var length: Int32 = 0
            var total = 0
            guard EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(nonce.count), nil) == 1,
                EVP_DecryptInit_ex(context, nil, nil, key, nonce) == 1,
                aad.isEmpty || EVP_DecryptUpdate(context, nil, &length, aad, Int32(aad.count)) == 1
            else { throw Crypto.Failure(reason: "AES-GCM decryption setup failed") }
            if !ciphertext.isEmpty {
                guard EVP_DecryptUpdate(context, &plaintext, &length, ciphertext, Int32(ciphertext.count)) == 1 else {
                    throw Crypto.AuthenticationFailure()
                }
                total = Int(length)
            }
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tag.count), &tag) == 1 else {
                throw Crypto.Failure(reason: "AES-GCM tag setup failed")
            }
            let finished = plaintext.withUnsafeMutableBufferPointer { buffer in
                EVP_DecryptFinal_ex(context, buffer.baseAddress.map { $0 + total }, &length)
            }
            guard finished == 1 else { throw Crypto.AuthenticationFailure() }
            total += Int(length)
            plaintext.removeLast(plaintext.count - total)
            return plaintext
        }
    }
#endif
