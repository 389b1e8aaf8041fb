#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE  // posix_spawn_file_actions_addclosefrom_np (glibc 2.34); before any system header
#endif
#include "CGirdersTestSpawn.h"

#include <errno.h>

#if defined(__linux__)
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

extern char **environ;

int girders_test_spawn(const char *path, char *const argv[], char *const envp[], int in, int out, int err,
                       pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    status = posix_spawnattr_init(&attributes);
    if (status != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return status;
    }
    int sources[3] = {in, out, err};
    for (int target = 0; target < 3 && status == 0; target++) {
        if (sources[target] >= 0) status = posix_spawn_file_actions_adddup2(&actions, sources[target], target);
    }
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    // The child starts with no signal blocked and SIGPIPE at its default, whatever this process set.
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    if (status == 0) status = posix_spawnattr_setsigmask(&attributes, &none);
    if (status == 0) status = posix_spawnattr_setsigdefault(&attributes, &defaults);
    if (status == 0) status = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (status == 0) status = posix_spawn(pid, path, &actions, &attributes, argv, envp ? envp : environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return status;
}
#else
int girders_test_spawn(const char *path, char *const argv[], char *const envp[], int in, int out, int err,
                       pid_t *pid) {
    (void)path, (void)argv, (void)envp, (void)in, (void)out, (void)err, (void)pid;
    return ENOSYS;
}
#endif
