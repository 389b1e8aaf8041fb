#ifndef CGIRDERS_TEST_SPAWN_H
#define CGIRDERS_TEST_SPAWN_H

// Starts a child process for the tests without Foundation's Process on Linux, whose run() scans /proc/self/fd with
// a read past glibc's directory buffer (swift-corelibs-foundation #5472) and crashed a test run that had 1,500
// descriptors open. Every descriptor from 3 up is closed in the child (closefrom), as Process does.

#include <sys/types.h>

/// Starts `path` with `argv` (NULL-terminated, argv[0] included) and `envp` (NULL-terminated, or NULL for this
/// process's environment); standard input, output and error become `in`, `out` and `err` (-1: inherited). Writes
/// the child's pid to `pid`. Returns 0 or an errno value. Linux only (other systems return ENOSYS).
int girders_test_spawn(const char *path, char *const argv[], char *const envp[], int in, int out, int err,
                       pid_t *pid);

#endif
