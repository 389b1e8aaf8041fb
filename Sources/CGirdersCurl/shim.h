// libcurl (libcurl4-openssl-dev) for GirdersNetworking's CurlTransport on Linux. curl_easy_setopt, curl_easy_getinfo
// and curl_multi_setopt are variadic, which Swift cannot call: these typed wrappers pass each kind of argument.
#ifndef GIRDERS_CURL_SHIM_H
#define GIRDERS_CURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*girders_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);

static inline CURLcode girders_easy_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode girders_easy_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// Strings are copied by libcurl (every option but CURLOPT_POSTFIELDS, which is not used).
static inline CURLcode girders_easy_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode girders_easy_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// A blob option, copied by libcurl.
static inline CURLcode girders_easy_set_blob(CURL *handle, CURLoption option, void *data, size_t length) {
    struct curl_blob blob;
    blob.data = data;
    blob.len = length;
    blob.flags = CURL_BLOB_COPY;
    return curl_easy_setopt(handle, option, &blob);
}

static inline CURLcode girders_easy_set_data_callback(CURL *handle, CURLoption function, CURLoption data,
                                                      girders_curl_data_callback callback, void *context) {
    CURLcode code = curl_easy_setopt(handle, function, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, data, context);
}

static inline CURLcode girders_easy_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode girders_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/// The easy handle and result of a finished transfer's message, or NULL.
static inline CURL *girders_multi_done(CURLMsg *message, CURLcode *result) {
    if (message == NULL || message->msg != CURLMSG_DONE) return NULL;
    *result = message->data.result;
    return message->easy_handle;
}

#endif
