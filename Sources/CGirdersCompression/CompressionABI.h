// What CompressionLoader.c declares of zlib, brotli's decoder and zstd: their structs and constants, written from
// the libraries' ABIs. Scripts/check-c-abi.sh compares each with the real headers where those are installed.
#ifndef GIRDERS_COMPRESSION_ABI_H
#define GIRDERS_COMPRESSION_ABI_H

#include <stddef.h>
#include <stdint.h>

/// zlib's z_stream (the ABI of 1.x).
typedef struct {
    const uint8_t *next_in;
    unsigned int avail_in;
    unsigned long total_in;
    uint8_t *next_out;
    unsigned int avail_out;
    unsigned long total_out;
    const char *msg;
    void *state;
    void *zalloc;
    void *zfree;
    void *opaque;
    int data_type;
    unsigned long adler;
    unsigned long reserved;
} girders_z_stream;
#define GIRDERS_Z_OK 0
#define GIRDERS_Z_STREAM_END 1
#define GIRDERS_Z_NEED_DICT 2
#define GIRDERS_Z_BUF_ERROR (-5)
#define GIRDERS_Z_NO_FLUSH 0

#define GIRDERS_BROTLI_DECODER_RESULT_ERROR 0
#define GIRDERS_BROTLI_DECODER_RESULT_SUCCESS 1

/// zstd's ZSTD_inBuffer and ZSTD_outBuffer.
typedef struct { const void *src; size_t size; size_t pos; } girders_zstd_in;
typedef struct { void *dst; size_t size; size_t pos; } girders_zstd_out;
#define GIRDERS_ZSTD_d_windowLogMax 100
#define GIRDERS_ZSTD_reset_session_only 1

#endif
