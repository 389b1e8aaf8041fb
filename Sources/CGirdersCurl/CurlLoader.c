// Resolves libcurl's functions from libcurl.so.4 at run time, once: see CGirdersCurl.h.
#define _GNU_SOURCE  // pthread_setname_np
#include "CGirdersCurl.h"

#include <dlfcn.h>
#include "CGirdersLoading.h"
#include <pthread.h>
#include <stdio.h>

// Before (or without) a successful load, each entry fails the way libcurl reports failure.
static CURLcode failed_global_init(long flags) { (void)flags; return CURLE_FAILED_INIT; }
static CURL *failed_easy_init(void) { return NULL; }
static void failed_easy_cleanup(CURL *handle) { (void)handle; }
static void failed_easy_reset(CURL *handle) { (void)handle; }
static CURLcode failed_easy_setopt(CURL *handle, CURLoption option, ...) {
    (void)handle; (void)option;
    return CURLE_FAILED_INIT;
}
static const char *failed_easy_strerror(CURLcode code) { (void)code; return "libcurl is not loaded"; }
static struct curl_slist *failed_slist_append(struct curl_slist *list, const char *string) {
    (void)list; (void)string;
    return NULL;
}
static void failed_slist_free_all(struct curl_slist *list) { (void)list; }
static CURLM *failed_multi_init(void) { return NULL; }
static CURLMcode failed_multi(CURLM *multi) { (void)multi; return (CURLMcode)1; }
static CURLMcode failed_multi_handle(CURLM *multi, CURL *handle) { (void)multi; (void)handle; return (CURLMcode)1; }
static CURLMcode failed_multi_perform(CURLM *multi, int *running) { (void)multi; *running = 0; return (CURLMcode)1; }
static CURLMcode failed_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready) {
    (void)multi; (void)extra; (void)count; (void)timeout;
    if (ready) *ready = 0;
    return (CURLMcode)1;
}
static CURLMcode failed_multi_timeout(CURLM *multi, long *milliseconds) {
    (void)multi;
    *milliseconds = -1;
    return (CURLMcode)1;
}
static CURLMsg *failed_multi_info_read(CURLM *multi, int *left) { (void)multi; *left = 0; return NULL; }
static CURLMcode failed_multi_setopt(CURLM *multi, CURLMoption option, ...) {
    (void)multi; (void)option;
    return (CURLMcode)1;
}
static girders_curl_version_info *failed_version_info(CURLversion age) { (void)age; return NULL; }
static CURLcode failed_easy_getinfo(CURL *handle, CURLINFO info, ...) {
    (void)handle; (void)info;
    return CURLE_FAILED_INIT;
}

static CURLcode failed_easy_pause(CURL *handle, int bitmask) {
    (void)handle; (void)bitmask;
    return CURLE_FAILED_INIT;
}

static CURLcode failed_easy_perform(CURL *handle) { (void)handle; return CURLE_FAILED_INIT; }
static CURLcode failed_easy_send(CURL *handle, const void *buffer, size_t length, size_t *sent) {
    (void)handle; (void)buffer; (void)length;
    if (sent) *sent = 0;
    return CURLE_FAILED_INIT;
}
static CURLcode failed_easy_recv(CURL *handle, void *buffer, size_t length, size_t *received) {
    (void)handle; (void)buffer; (void)length;
    if (received) *received = 0;
    return CURLE_FAILED_INIT;
}

static const struct girders_curl_api failing = {
    failed_global_init, failed_easy_init, failed_easy_cleanup, failed_easy_reset, failed_easy_setopt,
    failed_easy_strerror, failed_slist_append, failed_slist_free_all, failed_multi_init, failed_multi,
    failed_multi_handle, failed_multi_handle, failed_multi_perform, failed_multi_poll, failed_multi,
    failed_multi_timeout, failed_multi_info_read, failed_multi_setopt, failed_version_info, failed_easy_getinfo,
    failed_easy_pause, failed_easy_perform, failed_easy_send, failed_easy_recv,
};

static const char *const install = "install libcurl4 (Debian, Ubuntu) or libcurl (Fedora)";

int girders_curl_open(const char *library, unsigned int minimum, struct girders_curl_api *api, char *error,
                      size_t error_size) {
    const struct girders_symbol symbols[] = {
        {"curl_global_init", (void **)&api->global_init},
        {"curl_easy_init", (void **)&api->easy_init},
        {"curl_easy_cleanup", (void **)&api->easy_cleanup},
        {"curl_easy_reset", (void **)&api->easy_reset},
        {"curl_easy_setopt", (void **)&api->easy_setopt},
        {"curl_easy_strerror", (void **)&api->easy_strerror},
        {"curl_slist_append", (void **)&api->slist_append},
        {"curl_slist_free_all", (void **)&api->slist_free_all},
        {"curl_multi_init", (void **)&api->multi_init},
        {"curl_multi_cleanup", (void **)&api->multi_cleanup},
        {"curl_multi_add_handle", (void **)&api->multi_add_handle},
        {"curl_multi_remove_handle", (void **)&api->multi_remove_handle},
        {"curl_multi_perform", (void **)&api->multi_perform},
        {"curl_multi_poll", (void **)&api->multi_poll},
        {"curl_multi_wakeup", (void **)&api->multi_wakeup},
        {"curl_multi_timeout", (void **)&api->multi_timeout},
        {"curl_multi_info_read", (void **)&api->multi_info_read},
        {"curl_multi_setopt", (void **)&api->multi_setopt},
        {"curl_version_info", (void **)&api->version_info},
        {"curl_easy_getinfo", (void **)&api->easy_getinfo},
        {"curl_easy_pause", (void **)&api->easy_pause},
        {"curl_easy_perform", (void **)&api->easy_perform},
        {"curl_easy_send", (void **)&api->easy_send},
        {"curl_easy_recv", (void **)&api->easy_recv},
    };
    size_t count = sizeof symbols / sizeof symbols[0];
    void *handle = girders_load_library(library, symbols, count, "libcurl 7.77.0 or later", install, error, error_size);
    if (handle == NULL) {
        *api = failing;
        return -1;
    }
    girders_curl_version_info *version = api->version_info(CURLVERSION_FIRST);
    if (version == NULL || version->version_num < minimum) {
        snprintf(error, error_size, "%s is libcurl %s; Girders needs %u.%u.%u or later: %s", library,
                 version && version->version ? version->version : "of unknown version", (minimum >> 16) & 0xff,
                 (minimum >> 8) & 0xff, minimum & 0xff, install);
        *api = failing;
        dlclose(handle);
        return -1;
    }
    return 0;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct girders_curl_api loaded;
static char failure[512];
static int load_failed;

static void load(void) {
    if (girders_curl_open("libcurl.so.4", GIRDERS_CURL_MINIMUM_VERSION, &loaded, failure, sizeof failure) != 0) {
        loaded = failing;
        load_failed = 1;
    }
}

const char *girders_curl_load(void) {
    pthread_once(&once, load);
    return load_failed ? failure : NULL;
}

const struct girders_curl_api *girders_curl(void) {
    pthread_once(&once, load);
    return &loaded;
}

unsigned int girders_curl_version_num(void) {
    if (girders_curl_load() != NULL) return 0;
    girders_curl_version_info *version = loaded.version_info(CURLVERSION_FIRST);
    return version == NULL ? 0 : version->version_num;
}

void girders_name_current_thread(const char *name) {
#if defined(__APPLE__)
    (void)pthread_setname_np(name);  // Darwin names only the calling thread
#else
    (void)pthread_setname_np(pthread_self(), name);  // at most 15 bytes; a longer name leaves the old one
#endif
}
