/*
 * config.h: the client's config file, $XDG_CONFIG_HOME/gomoku/config
 * (default ~/.config/gomoku/config): "key value" lines, '#' comments.
 * Keys: server (host[:port] when none is given), name (the guest name),
 * ascii, mono and mouse (yes or no). Command-line options win.
 */
#ifndef GOMOKU_CLIENT_CONFIG_H
#define GOMOKU_CLIENT_CONFIG_H

#include <stddef.h>

#include "proto/proto.h"

typedef struct {
	char server[256];              /* "" unset */
	char name[PROTO_NAME_MAX + 1]; /* "" unset */
	int ascii, mono, mouse;        /* 1 yes, 0 no, -1 unset */
} client_config_t;

/* Sets every field unset. */
void client_config_init(client_config_t *c);
/* Reads path into c. A missing file is no error; 0, or -1 with err naming
 * the line at fault. */
int client_config_load(client_config_t *c, const char *path, char *err, size_t errlen);

#endif
