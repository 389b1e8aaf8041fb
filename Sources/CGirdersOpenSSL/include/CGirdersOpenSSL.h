// What Girders uses of OpenSSL 3's libcrypto on Linux (GirdersStorage: AES-256-GCM through EVP, PBKDF2,
// HMAC-SHA256; GirdersNetworking: SHA-1 for the WebSocket handshake's Sec-WebSocket-Accept, RFC 6455 4.2.2),
// declared from OpenSSL's documented, stable ABI and resolved at run time from libcrypto.so.3, once (see
// girders_crypto_load), so Girders builds without OpenSSL's headers. Each function keeps OpenSSL's name as a
// static inline function that calls through the loaded table; nothing is exported under an OpenSSL name.
#ifndef GIRDERS_OPENSSL_H
#define GIRDERS_OPENSSL_H

#include <stddef.h>

/// OpenSSL 3.0.0: libcrypto.so.3's soname already promises it; the loader checks OpenSSL_version_num too.
#define GIRDERS_OPENSSL_MINIMUM_VERSION 0x30000000UL

typedef struct evp_cipher_ctx_st EVP_CIPHER_CTX;
typedef struct evp_cipher_st EVP_CIPHER;
typedef struct evp_md_st EVP_MD;
typedef struct engine_st ENGINE;

#define EVP_CTRL_GCM_SET_IVLEN 0x9
#define EVP_CTRL_GCM_GET_TAG 0x10
#define EVP_CTRL_GCM_SET_TAG 0x11

/// libcrypto's functions, resolved once from libcrypto.so.3; before a successful load every entry fails as
/// libcrypto reports failure (0 or NULL), so nothing can call through an empty slot.
struct girders_crypto_api {
    EVP_CIPHER_CTX *(*cipher_ctx_new)(void);
    void (*cipher_ctx_free)(EVP_CIPHER_CTX *context);
    int (*cipher_ctx_ctrl)(EVP_CIPHER_CTX *context, int type, int argument, void *pointer);
    const EVP_CIPHER *(*aes_256_gcm)(void);
    const EVP_MD *(*sha256)(void);
    int (*encrypt_init_ex)(EVP_CIPHER_CTX *context, const EVP_CIPHER *cipher, ENGINE *engine,
                           const unsigned char *key, const unsigned char *iv);
    int (*encrypt_update)(EVP_CIPHER_CTX *context, unsigned char *out, int *out_length, const unsigned char *in,
                          int in_length);
    int (*encrypt_final_ex)(EVP_CIPHER_CTX *context, unsigned char *out, int *out_length);
    int (*decrypt_init_ex)(EVP_CIPHER_CTX *context, const EVP_CIPHER *cipher, ENGINE *engine,
                           const unsigned char *key, const unsigned char *iv);
    int (*decrypt_update)(EVP_CIPHER_CTX *context, unsigned char *out, int *out_length, const unsigned char *in,
                          int in_length);
    int (*decrypt_final_ex)(EVP_CIPHER_CTX *context, unsigned char *out, int *out_length);
    int (*pbkdf2_hmac)(const char *password, int password_length, const unsigned char *salt, int salt_length,
                       int iterations, const EVP_MD *digest, int key_length, unsigned char *out);
    unsigned char *(*hmac)(const EVP_MD *digest, const void *key, int key_length, const unsigned char *data,
                           size_t data_length, unsigned char *mac, unsigned int *mac_length);
    unsigned long (*version_num)(void);
    const EVP_MD *(*sha1)(void);
    int (*digest)(const void *data, size_t count, unsigned char *md, unsigned int *size, const EVP_MD *type,
                  ENGINE *engine);
};

/// Loads libcrypto.so.3 the first time it is called (thread-safe) and returns NULL when it is usable, or why not
/// (the library, the missing symbol or the version, and the Debian package to install); the same answer later.
const char *girders_crypto_load(void);

/// The loaded table, or one whose every function fails.
const struct girders_crypto_api *girders_crypto(void);

/// Opens `library` into `api`; 0 on success, otherwise -1 with the reason in `error` (the tests use other
/// libraries to check each failure says what is wrong).
int girders_crypto_open(const char *library, unsigned long minimum, struct girders_crypto_api *api, char *error,
                        size_t error_size);

static inline EVP_CIPHER_CTX *EVP_CIPHER_CTX_new(void) { return girders_crypto()->cipher_ctx_new(); }
static inline void EVP_CIPHER_CTX_free(EVP_CIPHER_CTX *context) { girders_crypto()->cipher_ctx_free(context); }
static inline int EVP_CIPHER_CTX_ctrl(EVP_CIPHER_CTX *context, int type, int argument, void *pointer) {
    return girders_crypto()->cipher_ctx_ctrl(context, type, argument, pointer);
}
static inline const EVP_CIPHER *EVP_aes_256_gcm(void) { return girders_crypto()->aes_256_gcm(); }
static inline const EVP_MD *EVP_sha256(void) { return girders_crypto()->sha256(); }
static inline const EVP_MD *EVP_sha1(void) { return girders_crypto()->sha1(); }
static inline int EVP_Digest(const void *data, size_t count, unsigned char *md, unsigned int *size,
                             const EVP_MD *type, ENGINE *engine) {
    return girders_crypto()->digest(data, count, md, size, type, engine);
}
static inline int EVP_EncryptInit_ex(EVP_CIPHER_CTX *context, const EVP_CIPHER *cipher, ENGINE *engine,
                                     const unsigned char *key, const unsigned char *iv) {
    return girders_crypto()->encrypt_init_ex(context, cipher, engine, key, iv);
}
static inline int EVP_EncryptUpdate(EVP_CIPHER_CTX *context, unsigned char *out, int *out_length,
                                    const unsigned char *in, int in_length) {
    return girders_crypto()->encrypt_update(context, out, out_length, in, in_length);
}
static inline int EVP_EncryptFinal_ex(EVP_CIPHER_CTX *context, unsigned char *out, int *out_length) {
    return girders_crypto()->encrypt_final_ex(context, out, out_length);
}
static inline int EVP_DecryptInit_ex(EVP_CIPHER_CTX *context, const EVP_CIPHER *cipher, ENGINE *engine,
                                     const unsigned char *key, const unsigned char *iv) {
    return girders_crypto()->decrypt_init_ex(context, cipher, engine, key, iv);
}
static inline int EVP_DecryptUpdate(EVP_CIPHER_CTX *context, unsigned char *out, int *out_length,
                                    const unsigned char *in, int in_length) {
    return girders_crypto()->decrypt_update(context, out, out_length, in, in_length);
}
static inline int EVP_DecryptFinal_ex(EVP_CIPHER_CTX *context, unsigned char *out, int *out_length) {
    return girders_crypto()->decrypt_final_ex(context, out, out_length);
}
static inline int PKCS5_PBKDF2_HMAC(const char *password, int password_length, const unsigned char *salt,
                                    int salt_length, int iterations, const EVP_MD *digest, int key_length,
                                    unsigned char *out) {
    return girders_crypto()->pbkdf2_hmac(password, password_length, salt, salt_length, iterations, digest,
                                         key_length, out);
}
static inline unsigned char *HMAC(const EVP_MD *digest, const void *key, int key_length, const unsigned char *data,
                                  size_t data_length, unsigned char *mac, unsigned int *mac_length) {
    return girders_crypto()->hmac(digest, key, key_length, data, data_length, mac, mac_length);
}

#endif
