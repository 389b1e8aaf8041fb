// Counts heap allocations, for the HTTP benchmarks' "allocations per request": Scripts/bench-http.sh builds this
// into a shared object and runs every client with it in LD_PRELOAD; a benchmark reads the count through
// `bench_malloc_count` (found with dlsym; absent when the shim is not loaded) before and after its requests.
// Each call is passed on to glibc's own allocator; the count is one relaxed atomic add.
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_ulong allocations;

static void counted(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

unsigned long bench_malloc_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

void *malloc(size_t size) {
    counted();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    counted();
    return __libc_calloc(count, size);
}

// A reallocation that may move the block counts as an allocation.
void *realloc(void *pointer, size_t size) {
    counted();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    counted();
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}
