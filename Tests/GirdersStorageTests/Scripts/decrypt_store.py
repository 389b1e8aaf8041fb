#!/usr/bin/env python3
"""Reads one value from a GirdersStorage file store, following only Sources/GirdersStorage/FORMAT.md.

usage: decrypt_store.py <folder> raw <key-hex> <name>
       decrypt_store.py <folder> passphrase <passphrase> <name>
Writes the value's bytes to stdout; exits 1 with a message when anything does not verify.
"""
import hashlib
import hmac
import os
import sys

from cryptography.hazmat.primitives.ciphers.aead import AESGCM


def main():
    folder, mode, secret, name = sys.argv[1:5]
    header = open(os.path.join(folder, "store.header"), "rb").read()
    if len(header) != 58 or header[:4] != b"GSSH" or header[4] != 1:
        sys.exit("not a version 1 store header")
    derivation = header[5]
    iterations = int.from_bytes(header[6:10], "big")
    salt = header[10:26]
    generation = int.from_bytes(header[26:30], "big")
    if mode == "raw" and derivation == 0:
        master = bytes.fromhex(secret)
    elif mode == "passphrase" and derivation == 1:
        master = hashlib.pbkdf2_hmac("sha256", secret.encode(), salt, iterations, 32)
    else:
        sys.exit("the header's key derivation does not match")
    encryption = hmac.new(master, b"girders-storage/v1/encryption\x01", hashlib.sha256).digest()
    names = hmac.new(master, b"girders-storage/v1/names\x01", hashlib.sha256).digest()
    AESGCM(encryption).decrypt(header[30:42], header[42:58], header[:30])  # the key check: empty plaintext
    file_name = hmac.new(names, name.encode(), hashlib.sha256).hexdigest()
    item = open(os.path.join(folder, "items-%d" % generation, file_name), "rb").read()
    if item[:4] != b"GSSI" or item[4] != 1:
        sys.exit("not a version 1 item")
    plaintext = AESGCM(encryption).decrypt(item[5:17], item[17:], item[:17] + file_name.encode())
    length = int.from_bytes(plaintext[-4:], "big")
    if plaintext[-4 - length:-4].decode() != name:
        sys.exit("the item holds another name")
    sys.stdout.buffer.write(plaintext[:-4 - length])


if __name__ == "__main__":
    main()
