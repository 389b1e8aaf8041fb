#!/usr/bin/env python3
"""Reads one value from a GirdersStorage file store, following only Sources/GirdersStorage/FORMAT.md.

usage: decrypt_store.py <folder> raw <key-hex> <name>
       decrypt_store.py <folder> passphrase <passphrase> <name>
       decrypt_store.py <folder> keyfile <path> <name>
Writes the value's bytes to stdout; exits 1 with a message when anything does not verify.
"""
import hashlib
import hmac
import os
import sys
import unicodedata

from cryptography.hazmat.primitives.ciphers.aead import AESGCM


def main():
    folder, mode, secret, name = sys.argv[1:5]
    header = open(os.path.join(folder, "store.header"), "rb").read()
    if len(header) != 58 or header[:4] != b"GSSH" or header[4] not in (1, 2):
        sys.exit("not a version 1 or 2 store header")
    version = header[4]
    derivation = header[5]
    iterations = int.from_bytes(header[6:10], "big")
    salt = header[10:26]
    generation = int.from_bytes(header[26:30], "big")
    if generation < 1 or (derivation == 1) != (600_000 <= iterations <= 10_000_000) or (derivation != 1 and iterations):
        sys.exit("invalid header fields")
    if mode == "raw" and derivation == 0:
        master = bytes.fromhex(secret)
    elif mode == "passphrase" and derivation == 1:
        master = hashlib.pbkdf2_hmac("sha256", unicodedata.normalize("NFC", secret).encode(), salt, iterations, 32)
    elif mode == "keyfile" and derivation == 2:
        master = open(secret, "rb").read()
        if len(master) != 32:
            sys.exit("a key file holds exactly 32 bytes")
    else:
        sys.exit("the header's key derivation does not match")
    encryption = hmac.new(master, b"girders-storage/v1/encryption\x01", hashlib.sha256).digest()
    names = hmac.new(master, b"girders-storage/v1/names\x01", hashlib.sha256).digest()
    AESGCM(encryption).decrypt(header[30:42], header[42:58], header[:30])  # the key check: empty plaintext
    name = unicodedata.normalize("NFC", name)
    file_name = hmac.new(names, name.encode(), hashlib.sha256).hexdigest()
    item = open(os.path.join(folder, "items-%d" % generation, file_name), "rb").read()
    if len(item) < 37 or item[:4] != b"GSSI" or item[4] != version:
        sys.exit("not an item of this store's version")
    store_identifier = salt if version == 2 else b""
    plaintext = AESGCM(encryption).decrypt(item[5:17], item[17:], item[:17] + store_identifier + file_name.encode())
    length = int.from_bytes(plaintext[-4:], "big")
    if length > len(plaintext) - 4:
        sys.exit("the name length exceeds the item")
    embedded = plaintext[-4 - length:-4].decode("utf-8")  # strict: invalid UTF-8 raises
    if hmac.new(names, embedded.encode(), hashlib.sha256).hexdigest() != file_name:
        sys.exit("the item holds another name")
    sys.stdout.buffer.write(plaintext[:-4 - length])


if __name__ == "__main__":
    main()
