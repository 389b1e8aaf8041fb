// What GirdersNetworking's CurlTransport uses of libcurl, declared from libcurl's documented, stable ABI (the
// functions, the CURLMsg, curl_slist and curl_blob layouts, and the option, code and flag numbers it passes), so
// Girders builds without libcurl's headers. The functions are resolved at run time from libcurl.so.4, once
// (see girders_curl_load); each keeps libcurl's name here as a static inline function that calls through the
// loaded table, so the Swift code reads as libcurl's documentation does. Nothing here is exported under a libcurl
// name: the libcurl that FoundationNetworking links is never interposed.
//
// libcurl's variadic setters are called through typed shims (girders_easy_set_*), which Swift can call.
#ifndef GIRDERS_CURL_H
#define GIRDERS_CURL_H

#include <stddef.h>
#include <stdint.h>

/// The oldest libcurl Girders accepts: 7.77.0, for CURLOPT_CAINFO_BLOB (trust anchors from memory); it also
/// brings curl_multi_poll (7.66.0), curl_multi_wakeup (7.68.0) and CURLOPT_SSLCERT_BLOB (7.71.0).
#define GIRDERS_CURL_MINIMUM_VERSION 0x074D00

typedef void CURL;
typedef void CURLM;
typedef int64_t curl_off_t;
typedef int curl_socket_t;

typedef enum {
    CURLE_OK = 0,
    CURLE_UNSUPPORTED_PROTOCOL = 1,
    CURLE_FAILED_INIT = 2,
    CURLE_URL_MALFORMAT = 3,
    CURLE_COULDNT_RESOLVE_PROXY = 5,
    CURLE_COULDNT_RESOLVE_HOST = 6,
    CURLE_COULDNT_CONNECT = 7,
    CURLE_HTTP2 = 16,
    CURLE_PARTIAL_FILE = 18,
    CURLE_OUT_OF_MEMORY = 27,
    CURLE_OPERATION_TIMEDOUT = 28,
    CURLE_SSL_CONNECT_ERROR = 35,
    CURLE_ABORTED_BY_CALLBACK = 42,
    CURLE_UNKNOWN_OPTION = 48,
    CURLE_GOT_NOTHING = 52,
    CURLE_SSL_ENGINE_NOTFOUND = 53,
    CURLE_SEND_ERROR = 55,
    CURLE_RECV_ERROR = 56,
    CURLE_SSL_CERTPROBLEM = 58,
    CURLE_SSL_CIPHER = 59,
    CURLE_PEER_FAILED_VERIFICATION = 60,
    CURLE_SEND_FAIL_REWIND = 65,
    CURLE_SSL_CACERT_BADFILE = 77,
    CURLE_SSL_ISSUER_ERROR = 83,
    CURLE_SSL_PINNEDPUBKEYNOTMATCH = 90,
    CURLE_AGAIN = 81,
    CURLE_HTTP2_STREAM = 92,
    CURLE_SSL_CLIENTCERT = 98
} CURLcode;

/// Option numbers: a type base (long 0, object pointer 10000, function pointer 20000, curl_off_t 30000, blob 40000)
/// plus the option's index.
typedef enum {
    CURLOPT_NOPROGRESS = 43,
    CURLOPT_NOBODY = 44,
    CURLOPT_UPLOAD = 46,
    CURLOPT_FOLLOWLOCATION = 52,
    CURLOPT_FORBID_REUSE = 75,
    CURLOPT_HTTP_VERSION = 84,
    CURLOPT_NOSIGNAL = 99,
    CURLOPT_TCP_NODELAY = 121,
    CURLOPT_CONNECT_ONLY = 141,
    CURLOPT_CONNECTTIMEOUT_MS = 156,
    CURLOPT_HTTP_CONTENT_DECODING = 158,
    CURLOPT_PROTOCOLS = 181,
    CURLOPT_REDIR_PROTOCOLS = 182,
    CURLOPT_PATH_AS_IS = 234,
    CURLOPT_PIPEWAIT = 237,
    CURLOPT_WRITEDATA = 10001,
    CURLOPT_URL = 10002,
    CURLOPT_READDATA = 10009,
    CURLOPT_SEEKDATA = 10168,
    CURLOPT_ERRORBUFFER = 10010,
    CURLOPT_HTTPHEADER = 10023,
    CURLOPT_KEYPASSWD = 10026,
    CURLOPT_HEADERDATA = 10029,
    CURLOPT_XFERINFODATA = 10057,
    CURLOPT_CUSTOMREQUEST = 10036,
    CURLOPT_SSLCERTTYPE = 10086,
    CURLOPT_PINNEDPUBLICKEY = 10230,
    CURLOPT_PREREQDATA = 10313,
    CURLOPT_PROTOCOLS_STR = 10318,
    CURLOPT_REDIR_PROTOCOLS_STR = 10319,
    CURLOPT_WRITEFUNCTION = 20011,
    CURLOPT_READFUNCTION = 20012,
    CURLOPT_HEADERFUNCTION = 20079,
    CURLOPT_SEEKFUNCTION = 20167,
    CURLOPT_XFERINFOFUNCTION = 20219,
    CURLOPT_PREREQFUNCTION = 20312,
    CURLOPT_INFILESIZE_LARGE = 30115,
    CURLOPT_SSLCERT_BLOB = 40291,
    CURLOPT_CAINFO_BLOB = 40309
} CURLoption;

/// The transfer facts Girders reads: the body bytes received as they came over the wire (before content decoding),
/// and what RequestMetrics reports (times in microseconds, sizes, the protocol, the connections opened).
typedef enum {
    CURLINFO_HEADER_SIZE = 0x200000 + 11,
    CURLINFO_REQUEST_SIZE = 0x200000 + 12,
    CURLINFO_NUM_CONNECTS = 0x200000 + 26,
    CURLINFO_HTTP_VERSION = 0x200000 + 46,
    CURLINFO_ACTIVESOCKET = 0x500000 + 44,
    CURLINFO_SIZE_UPLOAD_T = 0x600000 + 7,
    CURLINFO_SIZE_DOWNLOAD_T = 0x600000 + 8,
    CURLINFO_TOTAL_TIME_T = 0x600000 + 50,
    CURLINFO_NAMELOOKUP_TIME_T = 0x600000 + 51,
    CURLINFO_CONNECT_TIME_T = 0x600000 + 52,
    CURLINFO_PRETRANSFER_TIME_T = 0x600000 + 53,
    CURLINFO_STARTTRANSFER_TIME_T = 0x600000 + 54,
    CURLINFO_APPCONNECT_TIME_T = 0x600000 + 56
} CURLINFO;

typedef enum { CURLM_OK = 0 } CURLMcode;
typedef enum { CURLMOPT_MAX_HOST_CONNECTIONS = 7 } CURLMoption;
typedef enum { CURLMSG_DONE = 1 } CURLMSG;
/// curl_version_info's argument; Girders reads only the fields every age has.
typedef enum { CURLVERSION_FIRST = 0 } CURLversion;

#define CURL_GLOBAL_ALL 3L
#define CURL_ERROR_SIZE 256
#define CURL_READFUNC_ABORT 0x10000000
/// Returned by a read or write callback: hold the transfer until curl_easy_pause(handle, CURLPAUSE_CONT).
#define CURL_READFUNC_PAUSE 0x10000001
/// The seek callback's answers: rewound, failed, or cannot rewind (libcurl then fails with CURLE_SEND_FAIL_REWIND).
#define CURL_SEEKFUNC_OK 0
#define CURL_SEEKFUNC_FAIL 1
#define CURL_SEEKFUNC_CANTSEEK 2
/// The prerequest callback's answer: go on with the request.
#define CURL_PREREQFUNC_OK 0
#define CURL_WRITEFUNC_PAUSE 0x10000001
#define CURLPAUSE_CONT 0
#define CURL_BLOB_COPY 1
/// CURLOPT_HTTP_VERSION's HTTP/1.1 (ALPN offers http/1.1 alone: a WebSocket's upgrade is an HTTP/1.1 request).
#define CURL_HTTP_VERSION_1_1 2L
/// The protocol bits of CURLOPT_PROTOCOLS, for libcurl older than 7.85.0 (which lacks CURLOPT_PROTOCOLS_STR).
#define CURLPROTO_HTTP (1 << 0)
#define CURLPROTO_HTTPS (1 << 1)

struct curl_slist {
    char *data;
    struct curl_slist *next;
};

typedef struct {
    CURLMSG msg;
    CURL *easy_handle;
    union {
        void *whatever;
        CURLcode result;
    } data;
} CURLMsg;

struct curl_waitfd {
    curl_socket_t fd;
    short events;
    short revents;
};

struct curl_blob {
    void *data;
    size_t len;
    unsigned int flags;
};

/// The leading fields of curl_version_info_data, which every version has.
typedef struct {
    CURLversion age;
    const char *version;
    unsigned int version_num;
} girders_curl_version_info;

/// libcurl's functions, resolved once from libcurl.so.4; before a successful load every entry answers as a
/// failed libcurl would (CURLE_FAILED_INIT, NULL), so nothing can call through an empty slot.
struct girders_curl_api {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *string);
    void (*slist_free_all)(struct curl_slist *list);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ready);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMcode (*multi_timeout)(CURLM *multi, long *milliseconds);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
    CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
    girders_curl_version_info *(*version_info)(CURLversion age);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    CURLcode (*easy_pause)(CURL *handle, int bitmask);
    CURLcode (*easy_perform)(CURL *handle);
    CURLcode (*easy_send)(CURL *handle, const void *buffer, size_t length, size_t *sent);
    CURLcode (*easy_recv)(CURL *handle, void *buffer, size_t length, size_t *received);
};

/// Loads libcurl.so.4 the first time it is called (thread-safe) and returns NULL when it is usable, or why not: the
/// library that could not be opened, the symbol it lacks, or its version below GIRDERS_CURL_MINIMUM_VERSION, with
/// the Debian package to install. The same answer on every later call.
const char *girders_curl_load(void);

/// The loaded table (or the failing one, see girders_curl_api).
const struct girders_curl_api *girders_curl(void);

/// Opens `library` into `api` and checks it offers every function and at least `minimum` (a LIBCURL_VERSION_NUM);
/// 0 on success, otherwise -1 with the reason in `error`. The process-wide table uses libcurl.so.4; the tests
/// call this with other libraries to check each failure says what is wrong.
int girders_curl_open(const char *library, unsigned int minimum, struct girders_curl_api *api, char *error,
                      size_t error_size);

static inline CURLcode curl_global_init(long flags) { return girders_curl()->global_init(flags); }
static inline CURL *curl_easy_init(void) { return girders_curl()->easy_init(); }
static inline void curl_easy_cleanup(CURL *handle) { girders_curl()->easy_cleanup(handle); }
static inline void curl_easy_reset(CURL *handle) { girders_curl()->easy_reset(handle); }
static inline const char *curl_easy_strerror(CURLcode code) { return girders_curl()->easy_strerror(code); }
static inline CURLcode curl_easy_pause(CURL *handle, int bitmask) { return girders_curl()->easy_pause(handle, bitmask); }
/// With CURLOPT_CONNECT_ONLY: connects (TCP, TLS) and returns; the connection is then the caller's, through
/// curl_easy_send and curl_easy_recv (non-blocking: CURLE_AGAIN when the socket is not ready).
static inline CURLcode curl_easy_perform(CURL *handle) { return girders_curl()->easy_perform(handle); }
static inline CURLcode curl_easy_send(CURL *handle, const void *buffer, size_t length, size_t *sent) {
    return girders_curl()->easy_send(handle, buffer, length, sent);
}
static inline CURLcode curl_easy_recv(CURL *handle, void *buffer, size_t length, size_t *received) {
    return girders_curl()->easy_recv(handle, buffer, length, received);
}
static inline struct curl_slist *curl_slist_append(struct curl_slist *list, const char *string) {
    return girders_curl()->slist_append(list, string);
}
static inline void curl_slist_free_all(struct curl_slist *list) { girders_curl()->slist_free_all(list); }
static inline CURLM *curl_multi_init(void) { return girders_curl()->multi_init(); }
static inline CURLMcode curl_multi_cleanup(CURLM *multi) { return girders_curl()->multi_cleanup(multi); }
static inline CURLMcode curl_multi_add_handle(CURLM *multi, CURL *handle) {
    return girders_curl()->multi_add_handle(multi, handle);
}
static inline CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return girders_curl()->multi_remove_handle(multi, handle);
}
static inline CURLMcode curl_multi_perform(CURLM *multi, int *running) {
    return girders_curl()->multi_perform(multi, running);
}
static inline CURLMcode curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms,
                                        int *ready) {
    return girders_curl()->multi_poll(multi, extra, count, timeout_ms, ready);
}
static inline CURLMcode curl_multi_wakeup(CURLM *multi) { return girders_curl()->multi_wakeup(multi); }
static inline CURLMcode curl_multi_timeout(CURLM *multi, long *milliseconds) {
    return girders_curl()->multi_timeout(multi, milliseconds);
}
static inline CURLMsg *curl_multi_info_read(CURLM *multi, int *left) {
    return girders_curl()->multi_info_read(multi, left);
}

typedef size_t (*girders_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);

/// Names the calling thread for debuggers and profilers (the engine's thread: Foundation's `Thread.name` does not
/// reach the system thread on Linux).
void girders_name_current_thread(const char *name);

static inline CURLcode girders_easy_set_long(CURL *handle, CURLoption option, long value) {
    return girders_curl()->easy_setopt(handle, option, value);
}

static inline CURLcode girders_easy_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return girders_curl()->easy_setopt(handle, option, value);
}

/// Strings are copied by libcurl (every option but CURLOPT_POSTFIELDS, which is not used).
static inline CURLcode girders_easy_set_string(CURL *handle, CURLoption option, const char *value) {
    return girders_curl()->easy_setopt(handle, option, value);
}

/// An offset-valued fact of the transfer (CURLINFO_OFF_T kinds); may be called from libcurl's callbacks.
static inline CURLcode girders_easy_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return girders_curl()->easy_getinfo(handle, info, value);
}

/// A long-valued fact of the transfer (CURLINFO_LONG kinds).
static inline CURLcode girders_easy_get_long(CURL *handle, CURLINFO info, long *value) {
    return girders_curl()->easy_getinfo(handle, info, value);
}

/// The socket of a CURLOPT_CONNECT_ONLY connection (CURLINFO_ACTIVESOCKET), or -1.
static inline curl_socket_t girders_easy_active_socket(CURL *handle) {
    curl_socket_t socket = -1;
    return girders_curl()->easy_getinfo(handle, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK ? socket : -1;
}

static inline CURLcode girders_easy_set_pointer(CURL *handle, CURLoption option, void *value) {
    return girders_curl()->easy_setopt(handle, option, value);
}

/// A blob option, copied by libcurl.
static inline CURLcode girders_easy_set_blob(CURL *handle, CURLoption option, void *data, size_t length) {
    struct curl_blob blob;
    blob.data = data;
    blob.len = length;
    blob.flags = CURL_BLOB_COPY;
    return girders_curl()->easy_setopt(handle, option, &blob);
}

static inline CURLcode girders_easy_set_data_callback(CURL *handle, CURLoption function, CURLoption data,
                                                      girders_curl_data_callback callback, void *context) {
    CURLcode code = girders_curl()->easy_setopt(handle, function, callback);
    return code != CURLE_OK ? code : girders_curl()->easy_setopt(handle, data, context);
}

/// libcurl's seek callback: move the request body's read position to `offset` from `origin` (SEEK_SET).
typedef int (*girders_curl_seek_callback)(void *context, curl_off_t offset, int origin);

static inline CURLcode girders_easy_set_seek_callback(CURL *handle, girders_curl_seek_callback callback, void *context) {
    CURLcode code = girders_curl()->easy_setopt(handle, CURLOPT_SEEKFUNCTION, callback);
    return code != CURLE_OK ? code : girders_curl()->easy_setopt(handle, CURLOPT_SEEKDATA, context);
}

/// libcurl's progress callback (7.32.0 and later), called at least once a second while a transfer, or a
/// connect-only connection being made, is under way; a non-zero answer aborts it (CURLE_ABORTED_BY_CALLBACK).
typedef int (*girders_curl_xferinfo_callback)(void *context, curl_off_t download_total, curl_off_t downloaded,
                                              curl_off_t upload_total, curl_off_t uploaded);

static inline CURLcode girders_easy_set_xferinfo_callback(CURL *handle, girders_curl_xferinfo_callback callback,
                                                          void *context) {
    CURLcode code = girders_curl()->easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
    if (code == CURLE_OK) code = girders_curl()->easy_setopt(handle, CURLOPT_XFERINFODATA, context);
    return code != CURLE_OK ? code : girders_curl()->easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
}

static inline CURLMcode girders_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return girders_curl()->multi_setopt(multi, option, value);
}

/// libcurl's prerequest callback (7.80.0 and later): the connection is made (or reused) and the request is about to
/// be sent; for https the TLS handshake, and with it ALPN, is done.
typedef int (*girders_curl_prereq_callback)(void *context, char *primary_ip, char *local_ip, int primary_port,
                                            int local_port);

static inline CURLcode girders_easy_set_prereq_callback(CURL *handle, girders_curl_prereq_callback callback,
                                                        void *context) {
    CURLcode code = girders_curl()->easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
    return code != CURLE_OK ? code : girders_curl()->easy_setopt(handle, CURLOPT_PREREQDATA, context);
}

/// The loaded libcurl's LIBCURL_VERSION_NUM (0x075800 is 7.88.0), or 0 before a successful load.
unsigned int girders_curl_version_num(void);

/// The easy handle and result of a finished transfer's message, or NULL.
static inline CURL *girders_multi_done(CURLMsg *message, CURLcode *result) {
    if (message == NULL || message->msg != CURLMSG_DONE) return NULL;
    *result = message->data.result;
    return message->easy_handle;
}

#endif
