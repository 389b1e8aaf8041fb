// See CGirdersCompression.h; the libraries' structs and constants are in CompressionABI.h.
#include "CGirdersCompression.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CGirdersLoading.h"
#include "CompressionABI.h"

static struct {
    const char *(*version)(void);
    int (*inflate_init2)(girders_z_stream *stream, int window_bits, const char *version, int stream_size);
    int (*inflate)(girders_z_stream *stream, int flush);
    int (*inflate_reset)(girders_z_stream *stream);
    int (*inflate_end)(girders_z_stream *stream);
} zlib;

static struct {
    void *(*create)(void *alloc, void *free, void *opaque);
    int (*decompress_stream)(void *state, size_t *available_in, const uint8_t **next_in, size_t *available_out,
                             uint8_t **next_out, size_t *total_out);
    int (*error_code)(const void *state);
    const char *(*error_string)(int code);
    void (*destroy)(void *state);
} brotli;

// zstd: the stable API of 1.4 and later.
static struct {
    void *(*create)(void);
    size_t (*free_context)(void *context);
    size_t (*set_parameter)(void *context, int parameter, int value);
    size_t (*decompress_stream)(void *context, girders_zstd_out *output, girders_zstd_in *input);
    unsigned (*is_error)(size_t code);
    const char *(*error_name)(size_t code);
    size_t (*reset)(void *context, int directive);
} zstd;

struct girders_decoder {
    girders_coding coding;
    /// deflate: whether the stream is zlib-wrapped (RFC 1950) or raw (RFC 1951), decided on its first two bytes.
    int deflate_decided;
    uint8_t first_byte;
    int has_first_byte;
    girders_z_stream z;
    int z_open;
    void *state;  // brotli or zstd
    char error[256];
};

static pthread_once_t once[6] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                 PTHREAD_ONCE_INIT};
static char failure[6][512];
static int failed[6];

static void load_zlib(void) {
    const struct girders_symbol symbols[] = {
        {"zlibVersion", (void **)&zlib.version}, {"inflateInit2_", (void **)&zlib.inflate_init2},
        {"inflate", (void **)&zlib.inflate}, {"inflateReset", (void **)&zlib.inflate_reset},
        {"inflateEnd", (void **)&zlib.inflate_end},
    };
    if (girders_load_library("libz.so.1", symbols, sizeof symbols / sizeof symbols[0], "zlib",
                             "install zlib1g (Debian, Ubuntu) or zlib (Fedora)", failure[GIRDERS_CODING_GZIP],
                             sizeof failure[GIRDERS_CODING_GZIP]) == NULL) {
        memset(&zlib, 0, sizeof zlib);
        failed[GIRDERS_CODING_GZIP] = 1;
    }
}

static void load_brotli(void) {
    const struct girders_symbol symbols[] = {
        {"BrotliDecoderCreateInstance", (void **)&brotli.create},
        {"BrotliDecoderDecompressStream", (void **)&brotli.decompress_stream},
        {"BrotliDecoderGetErrorCode", (void **)&brotli.error_code},
        {"BrotliDecoderErrorString", (void **)&brotli.error_string},
        {"BrotliDecoderDestroyInstance", (void **)&brotli.destroy},
    };
    if (girders_load_library("libbrotlidec.so.1", symbols, sizeof symbols / sizeof symbols[0], "brotli's decoder",
                             "install libbrotli1 (Debian, Ubuntu) or brotli (Fedora)", failure[GIRDERS_CODING_BR],
                             sizeof failure[GIRDERS_CODING_BR]) == NULL) {
        memset(&brotli, 0, sizeof brotli);
        failed[GIRDERS_CODING_BR] = 1;
    }
}

static void load_zstd(void) {
    const struct girders_symbol symbols[] = {
        {"ZSTD_createDCtx", (void **)&zstd.create}, {"ZSTD_freeDCtx", (void **)&zstd.free_context},
        {"ZSTD_DCtx_setParameter", (void **)&zstd.set_parameter},
        {"ZSTD_decompressStream", (void **)&zstd.decompress_stream}, {"ZSTD_isError", (void **)&zstd.is_error},
        {"ZSTD_getErrorName", (void **)&zstd.error_name}, {"ZSTD_DCtx_reset", (void **)&zstd.reset},
    };
    if (girders_load_library("libzstd.so.1", symbols, sizeof symbols / sizeof symbols[0], "zstd 1.4 or later",
                             "install libzstd1 (Debian, Ubuntu) or libzstd (Fedora)", failure[GIRDERS_CODING_ZSTD],
                             sizeof failure[GIRDERS_CODING_ZSTD]) == NULL) {
        memset(&zstd, 0, sizeof zstd);
        failed[GIRDERS_CODING_ZSTD] = 1;
    }
}

static void load_deflate(void) {
    pthread_once(&once[GIRDERS_CODING_GZIP], load_zlib);
    if (failed[GIRDERS_CODING_GZIP]) {
        failed[GIRDERS_CODING_DEFLATE] = 1;
        memcpy(failure[GIRDERS_CODING_DEFLATE], failure[GIRDERS_CODING_GZIP], sizeof failure[0]);
    }
}

static void load_raw_deflate(void) {
    pthread_once(&once[GIRDERS_CODING_GZIP], load_zlib);
    if (failed[GIRDERS_CODING_GZIP]) {
        failed[GIRDERS_CODING_RAW_DEFLATE] = 1;
        memcpy(failure[GIRDERS_CODING_RAW_DEFLATE], failure[GIRDERS_CODING_GZIP], sizeof failure[0]);
    }
}

const char *girders_coding_load(girders_coding coding) {
    switch (coding) {
    case GIRDERS_CODING_GZIP: pthread_once(&once[coding], load_zlib); break;
    case GIRDERS_CODING_DEFLATE: pthread_once(&once[coding], load_deflate); break;
    case GIRDERS_CODING_BR: pthread_once(&once[coding], load_brotli); break;
    case GIRDERS_CODING_ZSTD: pthread_once(&once[coding], load_zstd); break;
    case GIRDERS_CODING_RAW_DEFLATE: pthread_once(&once[coding], load_raw_deflate); break;
    default: return "an unknown coding";
    }
    return failed[coding] ? failure[coding] : NULL;
}

static int open_zlib(girders_decoder *decoder, int window_bits) {
    memset(&decoder->z, 0, sizeof decoder->z);
    if (zlib.inflate_init2(&decoder->z, window_bits, zlib.version(), (int)sizeof(girders_z_stream)) != GIRDERS_Z_OK) {
        snprintf(decoder->error, sizeof decoder->error, "zlib could not start (inflateInit2)");
        return -1;
    }
    decoder->z_open = 1;
    return 0;
}

girders_decoder *girders_decoder_create(girders_coding coding) {
    if (girders_coding_load(coding) != NULL) return NULL;
    girders_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->coding = coding;
    int ok = 0;
    switch (coding) {
    case GIRDERS_CODING_GZIP: ok = open_zlib(decoder, 15 + 16) == 0; break;  // gzip only, with its CRC-32 and size
    case GIRDERS_CODING_DEFLATE: ok = 1; break;  // zlib-wrapped or raw: decided on the first two bytes
    case GIRDERS_CODING_RAW_DEFLATE: ok = open_zlib(decoder, -15) == 0; break;
    case GIRDERS_CODING_BR: ok = (decoder->state = brotli.create(NULL, NULL, NULL)) != NULL; break;
    case GIRDERS_CODING_ZSTD:
        decoder->state = zstd.create();
        ok = decoder->state != NULL && !zstd.is_error(zstd.set_parameter(decoder->state, GIRDERS_ZSTD_d_windowLogMax, 23));
        break;
    }
    if (!ok) {
        girders_decoder_free(decoder);
        return NULL;
    }
    return decoder;
}

/// Whether two bytes start a zlib stream (RFC 1950: deflate, a window of at most 32 KiB, a valid check).
static int zlib_header(uint8_t cmf, uint8_t flg) {
    return (cmf & 0x0F) == 8 && (cmf >> 4) <= 7 && ((unsigned)cmf * 256 + flg) % 31 == 0;
}

static girders_decode_result zlib_step(girders_decoder *decoder, const uint8_t *input, size_t input_length,
                                       size_t *consumed, uint8_t *output, size_t output_length, size_t *produced) {
    // zlib counts in unsigned int: feed at most 1 GiB at a time (the caller loops).
    unsigned int in = input_length > (1u << 30) ? (1u << 30) : (unsigned int)input_length;
    unsigned int out = output_length > (1u << 30) ? (1u << 30) : (unsigned int)output_length;
    decoder->z.next_in = input;
    decoder->z.avail_in = in;
    decoder->z.next_out = output;
    decoder->z.avail_out = out;
    int code = zlib.inflate(&decoder->z, GIRDERS_Z_NO_FLUSH);
    *consumed += in - decoder->z.avail_in;
    *produced += out - decoder->z.avail_out;
    if (code == GIRDERS_Z_STREAM_END) return GIRDERS_DECODE_END;
    if (code == GIRDERS_Z_OK || code == GIRDERS_Z_BUF_ERROR) return GIRDERS_DECODE_MORE;  // GIRDERS_Z_BUF_ERROR: no progress possible now
    snprintf(decoder->error, sizeof decoder->error, "%s",
             code == GIRDERS_Z_NEED_DICT ? "it asks for a preset dictionary" : decoder->z.msg ? decoder->z.msg : "corrupt");
    return GIRDERS_DECODE_ERROR;
}

girders_decode_result girders_decoder_step(girders_decoder *decoder, const uint8_t *input, size_t input_length,
                                           size_t *consumed, uint8_t *output, size_t output_length,
                                           size_t *produced) {
    *consumed = 0;
    *produced = 0;
    decoder->error[0] = 0;
    switch (decoder->coding) {
    case GIRDERS_CODING_DEFLATE:
        if (!decoder->deflate_decided) {
            // RFC 9110's "deflate" is zlib-wrapped, but servers also send raw deflate, as browsers accept.
            if (input_length == 0) return GIRDERS_DECODE_MORE;
            if (!decoder->has_first_byte) {
                decoder->first_byte = input[0];
                decoder->has_first_byte = 1;
                *consumed = 1;
                if (input_length == 1) return GIRDERS_DECODE_MORE;
                input += 1;
                input_length -= 1;
            }
            int wrapped = zlib_header(decoder->first_byte, input[0]);
            if (open_zlib(decoder, wrapped ? 15 : -15) != 0) return GIRDERS_DECODE_ERROR;
            decoder->deflate_decided = 1;
            size_t first_consumed = 0, first_produced = 0;
            girders_decode_result result = zlib_step(decoder, &decoder->first_byte, 1, &first_consumed, output,
                                                     output_length, &first_produced);
            *produced += first_produced;
            if (result != GIRDERS_DECODE_MORE || first_consumed == 0) {
                if (result == GIRDERS_DECODE_MORE) {
                    snprintf(decoder->error, sizeof decoder->error, "no room for its first byte");
                    return GIRDERS_DECODE_ERROR;
                }
                return result;
            }
            return zlib_step(decoder, input, input_length, consumed, output + *produced, output_length - *produced,
                             produced);
        }
        return zlib_step(decoder, input, input_length, consumed, output, output_length, produced);
    case GIRDERS_CODING_GZIP:
    case GIRDERS_CODING_RAW_DEFLATE:
        return zlib_step(decoder, input, input_length, consumed, output, output_length, produced);
    case GIRDERS_CODING_BR: {
        size_t available_in = input_length, available_out = output_length;
        const uint8_t *next_in = input;
        uint8_t *next_out = output;
        int result = brotli.decompress_stream(decoder->state, &available_in, &next_in, &available_out, &next_out,
                                              NULL);
        *consumed = input_length - available_in;
        *produced = output_length - available_out;
        if (result == GIRDERS_BROTLI_DECODER_RESULT_SUCCESS) return GIRDERS_DECODE_END;
        if (result == GIRDERS_BROTLI_DECODER_RESULT_ERROR) {
            snprintf(decoder->error, sizeof decoder->error, "%s",
                     brotli.error_string(brotli.error_code(decoder->state)));
            return GIRDERS_DECODE_ERROR;
        }
        return GIRDERS_DECODE_MORE;
    }
    case GIRDERS_CODING_ZSTD: {
        girders_zstd_in in = {input, input_length, 0};
        girders_zstd_out out = {output, output_length, 0};
        size_t hint = zstd.decompress_stream(decoder->state, &out, &in);
        *consumed = in.pos;
        *produced = out.pos;
        if (zstd.is_error(hint)) {
            snprintf(decoder->error, sizeof decoder->error, "%s", zstd.error_name(hint));
            return GIRDERS_DECODE_ERROR;
        }
        // 0: a frame is fully decoded and flushed.
        return hint == 0 ? GIRDERS_DECODE_END : GIRDERS_DECODE_MORE;
    }
    }
    return GIRDERS_DECODE_ERROR;
}

int girders_decoder_restart(girders_decoder *decoder) {
    switch (decoder->coding) {
    case GIRDERS_CODING_GZIP:
    case GIRDERS_CODING_RAW_DEFLATE: return zlib.inflate_reset(&decoder->z) == GIRDERS_Z_OK ? 0 : -1;
    case GIRDERS_CODING_ZSTD: return zstd.is_error(zstd.reset(decoder->state, GIRDERS_ZSTD_reset_session_only)) ? -1 : 0;
    default: return -1;  // deflate and brotli streams are one per body
    }
}

const char *girders_decoder_error(const girders_decoder *decoder) { return decoder->error; }

void girders_decoder_free(girders_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->z_open) zlib.inflate_end(&decoder->z);
    if (decoder->state != NULL) {
        if (decoder->coding == GIRDERS_CODING_BR) brotli.destroy(decoder->state);
        if (decoder->coding == GIRDERS_CODING_ZSTD) zstd.free_context(decoder->state);
    }
    free(decoder);
}
