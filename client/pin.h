/*
 * pin.h: trust on first use for self-signed servers, like SSH's
 * known_hosts. One line per server: "host:port sha256:<hex of the public
 * key>". The file lives in $XDG_CONFIG_HOME/gomoku/known_hosts (or
 * ~/.config/gomoku/known_hosts).
 */
#ifndef GOMOKU_CLIENT_PIN_H
#define GOMOKU_CLIENT_PIN_H

#include <stddef.h>

typedef enum { PIN_NEW, PIN_MATCH, PIN_CHANGED, PIN_ERROR } pin_result_t;

/* The default file's path; 0, or -1 when neither variable is set. */
int pin_default_path(char *buf, size_t len);
/* Looks up hostport. On PIN_CHANGED, old (if non-NULL) receives the pinned
 * fingerprint. A missing file is PIN_NEW; an unreadable one PIN_ERROR. */
pin_result_t pin_check(
    const char *path, const char *hostport, const char *fp, char *old, size_t oldlen);
/* Appends a pin, creating the directories (0700). Returns 0 or -1 (errno). */
int pin_add(const char *path, const char *hostport, const char *fp);

#endif
