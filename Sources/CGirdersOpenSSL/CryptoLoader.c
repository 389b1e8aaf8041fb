// Resolves libcrypto's functions from libcrypto.so.3 at run time, once: see CGirdersOpenSSL.h.
#include "CGirdersOpenSSL.h"

#include <dlfcn.h>
#include "CGirdersLoading.h"
#include <pthread.h>
#include <stdio.h>

// Before (or without) a successful load, each entry fails the way libcrypto reports failure.
static EVP_CIPHER_CTX *failed_ctx_new(void) { return NULL; }
static void failed_ctx_free(EVP_CIPHER_CTX *context) { (void)context; }
static int failed_ctx_ctrl(EVP_CIPHER_CTX *context, int type, int argument, void *pointer) {
    (void)context; (void)type; (void)argument; (void)pointer;
    return 0;
}
static const EVP_CIPHER *failed_cipher(void) { return NULL; }
static const EVP_MD *failed_md(void) { return NULL; }
static int failed_init(EVP_CIPHER_CTX *context, const EVP_CIPHER *cipher, ENGINE *engine, const unsigned char *key,
                       const unsigned char *iv) {
    (void)context; (void)cipher; (void)engine; (void)key; (void)iv;
    return 0;
}
static int failed_update(EVP_CIPHER_CTX *context, unsigned char *out, int *out_length, const unsigned char *in,
                         int in_length) {
    (void)context; (void)out; (void)in; (void)in_length;
    *out_length = 0;
    return 0;
}
static int failed_final(EVP_CIPHER_CTX *context, unsigned char *out, int *out_length) {
    (void)context; (void)out;
    *out_length = 0;
    return 0;
}
static int failed_pbkdf2(const char *password, int password_length, const unsigned char *salt, int salt_length,
                         int iterations, const EVP_MD *digest, int key_length, unsigned char *out) {
    (void)password; (void)password_length; (void)salt; (void)salt_length; (void)iterations; (void)digest;
    (void)key_length; (void)out;
    return 0;
}
static unsigned char *failed_hmac(const EVP_MD *digest, const void *key, int key_length, const unsigned char *data,
                                  size_t data_length, unsigned char *mac, unsigned int *mac_length) {
    (void)digest; (void)key; (void)key_length; (void)data; (void)data_length; (void)mac;
    if (mac_length) *mac_length = 0;
    return NULL;
}
static unsigned long failed_version(void) { return 0; }
static int failed_digest(const void *data, size_t count, unsigned char *md, unsigned int *size, const EVP_MD *type,
                         ENGINE *engine) {
    (void)data; (void)count; (void)md; (void)type; (void)engine;
    if (size) *size = 0;
    return 0;
}

static const struct girders_crypto_api failing = {
    failed_ctx_new, failed_ctx_free, failed_ctx_ctrl, failed_cipher, failed_md, failed_init, failed_update,
    failed_final, failed_init, failed_update, failed_final, failed_pbkdf2, failed_hmac, failed_version, failed_md,
    failed_digest,
};

static const char *const install = "install libssl3 (Debian, Ubuntu) or openssl-libs (Fedora)";

int girders_crypto_open(const char *library, unsigned long minimum, struct girders_crypto_api *api, char *error,
                        size_t error_size) {
    const struct girders_symbol symbols[] = {
        {"EVP_CIPHER_CTX_new", (void **)&api->cipher_ctx_new},
        {"EVP_CIPHER_CTX_free", (void **)&api->cipher_ctx_free},
        {"EVP_CIPHER_CTX_ctrl", (void **)&api->cipher_ctx_ctrl},
        {"EVP_aes_256_gcm", (void **)&api->aes_256_gcm},
        {"EVP_sha256", (void **)&api->sha256},
        {"EVP_EncryptInit_ex", (void **)&api->encrypt_init_ex},
        {"EVP_EncryptUpdate", (void **)&api->encrypt_update},
        {"EVP_EncryptFinal_ex", (void **)&api->encrypt_final_ex},
        {"EVP_DecryptInit_ex", (void **)&api->decrypt_init_ex},
        {"EVP_DecryptUpdate", (void **)&api->decrypt_update},
        {"EVP_DecryptFinal_ex", (void **)&api->decrypt_final_ex},
        {"PKCS5_PBKDF2_HMAC", (void **)&api->pbkdf2_hmac},
        {"HMAC", (void **)&api->hmac},
        {"OpenSSL_version_num", (void **)&api->version_num},
        {"EVP_sha1", (void **)&api->sha1},
        {"EVP_Digest", (void **)&api->digest},
    };
    size_t count = sizeof symbols / sizeof symbols[0];
    void *handle = girders_load_library(library, symbols, count, "OpenSSL 3's libcrypto", install, error, error_size);
    if (handle == NULL) {
        *api = failing;
        return -1;
    }
    unsigned long version = api->version_num();
    if (version < minimum) {
        snprintf(error, error_size, "%s is OpenSSL %lu.%lu; Girders needs %lu.%lu or later: %s", library,
                 (version >> 28) & 0xf, (version >> 20) & 0xff, (minimum >> 28) & 0xf, (minimum >> 20) & 0xff,
                 install);
        *api = failing;
        dlclose(handle);
        return -1;
    }
    return 0;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct girders_crypto_api loaded;
static char failure[512];
static int load_failed;

static void load(void) {
    if (girders_crypto_open("libcrypto.so.3", GIRDERS_OPENSSL_MINIMUM_VERSION, &loaded, failure, sizeof failure)
        != 0) {
        loaded = failing;
        load_failed = 1;
    }
}

const char *girders_crypto_load(void) {
    pthread_once(&once, load);
    return load_failed ? failure : NULL;
}

const struct girders_crypto_api *girders_crypto(void) {
    pthread_once(&once, load);
    return &loaded;
}
