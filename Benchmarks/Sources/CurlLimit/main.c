// The limit the Swift clients are measured against: the strongest plain-C libcurl program for each of
// HTTPThroughput's scenarios. One request at a time is libcurl's easy interface (curl_easy_perform on one reused
// handle: no event loop, the calling thread blocks in the kernel); 16 in flight is the multi interface on one
// thread, sleeping in curl_multi_poll. Usage: CurlLimit SCENARIO BASE_URL [FILE]
//   small-sequential N, small-parallel N (16 in flight), download-memory, download-file FILE, upload-file FILE
// Prints one line: "<scenario> <seconds> <requests/s or MiB/s> <peak RSS KiB> <CPU seconds of the scenario>", and
// for small GETs "<p50 µs> <p99 µs> <allocations per request, or - without Benchmarks/Tools/malloc-count.c>".
#define _GNU_SOURCE  // RTLD_DEFAULT
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef struct { char *data; size_t length, capacity; } Buffer;

static size_t to_memory(char *chunk, size_t size, size_t count, void *context) {
    Buffer *buffer = context;
    size_t bytes = size * count;
    if (buffer->length + bytes > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity * 2 : 65536;
        while (capacity < buffer->length + bytes) capacity *= 2;
        char *grown = realloc(buffer->data, capacity);
        if (!grown) return 0;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, chunk, bytes);
    buffer->length += bytes;
    return bytes;
}

static size_t discard(char *chunk, size_t size, size_t count, void *context) {
    (void)chunk; (void)context;
    return size * count;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static long peak_rss_kib(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// CPU time of the whole process so far (user and system), in seconds.
static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static CURL *easy(const char *url, Buffer *buffer) {
    CURL *handle = curl_easy_init();
    curl_easy_setopt(handle, CURLOPT_URL, url);
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, buffer ? to_memory : discard);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, buffer);
    return handle;
}

// Each small GET's time from its start to its end, in seconds, in the order they ended.
static double *durations;
static int ended;

// The heap allocations so far, counted by Benchmarks/Tools/malloc-count.c when it is preloaded; 0 without it.
static unsigned long allocations(void) {
    unsigned long (*count)(void) = (unsigned long (*)(void))dlsym(RTLD_DEFAULT, "bench_malloc_count");
    return count ? count() : 0;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// The `fraction` percentile of the recorded durations, in microseconds (sorts them).
static double percentile(double fraction) {
    if (ended == 0) return 0;
    qsort(durations, ended, sizeof *durations, compare_doubles);
    int index = (int)(ended * fraction + 0.999999) - 1;
    if (index < 0) index = 0;
    if (index >= ended) index = ended - 1;
    return durations[index] * 1e6;
}

// Runs `total` GETs of `url` one after another with the easy interface, on one handle and its connection.
static int run_sequential_gets(const char *url, int total) {
    CURL *handle = easy(url, NULL);
    int failures = 0;
    for (int index = 0; index < total; index++) {
        double sent = now();
        failures += curl_easy_perform(handle) != CURLE_OK;
        durations[ended++] = now() - sent;
    }
    curl_easy_cleanup(handle);
    return failures;
}

// Runs `total` GETs of `url` with at most `parallel` in flight on one multi handle, reusing easy handles; each
// handle's start time is in the slot its CURLOPT_PRIVATE points at.
static int run_gets(const char *url, int total, int parallel) {
    if (parallel == 1) return run_sequential_gets(url, total);
    CURLM *multi = curl_multi_init();
    double starts[64];
    int started = 0, finished = 0, failures = 0;
    for (; started < parallel && started < total && started < 64; started++) {
        CURL *handle = easy(url, NULL);
        curl_easy_setopt(handle, CURLOPT_PRIVATE, &starts[started]);
        starts[started] = now();
        curl_multi_add_handle(multi, handle);
    }
    while (finished < total) {
        int running = 0, left = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *handle = message->easy_handle;
            if (message->data.result != CURLE_OK) failures++;
            double *start = NULL;
            curl_easy_getinfo(handle, CURLINFO_PRIVATE, (char **)&start);
            double end = now();
            durations[ended++] = end - *start;
            curl_multi_remove_handle(multi, handle);
            finished++;
            if (started < total) {
                *start = end;
                curl_multi_add_handle(multi, handle);  // same options: reuse the handle and its connection
                started++;
            } else {
                curl_easy_cleanup(handle);
            }
        }
        if (finished < total) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    curl_multi_cleanup(multi);
    return failures;
}

// One transfer with the easy interface.
static int run_one(CURL *handle) {
    CURLcode result = curl_easy_perform(handle);
    curl_easy_cleanup(handle);
    return result != CURLE_OK;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s SCENARIO BASE_URL [N|FILE]\n", argv[0]);
        return 2;
    }
    const char *scenario = argv[1], *base = argv[2];
    char url[1024];
    curl_global_init(CURL_GLOBAL_ALL);
    double start = now(), cpu_start = cpu_seconds(), rate = 0;
    int failed = 0;
    char latency[96] = "";
    if (strncmp(scenario, "small-", 6) == 0) {
        int total = argc > 3 ? atoi(argv[3]) : 5000;
        if (total < 1) total = 1;
        durations = calloc(total, sizeof *durations);
        snprintf(url, sizeof url, "%s/small.json", base);
        unsigned long allocations_before = allocations();
        start = now();
        failed = run_gets(url, total, strcmp(scenario, "small-parallel") == 0 ? 16 : 1);
        rate = total / (now() - start);
        unsigned long allocations_after = allocations();
        char counted[32] = "-";
        if (allocations_after) snprintf(counted, sizeof counted, "%.1f", (allocations_after - allocations_before) / (double)total);
        snprintf(latency, sizeof latency, " %.1f %.1f %s", percentile(0.50), percentile(0.99), counted);
        free(durations);
    } else if (strcmp(scenario, "download-memory") == 0 || strcmp(scenario, "download-file") == 0) {
        snprintf(url, sizeof url, "%s/big.bin", base);
        Buffer buffer = {0};
        FILE *file = NULL;
        CURL *handle = easy(url, &buffer);
        if (scenario[9] == 'f') {
            file = fopen(argv[3], "wb");
            curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, NULL);  // libcurl's default: fwrite
            curl_easy_setopt(handle, CURLOPT_WRITEDATA, file);
        }
        failed = run_one(handle);
        if (file) fclose(file);
        rate = 100.0 / (now() - start);
        free(buffer.data);
    } else if (strcmp(scenario, "upload-file") == 0) {
        snprintf(url, sizeof url, "%s/upload", base);
        FILE *file = fopen(argv[3], "rb");
        fseek(file, 0, SEEK_END);
        long size = ftell(file);
        rewind(file);
        CURL *handle = easy(url, NULL);
        curl_easy_setopt(handle, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, "POST");
        curl_easy_setopt(handle, CURLOPT_READDATA, file);
        curl_easy_setopt(handle, CURLOPT_INFILESIZE_LARGE, (curl_off_t)size);
        failed = run_one(handle);
        fclose(file);
        rate = 100.0 / (now() - start);
    } else {
        fprintf(stderr, "unknown scenario %s\n", scenario);
        return 2;
    }
    printf("%s %.3f %.1f %ld %.3f%s%s\n", scenario, now() - start, rate, peak_rss_kib(), cpu_seconds() - cpu_start,
           latency, failed ? " FAILED" : "");
    curl_global_cleanup();
    return failed != 0;
}
