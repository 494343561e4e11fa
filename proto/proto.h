/*
 * proto.h: gomokud wire protocol v1 (see proto/PROTOCOL.md), shared by the
 * daemon and the client. One line is one message; proto_parse turns a line
 * into a struct proto_msg (a message id plus validated, typed fields) and
 * proto_format writes the same struct back as a line, so
 * proto_format(proto_parse(line)) == line for every canonical line.
 *
 * Nothing here allocates: a message is a fixed-size value. No globals.
 * Moves stay in their "h8" text form (validated with the rules core's
 * notation_parse against the largest board, and only in the form its
 * notation_format writes: "H8" is refused): the board size that turns them
 * into a cell belongs to the room, not to the protocol.
 */
#ifndef GOMOKU_PROTO_H
#define GOMOKU_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "rules/rules.h"

#define PROTO_VERSION 1

enum {
	PROTO_LINE_MAX = 512, /* bytes per line including the LF */
	PROTO_TAG_MAX = 16,
	PROTO_ROOM_MAX = 16,
	PROTO_NAME_MAX = 20,
	PROTO_CODE_MAX = 32,
	PROTO_TOKEN_MIN = 16,
	PROTO_TOKEN_MAX = 64,
	PROTO_PASS_MAX = 64,
	PROTO_WORD_MAX = 48,
	PROTO_MOVE_MAX = 3,   /* "t20" */
	PROTO_LIST_MAX = 100, /* moves in one list token */
	PROTO_CANDS_MAX = 8,
	PROTO_VALS_MAX = 50,     /* numbers in one = EVAL line */
	PROTO_CHANCE_MAX = 1000, /* a win chance, per mille */
	/* A candidate's score at or past +-(PROTO_SCORE_WIN - 1000) is a
	 * forced win (loss): PROTO_SCORE_WIN - n wins in n plies (section 2). */
	PROTO_SCORE_WIN = 30000,
	PROTO_TEXT_MAX = 400, /* bytes of free text (chat, error text) */
	PROTO_TC_BASE_MAX = 86400,
	PROTO_TC_INC_MAX = 3600,
	PROTO_LEVEL_MAX = 10,
	PROTO_ENGINE_MAX = 16,      /* a hosted engine's name: [a-z][a-z0-9]{0,15} */
	PROTO_TIEBREAK_MAX = 32767, /* a tie-break's value on a = TPLAYER line */
};

/* Every message form, one per row of the table in proto.c. Prefixes say the
 * kind: PR_ request (client to server), PO_ OK reply, PX_ERR error reply,
 * PD_ data line of a multi-line reply, PE_ event. */
typedef enum {
	PM_NONE = 0,
	/* requests */
	PR_HELLO,
	PR_PING,
	PR_GUEST,
	PR_REGISTER,
	PR_LOGIN,
	PR_LOGOUT,
	PR_SEEK,
	PR_CANCEL,
	PR_CREATE,
	PR_JOIN,
	PR_WATCH,
	PR_LEAVE,
	PR_ROOMS,
	PR_WHO,
	PR_MOVE,
	PR_SWAP2,
	PR_OPENING_PLACE, /* the opening requests (`openings`, section 5.16) */
	PR_OPENING_COLOUR,
	PR_OPENING_DECLARE,
	PR_OPENING_OFFER,
	PR_OPENING_CHOOSE,
	PR_OPENING_BRANCH,
	PR_RESIGN,
	PR_OFFER,
	PR_ACCEPT,
	PR_DECLINE,
	PR_ABORT,
	PR_CLAIM,
	PR_SAY,
	PR_TELL,
	PR_BOT_PLAY,
	PR_BOT_SEAT,
	PR_STATE,
	PR_RESUME,
	PR_HISTORY,
	PR_EXPORT,
	PR_STATS,
	PR_TOP,
	PR_KICK,
	PR_BAN,
	PR_UNBAN,
	PR_BANS,
	PR_MUTE,
	PR_UNMUTE,
	PR_ANNOUNCE,
	PR_MOTD,
	PR_FORBIDDEN,
	PR_SEEKS,
	PR_CHALLENGE,
	PR_ANSWER,
	PR_TAKE,
	PR_AUTH,
	PR_REMEMBER,
	PR_POSITION,
	PR_ANALYSE,
	PR_REVIEW,
	PR_MARKS,
	PR_PUZZLE,
	PR_SOLVE,
	PR_TLIST,
	PR_TCREATE,
	PR_TWATCH,
	PR_TUNWATCH,
	PR_TJOIN,
	PR_TLEAVE,
	PR_TBOT,
	PR_TCANCEL,
	PR_BOTUPGRADE, /* a bot token makes the account a bot (`botaccounts`) */
	PR_TOPBOTS,    /* the bot accounts' leaderboard (`botaccounts`) */
	PR_SET,        /* a player's setting: SET bot-challenges yes|no (`botaccounts`) */
	PR_SETTINGS,   /* the player's settings, = SET lines */
	PR_LEAGUES,    /* the engine leagues (`league`) */
	PR_LEAGUE,     /* a league's table */
	PR_QUIT,
	/* OK replies */
	PO_HELLO,
	PO_PING,
	PO_GUEST,
	PO_REGISTER,
	PO_LOGIN,
	PO_LOGOUT,
	PO_SEEK,
	PO_CANCEL,
	PO_CREATE,
	PO_JOIN,
	PO_WATCH,
	PO_LEAVE,
	PO_ROOMS,
	PO_WHO,
	PO_MOVE,
	PO_SWAP2,
	PO_OPENING,
	PO_RESIGN,
	PO_OFFER,
	PO_ACCEPT,
	PO_DECLINE,
	PO_ABORT,
	PO_CLAIM,
	PO_SAY,
	PO_TELL,
	PO_BOT,
	PO_STATE,
	PO_RESUME,
	PO_HISTORY,
	PO_EXPORT,
	PO_STATS,
	PO_TOP,
	PO_KICK,
	PO_BAN,
	PO_UNBAN,
	PO_BANS,
	PO_MUTE,
	PO_UNMUTE,
	PO_ANNOUNCE,
	PO_MOTD,
	PO_FORBIDDEN,
	PO_SEEKS,
	PO_CHALLENGE,
	PO_ANSWER,
	PO_TAKE,
	PO_AUTH,
	PO_REMEMBER,
	PO_POSITION,
	PO_ANALYSE,
	PO_REVIEW,
	PO_MARKS,
	PO_PUZZLE,
	PO_SOLVE,
	PO_TLIST,
	PO_TCREATE,
	PO_TWATCH,
	PO_TUNWATCH,
	PO_TJOIN,
	PO_TLEAVE,
	PO_TBOT,
	PO_TCANCEL,
	PO_BOTUPGRADE,
	PO_TOPBOTS,
	PO_SET,
	PO_SETTINGS,
	PO_LEAGUES,
	PO_LEAGUE,
	PO_QUIT,
	/* error reply */
	PX_ERR,
	/* data lines */
	PD_ROOM,
	PD_CLOCK,
	PD_MOVES,
	PD_SEAT,
	PD_OFFER,
	PD_SWAP2,
	PD_OPENING, /* an opening rule's stage, in a snapshot (`openings`) */
	PD_RESULT,
	PD_USER,
	PD_GAME,
	PD_RECORD,
	PD_STAT,
	PD_BAN,
	PD_FORBIDDEN,
	PD_SEEK,
	PD_SAY,     /* a kept line of chat in a snapshot (`chatlog`) */
	PD_CODE,    /* a private room's invite code, in its snapshot (`away`) */
	PD_RATINGS, /* both players' ratings in a snapshot (`ratings`) */
	PD_EVAL,    /* a review's win chances (`review`) */
	PD_MARK,    /* a review's mark on a move (`review`) */
	PD_TOURNEY, /* a tournament (`tournaments`) */
	PD_TPLAYER, /* a tournament's player, in standings order */
	PD_TGAME,   /* a tournament's pairing and its result */
	PD_BOT,     /* the next = USER (or = STAT) lines are a bot's (`botaccounts`) */
	PD_SET,     /* a setting and its value (SETTINGS) */
	PD_KINDS,   /* whether each player is a person or a bot, in a snapshot */
	PD_LEAGUE,  /* an engine league (`league`) */
	PD_LRATING, /* a player of a league's table, best first */
	/* events */
	PE_SERVER,
	PE_START,
	PE_SWAP2,
	PE_COLOURS,
	PE_OPENING, /* an opening rule's stage and who acts (`openings`) */
	PE_MOVE,
	PE_UNDO,
	PE_OFFER,
	PE_OFFEREND,
	PE_SAY,
	PE_TELL,
	PE_PRESENCE,
	PE_THINK,
	PE_OVER,
	PE_SHUTDOWN,
	PE_MOTD,
	PE_ANNOUNCE,
	PE_KICKED,
	PE_BYE,
	PE_SEATED,
	PE_CHALLENGE,
	PE_CHALLENGEEND,
	PE_MOVED,
	PE_CLOSED,    /* a private room closed before its game (`away`) */
	PE_RATINGS,   /* both players' ratings, right after * START (`ratings`) */
	PE_RATED,     /* the ratings a game changed, right after its * OVER */
	PE_REVIEWING, /* a review's progress (`review`) */
	PE_REVIEWED,  /* a review stored, or failed */
	PE_TOURNEY,   /* a tournament watched changed state or round */
	PE_TPLAYER,   /* a player's standing changed (at most once a second) */
	PE_TGAME,     /* a pairing made, or its result */
	PE_KINDS,     /* each player a person or a bot, after * START (`botaccounts`) */
	PM_COUNT
} proto_id_t;

typedef enum { PK_REQ, PK_OK, PK_ERR, PK_DATA, PK_EVENT } proto_kind_t;

typedef enum { COLOUR_BLACK, COLOUR_WHITE, COLOUR_ANY } proto_colour_t;
/* The opening rules' tokens (section 2); the order is the protocol's own. */
typedef enum {
	OPENING_NONE,
	OPENING_SWAP2,
	OPENING_SWAP,
	OPENING_PRO,
	OPENING_LONGPRO,
	OPENING_RIF,
	OPENING_YAMAGUCHI,
	OPENING_SOOSORV8,
	OPENING_TARAGUCHI10,
} proto_opening_t;
/* What an opening rule waits for (`* OPENING`, section 5.16). */
typedef enum {
	OSTAGE_WIRE_PLACE,
	OSTAGE_WIRE_SWAP,
	OSTAGE_WIRE_SWAP_OR_PLACE,
	OSTAGE_WIRE_DECLARE,
	OSTAGE_WIRE_OFFER,
	OSTAGE_WIRE_CHOOSE,
	OSTAGE_WIRE_BRANCH,
} proto_ostage_t;
/* Where an opening stage's stone may go (`* OPENING`): "-" none. */
typedef enum {
	OAREA_WIRE_NONE,
	OAREA_WIRE_ANY,
	OAREA_WIRE_CENTRE,
	OAREA_WIRE_IN3,
	OAREA_WIRE_IN5,
	OAREA_WIRE_IN7,
	OAREA_WIRE_IN9,
	OAREA_WIRE_OUT5,
	OAREA_WIRE_OUT7,
	OAREA_WIRE_OFFERS,
} proto_oarea_t;
/* The canonical renju opening on the board: "-" none, then d1..d13 and
 * i1..i13 (section 5.16). */
enum { PROTO_CANON_NONE = 0, PROTO_CANONS = 26 };
/* OPENING colour: the colour the actor takes. */
typedef enum { TAKE_BLACK, TAKE_WHITE } proto_take_t;
/* OPENING branch: Taraguchi-10's choice after the fourth move. */
typedef enum { BRANCH_ONE, BRANCH_TEN } proto_branch_t;
typedef enum { OFFER_DRAW, OFFER_UNDO, OFFER_REMATCH } proto_offer_t;
/* SWAP2 request: put more stones, or take a colour. */
typedef enum { CHOICE_PUT, CHOICE_BLACK, CHOICE_WHITE } proto_choice_t;
/* Swap2 stage: who must do what next. */
typedef enum { STAGE_PUT3, STAGE_CHOOSE, STAGE_PUT2, STAGE_CHOOSE2 } proto_stage_t;
typedef enum { RES_BLACK, RES_WHITE, RES_DRAW, RES_NONE } proto_result_t;
typedef enum {
	REASON_FIVE,
	REASON_RESIGN,
	REASON_TIME,
	REASON_FORBIDDEN,
	REASON_DRAW_AGREED,
	REASON_BOARD_FULL,
	REASON_ABANDONED,
	REASON_ABORTED
} proto_reason_t;
typedef enum { PRES_GONE, PRES_BACK, PRES_JOINED, PRES_LEFT, PRES_HERE } proto_presence_t;
typedef enum { ROOM_WAITING, ROOM_OPENING, ROOM_PLAYING, ROOM_OVER } proto_status_t;
typedef enum { SIDE_BLACK, SIDE_WHITE, SIDE_NONE } proto_side_t;
typedef enum { END_ACCEPTED, END_DECLINED, END_WITHDRAWN, END_EXPIRED } proto_end_t;
typedef enum { USER_IDLE, USER_SEEKING, USER_PLAYING, USER_WATCHING } proto_ustate_t;
/* SEEK: whether a bot may take the seat after the server's wait. */
typedef enum { FALLBACK_HUMAN, FALLBACK_BOT } proto_fallback_t;
typedef enum { EXPORT_TEXT, EXPORT_PSQ } proto_export_t;
typedef enum { RATING_ESTABLISHED, RATING_PROVISIONAL } proto_provisional_t;
/* = BAN lines: a ban (no play) or a mute (no chat). */
typedef enum { SANCTION_BAN, SANCTION_MUTE } proto_sanction_t;
/* ANSWER to a challenge. */
typedef enum { ANSWER_ACCEPT, ANSWER_DECLINE } proto_answer_t;
/* A review's mark (= MARK, section 5.19). */
typedef enum { MARK_MISSED_WIN, MARK_BLUNDER, MARK_TURNING } proto_mark_t;
/* * REVIEWED: stored, or it could not be made. */
typedef enum { REVIEWED_OK, REVIEWED_FAILED } proto_reviewed_t;
/* A puzzle's class (OK PUZZLE), and where a SOLVE leaves it. */
typedef enum { PCLASS_VCF, PCLASS_VCT } proto_pclass_t;
typedef enum { SOLVE_MORE, SOLVE_SOLVED, SOLVE_FAILED } proto_solve_t;
/* Tournaments (section 5.21): the kind, its state, who may enter, a
 * pairing's result ("first" is the role the opening rule gives first), and
 * a player's status. */
typedef enum { TKIND_ARENA, TKIND_SWISS, TKIND_ROBIN } proto_tkind_t;
typedef enum { TSTATE_SOON, TSTATE_RUNNING, TSTATE_OVER, TSTATE_CANCELLED } proto_tstate_t;
typedef enum { ENTRANTS_PEOPLE, ENTRANTS_BOTS, ENTRANTS_BOTH } proto_entrants_t;
typedef enum {
	TRES_PENDING,
	TRES_FIRST,
	TRES_SECOND,
	TRES_DRAW,
	TRES_FIRST_FORFEIT,
	TRES_SECOND_FORFEIT,
	TRES_BOTH_FORFEIT,
	TRES_BYE
} proto_tresult_t;
typedef enum { TSTATUS_ACTIVE, TSTATUS_PLAYING, TSTATUS_WITHDRAWN } proto_tstatus_t;

/* Error codes: stable numbers; each has one reason word (proto_err_word). */
typedef enum {
	ERR_SYNTAX = 400,      /* malformed line */
	ERR_UNKNOWN = 401,     /* unknown command */
	ERR_ARGUMENT = 402,    /* a field out of range or of the wrong form */
	ERR_TOO_LONG = 403,    /* line over 512 bytes; the connection closes */
	ERR_UTF8 = 404,        /* text is not valid UTF-8 */
	ERR_HELLO_FIRST = 405, /* HELLO must come first */
	ERR_VERSION = 406,     /* protocol version mismatch; closes */
	ERR_RATE = 407,        /* rate limit */
	ERR_LOGIN_FIRST = 410, /* GUEST or LOGIN first */
	ERR_LOGGED_IN = 411,   /* already has a name */
	ERR_NAME_TAKEN = 412,
	ERR_CREDENTIALS = 413,
	ERR_BANNED = 414,       /* that name or address is banned */
	ERR_MUTED = 415,        /* SAY, TELL while muted */
	ERR_NOT_ADMIN = 416,    /* a moderation verb from a non-admin */
	ERR_ACCOUNT_ONLY = 417, /* that needs an account: rated play, login tokens */
	ERR_NO_ROOM = 420,
	ERR_NO_USER = 421,
	ERR_NO_CODE = 422,
	ERR_NO_OFFER = 423,
	ERR_NO_SEEK = 424,
	ERR_NOT_PLAYER = 430, /* a spectator or stranger cannot do that */
	ERR_NOT_TURN = 431,
	ERR_OCCUPIED = 432,
	ERR_OFF_BOARD = 433,
	ERR_DOUBLE_THREE = 434,
	ERR_DOUBLE_FOUR = 435,
	ERR_OVERLINE = 436,
	ERR_OUTSIDE_AREA = 437, /* the opening allows no stone there */
	ERR_WRONG_COUNT = 438,  /* a number of fifth-move offers out of range */
	ERR_SYMMETRIC = 439,    /* two fifth-move offers are the same point by symmetry */
	ERR_GAME_OVER = 440,    /* no game in progress in that room */
	ERR_PHASE = 441,        /* not now: e.g. MOVE during the swap2 opening */
	ERR_OFFER_PENDING = 442,
	ERR_TOO_LATE = 443, /* ABORT after both sides moved */
	ERR_ROOM_FULL = 444,
	ERR_BUSY = 445, /* already seeking or seated */
	ERR_NOT_IN_ROOM = 446,
	ERR_NO_CLAIM = 447,       /* the opponent is present or within grace */
	ERR_RESUME = 448,         /* bad token, room or seat */
	ERR_SEEKS = 449,          /* too many open seeks from one address */
	ERR_AWAY = 450,           /* the other player is away: their connection dropped */
	ERR_NOT_OFFERED = 451,    /* a fifth move that was not offered */
	ERR_IN_GAME = 452,        /* no analysis while the asker plays, or of a game under way */
	ERR_OVER_LIMIT = 453,     /* the asker's analyses this hour are used up */
	ERR_PRIVATE_GAME = 454,   /* a private room's game, asked by someone not in it */
	ERR_NOT_REVIEWED = 455,   /* MARKS: no stored review */
	ERR_NO_PUZZLE = 456,      /* PUZZLE: none left for you, or none yet */
	ERR_NO_TOURNEY = 457,     /* no tournament of that id */
	ERR_TOURNEY_CLOSED = 458, /* not now: started, over, full, or not yet running */
	ERR_NOT_ELIGIBLE = 459,   /* that tournament is not open to you (a guest, a bot, ...) */
	ERR_NO_LEAGUE = 460,      /* no engine league of that name */
	ERR_INTERNAL = 500,
	ERR_UNAVAILABLE = 501, /* not available on this server yet */
	ERR_SHUTDOWN = 502,    /* server shutting down */
	ERR_FULL = 503,        /* too many connections; closes */
	ERR_IDLE = 504,        /* idle timeout; closes */
	ERR_SLOW = 505,        /* output queue overflow; closes */
	ERR_SERVER_BUSY = 506, /* no worker free for it now (logins, bots); retry */
	ERR_DRAINING = 507,    /* no new games: the server is draining for a restart */
	ERR_STORE_DOWN = 508,  /* the database cannot be reached: nothing changed; retry */
} proto_err_t;

typedef struct {
	char move[PROTO_MOVE_MAX + 1];
	int32_t score;
} proto_cand_t;

/* A player's rating on a RATINGS line: "1500", "1500?" (provisional) or
 * "-" (none: a guest, an unrated bot). */
typedef struct {
	int64_t value; /* -1: none */
	int provisional;
} proto_rating_t;

/* One message. Only the fields named by the message's form (PROTOCOL.md,
 * and the schema in proto.c) are meaningful; the parser zeroes the rest. */
typedef struct proto_msg {
	proto_id_t id;
	char tag[PROTO_TAG_MAX + 1]; /* client tag without '#', "" if none */
	char room[PROTO_ROOM_MAX + 1];
	char user[PROTO_NAME_MAX + 1]; /* "" prints as "-" (empty seat) */
	char user2[PROTO_NAME_MAX + 1];
	char code[PROTO_CODE_MAX + 1];   /* invite code */
	char token[PROTO_TOKEN_MAX + 1]; /* session token */
	char pass[PROTO_PASS_MAX + 1];
	char word[PROTO_WORD_MAX + 1]; /* agent, reason word, name, ... */
	char word2[PROTO_WORD_MAX + 1];
	char engine[PROTO_ENGINE_MAX + 1]; /* BOT play/seat: a hosted engine, level 0 */
	char move[PROTO_MOVE_MAX + 1];
	char move2[PROTO_MOVE_MAX + 1]; /* a move or "" (prints as "-"): = MARK's better */
	int nmoves;                     /* move list ("-" when empty) */
	char moves[PROTO_LIST_MAX][PROTO_MOVE_MAX + 1];
	int ncands;
	proto_cand_t cands[PROTO_CANDS_MAX];
	int nvals; /* = EVAL's numbers */
	int16_t vals[PROTO_VALS_MAX];
	rule_t rule;
	int size;
	int tc_base, tc_inc; /* seconds; tc_base 0 means "none" */
	proto_colour_t colour;
	int rated; /* 1 rated, 0 casual */
	proto_opening_t opening;
	proto_offer_t offer;
	proto_choice_t choice;
	proto_stage_t stage;
	proto_result_t result;
	proto_reason_t reason;
	proto_presence_t presence;
	proto_status_t status;
	proto_side_t side;
	proto_end_t end;
	proto_ustate_t ustate;
	proto_fallback_t fallback;
	proto_fallback_t kind, kind2; /* KINDS: black's and white's, human|bot */
	proto_export_t format;
	proto_provisional_t provisional;
	proto_sanction_t sanction;
	proto_answer_t answer;
	proto_mark_t mark;
	proto_reviewed_t reviewed;
	proto_pclass_t pclass;
	proto_solve_t solve;
	proto_tkind_t tkind;
	proto_tstate_t tstate;
	proto_entrants_t entrants;
	proto_tresult_t tresult;
	proto_tstatus_t tstatus;
	int64_t round, rounds, rank, points, played, streak; /* tournaments */
	proto_ostage_t ostage;
	proto_oarea_t oarea;
	int canon; /* PROTO_CANON_NONE, or 1 + the opening's index (D1 .. D13, I1 .. I13) */
	proto_take_t take;
	proto_branch_t branch;
	int64_t declared; /* OPENING declare: 1..10 */
	int64_t version, seq, ident, count, count2, level, ecode, ms, depth, plies;
	int64_t bms, wms; /* clocks in ms; -1 prints as "-" */
	int64_t page;     /* HISTORY, TOP: from 1; 0 = absent */
	int64_t rating, deviation, wins, losses, draws;
	int64_t when;                           /* unix seconds */
	proto_rating_t ratings[2];              /* RATINGS: black's, white's */
	int64_t before, after, before2, after2; /* RATED: black's, white's */
	int64_t elo; /* = LRATING: a league's rating, its players' mean 0 */
	char text[PROTO_TEXT_MAX + 1];
} proto_msg_t;

enum { PROTO_SERVER = 1, PROTO_CLIENT = 2 };

/* Parses one line (without its LF; a trailing CR is ignored). from says
 * which side sent it: PROTO_CLIENT accepts only requests, PROTO_SERVER only
 * replies, data and events. Returns 0, or the proto_err_t to answer with; on
 * error out->tag still holds the tag when one could be read, and errtext (if
 * non-NULL) a short explanation. */
int proto_parse(
    const char *line, size_t len, int from, proto_msg_t *out, char *errtext, size_t errlen);

/* Writes m as one line ending in LF. Returns the length, or -1 if a field is
 * invalid or the line would not fit in min(len, PROTO_LINE_MAX) bytes. The
 * buffer always holds a NUL-terminated string when len > 0. */
int proto_format(const proto_msg_t *m, char *buf, size_t len);

/* Starts a message: zeroes it and sets the id (and copies tag if given). */
void proto_init(proto_msg_t *m, proto_id_t id, const char *tag);
/* Fills an ERR reply: code, its reason word, optional text (may be NULL). */
void proto_error(proto_msg_t *m, const char *tag, proto_err_t code, const char *text);

proto_kind_t proto_kind(proto_id_t id);
const char *proto_name(proto_id_t id); /* "MOVE", "BOT", ... */
/* The OK reply form for a request (PR_BOT_SEAT -> PO_BOT), or PM_NONE. */
proto_id_t proto_reply_of(proto_id_t req);
const char *proto_err_word(int code); /* "not-your-turn"; NULL if unknown */
/* Whether the code closes the connection after it is sent. */
int proto_err_fatal(int code);
/* The error for a move the rules core refused. */
proto_err_t proto_err_of_legality(legality_t l);

/* Keyword names of the small enums, for messages and logs. */
const char *proto_colour_name(proto_colour_t c);
const char *proto_opening_name(proto_opening_t o);
const char *proto_offer_name(proto_offer_t o);
const char *proto_reason_name(proto_reason_t r);
const char *proto_result_name(proto_result_t r);

/* Strict UTF-8 (no overlongs, surrogates or code points past U+10FFFF) with
 * no control characters. Returns 1 if s[0..len) is acceptable text. */
int proto_utf8_ok(const char *s, size_t len);
/* Time control "300+5" or "none". Returns 0 or -1. */
int proto_tc_parse(const char *s, int *base, int *inc);

#endif
