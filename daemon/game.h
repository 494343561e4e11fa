/*
 * game.h: the domain of a game the server runs: its settings, status, result
 * and reason. The store keeps these values, so each is pinned: a value never
 * changes meaning, whatever the protocol's enums do; wire.c maps them to the
 * protocol's tokens and codes at the edge.
 */
#ifndef GOMOKUD_GAME_H
#define GOMOKUD_GAME_H

#include "rules/opening.h"
#include "rules/rules.h"

typedef enum {
	GAME_WAITING = 0, /* a private room waits for its second player */
	GAME_OPENING = 1, /* an opening rule's stages are being played (untimed) */
	GAME_PLAYING = 2,
	GAME_OVER = 3,
} game_status_t;

typedef enum {
	GAME_BLACK_WINS = 0,
	GAME_WHITE_WINS = 1,
	GAME_DRAWN = 2,
	GAME_NO_RESULT = 3, /* aborted, or abandoned by both */
} game_result_t;

/* Why a game ended (games.reason in the store). */
typedef enum {
	BY_FIVE = 0,
	BY_RESIGN = 1,
	BY_TIME = 2,
	BY_FORBIDDEN = 3,
	BY_DRAW_AGREED = 4,
	BY_BOARD_FULL = 5,
	BY_ABANDONED = 6,
	BY_ABORTED = 7,
} game_reason_t;

/* How the first stones are placed (games.opening in the store). The rules
 * core's opening machine (rules/opening.h) plays each. */
typedef enum {
	OPEN_FREE = 0, /* black moves first, as usual (renju: on the centre) */
	OPEN_SWAP2 = 1,
	OPEN_SWAP = 2,
	OPEN_PRO = 3,
	OPEN_LONGPRO = 4,
	OPEN_RIF = 5,
	OPEN_YAMAGUCHI = 6,
	OPEN_SOOSORV8 = 7,
	OPEN_TARAGUCHI10 = 8,
} game_opening_t;

/* A player's colour wish. */
typedef enum { WISH_BLACK = 0, WISH_WHITE = 1, WISH_ANY = 2 } game_wish_t;

/* What swap2 waits for: the opener puts three stones, the other chooses a
 * colour or puts two more, and then the opener chooses. */
typedef enum { SWAP2_PUT3 = 0, SWAP2_CHOOSE = 1, SWAP2_CHOOSE2 = 2 } game_stage_t;

/* The offers a player can make, one of each kind pending at a time. */
typedef enum { ASK_DRAW = 0, ASK_UNDO = 1, ASK_REMATCH = 2, ASK_KINDS = 3 } game_offer_t;

_Static_assert(GAME_WAITING == 0 && GAME_OPENING == 1 && GAME_PLAYING == 2 && GAME_OVER == 3,
    "game status values are pinned");
_Static_assert(
    GAME_BLACK_WINS == 0 && GAME_WHITE_WINS == 1 && GAME_DRAWN == 2 && GAME_NO_RESULT == 3,
    "games.result in the store");
_Static_assert(BY_FIVE == 0 && BY_RESIGN == 1 && BY_TIME == 2 && BY_FORBIDDEN == 3 &&
	BY_DRAW_AGREED == 4 && BY_BOARD_FULL == 5 && BY_ABANDONED == 6 && BY_ABORTED == 7,
    "games.reason in the store");
_Static_assert(OPEN_FREE == 0 && OPEN_SWAP2 == 1 && OPEN_SWAP == 2 && OPEN_PRO == 3 &&
	OPEN_LONGPRO == 4 && OPEN_RIF == 5 && OPEN_YAMAGUCHI == 6 && OPEN_SOOSORV8 == 7 &&
	OPEN_TARAGUCHI10 == 8,
    "games.opening in the store");

/* What a game verb (room, lobby, bots) refused, apart from wire codes. */
typedef enum {
	GERR_OK = 0,
	GERR_NOT_PLAYER,  /* not seated in that room */
	GERR_NOT_IN_ROOM, /* neither seated nor watching */
	GERR_NOT_TURN,
	GERR_PHASE,         /* not now: a move during swap2, a rematch mid-game */
	GERR_OVER,          /* no game in progress */
	GERR_OFF_BOARD,     /* not a point of this board */
	GERR_ILLEGAL,       /* the rules core refused the move (its legality says why) */
	GERR_OUTSIDE_AREA,  /* the opening allows no stone there (renju's first: the centre) */
	GERR_ARGUMENT,      /* the request does not fit the game */
	GERR_WRONG_COUNT,   /* an opening: a number of fifth-move offers out of range */
	GERR_SYMMETRIC,     /* an opening: two offers the same point, or the same by symmetry */
	GERR_NOT_OFFERED,   /* an opening: a fifth move that was not offered */
	GERR_OFFER_PENDING, /* one of that kind is already open */
	GERR_NO_OFFER,
	GERR_TOO_LATE, /* abort after both sides moved */
	GERR_BUSY,     /* the player is in another game, seek or too many rooms */
	GERR_NO_CLAIM, /* the opponent is present or within grace */
	GERR_ROOM_FULL,
	GERR_NO_SEEK,
	GERR_TOO_MANY_SEEKS, /* no partner, and the seeker's address has its open seeks */
	GERR_SERVER_BUSY,    /* no worker free for it now: try again */
	GERR_BANNED,         /* that name or address may not play here now */
	GERR_MUTED,          /* may not chat now */
	GERR_NOT_ADMIN,      /* a moderation verb from someone not in admins */
	GERR_NO_USER,        /* no such user (online, or with an account) */
	GERR_DRAINING,       /* no new games: the server drains for a restart */
	GERR_STORE,          /* the store refused the write: nothing changed */
	GERR_STORE_DOWN,     /* the database cannot be reached: nothing changed */
	GERR_FENCED,         /* another node of the cluster owns the game now: nothing changed */
	GERR_NO_ROOM,        /* no such room (on any node) */
	GERR_NO_CODE,        /* no private room has that code (on any node) */
	GERR_UNAVAILABLE,    /* needs the other nodes, which cannot be reached now */
	GERR_AWAY,           /* the other player is away (their connection dropped) */
	GERR_ACCOUNT_ONLY,   /* a rated game for a guest: rated play needs an account */
	GERR_PENDING,        /* not refused: the answer comes after the commit */
	GERR_NOMEM,
} game_err_t;

/* The words of a GERR_ACCOUNT_ONLY refusal (PROTOCOL.md, 417). */
#define GAME_WHY_ACCOUNT_ONLY \
	"rated games need an account: register or log in to play rated, or play casual"

/* The settings shared by SEEK, CREATE, BOT play and rooms. */
struct gamespec {
	rule_t rule;
	int size;
	int tc_base, tc_inc; /* seconds; base 0: no clock */
	game_wish_t colour;
	int rated;
	game_opening_t opening;
};

/* 0; -1 with *why when the settings do not go together (the rules core's
 * opening_combination says). */
int gamespec_check(const struct gamespec *g, const char **why);
/* The rules core's machine for a game's opening rule. */
opening_rule_t game_opening_rule(game_opening_t o);
/* Whether two seeks may be paired. */
int gamespec_compatible(const struct gamespec *a, const struct gamespec *b);

/* The winner's result for a side (STONE_BLACK or STONE_WHITE). */
game_result_t game_win_for(stone_t side);
/* Keywords for logs and game records ("black", "five", "swap2"). */
const char *game_result_name(game_result_t r);
const char *game_reason_name(game_reason_t r);
const char *game_opening_name(game_opening_t o);

#endif
