/* front.h: connections from a front (HAProxy, say) named by proxy-from.
 * Such a connection begins with a PROXY protocol v2 header (proxyhdr.h),
 * read here on the raw socket before any TLS, within the handshake
 * timeout; then the socket goes on with the client's address from the
 * header, so per-address limits, bans and logs see the player, not the
 * front. A LOCAL header (the front's health check) keeps the front's
 * address, and one that closes without a byte after it is closed without a
 * word. A bad header from a front is logged and the socket closed. A
 * connection from any other address never has its bytes read as a header:
 * the caller takes it as it is. */
#ifndef GOMOKUD_FRONT_H
#define GOMOKUD_FRONT_H

#include <sys/socket.h>

struct event_base;
struct logger;
struct config;
struct front;

/* Where a connection goes once its header is read: fd with the address it
 * is known by from now on. */
typedef void (*front_ready_fn)(void *arg, int fd, const struct sockaddr *sa, int salen);

/* The fronts of cfg (read at each accept, so a reload applies to new
 * connections). NULL when out of memory. */
struct front *front_new(struct event_base *base, const struct config *cfg, struct logger *log,
    front_ready_fn ready, void *arg);
/* Closes the sockets whose header is still awaited. */
void front_free(struct front *f);
/* An accepted socket from sa: 0 when sa is not a front (the caller goes on
 * with fd); 1 when the front module has taken fd, to hand it to ready
 * after the header, or to close it. */
int front_accept(struct front *f, int fd, const struct sockaddr *sa, int salen);
/* Sockets whose header is awaited. */
int front_waiting(const struct front *f);

#endif
