/*
 * model.h: what the client knows, rebuilt only from the server's lines
 * (events, replies and STATE/WATCH/RESUME snapshots). The renderer reads it;
 * nothing here decides a rule: stones are placed where the server says.
 */
#ifndef GOMOKU_CLIENT_MODEL_H
#define GOMOKU_CLIENT_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "rules/rules.h"
#include "proto/proto.h"

enum {
	MODEL_CHAT_MAX = 64, /* chat/notice lines kept */
	MODEL_CHAT_LEN = 440,
	MODEL_OFFERS_MAX = 4,
	MODEL_KEPT_MAX = 32,    /* kept chat lines read from one snapshot (`chatlog`) */
	MODEL_PENDING_MAX = 64, /* requests awaiting a reply */
	MODEL_ROOMS_MAX = 32,
	MODEL_GAMES_MAX = 64,
	MODEL_RECORD_MAX = 4096,
	MODEL_STATUS_LEN = 480,
	MODEL_LOBBY_MAX = 16,              /* users and seeks shown in the lobby */
	MODEL_STATS_MAX = 8,               /* STAT lines kept from a STATS reply */
	MODEL_TOP_MAX = 20,                /* a TOP page */
	MODEL_FIFTHS_MAX = 10,             /* fifth-move offers of an opening rule */
	MODEL_MARKS_MAX = 64,              /* a review's marks (PROTOCOL.md 5.19: at most 64) */
	MODEL_EVALS_MAX = RULES_CELLS + 1, /* a review's positions: the empty board on */
	MODEL_TOURNEYS_MAX = 48,           /* events a TLIST lists */
	MODEL_TPLAYERS_MAX = 128,          /* a tournament's standings kept */
	MODEL_TGAMES_MAX = 96,             /* its pairings kept (a round's, an arena's) */
	MODEL_TNAME_MAX = 120,             /* bytes of an event's name (the server's limit) */
	MODEL_TIEBREAKS_MAX = 4,           /* a Swiss's: BH-1, BH, median-BH, SB */
	MODEL_BOTS_MAX = 64,               /* names known to be bots */
	MODEL_LEAGUES_MAX = 16,            /* leagues LEAGUES lists */
	MODEL_LRATINGS_MAX = 128,          /* a league's table kept */
};

/* A tournament as = TOURNEY and * TOURNEY say it (`tournaments`,
 * PROTOCOL.md 5.21). */
typedef struct {
	int64_t id;
	proto_tkind_t kind;
	proto_tstate_t state;
	rule_t rule;
	int size, tc_base, tc_inc;
	proto_opening_t opening;
	int rated;
	proto_entrants_t entrants;
	int64_t start; /* unix seconds */
	int length;    /* an arena's minutes, a Swiss's rounds, a round robin's cycles */
	int round;     /* the last round paired (an arena: its pairing waves) */
	int rounds;    /* the rounds it will have, as the server counts them (an arena: 0) */
	int players;
	char creator[PROTO_NAME_MAX + 1]; /* "" the server */
	char name[MODEL_TNAME_MAX + 1];   /* "" none */
} model_tourney_t;

/* A player's line of the standings (= TPLAYER, * TPLAYER), as sent:
 * points in halves (an arena's as it scores them), the kind's tie-breaks
 * in their units (tie-break text: model_tourney_tiebreak). */
typedef struct {
	int rank;
	char user[PROTO_NAME_MAX + 1];
	int rating; /* -1: none */
	int points;
	int ntb;
	int tb[MODEL_TIEBREAKS_MAX];
	int played;
	proto_tstatus_t status;
	int streak;
} model_tplayer_t;

/* A pairing (= TGAME, * TGAME). */
typedef struct {
	int round, board;
	char room[PROTO_ROOM_MAX + 1];                              /* "" while it has none */
	char first[PROTO_NAME_MAX + 1], second[PROTO_NAME_MAX + 1]; /* second "": a bye */
	proto_tresult_t result;
} model_tgame_t;

/* An engine league as LEAGUES lists it (`league`, PROTOCOL.md 5.23). */
typedef struct {
	char name[PROTO_WORD_MAX + 1];
	rule_t rule;
	int size, tc_base, tc_inc;
	int players, games; /* its table's players; its rated games so far */
	int64_t tourney;    /* its current or last event's id (a robin); -1 none yet */
	int64_t next;       /* when the next event starts (unix seconds); -1 while one runs */
} model_league_t;

/* A line of a league's table (= LRATING), best first: Bayesian Elo
 * around the league's mean 0, its 95% error bar below (minus) and above
 * (plus); points in halves. */
typedef struct {
	int rank;
	char player[PROTO_NAME_MAX + 1];
	int elo, minus, plus;
	int games, points, draws;
} model_lrating_t;

/* A review's mark on a move (= MARK, PROTOCOL.md 5.19), as the server
 * sent it: the client phrases it (model_mark_text). */
typedef struct {
	proto_mark_t kind;
	proto_side_t side; /* the mover */
	int ply;           /* the move's number, from 1 */
	char played[PROTO_MOVE_MAX + 1];
	char better[PROTO_MOVE_MAX + 1]; /* "" when the engine had none */
	int before, after;               /* the mover's chance, per mille */
	char reason[PROTO_WORD_MAX + 1]; /* the engine's word for better */
	int nline;                       /* the engine's line, better first */
	char line[PROTO_LIST_MAX][PROTO_MOVE_MAX + 1];
} model_mark_t;

/* Where the review of the game replayed stands. */
typedef enum {
	REVIEW_NONE,    /* nothing asked (no game, or a server without `review`) */
	REVIEW_LOADING, /* MARKS sent */
	REVIEW_ABSENT,  /* the game has no stored review (455): REVIEW makes one */
	REVIEW_RUNNING, /* REVIEW accepted: * REVIEWING counts */
	REVIEW_FAILED,  /* * REVIEWED failed: it may be asked again */
	REVIEW_READY,   /* the stored review read: evals and marks */
	REVIEW_REFUSED, /* MARKS refused otherwise (a private game, playing) */
} model_review_t;

/* Where the puzzle shown stands (`puzzles`, PROTOCOL.md 5.20). */
typedef enum {
	PUZZLE_NONE,    /* none opened */
	PUZZLE_OPEN,    /* the player's move */
	PUZZLE_JUDGING, /* SOLVE sent: the solvers judge the move */
	PUZZLE_SOLVED,  /* the player made five */
	PUZZLE_FAILED,  /* the win is gone: the kept solution is in puzzle_line */
	PUZZLE_GONE,    /* not open on this connection any more (441) */
} model_puzzle_t;

/* A STAT line as a profile or the leaderboard shows it. */
typedef struct {
	char user[PROTO_NAME_MAX + 1];
	rule_t rule;
	int rating, provisional, wins, losses, draws;
} model_stat_t;

/* What model_apply says the caller should do next. */
typedef enum {
	MODEL_OK = 0,
	MODEL_RESYNC, /* a sequence gap or an impossible event: ask for STATE */
	MODEL_FATAL,  /* the server ends the session (fatal ERR, SHUTDOWN) */
} model_rc_t;

typedef struct {
	int64_t id;
	proto_offer_t kind;
	char from[PROTO_NAME_MAX + 1];
} model_offer_t;

typedef struct {
	char room[PROTO_ROOM_MAX + 1];
	proto_status_t status;
	rule_t rule;
	int size, tc_base, tc_inc;
	char black[PROTO_NAME_MAX + 1], white[PROTO_NAME_MAX + 1];
	int64_t spectators, nmoves;
} model_room_t;

typedef struct {
	int64_t id;
	rule_t rule;
	int size;
	char black[PROTO_NAME_MAX + 1], white[PROTO_NAME_MAX + 1];
	proto_result_t result;
	proto_reason_t reason;
	int plies;
} model_game_t;

typedef struct model {
	/* session */
	char server[2 * PROTO_WORD_MAX + 2]; /* "gomokud 0.1.0" */
	char caps[PROTO_TEXT_MAX + 1];       /* capabilities, space separated */
	int hello_done;
	char me[PROTO_NAME_MAX + 1];
	int guest;  /* 1 a guest, 0 an account, -1 not known (a session RESUMEd) */
	int nobots; /* bot-challenges (SETTINGS, SET): 1 refused, 0 taken, -1 not said yet */
	char token[PROTO_TOKEN_MAX + 1];
	int64_t seek_id;                 /* 0 when not seeking */
	int64_t seek_since;              /* when the seek was made (monotonic ms) */
	int seek_bot;                    /* a bot may take the seat after the wait */
	char invite[PROTO_CODE_MAX + 1]; /* code of the private room made */

	int seek_started; /* START came before OK SEEK */
	/* ratings of the players shown, from STATS (0: unknown) */
	int rating[2];
	int provisional[2];
	int rating_before[2]; /* at the end of a rated game: the ratings before it */

	/* the room shown */
	int in_room;
	char room[PROTO_ROOM_MAX + 1];
	int64_t seq;
	proto_status_t status;
	int tc_base, tc_inc;
	proto_opening_t opening;
	int rated;
	char black[PROTO_NAME_MAX + 1], white[PROTO_NAME_MAX + 1];
	int gone[2];           /* per side: connection away */
	int64_t gone_until[2]; /* when its grace ends (monotonic ms) */
	int64_t spectators;
	position_t pos;

	/* clocks: ms at the last server sync, and when that was (ms) */
	int64_t bms, wms, clock_at;

	int noffers;
	model_offer_t offers[MODEL_OFFERS_MAX];
	/* offers a move, an undo or the end cleared, named by the OFFEREND
	 * that follows; who accepted the undo whose UNDO comes next */
	int nlapsed;
	model_offer_t lapsed[MODEL_OFFERS_MAX];
	char undo_by[PROTO_NAME_MAX + 1];
	char fate[MODEL_CHAT_LEN]; /* the last offer's fate, in words */

	int swap2; /* swap2 opening in progress */
	proto_stage_t swap2_stage;
	char swap2_user[PROTO_NAME_MAX + 1];

	/* an opening rule's stage (`openings`: * OPENING, = OPENING), from
	 * START to * COLOURS or the end; the server's words, no rule here */
	int op;                  /* a stage waits for op_user */
	proto_ostage_t op_stage; /* what it waits for */
	char op_user[PROTO_NAME_MAX + 1];
	proto_side_t op_side;  /* the colour op_user holds now (tentative) */
	proto_oarea_t op_area; /* where the stage's stone may go */
	int op_count;          /* declare: the most; else the offers declared */
	int op_canon;          /* the renju opening (PROTO_CANON_NONE, 1..26), kept for the game */
	int op_nfifths;        /* the offered fifth moves, at choose */
	move_t op_fifths[MODEL_FIFTHS_MAX];

	int over; /* a result is known */
	proto_result_t result;
	proto_reason_t reason;
	int ncells;
	move_t cells[RULES_MAX_SIZE];

	/* the bot's preview, valid while think_ply == pos.nmoves */
	char think_bot[PROTO_NAME_MAX + 1];
	int think_ply, think_depth, ncands;
	move_t cands[PROTO_CANDS_MAX];
	int32_t scores[PROTO_CANDS_MAX];
	char reason_text[512]; /* why the bot played its last move */

	/* chat and notices, a ring: line i is chat[(chat_total - 1 - i) % MAX] */
	int chat_total;
	char chat[MODEL_CHAT_MAX][MODEL_CHAT_LEN];
	/* a snapshot's kept chat (`= SAY`), merged into chat at its end */
	int nkept;
	char kept[MODEL_KEPT_MAX][MODEL_CHAT_LEN];

	/* lobby lists and a fetched record */
	int nrooms;
	model_room_t rooms[MODEL_ROOMS_MAX];
	/* who is online and the open seeks (WHO, SEEKS), refreshed in the lobby */
	int nusers, users_fresh;
	struct {
		char name[PROTO_NAME_MAX + 1];
		proto_ustate_t state;
	} users[MODEL_LOBBY_MAX];
	int nseeks, seeks_fresh;
	int64_t seeks_total; /* all open seeks (OK SEEKS' total), the first shown */
	struct {
		int64_t id; /* this node's seek id, for TAKE */
		char user[PROTO_NAME_MAX + 1];
		rule_t rule;
		int size, tc_base, tc_inc;
	} seeks[MODEL_LOBBY_MAX];
	int ngames;
	model_game_t games[MODEL_GAMES_MAX];
	int64_t games_total; /* all finished games, all pages */
	/* the last STATS reply's lines (a profile), and the last TOP page
	 * with its rule (the leaderboard); stats_ready once its reply came */
	int nstats, stats_ready;
	model_stat_t stats[MODEL_STATS_MAX];
	int ntop, top_ready;
	model_stat_t top[MODEL_TOP_MAX];
	size_t record_len;
	char record[MODEL_RECORD_MAX];
	int record_ready;

	/* the engine's review of the game replayed (`review`, section 5.19):
	 * the game is the last one EXPORTed; evals[i] black's chance per mille
	 * in position i (-1: not known), marks by ply */
	int64_t review_id;
	model_review_t review;
	int review_done, review_total; /* * REVIEWING's count */
	int review_plies, nevals;
	int16_t evals[MODEL_EVALS_MAX];
	int nmarks;
	model_mark_t marks[MODEL_MARKS_MAX];

	/* the puzzle shown (`puzzles`, section 5.20): its position as
	 * opened (the first puzzle_start moves of puzzle_pos) and the moves
	 * played since, the player's and the defence's replies */
	model_puzzle_t puzzle;
	int64_t puzzle_id;
	proto_pclass_t puzzle_class;
	int puzzle_plies, puzzle_rating; /* the kept solution's length; the puzzle's rating */
	int puzzle_start;
	position_t puzzle_pos;
	char puzzle_ask[PROTO_WORD_MAX + 1]; /* the last PUZZLE's word: next, daily, an id */
	char puzzle_try[PROTO_MOVE_MAX + 1]; /* the move SOLVE sent, being judged */
	proto_rating_t puzzle_mine;          /* my puzzle rating after it (value -1: unrated) */
	int puzzle_before;                   /* my puzzle rating before it, when known (0: not) */
	int puzzle_known;                    /* my last puzzle rating seen (0: none yet) */
	int puzzle_nline;                    /* failed: the kept solution, from the start */
	char puzzle_line[PROTO_LIST_MAX][PROTO_MOVE_MAX + 1];

	/* the tournaments (`tournaments`, section 5.21): the last TLIST, and
	 * the event followed (TWATCH): its line, its standings best first,
	 * the pairings of its current round (an arena's games, newest last).
	 * tourney.id is 0 while none is shown; tourney_ready once its
	 * snapshot is whole; tourney_resync when the standings lost a player
	 * nobody named (one left before the start): TWATCH again */
	int ntourneys, tlist_fresh, tlist_ready;
	model_tourney_t tourneys[MODEL_TOURNEYS_MAX];
	model_tourney_t tourney;
	int tourney_ready, tourney_resync;
	int ntplayers;
	model_tplayer_t tplayers[MODEL_TPLAYERS_MAX];
	int ntgames;
	model_tgame_t tgames[MODEL_TGAMES_MAX];

	/* the engine league (`league`, section 5.23): the last LEAGUES list,
	 * and the table shown (LEAGUE's reply), best first; league is its
	 * name ("" none yet); league_stale once its event, followed, ended
	 * (* TOURNEY over): the table is asked again */
	int nleagues, leagues_fresh, leagues_ready;
	model_league_t leagues[MODEL_LEAGUES_MAX];
	char league[PROTO_WORD_MAX + 1];
	int league_stale, lratings_fresh;
	int league_refused; /* the last LEAGUE was refused (the status line says why) */
	int nlratings;
	model_lrating_t lratings[MODEL_LRATINGS_MAX];

	/* who is a bot (`botaccounts`, PROTOCOL.md 5.22), by name: a bot
	 * account or the server's own, as WHO's = BOT, a room's KINDS and a
	 * profile's = BOT said it (a KINDS that says human takes it back);
	 * when full, a new name takes the oldest one's place */
	int nbots, bots_next;
	char bots[MODEL_BOTS_MAX][PROTO_NAME_MAX + 1];

	/* the last error or notice, for the status line */
	char status_text[MODEL_STATUS_LEN];
	int status_error;

	/* requests sent and not yet answered, oldest first */
	int npending;
	proto_id_t pending[MODEL_PENDING_MAX];

	int snapshot; /* inside a snapshot reply */
	int shutdown;

	/* a challenge to me waiting for my answer (0: none) */
	int64_t challenge_id;
	char challenge_from[PROTO_NAME_MAX + 1];
} model_t;

void model_init(model_t *m);
/* Call for every request sent, so data lines find their reply. */
void model_sent(model_t *m, proto_id_t req);
/* Applies one parsed server line received at now_ms (monotonic). */
model_rc_t model_apply(model_t *m, const proto_msg_t *msg, int64_t now_ms);
/* Call too for every request sent: a PUZZLE's word and a SOLVE's move
 * are kept for their replies (other requests are ignored). */
void model_puzzle_sent(model_t *m, const proto_msg_t *req);
/* Forget the connection-bound state (pending replies) after a disconnect. */
void model_disconnected(model_t *m);
/* Sets the status line text (printf style). */
void model_status(model_t *m, int error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends a chat/notice line. */
void model_chat(model_t *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The n-th newest chat line (0 = newest), or NULL. */
const char *model_chat_line(const model_t *m, int n);

/* A side's clock in ms now, ticking locally for the side to move; -1 if
 * the game has no clock. */
int64_t model_clock(const model_t *m, stone_t side, int64_t now_ms);
/* The side that is to move, or STONE_EMPTY when nobody is (over, waiting). */
stone_t model_turn(const model_t *m);
/* My colour in the shown game, or STONE_EMPTY when watching. */
stone_t model_my_side(const model_t *m);
/* The fetched record (EXPORT text) as a position; 0, or -1 with err. */
int model_record_position(const model_t *m, position_t *p, char *err, size_t errlen);
/* Whether the server announced capability cap ("accounts", "swap2"...). */
int model_has_cap(const model_t *m, const char *cap);
/* The number of a capability "name=N" (bot-fallback=20); 0 when absent. */
long model_cap_value(const model_t *m, const char *name);
/* The server's hosted engines (capability engines=a,b: PROTOCOL.md 5.10),
 * up to max of them into names; how many. A name that is not of the
 * protocol's form is skipped. */
enum { MODEL_ENGINES_MAX = 8 };
int model_engines(const model_t *m, char names[][PROTO_ENGINE_MAX + 1], int max);
/* Whether cell m is one of the winning cells. */
int model_is_win_cell(const model_t *m, move_t mv);
/* A bot's candidate score (THINK: the bot's view, the side to move at ply)
 * in words for the player: "black +1.2" for my side (the bot's when
 * watching), in hundreds of the engine's points, or "white wins in 3
 * moves" (the winner's moves); the web board's words.js says the same. */
void model_score_text(const model_t *m, int32_t score, int ply, char *buf, size_t len);
/* Candidate rank 1..8 of cell mv in the current preview, or 0. */
int model_cand_rank(const model_t *m, move_t mv);
/* A player's sentence for an error code the server sent in reply to req
 * (the protocol keeps codes; people get words). */
const char *model_error_text(proto_id_t req, int code);
/* Whether an opening stage waits for me. */
int model_opening_mine(const model_t *m);
/* Whether empty point mv lies in the area the opening stage allows (its
 * <area> token: the centre, the central or outer squares, the offered
 * moves; any empty point for `any`); 0 without a stage or a stone to place. */
int model_in_area(const model_t *m, move_t mv);
/* Whether mv is one of the offered fifth moves now. */
int model_is_fifth(const model_t *m, move_t mv);
/* The opening stage in words for the status line: what to do, with the
 * keys when it is mine, who acts when not; "" without a stage. */
void model_opening_text(const model_t *m, char *buf, size_t len);
/* A review's mark in words (the catalogs'), for the player: "Move 8,
 * white: blunder (61% → 0%). Better j9: white wins by fours: j9 k10 l11";
 * arrow is what goes between the chances ("→", or "->" on a terminal
 * without UTF-8). */
void model_mark_text(const model_mark_t *mk, const char *arrow, char *buf, size_t len);
/* A chance per mille as a percent for people: 0 and 100 only for the
 * forced results (0, 1000), any other 1 to 99. */
int model_percent(int permille);
/* Black's chance in words: "Black's win chance: 61%", or who has a forced
 * win; "" when permille < 0 (not known). */
void model_chance_text(int permille, char *buf, size_t len);
/* The review's graph in at most width columns over n positions (evals:
 * black's chance per mille, -1 unknown): one column a position when they
 * fit, else each column the mean of the positions it covers. levels[c] is
 * 0 (white's) to 7 (black's), or -1 with no value. Returns the number of
 * columns (0 when n or width is 0). */
int model_graph(const int16_t *evals, int n, int width, signed char *levels);
/* The column of position p in such a graph of ncols columns over n. */
int model_graph_column(int n, int ncols, int p);

/* The player's puzzle rating after the puzzle shown ended, in words:
 * "Your puzzle rating: ~1523 (+23)" ("~": provisional; the change when
 * the rating before is known), or why it is not rated (a guest; an
 * account's later try); "" while the puzzle is not over. */
void model_puzzle_rating_text(const model_t *m, char *buf, size_t len);
/* The side to move in the puzzle as opened: the one that wins. */
stone_t model_puzzle_side(const model_t *m);

/* Tournaments (`tournaments`, section 5.21). */
/* Rounds in all of a Swiss or round robin (the round robin's by its
 * players now, as the server's Berger tables count them); 0 for an arena. */
int model_tourney_rounds(const model_tourney_t *t);
/* Points as people read them: a Swiss's and a round robin's halved
 * ("2.5", "3"), an arena's as they are. */
void model_tourney_points(proto_tkind_t kind, int points, char *buf, size_t len);
/* Tie-break i of a player of kind in its unit: Buchholz in halves,
 * Sonneborn-Berger in quarters ("6.25"), wins and ratings as they are. */
void model_tourney_tiebreak(proto_tkind_t kind, int i, int value, char *buf, size_t len);
/* The tie-breaks' column heads of kind (the catalogs'), NULL past the
 * last. */
const char *model_tourney_tiebreak_name(proto_tkind_t kind, int i);
/* Standing i's rank: "3", or "3=" when another player shares it. */
void model_tourney_rank(const model_t *m, int i, char *buf, size_t len);
/* The standing of name, or -1. */
int model_tourney_player(const model_t *m, const char *name);
/* Whether I play in the event shown (a player not withdrawn). */
int model_tourney_in(const model_t *m);
/* My pairing among those shown (the newest, an arena's), or -1. */
int model_tourney_mine(const model_t *m);
/* Whether room is a game of the event followed. */
int model_tourney_room(const model_t *m, const char *room);
/* Whether the room I am in is my own game of the event followed: a
 * pairing (= TGAME, * TGAME) naming that room and me. Such a game has
 * no rematch (441) and cannot be aborted (443). */
int model_tourney_my_game(const model_t *m);
/* When t starts or ends, from now (unix seconds): "starts in 4:05"
 * while it counts down, an arena's "12:30 left"; "" otherwise. */
void model_tourney_when(const model_tourney_t *t, int64_t now, char *buf, size_t len);
/* Its state in words for a list: the countdown, "round 2 of 5", an
 * arena's time left, over, cancelled. */
void model_tourney_state_text(const model_tourney_t *t, int64_t now, char *buf, size_t len);
/* A pairing's result in words, with its players' names ("alice won",
 * "bob forfeited", "bye", "playing"). */
void model_tgame_text(const model_tgame_t *g, char *buf, size_t len);
/* Your next game in the event shown, in words: your pairing and its
 * colour, your bye, your result and what comes next, or why there is
 * none (not in it, waiting to be paired, over with your place); now in
 * unix seconds (whether an arena still takes players). */
void model_tourney_next_text(const model_t *m, int64_t now, char *buf, size_t len);

/* The engine league (`league`, section 5.23). */
/* The league named, in the last LEAGUES list, or -1. */
int model_league_index(const model_t *m, const char *name);
/* An Elo around the league's mean, signed: "+112", "-12", "0". */
void model_elo_text(int elo, char *buf, size_t len);
/* Its 95% error bar, above and below: "+28/-35", or "±30" when even
 * ("+-30" with ascii set: a terminal without UTF-8). */
void model_elo_bar(int minus, int plus, int ascii, char *buf, size_t len);

/* Whether the server said name is a bot (a bot account or its own
 * botN): the views mark it wherever the name shows. */
int model_is_bot(const model_t *m, const char *name);

/* The pending offer made to me (not by me), or NULL. */
const model_offer_t *model_offer_to_me(const model_t *m);

#endif
