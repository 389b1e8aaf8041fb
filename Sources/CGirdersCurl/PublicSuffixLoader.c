// Resolves libpsl's functions from libpsl.so.5 at run time, once: see CGirdersPublicSuffix.h.
#include "CGirdersPublicSuffix.h"

#include "CGirdersLoading.h"
#include <pthread.h>
#include <stddef.h>

// libpsl's own declarations (libpsl.h, 0.21): an opaque context and the three functions used.
typedef struct psl_ctx_st psl_ctx_t;
enum { GIRDERS_PSL_TYPE_ANY = 3 };

static struct {
    psl_ctx_t *(*latest)(const char *file);
    int (*is_cookie_domain_acceptable)(const psl_ctx_t *psl, const char *hostname, const char *cookie_domain);
    int (*is_public_suffix2)(const psl_ctx_t *psl, const char *domain, int type);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const psl_ctx_t *list;
static char failure[512];

static void load(void) {
    const struct girders_symbol symbols[] = {
        {"psl_latest", (void **)&api.latest},
        {"psl_is_cookie_domain_acceptable", (void **)&api.is_cookie_domain_acceptable},
        {"psl_is_public_suffix2", (void **)&api.is_public_suffix2},
    };
    const char *install = "install libpsl5 (Debian, Ubuntu) or libpsl (Fedora)";
    if (girders_load_library("libpsl.so.5", symbols, sizeof symbols / sizeof symbols[0], "libpsl 0.16 or later",
                             install, failure, sizeof failure) == NULL) {
        return;
    }
    // NULL: the system's newest list (/usr/share/publicsuffix), else the one compiled into libpsl. Kept for the
    // life of the process; lookups only read it, so any thread may use it.
    list = api.latest(NULL);
    if (list == NULL) {
        const char *text = "libpsl.so.5 found no public-suffix list (psl_latest returned NULL)";
        size_t index = 0;
        for (; text[index] != 0 && index + 1 < sizeof failure; index++) failure[index] = text[index];
        failure[index] = 0;
    }
}

const char *girders_psl_load(void) {
    pthread_once(&once, load);
    return list == NULL ? failure : NULL;
}

int girders_psl_cookie_domain_acceptable(const char *host, const char *domain) {
    if (girders_psl_load() != NULL) return -1;
    return api.is_cookie_domain_acceptable(list, host, domain) ? 1 : 0;
}

int girders_psl_is_public_suffix(const char *domain) {
    if (girders_psl_load() != NULL) return -1;
    return api.is_public_suffix2(list, domain, GIRDERS_PSL_TYPE_ANY) ? 1 : 0;
}
