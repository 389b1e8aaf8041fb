// See CGirdersLoading.h.
#include "CGirdersLoading.h"

#include <dlfcn.h>
#include <stdio.h>

void *girders_load_library(const char *library, const struct girders_symbol *symbols, size_t count,
                           const char *what, const char *install, char *error, size_t error_size) {
    // A library FoundationNetworking has opened already (libcurl.so.4) comes back as that same library.
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(error, error_size, "cannot load %s (%s): %s", library, reason ? reason : "not found", install);
        return NULL;
    }
    for (size_t index = 0; index < count; index++) {
        void *address = dlsym(handle, symbols[index].name);
        if (address == NULL) {
            snprintf(error, error_size, "%s has no %s: it is not %s; %s", library, symbols[index].name, what,
                     install);
            dlclose(handle);
            return NULL;
        }
        *symbols[index].slot = address;
    }
    return handle;
}
