/*
 * xdg.h: where the client keeps its files, by the XDG base directory
 * rules: $XDG_CONFIG_HOME/gomoku (default ~/.config/gomoku) for what the
 * user writes or accepts (config, known_hosts), $XDG_STATE_HOME/gomoku
 * (default ~/.local/state/gomoku) for what the client remembers itself
 * (session tokens).
 */
#ifndef GOMOKU_CLIENT_XDG_H
#define GOMOKU_CLIENT_XDG_H

#include <stddef.h>

typedef enum { XDG_CONFIG, XDG_STATE } xdg_kind_t;

/* "<dir>/gomoku/<file>"; 0, or -1 when neither variable nor HOME is set
 * (a relative XDG variable is ignored, as the spec says) or it is too long. */
int xdg_path(xdg_kind_t kind, const char *file, char *buf, size_t len);
/* mkdir -p, mode 0700, of the directories above path. 0 or -1 (errno). */
int xdg_make_parents(const char *path);

#endif
