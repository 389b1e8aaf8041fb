// The content-coding decoders CurlTransport checks and bounds itself (gzip and deflate through zlib, br through
// brotli's decoder, zstd), declared from the libraries' documented, stable ABIs and loaded at run time from
// libz.so.1, libbrotlidec.so.1 and libzstd.so.1 (which libcurl itself loads on Debian and most distributions), so
// Girders builds without their headers and never links them. Nothing here is exported under a library's name.
//
// One small interface for every coding: a decoder is fed the coded bytes and fills an output buffer, and says
// when its coding ended (gzip's and zlib's checksums verified, brotli's last meta-block, zstd's frame) so that a
// body cut short is never taken for a whole one.
#ifndef GIRDERS_COMPRESSION_H
#define GIRDERS_COMPRESSION_H

#include <stddef.h>
#include <stdint.h>

/// The codings (RFC 9110 8.4.1, RFC 7932, RFC 8878).
typedef enum {
    GIRDERS_CODING_GZIP = 1,
    GIRDERS_CODING_DEFLATE = 2,
    GIRDERS_CODING_BR = 3,
    GIRDERS_CODING_ZSTD = 4,
    /// Raw DEFLATE (RFC 1951, no zlib header), for WebSocket's permessage-deflate (RFC 7692): its messages end in a
    /// sync flush, not in the stream's end, so a step never reports GIRDERS_DECODE_END for them.
    GIRDERS_CODING_RAW_DEFLATE = 5
} girders_coding;

/// What a decoding step did.
typedef enum {
    /// Took input or gave output, and the coding has not ended: give it more input, or room for more output.
    GIRDERS_DECODE_MORE = 0,
    /// The coding ended here (its checks passed); `consumed` may be short of the input: what follows is not
    /// part of it.
    GIRDERS_DECODE_END = 1,
    /// The input is not valid in this coding; girders_decoder_error says why.
    GIRDERS_DECODE_ERROR = -1
} girders_decode_result;

typedef struct girders_decoder girders_decoder;

/// Loads the library `coding` needs the first time it is asked (thread-safe) and returns NULL when it is usable,
/// or why not (the library and what it lacks). The same answer on every later call.
const char *girders_coding_load(girders_coding coding);

/// A new decoder for `coding`, or NULL when its library is not loaded or memory is short. zstd frames may ask for
/// a window of at most 8 MiB (RFC 8878, 3.1.1.1.2: what HTTP decoders are asked to support).
girders_decoder *girders_decoder_create(girders_coding coding);

/// Decodes from `input` (`input_length` bytes, NULL when 0) into `output` (`output_length` bytes): `consumed` and
/// `produced` say how many of each were used.
girders_decode_result girders_decoder_step(girders_decoder *decoder, const uint8_t *input, size_t input_length,
                                           size_t *consumed, uint8_t *output, size_t output_length,
                                           size_t *produced);

/// Starts a new member or frame of the same coding after GIRDERS_DECODE_END (gzip members and zstd frames may
/// follow one another); 0 on success.
int girders_decoder_restart(girders_decoder *decoder);

/// Why the last step failed (the library's own words), or "".
const char *girders_decoder_error(const girders_decoder *decoder);

void girders_decoder_free(girders_decoder *decoder);

#endif
