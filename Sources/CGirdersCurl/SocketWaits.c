// See CGirdersSocketWaits.h. Linux only: the package builds CGirdersCurl for Linux alone, and a C check of other
// platforms finds nothing to compile here.
#include "CGirdersSocketWaits.h"

#if defined(__linux__)

#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

int girders_waits_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int girders_waits_add_wake(int waits) {
    int wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wake < 0) return -1;
    struct epoll_event event = {.events = EPOLLIN, .data = {.fd = wake}};
    if (epoll_ctl(waits, EPOLL_CTL_ADD, wake, &event) != 0) {
        close(wake);
        return -1;
    }
    return wake;
}

void girders_waits_wake(int wake) { (void)eventfd_write(wake, 1); }

void girders_waits_drain(int wake) {
    eventfd_t value;
    (void)eventfd_read(wake, &value);
}

int girders_waits_arm(int waits, int socket, int read, int write, int added) {
    struct epoll_event event = {.events = EPOLLONESHOT | (read ? EPOLLIN : 0) | (write ? EPOLLOUT : 0),
                                .data = {.fd = socket}};
    return epoll_ctl(waits, added ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, socket, &event);
}

void girders_waits_remove(int waits, int socket) {
    struct epoll_event unused = {0};
    (void)epoll_ctl(waits, EPOLL_CTL_DEL, socket, &unused);
}

int girders_waits_wait(int waits, int *sockets, int *flags, int capacity, int timeout) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(waits, events, capacity, timeout);
    for (int index = 0; index < count; index++) {
        uint32_t got = events[index].events;
        sockets[index] = events[index].data.fd;
        flags[index] = ((got & EPOLLIN) ? 1 : 0) | ((got & EPOLLOUT) ? 2 : 0) | ((got & (EPOLLERR | EPOLLHUP)) ? 4 : 0);
    }
    return count;
}

#endif
