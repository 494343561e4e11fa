/* tclient.h: a small blocking TLS client and daemon launcher for the
 * integration tests of gomokud. Every wait has a timeout, so a broken
 * server fails the test instead of hanging it. */
#ifndef GOMOKUD_TCLIENT_H
#define GOMOKUD_TCLIENT_H

#include <stddef.h>
#include <sys/types.h>

#include <openssl/ssl.h>

struct daemon {
	pid_t pid;
	int port;
	int port6; /* when it also listens on [::1]:0 */
	char dir[128];
	char log[160];
	int exited; /* reaped (by daemon_alive or daemon_stop); status in status */
	int status; /* exit status, or 128 + signal */
};

/* Starts bin with a config file of extra lines in a fresh temp dir
 * (/tmp/gomokud-test.*; tc_mkdtemp), on an ephemeral loopback port. 0 or
 * -1. The daemon is a tc_child. */
int daemon_start(struct daemon *d, const char *bin, const char *conf);
/* The same with a descriptor limit (RLIMIT_NOFILE) for the daemon. */
int daemon_start_nofile(struct daemon *d, const char *bin, const char *conf, int nofile);
/* mkdtemp(tmpl), the directory removed when the process that made it
 * exits or is stopped by SIGTERM, SIGINT or SIGHUP, unless a check failed
 * (tc_keep_tmp) or GOMOKU_KEEP_TMP=1: tmpl, or NULL. */
char *tc_mkdtemp(char *tmpl);
/* The temporary directories stay after the test (its logs to look at):
 * every failed check (check.h) says so. */
void tc_keep_tmp(void);
/* Under tests/pg/test_pg.sh (GOMOKU_PG_URL, GOMOKU_PG_CTL, GOMOKU_PG_DIR
 * set): creates the database name on the test's PostgreSQL, its URL into
 * url: 0; -1 when it could not; 1 when no PostgreSQL is set up. */
int tc_pg_database(const char *name, char *url, size_t n);
/* The same server: tests/pg/pg.sh's what on it (start, stop, pause,
 * resume): 0, or not. */
int tc_pg_ctl(const char *what);
/* A child process of the test's own (a daemon_start does it itself): if it
 * still runs when the test exits, or the test is stopped by SIGTERM,
 * SIGINT or SIGHUP, it is killed (SIGKILL, by its pid) and reaped; then
 * the temporary directories go (tc_mkdtemp) and the test dies of the
 * signal. The first call (or daemon_start, tc_mkdtemp) sets those hooks,
 * leaving a signal the program handles or ignores itself to it, and makes
 * SIGPIPE ignored, so a write to a daemon that died fails as an error. */
void tc_child(pid_t pid);
/* Signals it (unless sig is 0) and waits up to ms for it to exit; returns its
 * exit status (128 + signal when killed), also when it had already exited
 * and was reaped by daemon_alive, or -1. */
int daemon_stop(struct daemon *d, int sig, int ms);
/* Whether the daemon process is still running. */
int daemon_alive(struct daemon *d);
/* gomokuctl (the program bin) on d's control socket (in its state
 * directory) with the arguments argv, NULL-ended: its standard output
 * into out (n bytes, cut there), and its exit status, or -1. */
int tc_ctl(const char *bin, const struct daemon *d, char *out, size_t n, const char *const *argv);
/* Lines of the daemon's log (its stderr) that contain what. */
int daemon_log_count(const struct daemon *d, const char *what);
/* Waits up to ms until more than n lines of the log contain what: the way
 * to wait for a state the daemon logs (count the lines before causing it). */
int daemon_wait_log(const struct daemon *d, const char *what, int n, int ms);

struct tc {
	int fd;
	SSL_CTX *ctx;
	SSL *ssl;
	char buf[16384];
	size_t len;
	char line[1024]; /* the last line read */
	char token[80];  /* GUEST's session token */
	char name[32];
};

/* Connects with TLS to 127.0.0.1:port (port < 0: [::1]:-port); reads the
 * greeting, says HELLO 1 unless hello is 0. hello -1: only the handshake;
 * -2: HELLO over a socket with a small receive buffer (a slow reader). */
struct tc *tc_open(int port, int hello);
/* Connects with TLS offering the ALPN protocols in alpn (wire form: each
 * name after its length byte), the handshake only; small: a small receive
 * buffer. */
struct tc *tc_open_alpn(int port, const unsigned char *alpn, unsigned len, int small);
/* The protocol ALPN chose, or "". */
void tc_alpn(struct tc *c, char *out, size_t n);
/* Exactly n bytes within ms (lines not yet read come first): 0, or -1 on a
 * timeout or close. */
int tc_read_bytes(struct tc *c, void *buf, size_t n, int ms);
/* The same from the local address src (NULL: any; "127.0.0.2", "::1"),
 * writing the npre bytes of pre (a PROXY header, say) before TLS. */
struct tc *tc_open_from(const char *src, int port, const void *pre, size_t npre, int hello);
/* A plain TCP socket to port from src (NULL: any), no TLS; -1 on failure. */
int tc_connect_from(const char *src, int port);
/* Opens, HELLO, GUEST name. */
struct tc *tc_guest(int port, const char *name);
/* A new account name with password on port (REGISTER), its session token
 * in c->token and its name in c->name; NULL, said on stdout, when refused. */
struct tc *tc_account(int port, const char *name, const char *password);
void tc_close(struct tc *c);
void tc_send(struct tc *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tc_send_raw(struct tc *c, const void *data, size_t n);
/* The next line (without LF) within ms, or NULL on timeout or close. */
const char *tc_read(struct tc *c, int ms);
/* Reads lines until one starts with prefix; NULL after ms. Lines skipped
 * are printed when verbose. */
const char *tc_expect(struct tc *c, const char *prefix, int ms);
/* Sends line, then reads until its answer, the first OK or ERR line,
 * each line within ms: that line into out, or "(nothing)". */
void tc_ask(struct tc *c, const char *line, char *out, size_t n, int ms);
/* Whether the server closed the connection within ms. */
int tc_closed(struct tc *c, int ms);
/* SHA-256 of the server certificate, hex. */
void tc_cert_digest(struct tc *c, char out[65]);

/*
 * A game's steps on the wire that the daemon tests share. Each waits up to
 * TC_LINE_MS for a line (check.h's LINE_MS by default) unless it says
 * otherwise, and returns 0, or -1 with what went wrong in tc_why (for the
 * test's own check: CHECK(tc_pair(...) == 0, "%s", tc_why)).
 */
enum { TC_LINE_MS = 3000 };
extern char tc_why[256];

/* b black and w white paired by SEEK on game ("freestyle 15 none") and
 * rating ("casual" or "rated"): b's seek is answered OK SEEK before w
 * seeks; then w is told * START with the room's id (into room, n bytes),
 * b * START of that same room, and w its OK SEEK. */
int tc_pair(struct tc *b, struct tc *w, const char *game, const char *rating, char *room, size_t n);
/* The same, casual, for two new guests bn (black, into *b) and wn (white,
 * into *w) on port; *b or *w is NULL when that guest could not connect. */
int tc_pair_guests(int port, const char *bn, const char *wn, const char *game, struct tc **b,
    struct tc **w, char *room, size_t n);
/* black and white play room to black's five on row 8 (h8 to l8; white
 * a1 to a4): each move answered OK MOVE with its seq, each seen by every
 * watcher (a NULL-ended list; watchers may be NULL) as "* MOVE <room>
 * <seq> <side> <move> ", and white told "* OVER <room> ". */
int tc_play_five(struct tc *black, struct tc *white, const char *room, struct tc *const *watchers);
/* n games on port, paired by tc_pair_guests as <tag>b<i> and <tag>w<i>:
 * black[i] and white[i] in room[i] (24 bytes each), the lines of their
 * start read. 0, or -1 (said). */
int tc_pair_rooms(
    int port, int n, struct tc **black, struct tc **white, char room[][24], const char *tag);
/* Reads c's lines until one starts with "OK MOVE" or "ERR": it, or NULL
 * after ms without one. */
const char *tc_move_answer(struct tc *c, int ms);
/* GET /metrics on 127.0.0.1:port: the value of the sample name, or -1. */
long tc_metric(int port, const char *name);

/*
 * A game against one of the server's bots in room on c, the human's side
 * played here: on each of its turns the next point of the spiral out from
 * the centre (spiral.h) that the server accepts. The caller sets c, room,
 * human_black, renju and the two waits; the rest starts at 0, and moves
 * counts both sides' moves from the game's start (it says whose turn it
 * is).
 */
struct tc_botgame {
	struct tc *c;
	char room[24];
	int human_black; /* the human plays black, else white */
	int renju;       /* a point forbidden to black (434-436) is passed over,
	                    as an occupied one (432) always is */
	int reply_ms;    /* the wait for the answer to the human's move */
	int bot_ms;      /* the wait for each line while the bot is to move */
	int next;        /* the next spiral point to try */
	int moves;       /* both sides' */
	int bot_moves;
	int reasons; /* the bot's moves that said why (a reason after the clocks) */
	int thinks;  /* * THINK previews seen */
	int over;    /* * OVER came: its line in over_line */
	char over_line[160];
};
/* g cleared for a game in room on c from its start, the human black or
 * white; the waits a searching bot needs (20 s for the answer to a move,
 * 30 s for each line while the bot is to move), for the caller to change. */
void tc_bot_init(struct tc_botgame *g, struct tc *c, const char *room, int human_black);
/* The human's move: 0 once one is answered OK MOVE (g->over when it ended
 * the game: * OVER comes before the OK), or when the game was over before
 * it (* OVER, then ERR 440: the bot's last move ended it). */
int tc_bot_human(struct tc_botgame *g);
/* Reads until the bot's move: 1, or 0 when the game is over (* OVER came
 * first, or had come); -1 when nothing came for bot_ms. */
int tc_bot_wait(struct tc_botgame *g);
/* Plays g from whoever is to move to its end (* OVER): 0, or -1. */
int tc_bot_play_out(struct tc_botgame *g);

/* Monotonic milliseconds, for the tests' deadlines. */
long long tc_now_ms(void);
/* A loopback port nobody listens on now, or -1. */
int tc_free_port(void);
/* CPU time (user + system) process pid has used, in ms; -1 when unknown. */
double tc_cpu_ms(pid_t pid);

extern int tc_verbose;

#endif
