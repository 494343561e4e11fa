/*
 * notify.h: the systemd service notification protocol (sd_notify), written
 * out here rather than linking libsystemd: one datagram to $NOTIFY_SOCKET.
 * Outside systemd every call is a quiet no-op.
 */
#ifndef GOMOKUD_NOTIFY_H
#define GOMOKUD_NOTIFY_H

#include <stdint.h>

/* Sends a state such as "READY=1", "STOPPING=1", "WATCHDOG=1", "RELOADING=1"
 * or "STATUS=...". Returns 1 when sent, 0 when not run by systemd, -1 on
 * error (errno set). */
int notify_send(const char *state);
/* The watchdog period asked for by WatchdogSec= (in microseconds), or 0 when
 * there is none or it is meant for another process. Ping at half of it. */
uint64_t notify_watchdog_usec(void);

#endif
