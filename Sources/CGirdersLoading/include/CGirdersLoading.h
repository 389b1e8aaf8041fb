// Opening a system library at run time and resolving its functions, for CGirdersCurl and CGirdersOpenSSL: one
// owner of dlopen, dlsym and the wording of their failures. Not a product.
#ifndef GIRDERS_LOADING_H
#define GIRDERS_LOADING_H

#include <stddef.h>

/// One function to resolve: its exported name and where its address goes.
struct girders_symbol {
    const char *name;
    void **slot;
};

/// Opens `library` (RTLD_NOW | RTLD_LOCAL: nothing of it joins the global namespace) and stores the address of
/// each of `count` symbols in its slot. Returns the library's handle, or NULL with the reason in `error`:
/// "cannot load LIBRARY (REASON): INSTALL" or "LIBRARY has no SYMBOL: it is not WHAT; INSTALL". On failure the
/// slots may be partly written; the caller resets them.
void *girders_load_library(const char *library, const struct girders_symbol *symbols, size_t count,
                           const char *what, const char *install, char *error, size_t error_size);

#endif
