#!/usr/bin/env python3
"""Writes a version 1 GirdersStorage store with a raw key, following only FORMAT.md ("Version 1").

usage: write_v1_store.py <folder> <key-hex> <name>=<value> ...
The folder must not exist. Used to test that version 1 stores open and are migrated.
"""
import hashlib
import hmac
import os
import sys

from cryptography.hazmat.primitives.ciphers.aead import AESGCM


def write(path, data):
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as file:
        file.write(data)


def main():
    folder, key_hex = sys.argv[1:3]
    master = bytes.fromhex(key_hex)
    encryption = hmac.new(master, b"girders-storage/v1/encryption\x01", hashlib.sha256).digest()
    names = hmac.new(master, b"girders-storage/v1/names\x01", hashlib.sha256).digest()
    os.mkdir(folder, 0o700)
    os.mkdir(os.path.join(folder, "items-1"), 0o700)
    prefix = b"GSSH" + bytes([1, 0]) + (0).to_bytes(4, "big") + os.urandom(16) + (1).to_bytes(4, "big")
    nonce = os.urandom(12)
    check = AESGCM(encryption).encrypt(nonce, b"", prefix)  # the empty plaintext's tag
    write(os.path.join(folder, "store.header"), prefix + nonce + check)
    for pair in sys.argv[3:]:
        name, value = pair.split("=", 1)
        file_name = hmac.new(names, name.encode(), hashlib.sha256).hexdigest()
        nonce = os.urandom(12)
        item_prefix = b"GSSI" + bytes([1]) + nonce
        plaintext = value.encode() + name.encode() + len(name.encode()).to_bytes(4, "big")
        sealed = AESGCM(encryption).encrypt(nonce, plaintext, item_prefix + file_name.encode())
        write(os.path.join(folder, "items-1", file_name), item_prefix + sealed)


if __name__ == "__main__":
    main()
