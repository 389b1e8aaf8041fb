"""Bodies in every content coding, whole or damaged, for the hostile server's /coded route.

gzip and deflate come from Python's zlib; br and zstd from the system's own encoders (libbrotlienc.so.1 and
libzstd.so.1, through ctypes: no package to install), so the tests need nothing but what libcurl already brings.
"""
import ctypes
import ctypes.util
import zlib

# 108,000 bytes of varied text: compresses about 10:1, so half a stream is well inside the body.
PLAIN = b"".join(b"line %06d: the quick brown fox jumps over the lazy dog %d\n" % (i, i * 7919 % 1000)
                 for i in range(1800))[:108000]


def _library(name):
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


_brotli = _library("libbrotlienc.so.1")
_zstd = _library("libzstd.so.1")


def gzip(data):
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    return compressor.compress(data) + compressor.flush()


def deflate(data, raw=False):
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15 if raw else 15)
    return compressor.compress(data) + compressor.flush()


def br(data):
    if _brotli is None:
        raise RuntimeError("libbrotlienc.so.1 is missing")
    size = ctypes.c_size_t(len(data) + 1024)
    out = ctypes.create_string_buffer(size.value)
    # BrotliEncoderCompress(quality, lgwin, mode, input_size, input, &encoded_size, encoded)
    _brotli.BrotliEncoderCompress.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_size_t,
                                              ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t), ctypes.c_char_p]
    if not _brotli.BrotliEncoderCompress(9, 22, 0, len(data), data, ctypes.byref(size), out):
        raise RuntimeError("brotli failed")
    return out.raw[:size.value]


def zstd(data):
    if _zstd is None:
        raise RuntimeError("libzstd.so.1 is missing")
    _zstd.ZSTD_compressBound.restype = ctypes.c_size_t
    _zstd.ZSTD_compress.restype = ctypes.c_size_t
    _zstd.ZSTD_compress.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
    bound = _zstd.ZSTD_compressBound(ctypes.c_size_t(len(data)))
    out = ctypes.create_string_buffer(bound)
    size = _zstd.ZSTD_compress(out, bound, data, len(data), 9)
    return out.raw[:size]


def body(coding, damage):
    """(Content-Encoding, body) for `coding` (gzip, deflate, raw-deflate, br, zstd, gzip-gzip) with `damage`: none,
    half (the first half of the coded bytes), tail (without the last 8 bytes: gzip's CRC-32 and size, zlib's
    Adler-32 and more, brotli's last meta-block, zstd's last block), garbage (junk after the end), members (two
    gzip members or zstd frames one after the other)."""
    encode = {"gzip": gzip, "deflate": deflate, "raw-deflate": lambda d: deflate(d, raw=True), "br": br,
              "zstd": zstd, "gzip-gzip": lambda d: gzip(gzip(d))}[coding]
    name = {"raw-deflate": "deflate", "gzip-gzip": "gzip, gzip"}.get(coding, coding)
    coded = encode(PLAIN)
    if damage == "half":
        coded = coded[:len(coded) // 2]
    elif damage == "tail":
        coded = coded[:-8]
    elif damage == "garbage":
        coded = coded + b"trailing garbage"
    elif damage == "members":
        coded = coded + encode(PLAIN)
    return name, coded
