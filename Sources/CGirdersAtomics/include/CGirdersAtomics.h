#ifndef CGIRDERS_ATOMICS_H
#define CGIRDERS_ATOMICS_H

#include <stdint.h>

// Atomic loads and stores of one machine word, the same on every platform Girders supports: Swift's own
// `Synchronization.Atomic` needs macOS 15 / iOS 18, and the package supports macOS 13 / iOS 16. The compiler's
// `__atomic` builtins (GCC and Clang) compile to a plain load or store on x86-64 and arm64, with the ordering
// the name says; inline, so a call costs what the instruction costs. `GirdersSupport.AtomicWord` is the only
// caller.

static inline intptr_t girders_atomic_load_acquire(const intptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

static inline intptr_t girders_atomic_load_relaxed(const intptr_t *word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

static inline void girders_atomic_store_release(intptr_t *word, intptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/// 1 when this package was built with ThreadSanitizer (`swift build --sanitize=thread`, which compiles C targets
/// with `-fsanitize=thread`), else 0: for the few hand-overs that are ordered inside the Swift runtime, where
/// ThreadSanitizer cannot see it, and that Girders orders once more only in such a build.
int girders_thread_sanitizer_enabled(void);

#endif
