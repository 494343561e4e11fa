/* clustermsg.h: the messages gomokud nodes exchange through Redis, as text,
 * formatted and parsed here and nowhere else. Pure: no Redis, no loop. A
 * message that does not parse is dropped whole by its receiver.
 *
 *   P <node> <host:port>[ <engines>]\n<= BOT, = USER, = ROOM, = SEEK lines>
 *                                                      on gomoku:presence
 *   T <from> <to> <text>                               on gomoku:node:<node>
 *   L <node> <text>                                    on gomoku:node:<to>
 *   W <room> <node>                                    on gomoku:node:<owner>
 *   C <room> <node> <n>                                on gomoku:node:<owner>
 *   S <room> <seq>\n<snapshot's = lines>               on gomoku:room:<room>
 *   E <event line>                                     on gomoku:room:<room>
 *   J <node> <id> <rule> <size> <level> <soft> <hard> <clock> <inc> <depth>
 *     <nbest> <seed> <moves>[ o <orule> <actor> <log>| l] field "job" of gomoku:bots
 *                                                      (" l": of gomoku:reviews)
 *   R <id> <status> [pv <line> ]<best> <score> <mate> <depth> <seldepth> <ms>
 *     <cands> <reason>                                 on gomoku:node:<node>
 *   R <id> <status> act <kind> <n> <arg> <moves>      on gomoku:node:<node>
 *   K <node> <id>                                      on gomoku:tourneys
 *   H <node> <id> <game> <engine> <hash> <rule> <size> <clock> <inc> <moves>
 *                              field "job" of gomoku:engine:<engine>:<hash>
 *   M <id> <worker> <status> <move>[ <why>]            on gomoku:node:<node>
 *   N <engine> <hash>                                  on gomoku:node:<worker>
 *   X <node> <game>                                    on gomoku:node:<worker>
 *
 * A job (J) is a bot search another node asked for: <node> owns it and <id>
 * is its own number for it; <moves> is the game so far as cell numbers
 * (move_t), comma-separated, "-" for none. Its result (R) goes back to the
 * owner with the same id: status 0 with the search's best move, its
 * candidates as move:score pairs ("-" for none) and its reason (the rest of
 * the line, may be empty), or -1 when the engine found no move.
 *
 * A J ending in " l" (a review's position, issue 47) wants the search's
 * line back: its R then has "pv " and the line as cells after the status
 * (when the search has one). It goes on the stream gomoku:reviews, which
 * the workers read beside gomoku:bots, and the worker's node queues it
 * behind its bots' moves, as the owner's own workers would (bots_job_t's
 * review). Older nodes drop such a J as one that does
 * not parse (the owner's job is lost and asked again), and never send one.
 *
 * An opening job (issue 46) is a J with " o", the opening rule
 * (opening_rule_t), the player the bot is (0 or 1) and the log of the
 * opening's acts (opening_log_append's, the rest of the line, "-" for
 * none); its result is the second form of R: the act (opening_act_t's
 * kind, n and arg, and its moves, "-" for none), or status -1 and no act
 * ("act 0 0 0 -"). Older nodes drop both forms as lines that do not
 * parse: the owner's job is then lost and asked again.
 *
 * Hosted engines (issue 49): a node that serves other nodes' moves of its
 * hosted engines (a worker, bot-serve) names them in its presence
 * header's <engines>, "<name>:<hash>" comma-separated, <hash> the FNV-1a
 * of the engine's config line in 8 hex digits (two programs under one
 * name differ in it). An engine's move (H) is the whole position of game
 * <game> (its room's id and the seat, "<room>.<seat>"): the rule, the
 * size, the engine's clock and increment in ms (0: none) and the moves;
 * it goes on the stream of that engine and hash, and N on the channel of
 * each node that serves them says one waits there. Its answer (M) goes
 * back to <node> with the same id from <worker>: status 0 and the move,
 * or -1 (the brain failed the game; <why> says how), -2 (no brain free on
 * the worker: ask again) with <move> -1. X tells the worker that played
 * <game>'s last move that the game is over for its engine (its brain
 * ends). Older nodes drop these, and a presence with <engines>, as
 * messages that do not parse: a cluster's nodes run one version
 * (link.c logs the first drop, then counts them for 10 s).
 *
 * A P body's = BOT <user> line comes right before the = USER line of a
 * bot (a bot account, or the server's botN or bot-<engine>), as WHO says
 * it; older nodes drop a presence with one as a message that does not
 * parse.
 *
 * K: <node> stored a change of tournament <id> (0: of one it does not
 * know); the others read it again (tlease.h).
 *
 * C: <node> has n spectators of the owner's room (sent every second while
 * it has any). A lobby message (L) from <node> is clusterlobby.h's: seek claims and
 * challenges across nodes; its text (one line) is parsed there.
 *
 * Lines in a body are protocol lines (PROTOCOL.md) without their LF, each
 * checked with the protocol library. */
#ifndef GOMOKUD_CLUSTERMSG_H
#define GOMOKUD_CLUSTERMSG_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/bots.h"
#include "daemon/config.h"
#include "proto/proto.h"

enum { CMSG_ADDR_MAX = 127, CMSG_WATCHERS_MAX = 1000000 };

enum cmsg_kind {
	CMSG_PRESENCE,
	CMSG_TELL,
	CMSG_WATCH,
	CMSG_SNAPSHOT,
	CMSG_EVENT,
	CMSG_JOB,
	CMSG_RESULT,
	CMSG_LOBBY,
	CMSG_WATCHERS,
	CMSG_TOURNEY,
	CMSG_ENGINE_JOB,  /* H */
	CMSG_ENGINE_MOVE, /* M */
	CMSG_ENGINE_WAKE, /* N */
	CMSG_ENGINE_END,  /* X */
};

enum {
	CMSG_ENGINES_MAX = 8 * 27, /* a presence's engines: 8 of "<name>:<hash>," */
	CMSG_GAME_MAX = 47,        /* an engine's game: "<room>.<seat>" */
	CMSG_ENGINE_MAX = 16,      /* an engine's name (hosted.h's HOSTED_NAME_MAX) */
	CMSG_WHY_MAX = 160,
};

struct cmsg {
	enum cmsg_kind kind;
	char node[CONFIG_NODE_MAX + 1]; /* P, L: the sender; W: who asks; J: the owner */
	char addr[CMSG_ADDR_MAX + 1];   /* P: where its players connect */
	char from[PROTO_NAME_MAX + 1];  /* T */
	char to[PROTO_NAME_MAX + 1];    /* T */
	char room[PROTO_ROOM_MAX + 1];  /* W, S, E */
	uint32_t seq;                   /* S: the snapshot's seq; E: the event's; C: n */
	const char *body;               /* P, S: the lines; T, L: the text; E: the line */
	size_t bodylen;
	uint64_t job;                       /* J, R: the owner's id of the job; K: the tournament */
	int status;                         /* R: 0, or -1 (no move) */
	bots_job_t spec;                    /* J (its owner field is 0) */
	engine_result_t result;             /* R, status 0 (its PV only from a J " l") */
	int is_act;                         /* R: the act form, for an opening job */
	opening_act_t act;                  /* R's act form, status 0 */
	char engines[CMSG_ENGINES_MAX + 1]; /* P: the engines it serves, "" none */
	char game[CMSG_GAME_MAX + 1];       /* H, X */
	char engine[CMSG_ENGINE_MAX + 1];   /* H, N */
	uint32_t hash;                      /* H, N */
	move_t move;                        /* M */
	char why[CMSG_WHY_MAX + 1];         /* M */
};

/* Formatters: the message (or a body's header line with its LF) into buf
 * of cap bytes; its length, or -1 when it does not fit. */
/* engines: "" or the engines the node serves ("<name>:<hash>,..."). */
int cmsg_format_presence(
    char *buf, size_t cap, const char *node, const char *addr, const char *engines);
int cmsg_format_tell(char *buf, size_t cap, const char *from, const char *to, const char *text);
int cmsg_format_watchers(char *buf, size_t cap, const char *room, const char *node, uint32_t n);
int cmsg_format_lobby(char *buf, size_t cap, const char *node, const char *text);
int cmsg_format_tourney(char *buf, size_t cap, const char *node, uint64_t id);
int cmsg_format_watch(char *buf, size_t cap, const char *room, const char *node);
int cmsg_format_snapshot(char *buf, size_t cap, const char *room, uint32_t seq);
/* line: an event line with or without its LF. */
int cmsg_format_event(char *buf, size_t cap, const char *line, size_t n);

/* A job (J) of node's, its id, on one line without LF. */
int cmsg_format_job(char *buf, size_t cap, const char *node, uint64_t id, const bots_job_t *j);
/* The result (R) of job id: status 0 with r (line: with its PV, for a J
 * " l"), or -1. */
int cmsg_format_result(
    char *buf, size_t cap, uint64_t id, int status, const engine_result_t *r, int line);
/* The result (R, act form) of opening job id: status 0 with a, or -1. */
int cmsg_format_act(char *buf, size_t cap, uint64_t id, int status, const opening_act_t *a);

/* An engine's move: j's rule, size, clock_ms, inc_ms and moves are read. */
int cmsg_format_engine_job(char *buf, size_t cap, const char *node, uint64_t id, const char *game,
    const char *engine, uint32_t hash, const bots_job_t *j);
/* Its answer: status 0 with m, or -1 or -2 with why. */
int cmsg_format_engine_move(
    char *buf, size_t cap, uint64_t id, const char *worker, int status, move_t m, const char *why);
int cmsg_format_engine_wake(char *buf, size_t cap, const char *engine, uint32_t hash);
int cmsg_format_engine_end(char *buf, size_t cap, const char *node, const char *game);

/* Parses a message of len bytes: 0, or -1 with a reason in why (static
 * text). Every line of a body has been checked. */
int cmsg_parse(const char *buf, size_t len, struct cmsg *m, const char **why);
/* The next line of a P or S body (without LF): 1 with the line and its length, 0 at the end. */
int cmsg_next_line(const char **p, const char *end, const char **line, size_t *n);

#endif
