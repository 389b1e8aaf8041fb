// The public-suffix list for GirdersNetworking's cookie jar: libpsl, the library Debian's libcurl already uses
// (libpsl.so.5), declared here and loaded at run time like libcurl, so the build needs no libpsl headers. The list
// itself is the system's (`psl_latest` reads the publicsuffix package's file and falls back to the one built into
// libpsl); nothing here copies it.
#ifndef GIRDERS_PUBLIC_SUFFIX_H
#define GIRDERS_PUBLIC_SUFFIX_H

/// Loads libpsl.so.5 and its newest list the first time it is called (thread-safe). NULL when the list is usable,
/// or why not (the library or symbol missing, with the package to install). The same answer on every later call.
const char *girders_psl_load(void);

/// Whether a cookie from `host` may carry `Domain=domain`: 1 when `host` is `domain` or inside it and `domain` is
/// not a public suffix (ICANN or private section), 0 when not, -1 when libpsl is not loaded. Both lowercase.
int girders_psl_cookie_domain_acceptable(const char *host, const char *domain);

/// Whether `domain` (lowercase) is a public suffix itself: 1 or 0, -1 when libpsl is not loaded.
int girders_psl_is_public_suffix(const char *domain);

#endif
