// epoll and an eventfd for GirdersNetworking's socket poller (CurlSocketPoller: the sockets of WebSocket connections
// libcurl made with CURLOPT_CONNECT_ONLY). Swift's Glibc module does not carry <sys/epoll.h>; these few calls are the
// system's own, wrapped so that Swift never sees epoll_event's packed layout. Linux only, as CGirdersCurl is.
#ifndef GIRDERS_SOCKET_WAITS_H
#define GIRDERS_SOCKET_WAITS_H

/// An epoll instance (close-on-exec), or -1.
int girders_waits_create(void);

/// An eventfd (non-blocking, close-on-exec) added to `waits` for reading, or -1.
int girders_waits_add_wake(int waits);

/// Wakes the thread in girders_waits_wait through `wake`.
void girders_waits_wake(int wake);

/// Empties `wake` after it woke the thread.
void girders_waits_drain(int wake);

/// Arms `socket` once (EPOLLONESHOT) for reading and/or writing; `added` says whether it is in `waits` already.
/// 0 on success, -1 with errno.
int girders_waits_arm(int waits, int socket, int read, int write, int added);

/// Removes `socket` from `waits` (before its descriptor is closed).
void girders_waits_remove(int waits, int socket);

/// Waits at most `timeout` milliseconds (-1: no limit) for up to `capacity` events: each one's socket in `sockets`
/// and in `flags` bit 1 readable, bit 2 writable, bit 4 an error or hang-up. The number of events, or -1.
int girders_waits_wait(int waits, int *sockets, int *flags, int capacity, int timeout);

#endif
