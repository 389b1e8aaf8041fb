// The atomics are inline in CGirdersAtomics.h; what is here is compiled with the target's own flags.
#include "CGirdersAtomics.h"

int girders_thread_sanitizer_enabled(void) {
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
    return 1;
#endif
#endif
#if defined(__SANITIZE_THREAD__)
    return 1;
#else
    return 0;
#endif
}
