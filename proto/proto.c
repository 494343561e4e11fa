/*
 * proto.c: table-driven parser and serializer for protocol v1.
 *
 * Each message form is one row: its kind, its name and a schema, a string
 * of field codes (see fields[] below). A '|' marks where optional trailing
 * fields start; '*' is free text running to the end of the line. The parser
 * and the serializer walk the same schema, so they cannot disagree.
 */
#include "proto/proto.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

_Static_assert(sizeof(proto_colour_t) == sizeof(int), "enums are stored as int");
_Static_assert(sizeof(rule_t) == sizeof(int), "enums are stored as int");

struct form {
	proto_kind_t kind;
	const char *name;
	const char *sub; /* a fixed keyword after the name (BOT play), or NULL */
	const char *schema;
};

static const struct form forms[PM_COUNT] = {
	[PR_HELLO] = { PK_REQ, "HELLO", NULL, "v|a" },
	[PR_PING] = { PK_REQ, "PING", NULL, "|a" },
	[PR_GUEST] = { PK_REQ, "GUEST", NULL, "|u" },
	[PR_REGISTER] = { PK_REQ, "REGISTER", NULL, "up" },
	[PR_LOGIN] = { PK_REQ, "LOGIN", NULL, "up" },
	[PR_LOGOUT] = { PK_REQ, "LOGOUT", NULL, "" },
	[PR_SEEK] = { PK_REQ, "SEEK", NULL, "RSTOQP|F" },
	[PR_CANCEL] = { PK_REQ, "CANCEL", NULL, "|i" },
	[PR_CREATE] = { PK_REQ, "CREATE", NULL, "RSTOQP" },
	[PR_JOIN] = { PK_REQ, "JOIN", NULL, "c" },
	[PR_WATCH] = { PK_REQ, "WATCH", NULL, "r" },
	[PR_LEAVE] = { PK_REQ, "LEAVE", NULL, "r" },
	[PR_ROOMS] = { PK_REQ, "ROOMS", NULL, "" },
	[PR_WHO] = { PK_REQ, "WHO", NULL, "|r" },
	[PR_MOVE] = { PK_REQ, "MOVE", NULL, "rm" },
	[PR_SWAP2] = { PK_REQ, "SWAP2", NULL, "rH|L" },
	[PR_OPENING_PLACE] = { PK_REQ, "OPENING", "place", "rm" },
	[PR_OPENING_COLOUR] = { PK_REQ, "OPENING", "colour", "r8" },
	[PR_OPENING_DECLARE] = { PK_REQ, "OPENING", "declare", "r0" },
	[PR_OPENING_OFFER] = { PK_REQ, "OPENING", "offer", "rL" },
	[PR_OPENING_CHOOSE] = { PK_REQ, "OPENING", "choose", "rm" },
	[PR_OPENING_BRANCH] = { PK_REQ, "OPENING", "branch", "r9" },
	[PR_RESIGN] = { PK_REQ, "RESIGN", NULL, "r" },
	[PR_OFFER] = { PK_REQ, "OFFER", NULL, "rK" },
	[PR_ACCEPT] = { PK_REQ, "ACCEPT", NULL, "ri" },
	[PR_DECLINE] = { PK_REQ, "DECLINE", NULL, "ri" },
	[PR_ABORT] = { PK_REQ, "ABORT", NULL, "r" },
	[PR_CLAIM] = { PK_REQ, "CLAIM", NULL, "r" },
	[PR_SAY] = { PK_REQ, "SAY", NULL, "r*" },
	[PR_TELL] = { PK_REQ, "TELL", NULL, "u*" },
	[PR_BOT_PLAY] = { PK_REQ, "BOT", "play", "\\RSTOP" },
	[PR_BOT_SEAT] = { PK_REQ, "BOT", "seat", "r\\" },
	[PR_STATE] = { PK_REQ, "STATE", NULL, "r" },
	[PR_RESUME] = { PK_REQ, "RESUME", NULL, "kMq" },
	[PR_HISTORY] = { PK_REQ, "HISTORY", NULL, "|uj" },
	[PR_EXPORT] = { PK_REQ, "EXPORT", NULL, "i|W" },
	[PR_STATS] = { PK_REQ, "STATS", NULL, "|u" },
	[PR_TOP] = { PK_REQ, "TOP", NULL, "R|j" },
	[PR_TOPBOTS] = { PK_REQ, "TOPBOTS", NULL, "R|j" },
	[PR_SET] = { PK_REQ, "SET", NULL, "ab" },
	[PR_SETTINGS] = { PK_REQ, "SETTINGS", NULL, "" },
	[PR_KICK] = { PK_REQ, "KICK", NULL, "u|*" },
	[PR_BAN] = { PK_REQ, "BAN", NULL, "ab|*" },
	[PR_UNBAN] = { PK_REQ, "UNBAN", NULL, "a" },
	[PR_BANS] = { PK_REQ, "BANS", NULL, "" },
	[PR_MUTE] = { PK_REQ, "MUTE", NULL, "ub" },
	[PR_UNMUTE] = { PK_REQ, "UNMUTE", NULL, "u" },
	[PR_ANNOUNCE] = { PK_REQ, "ANNOUNCE", NULL, "*" },
	[PR_MOTD] = { PK_REQ, "MOTD", NULL, "*" },
	[PR_FORBIDDEN] = { PK_REQ, "FORBIDDEN", NULL, "r" },
	[PR_SEEKS] = { PK_REQ, "SEEKS", NULL, "|j" },
	[PR_CHALLENGE] = { PK_REQ, "CHALLENGE", NULL, "uRSTOQP" },
	[PR_ANSWER] = { PK_REQ, "ANSWER", NULL, "iI" },
	[PR_TAKE] = { PK_REQ, "TAKE", NULL, "iu" },
	[PR_AUTH] = { PK_REQ, "AUTH", NULL, "k" },
	[PR_REMEMBER] = { PK_REQ, "REMEMBER", NULL, "" },
	[PR_POSITION] = { PK_REQ, "POSITION", NULL, "RSL" },
	[PR_ANALYSE] = { PK_REQ, "ANALYSE", NULL, "RSL|n" },
	[PR_REVIEW] = { PK_REQ, "REVIEW", NULL, "i" },
	[PR_MARKS] = { PK_REQ, "MARKS", NULL, "i" },
	[PR_PUZZLE] = { PK_REQ, "PUZZLE", NULL, "a" }, /* next, daily or an id */
	[PR_SOLVE] = { PK_REQ, "SOLVE", NULL, "im" },
	[PR_TLIST] = { PK_REQ, "TLIST", NULL, "" },
	/* kind, rule, size, time, opening, rated, entrants, start in, length, name */
	[PR_TCREATE] = { PK_REQ, "TCREATE", NULL, "(RSTPQ[nN|*" },
	[PR_TWATCH] = { PK_REQ, "TWATCH", NULL, "i" },
	[PR_TUNWATCH] = { PK_REQ, "TUNWATCH", NULL, "i" },
	[PR_TJOIN] = { PK_REQ, "TJOIN", NULL, "i" },
	[PR_TLEAVE] = { PK_REQ, "TLEAVE", NULL, "i" },
	[PR_TBOT] = { PK_REQ, "TBOT", NULL, "i\\" }, /* a level, or a hosted engine */
	[PR_TCANCEL] = { PK_REQ, "TCANCEL", NULL, "i" },
	[PR_BOTUPGRADE] = { PK_REQ, "BOTUPGRADE", NULL, "k" },
	[PR_LEAGUES] = { PK_REQ, "LEAGUES", NULL, "" },
	[PR_LEAGUE] = { PK_REQ, "LEAGUE", NULL, "a" },
	[PR_QUIT] = { PK_REQ, "QUIT", NULL, "" },

	[PO_HELLO] = { PK_OK, "HELLO", NULL, "v" },
	[PO_PING] = { PK_OK, "PING", NULL, "|a" },
	[PO_GUEST] = { PK_OK, "GUEST", NULL, "uk" },
	[PO_REGISTER] = { PK_OK, "REGISTER", NULL, "uk" },
	[PO_LOGIN] = { PK_OK, "LOGIN", NULL, "uk" },
	[PO_LOGOUT] = { PK_OK, "LOGOUT", NULL, "" },
	[PO_SEEK] = { PK_OK, "SEEK", NULL, "i" },
	[PO_CANCEL] = { PK_OK, "CANCEL", NULL, "" },
	[PO_CREATE] = { PK_OK, "CREATE", NULL, "rc" },
	[PO_JOIN] = { PK_OK, "JOIN", NULL, "r" },
	[PO_WATCH] = { PK_OK, "WATCH", NULL, "rq" },
	[PO_LEAVE] = { PK_OK, "LEAVE", NULL, "r" },
	[PO_ROOMS] = { PK_OK, "ROOMS", NULL, "n" },
	[PO_WHO] = { PK_OK, "WHO", NULL, "n" },
	[PO_MOVE] = { PK_OK, "MOVE", NULL, "rq" },
	[PO_SWAP2] = { PK_OK, "SWAP2", NULL, "rq" },
	[PO_OPENING] = { PK_OK, "OPENING", NULL, "rq" },
	[PO_RESIGN] = { PK_OK, "RESIGN", NULL, "r" },
	[PO_OFFER] = { PK_OK, "OFFER", NULL, "ri" },
	[PO_ACCEPT] = { PK_OK, "ACCEPT", NULL, "ri" },
	[PO_DECLINE] = { PK_OK, "DECLINE", NULL, "ri" },
	[PO_ABORT] = { PK_OK, "ABORT", NULL, "r" },
	[PO_CLAIM] = { PK_OK, "CLAIM", NULL, "r" },
	[PO_SAY] = { PK_OK, "SAY", NULL, "r" },
	[PO_TELL] = { PK_OK, "TELL", NULL, "u" },
	[PO_BOT] = { PK_OK, "BOT", NULL, "r" },
	[PO_STATE] = { PK_OK, "STATE", NULL, "rq" },
	[PO_RESUME] = { PK_OK, "RESUME", NULL, "Mq" },
	[PO_HISTORY] = { PK_OK, "HISTORY", NULL, "nN" },
	[PO_EXPORT] = { PK_OK, "EXPORT", NULL, "iW" },
	[PO_STATS] = { PK_OK, "STATS", NULL, "n" },
	[PO_TOP] = { PK_OK, "TOP", NULL, "nN" },
	[PO_TOPBOTS] = { PK_OK, "TOPBOTS", NULL, "nN" },
	[PO_SET] = { PK_OK, "SET", NULL, "ab" },
	[PO_SETTINGS] = { PK_OK, "SETTINGS", NULL, "n" },
	[PO_LEAGUES] = { PK_OK, "LEAGUES", NULL, "n" },
	[PO_LEAGUE] = { PK_OK, "LEAGUE", NULL, "an" },
	[PO_KICK] = { PK_OK, "KICK", NULL, "u" },
	[PO_BAN] = { PK_OK, "BAN", NULL, "a" },
	[PO_UNBAN] = { PK_OK, "UNBAN", NULL, "a" },
	[PO_BANS] = { PK_OK, "BANS", NULL, "n" },
	[PO_MUTE] = { PK_OK, "MUTE", NULL, "u" },
	[PO_UNMUTE] = { PK_OK, "UNMUTE", NULL, "u" },
	[PO_ANNOUNCE] = { PK_OK, "ANNOUNCE", NULL, "n" },
	[PO_MOTD] = { PK_OK, "MOTD", NULL, "" },
	[PO_FORBIDDEN] = { PK_OK, "FORBIDDEN", NULL, "rn" },
	[PO_SEEKS] = { PK_OK, "SEEKS", NULL, "n|N" },
	[PO_CHALLENGE] = { PK_OK, "CHALLENGE", NULL, "i" },
	[PO_ANSWER] = { PK_OK, "ANSWER", NULL, "i" },
	[PO_TAKE] = { PK_OK, "TAKE", NULL, "i" },
	[PO_AUTH] = { PK_OK, "AUTH", NULL, "uk" },
	[PO_REMEMBER] = { PK_OK, "REMEMBER", NULL, "kU" },
	[PO_POSITION] = { PK_OK, "POSITION", NULL, "DXnL" },
	[PO_ANALYSE] = { PK_OK, "ANALYSE", NULL, "naCL" }, /* depth, reason, lines, pv */
	[PO_REVIEW] = { PK_OK, "REVIEW", NULL, "i" },
	[PO_MARKS] = { PK_OK, "MARKS", NULL, "idn" }, /* game, plies, marks */
	/* id, rule, size, class, plies, rating, moves */
	[PO_PUZZLE] = { PK_OK, "PUZZLE", NULL, "iRS=dhL" },
	/* id, more|solved|failed, the reply, the rating after, the solution */
	[PO_SOLVE] = { PK_OK, "SOLVE", NULL, "i?@1L" },
	[PO_TLIST] = { PK_OK, "TLIST", NULL, "n" },
	[PO_TCREATE] = { PK_OK, "TCREATE", NULL, "i" },
	[PO_TWATCH] = { PK_OK, "TWATCH", NULL, "i" },
	[PO_TUNWATCH] = { PK_OK, "TUNWATCH", NULL, "i" },
	[PO_TJOIN] = { PK_OK, "TJOIN", NULL, "i" },
	[PO_TLEAVE] = { PK_OK, "TLEAVE", NULL, "i" },
	[PO_TBOT] = { PK_OK, "TBOT", NULL, "iu" },
	[PO_TCANCEL] = { PK_OK, "TCANCEL", NULL, "i" },
	[PO_BOTUPGRADE] = { PK_OK, "BOTUPGRADE", NULL, "u" },
	[PO_QUIT] = { PK_OK, "QUIT", NULL, "" },

	[PX_ERR] = { PK_ERR, "ERR", NULL, "ea|*" },

	[PD_ROOM] = { PK_DATA, "ROOM", NULL, "rJRSTPQuwnN" },
	[PD_CLOCK] = { PK_DATA, "CLOCK", NULL, "rxyD" },
	[PD_MOVES] = { PK_DATA, "MOVES", NULL, "rdL" },
	[PD_SEAT] = { PK_DATA, "SEAT", NULL, "rDuZg" },
	[PD_OFFER] = { PK_DATA, "OFFER", NULL, "riKu" },
	[PD_SWAP2] = { PK_DATA, "SWAP2", NULL, "rGu" },
	[PD_OPENING] = { PK_DATA, "OPENING", NULL, "r7uD!n^L" },
	[PD_RESULT] = { PK_DATA, "RESULT", NULL, "rXYL" },
	[PD_USER] = { PK_DATA, "USER", NULL, "uV|r" },
	[PD_GAME] = { PK_DATA, "GAME", NULL, "iRSuwXYdU" },
	[PD_RECORD] = { PK_DATA, "RECORD", NULL, "*" },
	[PD_STAT] = { PK_DATA, "STAT", NULL, "uRhoAfst" },
	[PD_BAN] = { PK_DATA, "BAN", NULL, "BaUw|*" },
	[PD_FORBIDDEN] = { PK_DATA, "FORBIDDEN", NULL, "ML" }, /* - after POSITION */
	[PD_SEEK] = { PK_DATA, "SEEK", NULL, "iuRSTOQPF" },
	[PD_SAY] = { PK_DATA, "SAY", NULL, "ru*" },
	[PD_CODE] = { PK_DATA, "CODE", NULL, "rc" },
	[PD_RATINGS] = { PK_DATA, "RATINGS", NULL, "ru1w2" },
	[PD_EVAL] = { PK_DATA, "EVAL", NULL, "id&" }, /* game, index, chances */
	/* game, kind, side, ply, played, better, before, after, reason, line */
	[PD_MARK] = { PK_DATA, "MARK", NULL, "i+D%m@<>aL" },
	/* id, kind, state, rule, size, time, opening, rated, entrants, start,
	 * length, round, rounds, players, creator, name */
	[PD_TOURNEY] = { PK_DATA, "TOURNEY", NULL, "i()RSTPQ[Un$}Nu|*" },
	/* id, rank, user, rating, points, tie-breaks, games, status, streak */
	[PD_TPLAYER] = { PK_DATA, "TPLAYER", NULL, "i:u1#;_{." },
	/* id, round, board, room, first, second, result */
	[PD_TGAME] = { PK_DATA, "TGAME", NULL, "i$nMuw]" },
	[PD_BOT] = { PK_DATA, "BOT", NULL, "u" },
	[PD_SET] = { PK_DATA, "SET", NULL, "ab" },
	/* room, black, its kind, white, its kind */
	[PD_KINDS] = { PK_DATA, "KINDS", NULL, "ru/w`" },
	/* name, rule, size, time, players, games, tourney or -, next or - */
	[PD_LEAGUE] = { PK_DATA, "LEAGUE", NULL, "aRSTnN'," },
	/* name, rank, player, elo, minus, plus, games, points, draws */
	[PD_LRATING] = { PK_DATA, "LRATING", NULL, "a:u\"46_#t" },

	[PE_SERVER] = { PK_EVENT, "SERVER", NULL, "abv*" },
	[PE_START] = { PK_EVENT, "START", NULL, "rquwRSTPQxy" },
	[PE_SWAP2] = { PK_EVENT, "SWAP2", NULL, "rqGu" },
	[PE_COLOURS] = { PK_EVENT, "COLOURS", NULL, "rquw" },
	[PE_OPENING] = { PK_EVENT, "OPENING", NULL, "rq7uD!n^L" },
	[PE_MOVE] = { PK_EVENT, "MOVE", NULL, "rqDmxy|*" },
	[PE_UNDO] = { PK_EVENT, "UNDO", NULL, "rqzxy" },
	[PE_OFFER] = { PK_EVENT, "OFFER", NULL, "rqiKu" },
	[PE_OFFEREND] = { PK_EVENT, "OFFEREND", NULL, "rqiE" },
	[PE_SAY] = { PK_EVENT, "SAY", NULL, "rqu*" },
	[PE_TELL] = { PK_EVENT, "TELL", NULL, "u*" },
	[PE_PRESENCE] = { PK_EVENT, "PRESENCE", NULL, "rquZg" },
	[PE_THINK] = { PK_EVENT, "THINK", NULL, "rqudC" },
	[PE_OVER] = { PK_EVENT, "OVER", NULL, "rqXYL" },
	[PE_SHUTDOWN] = { PK_EVENT, "SHUTDOWN", NULL, "g|*" },
	[PE_MOTD] = { PK_EVENT, "MOTD", NULL, "*" },
	[PE_ANNOUNCE] = { PK_EVENT, "ANNOUNCE", NULL, "*" },
	[PE_KICKED] = { PK_EVENT, "KICKED", NULL, "*" },
	[PE_BYE] = { PK_EVENT, "BYE", NULL, "a|*" },
	[PE_SEATED] = { PK_EVENT, "SEATED", NULL, "r" },
	[PE_CHALLENGE] = { PK_EVENT, "CHALLENGE", NULL, "iuwRSTOQP" },
	[PE_CHALLENGEEND] = { PK_EVENT, "CHALLENGEEND", NULL, "iE" },
	[PE_MOVED] = { PK_EVENT, "MOVED", NULL, "ra" },
	[PE_CLOSED] = { PK_EVENT, "CLOSED", NULL, "rqa" },
	[PE_RATINGS] = { PK_EVENT, "RATINGS", NULL, "rqu1w2" },
	[PE_RATED] = { PK_EVENT, "RATED", NULL, "rqu34w56" },
	[PE_REVIEWING] = { PK_EVENT, "REVIEWING", NULL, "inN" }, /* game, done, total */
	[PE_REVIEWED] = { PK_EVENT, "REVIEWED", NULL, "i~dn" },  /* game, ok|failed, plies, marks */
	[PE_TOURNEY] = { PK_EVENT, "TOURNEY", NULL, "i()RSTPQ[Un$}Nu|*" },
	[PE_TPLAYER] = { PK_EVENT, "TPLAYER", NULL, "i:u1#;_{." },
	[PE_TGAME] = { PK_EVENT, "TGAME", NULL, "i$nMuw]" },
	[PE_KINDS] = { PK_EVENT, "KINDS", NULL, "rqu/w`" },
};

/* Keyword sets, in enum order. */
static const char *const colour_names[] = { "black", "white", "any", NULL };
static const char *const rated_names[] = { "casual", "rated", NULL };
static const char *const opening_names[] = { "none", "swap2", "swap", "pro", "longpro", "rif",
	"yamaguchi", "soosorv8", "taraguchi10", NULL };
static const char *const ostage_names[] = { "place", "swap", "swap-or-place", "declare", "offer",
	"choose", "branch", NULL };
static const char *const oarea_names[] = { "-", "any", "centre", "in3", "in5", "in7", "in9", "out5",
	"out7", "offers", NULL };
static const char *const canon_names[] = { "-", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8",
	"d9", "d10", "d11", "d12", "d13", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9",
	"i10", "i11", "i12", "i13", NULL };
static const char *const take_names[] = { "black", "white", NULL };
static const char *const branch_names[] = { "one", "ten", NULL };
static const char *const offer_names[] = { "draw", "undo", "rematch", NULL };
static const char *const choice_names[] = { "put", "black", "white", NULL };
static const char *const stage_names[] = { "put3", "choose", "put2", "choose2", NULL };
static const char *const result_names[] = { "black", "white", "draw", "none", NULL };
static const char *const reason_names[] = { "five", "resign", "time", "forbidden", "draw-agreed",
	"board-full", "abandoned", "aborted", NULL };
static const char *const presence_names[] = { "gone", "back", "joined", "left", "here", NULL };
static const char *const status_names[] = { "waiting", "opening", "playing", "over", NULL };
static const char *const side_names[] = { "black", "white", "none", NULL };
static const char *const end_names[] = { "accepted", "declined", "withdrawn", "expired", NULL };
static const char *const ustate_names[] = { "idle", "seeking", "playing", "watching", NULL };
static const char *const fallback_names[] = { "human", "bot", NULL };
static const char *const export_names[] = { "text", "psq", NULL };
static const char *const provisional_names[] = { "established", "provisional", NULL };
static const char *const sanction_names[] = { "ban", "mute", NULL };
static const char *const answer_names[] = { "accept", "decline", NULL };
static const char *const mark_names[] = { "missed-win", "blunder", "turning", NULL };
static const char *const reviewed_names[] = { "ok", "failed", NULL };
static const char *const pclass_names[] = { "vcf", "vct", NULL };
static const char *const solve_names[] = { "more", "solved", "failed", NULL };
static const char *const tkind_names[] = { "arena", "swiss", "robin", NULL };
static const char *const tstate_names[] = { "soon", "running", "over", "cancelled", NULL };
static const char *const entrants_names[] = { "people", "bots", "both", NULL };
static const char *const tresult_names[] = { "pending", "first", "second", "draw", "first-forfeit",
	"second-forfeit", "both-forfeit", "bye", NULL };
static const char *const tstatus_names[] = { "active", "playing", "withdrawn", NULL };

enum ftype {
	FT_STR,
	FT_INT,
	FT_ENUM,
	FT_RULE,
	FT_TC,
	FT_MOVE,
	FT_LIST,
	FT_CANDS,
	FT_MOVEOPT, /* a move, or "-" for none ("") */
	FT_VALS,    /* numbers lo..hi, comma-separated */
	FT_CLOCK,
	FT_RATING,
	FT_LEVEL, /* a bot's level 1..10, or a hosted engine's name (engine) */
	FT_TEXT
};
enum cset { CS_NONE, CS_ROOM, CS_NAME, CS_ALNUM, CS_PRINT };

struct field {
	char code;
	enum ftype type;
	enum cset cs;
	size_t off;
	int64_t lo, hi; /* length bounds for strings, value bounds for ints */
	const char *const *names;
	const char *what; /* for error text */
};

#define F(c, t, cs, member, lo, hi, names, what)                             \
	{                                                                    \
		c, t, cs, offsetof(proto_msg_t, member), lo, hi, names, what \
	}

static const struct field fields[] = {
	F('r', FT_STR, CS_ROOM, room, 1, PROTO_ROOM_MAX, NULL, "room"),
	F('M', FT_STR, CS_ROOM, room, 1, PROTO_ROOM_MAX, NULL, "room or -"),
	F('u', FT_STR, CS_NAME, user, 1, PROTO_NAME_MAX, NULL, "user"),
	F('w', FT_STR, CS_NAME, user2, 1, PROTO_NAME_MAX, NULL, "user"),
	F('c', FT_STR, CS_ALNUM, code, 6, PROTO_CODE_MAX, NULL, "invite code"),
	F('k', FT_STR, CS_ALNUM, token, PROTO_TOKEN_MIN, PROTO_TOKEN_MAX, NULL, "token"),
	F('p', FT_STR, CS_PRINT, pass, 1, PROTO_PASS_MAX, NULL, "password"),
	F('a', FT_STR, CS_PRINT, word, 1, PROTO_WORD_MAX, NULL, "word"),
	F('b', FT_STR, CS_PRINT, word2, 1, PROTO_WORD_MAX, NULL, "word"),
	F('m', FT_MOVE, CS_NONE, move, 0, 0, NULL, "move"),
	F('L', FT_LIST, CS_NONE, moves, 0, PROTO_LIST_MAX, NULL, "move list"),
	F('C', FT_CANDS, CS_NONE, cands, 1, PROTO_CANDS_MAX, NULL, "candidates"),
	F('R', FT_RULE, CS_NONE, rule, 0, 0, NULL, "rule"),
	F('S', FT_INT, CS_NONE, size, RULES_MIN_SIZE, RULES_MAX_SIZE, NULL, "size"),
	F('T', FT_TC, CS_NONE, tc_base, 0, 0, NULL, "time control"),
	F('O', FT_ENUM, CS_NONE, colour, 0, 0, colour_names, "colour"),
	F('Q', FT_ENUM, CS_NONE, rated, 0, 0, rated_names, "rated|casual"),
	F('P', FT_ENUM, CS_NONE, opening, 0, 0, opening_names, "opening rule"),
	F('K', FT_ENUM, CS_NONE, offer, 0, 0, offer_names, "offer kind"),
	F('H', FT_ENUM, CS_NONE, choice, 0, 0, choice_names, "swap2 choice"),
	F('G', FT_ENUM, CS_NONE, stage, 0, 0, stage_names, "swap2 stage"),
	F('X', FT_ENUM, CS_NONE, result, 0, 0, result_names, "result"),
	F('Y', FT_ENUM, CS_NONE, reason, 0, 0, reason_names, "reason"),
	F('Z', FT_ENUM, CS_NONE, presence, 0, 0, presence_names, "presence"),
	F('J', FT_ENUM, CS_NONE, status, 0, 0, status_names, "room status"),
	F('D', FT_ENUM, CS_NONE, side, 0, 0, side_names, "side"),
	F('E', FT_ENUM, CS_NONE, end, 0, 0, end_names, "offer end"),
	F('V', FT_ENUM, CS_NONE, ustate, 0, 0, ustate_names, "user state"),
	F('F', FT_ENUM, CS_NONE, fallback, 0, 0, fallback_names, "human|bot"),
	F('/', FT_ENUM, CS_NONE, kind, 0, 0, fallback_names, "human|bot"),
	F('`', FT_ENUM, CS_NONE, kind2, 0, 0, fallback_names, "human|bot"),
	F('W', FT_ENUM, CS_NONE, format, 0, 0, export_names, "export format"),
	F('A', FT_ENUM, CS_NONE, provisional, 0, 0, provisional_names, "provisional|established"),
	F('B', FT_ENUM, CS_NONE, sanction, 0, 0, sanction_names, "ban|mute"),
	F('I', FT_ENUM, CS_NONE, answer, 0, 0, answer_names, "accept|decline"),
	F('+', FT_ENUM, CS_NONE, mark, 0, 0, mark_names, "mark kind"),
	F('~', FT_ENUM, CS_NONE, reviewed, 0, 0, reviewed_names, "ok|failed"),
	F('=', FT_ENUM, CS_NONE, pclass, 0, 0, pclass_names, "vcf|vct"),
	F('?', FT_ENUM, CS_NONE, solve, 0, 0, solve_names, "more|solved|failed"),
	F('(', FT_ENUM, CS_NONE, tkind, 0, 0, tkind_names, "arena|swiss|robin"),
	F(')', FT_ENUM, CS_NONE, tstate, 0, 0, tstate_names, "tournament state"),
	F('[', FT_ENUM, CS_NONE, entrants, 0, 0, entrants_names, "people|bots|both"),
	F(']', FT_ENUM, CS_NONE, tresult, 0, 0, tresult_names, "pairing result"),
	F('{', FT_ENUM, CS_NONE, tstatus, 0, 0, tstatus_names, "active|playing|withdrawn"),
	F('$', FT_INT, CS_NONE, round, 0, 1000000, NULL, "round"),
	F('}', FT_INT, CS_NONE, rounds, 0, 1000000, NULL, "rounds"),
	F(':', FT_INT, CS_NONE, rank, 1, 1000000, NULL, "rank"),
	F('#', FT_INT, CS_NONE, points, 0, 1000000, NULL, "points"),
	F(';', FT_VALS, CS_NONE, vals, 0, PROTO_TIEBREAK_MAX, NULL, "tie-breaks"),
	F('_', FT_INT, CS_NONE, played, 0, 1000000, NULL, "games"),
	F('.', FT_INT, CS_NONE, streak, 0, 1000000, NULL, "streak"),
	F('@', FT_MOVEOPT, CS_NONE, move2, 0, 0, NULL, "move or -"),
	F('&', FT_VALS, CS_NONE, vals, 0, PROTO_CHANCE_MAX, NULL, "chances"),
	F('%', FT_INT, CS_NONE, plies, 1, RULES_CELLS, NULL, "ply"),
	F('<', FT_INT, CS_NONE, before, 0, PROTO_CHANCE_MAX, NULL, "chance"),
	F('>', FT_INT, CS_NONE, after, 0, PROTO_CHANCE_MAX, NULL, "chance"),
	F('7', FT_ENUM, CS_NONE, ostage, 0, 0, ostage_names, "opening stage"),
	F('!', FT_ENUM, CS_NONE, oarea, 0, 0, oarea_names, "opening area"),
	F('^', FT_ENUM, CS_NONE, canon, 0, 0, canon_names, "renju opening"),
	F('8', FT_ENUM, CS_NONE, take, 0, 0, take_names, "black|white"),
	F('9', FT_ENUM, CS_NONE, branch, 0, 0, branch_names, "one|ten"),
	F('0', FT_INT, CS_NONE, declared, 1, 10, NULL, "number of offers"),
	F('v', FT_INT, CS_NONE, version, 1, 999, NULL, "version"),
	F('q', FT_INT, CS_NONE, seq, 0, INT32_MAX, NULL, "sequence number"),
	F('i', FT_INT, CS_NONE, ident, 1, INT32_MAX, NULL, "id"),
	F('n', FT_INT, CS_NONE, count, 0, 1000000, NULL, "count"),
	F('N', FT_INT, CS_NONE, count2, 0, 1000000, NULL, "count"),
	F('l', FT_INT, CS_NONE, level, 1, PROTO_LEVEL_MAX, NULL, "level"),
	F('\\', FT_LEVEL, CS_NONE, level, 1, PROTO_LEVEL_MAX, NULL, "level or engine"),
	F('e', FT_INT, CS_NONE, ecode, 100, 999, NULL, "error code"),
	F('g', FT_INT, CS_NONE, ms, 0, 10000000000LL, NULL, "milliseconds"),
	F('d', FT_INT, CS_NONE, depth, 0, RULES_CELLS, NULL, "number"),
	F('z', FT_INT, CS_NONE, plies, 1, 2, NULL, "plies"),
	F('j', FT_INT, CS_NONE, page, 1, 1000000, NULL, "page"),
	F('h', FT_INT, CS_NONE, rating, 0, 10000, NULL, "rating"),
	F('o', FT_INT, CS_NONE, deviation, 0, 10000, NULL, "deviation"),
	F('f', FT_INT, CS_NONE, wins, 0, INT32_MAX, NULL, "wins"),
	F('s', FT_INT, CS_NONE, losses, 0, INT32_MAX, NULL, "losses"),
	F('t', FT_INT, CS_NONE, draws, 0, INT32_MAX, NULL, "draws"),
	F('U', FT_INT, CS_NONE, when, 0, 1LL << 40, NULL, "time"),
	F('x', FT_CLOCK, CS_NONE, bms, -1, 10000000000LL, NULL, "clock"),
	F('y', FT_CLOCK, CS_NONE, wms, -1, 10000000000LL, NULL, "clock"),
	F('1', FT_RATING, CS_NONE, ratings[0], 0, 9999, NULL, "rating"),
	F('2', FT_RATING, CS_NONE, ratings[1], 0, 9999, NULL, "rating"),
	F('3', FT_INT, CS_NONE, before, 0, 9999, NULL, "rating"),
	F('4', FT_INT, CS_NONE, after, 0, 9999, NULL, "rating"),
	F('5', FT_INT, CS_NONE, before2, 0, 9999, NULL, "rating"),
	F('6', FT_INT, CS_NONE, after2, 0, 9999, NULL, "rating"),
	F('"', FT_INT, CS_NONE, elo, -100000, 100000, NULL, "elo"),
	F('\'', FT_CLOCK, CS_NONE, ident, -1, INT32_MAX, NULL, "id or -"),
	F(',', FT_CLOCK, CS_NONE, when, -1, 1LL << 40, NULL, "time or -"),
	F('*', FT_TEXT, CS_NONE, text, 0, PROTO_TEXT_MAX, NULL, "text"),
};

static const struct field *
field_of(char code)
{
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (fields[i].code == code)
			return &fields[i];
	return NULL;
}

static const struct {
	int code;
	const char *word;
} errwords[] = {
	{ ERR_SYNTAX, "syntax" },
	{ ERR_UNKNOWN, "unknown-command" },
	{ ERR_ARGUMENT, "bad-argument" },
	{ ERR_TOO_LONG, "line-too-long" },
	{ ERR_UTF8, "bad-utf8" },
	{ ERR_HELLO_FIRST, "hello-first" },
	{ ERR_VERSION, "version-mismatch" },
	{ ERR_RATE, "rate-limited" },
	{ ERR_LOGIN_FIRST, "login-first" },
	{ ERR_LOGGED_IN, "logged-in" },
	{ ERR_NAME_TAKEN, "name-taken" },
	{ ERR_CREDENTIALS, "bad-credentials" },
	{ ERR_BANNED, "banned" },
	{ ERR_MUTED, "muted" },
	{ ERR_NOT_ADMIN, "not-admin" },
	{ ERR_ACCOUNT_ONLY, "account-only" },
	{ ERR_NO_ROOM, "no-such-room" },
	{ ERR_NO_USER, "no-such-user" },
	{ ERR_NO_CODE, "no-such-code" },
	{ ERR_NO_OFFER, "no-such-offer" },
	{ ERR_NO_SEEK, "no-such-seek" },
	{ ERR_NOT_PLAYER, "not-a-player" },
	{ ERR_NOT_TURN, "not-your-turn" },
	{ ERR_OCCUPIED, "occupied" },
	{ ERR_OFF_BOARD, "off-board" },
	{ ERR_DOUBLE_THREE, "double-three" },
	{ ERR_DOUBLE_FOUR, "double-four" },
	{ ERR_OVERLINE, "overline" },
	{ ERR_OUTSIDE_AREA, "outside-area" },
	{ ERR_WRONG_COUNT, "wrong-count" },
	{ ERR_SYMMETRIC, "symmetric-offer" },
	{ ERR_GAME_OVER, "game-over" },
	{ ERR_PHASE, "wrong-phase" },
	{ ERR_OFFER_PENDING, "offer-pending" },
	{ ERR_TOO_LATE, "too-late" },
	{ ERR_ROOM_FULL, "room-full" },
	{ ERR_BUSY, "busy" },
	{ ERR_NOT_IN_ROOM, "not-in-room" },
	{ ERR_NO_CLAIM, "cannot-claim" },
	{ ERR_RESUME, "resume-failed" },
	{ ERR_SEEKS, "too-many-seeks" },
	{ ERR_AWAY, "away" },
	{ ERR_NOT_OFFERED, "not-offered" },
	{ ERR_IN_GAME, "in-game" },
	{ ERR_OVER_LIMIT, "over-limit" },
	{ ERR_PRIVATE_GAME, "private-game" },
	{ ERR_NOT_REVIEWED, "not-reviewed" },
	{ ERR_NO_PUZZLE, "no-puzzle" },
	{ ERR_NO_TOURNEY, "no-tourney" },
	{ ERR_TOURNEY_CLOSED, "tourney-closed" },
	{ ERR_NOT_ELIGIBLE, "not-eligible" },
	{ ERR_NO_LEAGUE, "no-league" },
	{ ERR_INTERNAL, "internal" },
	{ ERR_UNAVAILABLE, "not-available" },
	{ ERR_SHUTDOWN, "shutting-down" },
	{ ERR_FULL, "server-full" },
	{ ERR_IDLE, "idle-timeout" },
	{ ERR_SLOW, "too-slow" },
	{ ERR_SERVER_BUSY, "server-busy" },
	{ ERR_DRAINING, "draining" },
	{ ERR_STORE_DOWN, "store-unavailable" },
};

const char *
proto_err_word(int code)
{
	for (size_t i = 0; i < sizeof errwords / sizeof errwords[0]; i++)
		if (errwords[i].code == code)
			return errwords[i].word;
	return NULL;
}

int
proto_err_fatal(int code)
{
	return code == ERR_TOO_LONG || code == ERR_VERSION || code == ERR_FULL ||
	    code == ERR_IDLE || code == ERR_SLOW || code == ERR_SHUTDOWN;
}

proto_err_t
proto_err_of_legality(legality_t l)
{
	switch (l) {
	case LEGAL_OFF_BOARD:
		return ERR_OFF_BOARD;
	case LEGAL_OCCUPIED:
		return ERR_OCCUPIED;
	case LEGAL_DOUBLE_THREE:
		return ERR_DOUBLE_THREE;
	case LEGAL_DOUBLE_FOUR:
		return ERR_DOUBLE_FOUR;
	case LEGAL_OVERLINE:
		return ERR_OVERLINE;
	case LEGAL_GAME_OVER:
		return ERR_GAME_OVER;
	case LEGAL_OK:
		break;
	}
	return ERR_INTERNAL;
}

proto_kind_t
proto_kind(proto_id_t id)
{
	return id > PM_NONE && id < PM_COUNT ? forms[id].kind : PK_REQ;
}

const char *
proto_name(proto_id_t id)
{
	return id > PM_NONE && id < PM_COUNT ? forms[id].name : "?";
}

proto_id_t
proto_reply_of(proto_id_t req)
{
	if (req <= PM_NONE || req >= PM_COUNT || forms[req].kind != PK_REQ)
		return PM_NONE;
	for (int i = PO_HELLO; i <= PO_QUIT; i++)
		if (strcmp(forms[i].name, forms[req].name) == 0)
			return (proto_id_t)i;
	return PM_NONE;
}

const char *
proto_colour_name(proto_colour_t c)
{
	return c <= COLOUR_ANY ? colour_names[c] : "?";
}
const char *
proto_opening_name(proto_opening_t o)
{
	return o <= OPENING_TARAGUCHI10 ? opening_names[o] : "?";
}
const char *
proto_offer_name(proto_offer_t o)
{
	return o <= OFFER_REMATCH ? offer_names[o] : "?";
}
const char *
proto_reason_name(proto_reason_t r)
{
	return r <= REASON_ABORTED ? reason_names[r] : "?";
}
const char *
proto_result_name(proto_result_t r)
{
	return r <= RES_NONE ? result_names[r] : "?";
}

int
proto_utf8_ok(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;
	while (i < len) {
		unsigned c = s[i];
		if (c < 0x80) {
			if (c < 0x20 || c == 0x7f)
				return 0;
			i++;
			continue;
		}
		int n;
		uint32_t cp, min;
		if (c >= 0xc2 && c <= 0xdf) {
			n = 1;
			cp = c & 0x1f;
			min = 0x80;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2;
			cp = c & 0x0f;
			min = 0x800;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3;
			cp = c & 0x07;
			min = 0x10000;
		} else {
			return 0;
		}
		if (len - i <= (size_t)n)
			return 0;
		for (int k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		/* C1 controls are control characters too */
		if (cp >= 0x80 && cp <= 0x9f)
			return 0;
		i += (size_t)n + 1;
	}
	return 1;
}

/* Parses a decimal without sign or leading zeros into [lo, hi]. */
static int
parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
	int neg = 0;
	if (*s == '-' && lo < 0) {
		neg = 1;
		s++;
	}
	if (!isdigit((unsigned char)*s) || (s[0] == '0' && s[1] != '\0'))
		return -1;
	int64_t v = 0;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return -1;
		if (v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	if (neg)
		v = -v;
	if (neg && v == 0)
		return -1;
	if (v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int
proto_tc_parse(const char *s, int *base, int *inc)
{
	if (strcmp(s, "none") == 0) {
		*base = *inc = 0;
		return 0;
	}
	const char *plus = strchr(s, '+');
	char b[16];
	if (!plus || (size_t)(plus - s) >= sizeof b)
		return -1;
	memcpy(b, s, (size_t)(plus - s));
	b[plus - s] = '\0';
	int64_t vb, vi;
	if (parse_int(b, 1, PROTO_TC_BASE_MAX, &vb) ||
	    parse_int(plus + 1, 0, PROTO_TC_INC_MAX, &vi))
		return -1;
	*base = (int)vb;
	*inc = (int)vi;
	return 0;
}

static int
in_set(enum cset cs, const char *s)
{
	if (cs == CS_NAME && !isalpha((unsigned char)s[0]))
		return 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (cs) {
		case CS_ROOM:
			if (!(isdigit(c) || (c >= 'a' && c <= 'z')))
				return 0;
			break;
		case CS_NAME:
			if (!(isalnum(c) || c == '_' || c == '-'))
				return 0;
			break;
		case CS_ALNUM:
			if (!isalnum(c))
				return 0;
			break;
		case CS_PRINT:
			if (c < 0x21 || c > 0x7e)
				return 0;
			break;
		case CS_NONE:
			break;
		}
	}
	return 1;
}

static int
tag_ok(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > PROTO_TAG_MAX)
		return 0;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '.' || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

/* A move in its canonical form: the rules core reads people's notation
 * ("H8" too), and the protocol takes only what it writes back ("h8"), as
 * arguments are case-sensitive (PROTOCOL.md section 1). */
static int
move_ok(const char *s)
{
	move_t m;
	char back[4];
	return strlen(s) <= PROTO_MOVE_MAX && notation_parse(s, RULES_MAX_SIZE, &m) == 0 &&
	    strcmp(notation_format(m, RULES_MAX_SIZE, back), s) == 0;
}

static int
enum_parse(const char *const *names, const char *s)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

static int
enum_count(const char *const *names)
{
	int n = 0;
	while (names[n])
		n++;
	return n;
}

/* Whether a field may be "-": a user name for an empty seat (not in
 * requests), RESUME's room for none (its session alone). */
static int
dash_ok(const struct field *f, proto_kind_t kind)
{
	return ((f->code == 'u' || f->code == 'w') && kind != PK_REQ) || f->code == 'M';
}

/* Parses one token into its field. Returns 0 or -1. */
static int
field_parse(const struct field *f, proto_kind_t kind, char *tok, proto_msg_t *m)
{
	char *base = (char *)m + f->off;
	size_t n = strlen(tok);
	switch (f->type) {
	case FT_STR:
		if (dash_ok(f, kind) && strcmp(tok, "-") == 0)
			return 0;
		if ((int64_t)n < f->lo || (int64_t)n > f->hi || !in_set(f->cs, tok))
			return -1;
		memcpy(base, tok, n + 1);
		return 0;
	case FT_LEVEL:
		if (tok[0] >= 'a' && tok[0] <= 'z') { /* an engine's name */
			if (n > PROTO_ENGINE_MAX)
				return -1;
			for (size_t i = 0; i < n; i++)
				if (!((tok[i] >= 'a' && tok[i] <= 'z') ||
					(tok[i] >= '0' && tok[i] <= '9')))
					return -1;
			memcpy(m->engine, tok, n + 1);
			m->level = 0;
			return 0;
		}
		return parse_int(tok, f->lo, f->hi, &m->level);
	case FT_INT:
	case FT_CLOCK: {
		int64_t v;
		if (f->type == FT_CLOCK && strcmp(tok, "-") == 0)
			v = -1;
		else if (parse_int(tok, f->type == FT_CLOCK ? 0 : f->lo, f->hi, &v))
			return -1;
		if (f->code == 'S')
			*(int *)(void *)base = (int)v;
		else
			*(int64_t *)(void *)base = v;
		return 0;
	}
	case FT_ENUM: {
		int v = enum_parse(f->names, tok);
		if (v < 0)
			return -1;
		*(int *)(void *)base = v;
		return 0;
	}
	case FT_RULE:
		return rule_parse(tok, &m->rule) == 0 ? 0 : -1;
	case FT_TC:
		return proto_tc_parse(tok, &m->tc_base, &m->tc_inc);
	case FT_MOVE:
		if (!move_ok(tok))
			return -1;
		memcpy(m->move, tok, n + 1);
		return 0;
	case FT_MOVEOPT:
		if (strcmp(tok, "-") == 0)
			return 0;
		if (!move_ok(tok))
			return -1;
		memcpy(base, tok, n + 1);
		return 0;
	case FT_VALS:
		m->nvals = 0;
		for (char *s = tok;;) {
			char *comma = strchr(s, ',');
			int64_t v;
			if (comma)
				*comma = '\0';
			if (m->nvals >= PROTO_VALS_MAX || parse_int(s, f->lo, f->hi, &v))
				return -1;
			m->vals[m->nvals++] = (int16_t)v;
			if (!comma)
				return 0;
			s = comma + 1;
		}
	case FT_LIST: {
		m->nmoves = 0;
		if (strcmp(tok, "-") == 0)
			return 0;
		for (char *s = tok;;) {
			char *comma = strchr(s, ',');
			if (comma)
				*comma = '\0';
			if (m->nmoves >= PROTO_LIST_MAX || !move_ok(s))
				return -1;
			strcpy(m->moves[m->nmoves++], s);
			if (!comma)
				return 0;
			s = comma + 1;
		}
	}
	case FT_CANDS:
		m->ncands = 0;
		for (char *s = tok;;) {
			char *comma = strchr(s, ',');
			if (comma)
				*comma = '\0';
			char *colon = strchr(s, ':');
			int64_t v;
			if (!colon || m->ncands >= PROTO_CANDS_MAX)
				return -1;
			*colon = '\0';
			if (!move_ok(s) || parse_int(colon + 1, -1000000000, 1000000000, &v))
				return -1;
			strcpy(m->cands[m->ncands].move, s);
			m->cands[m->ncands++].score = (int32_t)v;
			if (!comma)
				return 0;
			s = comma + 1;
		}
	case FT_RATING: {
		proto_rating_t *r = (proto_rating_t *)(void *)base;
		if (strcmp(tok, "-") == 0) {
			r->value = -1;
			return 0;
		}
		if (n > 1 && tok[n - 1] == '?') {
			r->provisional = 1;
			tok[n - 1] = '\0';
		}
		return parse_int(tok, f->lo, f->hi, &r->value);
	}
	case FT_TEXT:
		break;
	}
	return -1;
}

/* Whether an optional field holds a value worth writing. */
static int
field_present(const struct field *f, const proto_msg_t *m)
{
	const char *base = (const char *)m + f->off;
	switch (f->type) {
	case FT_STR:
	case FT_TEXT:
		return base[0] != '\0';
	case FT_LIST:
		return m->nmoves > 0;
	case FT_INT:
		return *(const int64_t *)(const void *)base != 0;
	case FT_LEVEL:
		return m->level != 0 || m->engine[0];
	case FT_ENUM: /* an optional keyword's first value is its default */
		return *(const int *)(const void *)base != 0;
	default:
		return 1;
	}
}

struct out {
	char *buf;
	size_t cap, pos;
	int err;
};

static void
put(struct out *o, const char *s)
{
	size_t n = strlen(s);
	if (o->err || o->pos + n >= o->cap) {
		o->err = 1;
		return;
	}
	memcpy(o->buf + o->pos, s, n + 1);
	o->pos += n;
}

static void
putf(struct out *o, const char *fmt, long long v)
{
	char tmp[32];
	snprintf(tmp, sizeof tmp, fmt, v);
	put(o, tmp);
}

/* Writes one field (with its leading space). Sets o->err if it is invalid. */
static void
field_format(const struct field *f, proto_kind_t kind, const proto_msg_t *m, struct out *o)
{
	const char *base = (const char *)m + f->off;
	put(o, " ");
	switch (f->type) {
	case FT_STR: {
		size_t n = strnlen(base, (size_t)f->hi + 1);
		if (n == 0 && dash_ok(f, kind)) {
			put(o, "-");
			return;
		}
		if ((int64_t)n < f->lo || (int64_t)n > f->hi || !in_set(f->cs, base))
			o->err = 1;
		put(o, base);
		return;
	}
	case FT_LEVEL:
		if (m->engine[0])
			put(o, m->engine);
		else if (m->level < f->lo || m->level > f->hi)
			o->err = 1;
		else
			putf(o, "%lld", (long long)m->level);
		return;
	case FT_INT:
	case FT_CLOCK: {
		int64_t v = f->code == 'S' ? *(const int *)(const void *)base
					   : *(const int64_t *)(const void *)base;
		if (v < f->lo || v > f->hi)
			o->err = 1;
		else if (v == -1 && f->type == FT_CLOCK)
			put(o, "-");
		else
			putf(o, "%lld", (long long)v);
		return;
	}
	case FT_ENUM: {
		int v = *(const int *)(const void *)base;
		if (v < 0 || v >= enum_count(f->names))
			o->err = 1;
		else
			put(o, f->names[v]);
		return;
	}
	case FT_RULE:
		if ((unsigned)m->rule > RULE_RENJU)
			o->err = 1;
		else
			put(o, rule_name(m->rule));
		return;
	case FT_TC:
		if (m->tc_base == 0 && m->tc_inc == 0) {
			put(o, "none");
		} else if (m->tc_base < 1 || m->tc_base > PROTO_TC_BASE_MAX || m->tc_inc < 0 ||
		    m->tc_inc > PROTO_TC_INC_MAX) {
			o->err = 1;
		} else {
			putf(o, "%lld", m->tc_base);
			putf(o, "+%lld", m->tc_inc);
		}
		return;
	case FT_MOVE:
		if (!move_ok(m->move))
			o->err = 1;
		put(o, m->move);
		return;
	case FT_LIST:
		if (m->nmoves < 0 || m->nmoves > PROTO_LIST_MAX) {
			o->err = 1;
			return;
		}
		if (m->nmoves == 0)
			put(o, "-");
		for (int i = 0; i < m->nmoves; i++) {
			if (!move_ok(m->moves[i]))
				o->err = 1;
			if (i)
				put(o, ",");
			put(o, m->moves[i]);
		}
		return;
	case FT_MOVEOPT:
		if (!base[0])
			put(o, "-");
		else if (!move_ok(base))
			o->err = 1;
		else
			put(o, base);
		return;
	case FT_VALS:
		if (m->nvals < 1 || m->nvals > PROTO_VALS_MAX) {
			o->err = 1;
			return;
		}
		for (int i = 0; i < m->nvals; i++) {
			if (m->vals[i] < f->lo || m->vals[i] > f->hi)
				o->err = 1;
			putf(o, i ? ",%lld" : "%lld", m->vals[i]);
		}
		return;
	case FT_CANDS:
		if (m->ncands < 1 || m->ncands > PROTO_CANDS_MAX) {
			o->err = 1;
			return;
		}
		for (int i = 0; i < m->ncands; i++) {
			int32_t s = m->cands[i].score;
			if (!move_ok(m->cands[i].move) || s < -1000000000 || s > 1000000000)
				o->err = 1;
			if (i)
				put(o, ",");
			put(o, m->cands[i].move);
			putf(o, ":%lld", s);
		}
		return;
	case FT_RATING: {
		const proto_rating_t *r = (const proto_rating_t *)(const void *)base;
		if (r->value == -1) {
			put(o, "-");
		} else if (r->value < f->lo || r->value > f->hi) {
			o->err = 1;
		} else {
			putf(o, "%lld", (long long)r->value);
			if (r->provisional)
				put(o, "?");
		}
		return;
	}
	case FT_TEXT: {
		size_t n = strnlen(m->text, sizeof m->text);
		if (n > PROTO_TEXT_MAX || m->text[0] == ' ' || !proto_utf8_ok(m->text, n))
			o->err = 1;
		put(o, m->text);
		return;
	}
	}
}

static void
errmsg(char *errtext, size_t errlen, const char *fmt, const char *arg)
{
	if (errtext && errlen)
		snprintf(errtext, errlen, fmt, arg);
}

/* The next space-separated token, NUL-terminated in place; NULL at the end. */
static char *
next_token(char **p)
{
	char *s = *p;
	while (*s == ' ')
		s++;
	if (*s == '\0') {
		*p = s;
		return NULL;
	}
	char *t = s;
	while (*s && *s != ' ')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return t;
}

static proto_id_t
find_form(proto_kind_t kind, const char *name, int ci)
{
	for (int i = PM_NONE + 1; i < PM_COUNT; i++) {
		if (forms[i].kind != kind)
			continue;
		if (ci ? strcasecmp(forms[i].name, name) == 0 : strcmp(forms[i].name, name) == 0)
			return (proto_id_t)i;
	}
	return PM_NONE;
}

int
proto_parse(const char *line, size_t len, int from, proto_msg_t *m, char *errtext, size_t errlen)
{
	char b[PROTO_LINE_MAX];
	memset(m, 0, sizeof *m);
	if (errtext && errlen)
		errtext[0] = '\0';
	if (len + 1 > PROTO_LINE_MAX) {
		errmsg(errtext, errlen, "lines are at most %s bytes", "512");
		return ERR_TOO_LONG;
	}
	if (len && line[len - 1] == '\r')
		len--;
	memcpy(b, line, len);
	b[len] = '\0';
	if (memchr(line, '\0', len)) {
		errmsg(errtext, errlen, "%s", "NUL byte in line");
		return ERR_SYNTAX;
	}

	char *p = b;
	char *tok = next_token(&p);
	proto_kind_t kind = PK_REQ;
	if (from == PROTO_SERVER) {
		if (!tok) {
			errmsg(errtext, errlen, "%s", "empty line");
			return ERR_SYNTAX;
		}
		if (strcmp(tok, "OK") == 0)
			kind = PK_OK;
		else if (strcmp(tok, "ERR") == 0)
			kind = PK_ERR;
		else if (strcmp(tok, "=") == 0)
			kind = PK_DATA;
		else if (strcmp(tok, "*") == 0)
			kind = PK_EVENT;
		else {
			errmsg(errtext, errlen, "unknown line type %.16s", tok);
			return ERR_SYNTAX;
		}
		tok = next_token(&p);
	}
	/* the tag: first in a request, after OK or ERR in a reply */
	if (tok && tok[0] == '#' && (kind == PK_REQ || kind == PK_OK || kind == PK_ERR)) {
		if (!tag_ok(tok + 1)) {
			errmsg(errtext, errlen, "%s", "bad tag");
			return ERR_SYNTAX;
		}
		strcpy(m->tag, tok + 1);
		tok = next_token(&p);
	}
	/* only free text may hold bytes outside printable ASCII */
	if (!proto_utf8_ok(p, strlen(p)) || (tok && !proto_utf8_ok(tok, strlen(tok)))) {
		errmsg(errtext, errlen, "%s", "not UTF-8 text");
		return ERR_UTF8;
	}

	proto_id_t id = PX_ERR;
	char *pending = NULL; /* a token read but not yet used by a field */
	if (kind == PK_ERR) {
		pending = tok;
	} else {
		if (!tok) {
			errmsg(errtext, errlen, "%s", "empty line");
			return ERR_SYNTAX;
		}
		id = find_form(kind, tok, kind == PK_REQ);
		if (id == PM_NONE) {
			errmsg(errtext, errlen, "unknown command %.16s", tok);
			return ERR_UNKNOWN;
		}
		if (forms[id].sub) {
			char *sub = next_token(&p);
			id = PM_NONE;
			for (int i = PM_NONE + 1; sub && i < PM_COUNT; i++)
				if (forms[i].kind == kind && forms[i].sub &&
				    strcasecmp(forms[i].name, tok) == 0 &&
				    strcasecmp(forms[i].sub, sub) == 0)
					id = (proto_id_t)i;
			if (id == PM_NONE) {
				errmsg(errtext, errlen, "%s",
				    strcasecmp(tok, "BOT") == 0
					? "BOT needs play or seat"
					: "OPENING needs place, colour, declare, offer, choose or "
					  "branch");
				return ERR_SYNTAX;
			}
		}
	}
	m->id = id;

	/* the count of fields first: a line with too few or too many is 400
	 * whatever their values; a field of the wrong form is 402 only in a
	 * line whose count is right (the first such field is named) */
	int optional = 0, bad = 0;
	for (const char *s = forms[id].schema; *s; s++) {
		if (*s == '|') {
			optional = 1;
			continue;
		}
		const struct field *f = field_of(*s);
		if (f->type == FT_TEXT) {
			while (*p == ' ')
				p++;
			size_t n = strlen(p);
			if (n == 0 && !optional) {
				errmsg(errtext, errlen, "missing %s", f->what);
				return ERR_SYNTAX;
			}
			if (n > PROTO_TEXT_MAX) {
				errmsg(errtext, errlen, "%s too long", f->what);
				return ERR_ARGUMENT;
			}
			memcpy(m->text, p, n + 1);
			p += n;
			break;
		}
		tok = pending ? pending : next_token(&p);
		pending = NULL;
		if (!tok) {
			if (optional)
				break;
			errmsg(errtext, errlen, "missing %s", f->what);
			return ERR_SYNTAX;
		}
		if (!bad && field_parse(f, kind, tok, m)) {
			errmsg(errtext, errlen, "bad %s", f->what);
			bad = 1;
		}
	}
	if (next_token(&p)) {
		errmsg(errtext, errlen, "%s", "too many arguments");
		return ERR_SYNTAX;
	}
	return bad ? ERR_ARGUMENT : 0;
}

int
proto_format(const proto_msg_t *m, char *buf, size_t len)
{
	if (len == 0)
		return -1;
	buf[0] = '\0';
	if (m->id <= PM_NONE || m->id >= PM_COUNT)
		return -1;
	const struct form *fm = &forms[m->id];
	struct out o = { buf, len < PROTO_LINE_MAX ? len : PROTO_LINE_MAX, 0, 0 };
	int tagged = m->tag[0] != '\0';
	if (tagged && (fm->kind == PK_DATA || fm->kind == PK_EVENT || !tag_ok(m->tag)))
		return -1;
	switch (fm->kind) {
	case PK_REQ:
		if (tagged) {
			put(&o, "#");
			put(&o, m->tag);
			put(&o, " ");
		}
		put(&o, fm->name);
		if (fm->sub) {
			put(&o, " ");
			put(&o, fm->sub);
		}
		break;
	case PK_OK:
	case PK_ERR:
		put(&o, fm->kind == PK_OK ? "OK" : "ERR");
		if (tagged) {
			put(&o, " #");
			put(&o, m->tag);
		}
		if (fm->kind == PK_OK) {
			put(&o, " ");
			put(&o, fm->name);
		}
		break;
	case PK_DATA:
	case PK_EVENT:
		put(&o, fm->kind == PK_DATA ? "= " : "* ");
		put(&o, fm->name);
		break;
	}
	int optional = 0;
	for (const char *s = fm->schema; *s; s++) {
		if (*s == '|') {
			optional = 1;
			continue;
		}
		const struct field *f = field_of(*s);
		if (optional && !field_present(f, m))
			break;
		if (f->type == FT_TEXT && m->text[0] == '\0')
			return buf[0] = '\0', -1;
		field_format(f, fm->kind, m, &o);
	}
	put(&o, "\n");
	if (o.err) {
		buf[0] = '\0';
		return -1;
	}
	return (int)o.pos;
}

void
proto_init(proto_msg_t *m, proto_id_t id, const char *tag)
{
	memset(m, 0, sizeof *m);
	m->id = id;
	if (tag)
		snprintf(m->tag, sizeof m->tag, "%s", tag);
}

void
proto_error(proto_msg_t *m, const char *tag, proto_err_t code, const char *text)
{
	proto_init(m, PX_ERR, tag);
	m->ecode = code;
	const char *w = proto_err_word(code);
	snprintf(m->word, sizeof m->word, "%s", w ? w : "error");
	if (text)
		snprintf(m->text, sizeof m->text, "%s", text);
}
