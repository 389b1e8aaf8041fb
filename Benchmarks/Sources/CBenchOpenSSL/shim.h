// OpenSSL's libcrypto (libssl-dev) for GirdersStorage on Linux: AES-256-GCM, PBKDF2, HMAC and random bytes.
#ifndef GIRDERS_OPENSSL_SHIM_H
#define GIRDERS_OPENSSL_SHIM_H

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#endif
