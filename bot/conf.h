/*
 * conf.h: gomoku-bot's config file (gomoku-bot(1) lists the keys). One
 * "key value" a line, '#' starts a comment; a key not known, a value out of
 * range or a key missing that has no default is an error with its line.
 */
#ifndef GOMOKU_BOT_CONF_H
#define GOMOKU_BOT_CONF_H

#include <stddef.h>

#include "proto/proto.h"

enum { CONF_ARGS_MAX = 32, CONF_NAMES_MAX = 64, CONF_GAMES_MAX = 64 };

typedef struct {
	char host[256], port[16]; /* server host:port */
	char ca[512];             /* ca: verify the server against this CA file */
	char pin[80];             /* pin: the server key's sha256:... fingerprint */
	int insecure;             /* insecure yes: no certificate check at all */
	char name[PROTO_NAME_MAX + 1];
	char password[PROTO_PASS_MAX + 1];
	char state_file[512];                /* where the session token is kept, "" none */
	char bot_token[PROTO_TOKEN_MAX + 1]; /* bot-token: BOTUPGRADE's, "" none */
	/* the brain */
	char brain_line[1024];
	char *brain_argv[CONF_ARGS_MAX + 1]; /* into brain_line, NULL-ended */
	long brain_memory_mib;               /* RLIMIT_AS and INFO max_memory, 0 none */
	int brain_failures;                  /* failures in one game before resigning */
	int brain_swap2;                     /* the brain speaks SWAP2BOARD */
	int brain_sandbox;                   /* the brain runs in bot/sandbox.h's sandbox */
	int turn_ms;                         /* timeout_turn: a move's time at most */
	/* challenges accepted */
	unsigned rules;         /* bit 1 << rule_t */
	unsigned sizes;         /* bit 1 << size */
	int untimed;            /* games with no clock */
	int base_min, base_max; /* a clock's base, seconds */
	int inc_min, inc_max;   /* its increment, seconds */
	int rated, casual;      /* which kinds */
	int nallow, nblock;
	char allow[CONF_NAMES_MAX][PROTO_NAME_MAX + 1]; /* only these, when any */
	char block[CONF_NAMES_MAX][PROTO_NAME_MAX + 1]; /* never these */
	int max_games;                                  /* games at once, 1 to CONF_GAMES_MAX */
	int league; /* league yes|no: SET league at each sign-in; -1 (unsaid): nothing */
} bot_conf_t;

/* Reads path into c (defaults first). 0, or -1 with err ("file:line: why"). */
int conf_load(const char *path, bot_conf_t *c, char *err, size_t errlen);

#endif
