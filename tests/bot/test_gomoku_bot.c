/*
 * test_gomoku_bot.c: gomoku-bot (issue 49) on a real gomokud, with
 * bin/pbrain-gomoku as its brain, logged in as an account. A test client
 * challenges it and plays whole games to their end, every move of the
 * bot's judged again by the rules core (and accepted by the server, which
 * sends only the moves it accepted); the brain is killed mid-game, and the
 * game goes on with a new one; challenges that fail the filters (a size,
 * an untimed game when only timed ones are wanted, a blocked opponent),
 * or name an opening rule the brain cannot play (rif, swap2 without
 * brain-swap2), are declined; gomoku-bot stopped with SIGTERM mid-game
 * leaves no brain behind and, started again, RESUMEs its game with the
 * token it kept; killed with SIGKILL (its brain dies with it) it does the
 * same; the game then finishes. gomoku-bot talks to the daemon through a
 * TCP relay of the test's, which cuts its connection mid-game: it
 * reconnects after its backoff and RESUMEs, and that game finishes too;
 * gomokud stopped mid-game and started again on its state (the relay
 * pointed at its new port): the bot logs in again, its seat announced, and
 * the game finishes.
 * With brain-swap2 yes it plays swap2 games, opening one and choosing in
 * the other, and renju as black; a brain that answers garbage makes it
 * resign. Every process the test starts is stopped by its pid.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rules/rules.h"
#include "tests/daemon/check.h"
#include "tests/daemon/spiral.h"
#include "tests/daemon/tclient.h"
#include "tests/sanitized.h"

#ifndef GOMOKUD_BIN
#define GOMOKUD_BIN "bin/gomokud"
#endif
#ifndef GOMOKU_BOT
#define GOMOKU_BOT "bin/gomoku-bot"
#endif
#ifndef PBRAIN
#define PBRAIN "bin/pbrain-gomoku"
#endif
#ifndef FIXTURE
#define FIXTURE "build/default-cc/tests/bot/fixture_brain"
#endif

static struct daemon d, d2;
static struct daemon *live = &d; /* d, or d2 after the server's restart */
static char conf_path[256], log_path[256], port_path[256];
static pid_t bot_pid, relay_pid;
static int relay_port;

/*
 * The relay: a child that passes bytes between each connection to its
 * port and a connection of its own to the daemon (TLS goes through it
 * untouched), and closes them all on SIGUSR1, as a network that drops.
 */
static volatile sig_atomic_t relay_cut;

static void
on_usr1(int sig)
{
	(void)sig;
	relay_cut = 1;
}

/* The daemon's port, as the relay reads it at each connection. */
static int
port_put(int port)
{
	char tmp[300];
	snprintf(tmp, sizeof tmp, "%s.tmp", port_path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "%d\n", port);
	return fclose(f) == 0 && rename(tmp, port_path) == 0 ? 0 : -1;
}

static int
port_get(void)
{
	int port = 0;
	FILE *f = fopen(port_path, "r");
	if (f) {
		if (fscanf(f, "%d", &port) != 1)
			port = 0;
		fclose(f);
	}
	return port;
}

static void
relay_run(int lfd)
{
	enum { PAIRS = 8 };
	int fds[PAIRS][2];
	for (int i = 0; i < PAIRS; i++)
		fds[i][0] = fds[i][1] = -1;
	struct sigaction sa = { 0 };
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	for (;;) {
		if (relay_cut) {
			relay_cut = 0;
			for (int i = 0; i < PAIRS; i++)
				for (int k = 0; k < 2; k++)
					if (fds[i][k] >= 0) {
						close(fds[i][k]);
						fds[i][k] = -1;
					}
		}
		struct pollfd pf[1 + 2 * PAIRS];
		int n = 0;
		pf[n++] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		for (int i = 0; i < PAIRS; i++)
			for (int k = 0; k < 2; k++)
				pf[n++] = (struct pollfd){ .fd = fds[i][k], .events = POLLIN };
		if (poll(pf, (nfds_t)n, 100) <= 0)
			continue;
		if (pf[0].revents & POLLIN) {
			int a = accept(lfd, NULL, NULL);
			int b = socket(AF_INET, SOCK_STREAM, 0);
			struct sockaddr_in sin = { .sin_family = AF_INET,
				.sin_port = htons((uint16_t)port_get()) };
			sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
			int slot = -1;
			for (int i = 0; i < PAIRS && slot < 0; i++)
				if (fds[i][0] < 0)
					slot = i;
			if (a < 0 || b < 0 || slot < 0 ||
			    connect(b, (struct sockaddr *)&sin, sizeof sin) != 0) {
				if (a >= 0)
					close(a);
				if (b >= 0)
					close(b);
			} else {
				fds[slot][0] = a;
				fds[slot][1] = b;
			}
		}
		for (int i = 0; i < PAIRS; i++)
			for (int k = 0; k < 2; k++) {
				struct pollfd *p = &pf[1 + 2 * i + k];
				if (p->fd < 0 || !(p->revents & (POLLIN | POLLHUP | POLLERR)) ||
				    fds[i][k] != p->fd)
					continue;
				char buf[16384];
				ssize_t r = read(fds[i][k], buf, sizeof buf);
				ssize_t w = r > 0 ? write(fds[i][1 - k], buf, (size_t)r) : -1;
				if (r <= 0 || w != r) {
					close(fds[i][0]);
					close(fds[i][1]);
					fds[i][0] = fds[i][1] = -1;
				}
			}
	}
}

/* Starts the relay to the daemon's port: 0, or -1. */
static int
relay_start(void)
{
	int lfd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sin = { .sin_family = AF_INET };
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof sin;
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sin, sizeof sin) != 0 || listen(lfd, 8) != 0 ||
	    getsockname(lfd, (struct sockaddr *)&sin, &len) != 0)
		return -1;
	relay_port = ntohs(sin.sin_port);
	snprintf(port_path, sizeof port_path, "%s/daemon.port", d.dir);
	if (port_put(d.port) != 0)
		return -1;
	relay_pid = fork();
	if (relay_pid == 0) {
		relay_run(lfd);
		_exit(0);
	}
	close(lfd);
	if (relay_pid < 0)
		return -1;
	tc_child(relay_pid);
	return 0;
}

/* Lines of the bot's log that hold what. */
static int
log_count(const char *what)
{
	FILE *f = fopen(log_path, "r");
	if (!f)
		return 0;
	char line[2048];
	int n = 0;
	while (fgets(line, sizeof line, f))
		n += strstr(line, what) != NULL;
	fclose(f);
	return n;
}

/* Waits up to ms until more than n lines hold what. */
static int
wait_log(const char *what, int n, int ms)
{
	long long end = tc_now_ms() + ms;
	while (tc_now_ms() < end) {
		if (log_count(what) > n)
			return 1;
		usleep(50000);
	}
	return 0;
}

static pid_t
bot_start(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd >= 0) {
			dup2(fd, 2);
			close(fd);
		}
		execl(GOMOKU_BOT, GOMOKU_BOT, "-v", "-c", conf_path, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		tc_child(pid);
	return pid;
}

/* Stops the bot with sig; its exit status (128 + signal), or -1. */
static int
bot_stop(int sig, int ms)
{
	if (bot_pid <= 0)
		return -1;
	kill(bot_pid, sig);
	long long end = tc_now_ms() + ms;
	int st;
	while (tc_now_ms() < end) {
		pid_t r = waitpid(bot_pid, &st, WNOHANG);
		if (r == bot_pid) {
			bot_pid = 0;
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		}
		usleep(20000);
	}
	kill(bot_pid, SIGKILL);
	waitpid(bot_pid, &st, 0);
	bot_pid = 0;
	return -1;
}

/* The bot's one child, its brain: its pid, or 0. */
static pid_t
brain_of(pid_t bot)
{
	char path[64], buf[256] = "";
	snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)bot, (int)bot);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof buf, f))
		buf[0] = '\0';
	fclose(f);
	return (pid_t)atoi(buf);
}

/* Whether pid runs (a zombie does not). */
static int
running(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

static int
gone_within(pid_t pid, int ms)
{
	long long end = tc_now_ms() + ms;
	while (tc_now_ms() < end) {
		if (!running(pid))
			return 1;
		usleep(20000);
	}
	return 0;
}

/* A game as the test client sees it. */
struct game {
	struct tc *c;
	char room[24];
	int human_black;
	position_t p;
	int bot_moves, illegal;
	int offer_at;       /* after this many bot moves, a draw is offered (0: none) */
	int offered, ended; /* the offer made; its end: 1 declined, 2 otherwise */
	int over;
	char over_line[200];
};

/* The human's next move: the first point of the spiral from the centre
 * that the rules core allows. */
static void
human_move(struct game *g)
{
	static int sp[225][2];
	static int made;
	if (!made) {
		make_spiral(sp);
		made = 1;
	}
	for (int i = 0; i < 225; i++) {
		move_t m = rules_move(sp[i][0], sp[i][1]);
		if (pos_check(&g->p, m) == LEGAL_OK) {
			char mv[4];
			tc_send(g->c, "MOVE %s %s", g->room, notation_format(m, 15, mv));
			return;
		}
	}
}

/* Reads g's lines until the bot has made `until` moves in all (0: until
 * the game's end). 0, or -1 when nothing came for ms. */
static int
play(struct game *g, int until, int ms)
{
	const char *bot = g->human_black ? "white" : "black";
	while (!g->over && (until == 0 || g->bot_moves < until)) {
		if (g->offer_at && g->bot_moves >= g->offer_at && !g->offered) {
			tc_send(g->c, "OFFER %s draw", g->room);
			g->offered = 1;
		}
		const char *l = tc_read(g->c, ms);
		if (!l)
			return -1;
		char room[24], side[8], mv[8];
		if (!strncmp(l, "* OVER ", 7)) {
			snprintf(g->over_line, sizeof g->over_line, "%s", l);
			g->over = 1;
		} else if (sscanf(l, "* MOVE %23s %*s %7s %7s", room, side, mv) == 3 &&
		    !strcmp(room, g->room)) {
			move_t m;
			if (notation_parse(mv, 15, &m) != 0 || pos_check(&g->p, m) != LEGAL_OK) {
				g->illegal++;
				return -1;
			}
			pos_play(&g->p, m);
			if (!strcmp(side, bot))
				g->bot_moves++;
			stone_t next = pos_to_move(&g->p);
			if (g->p.outcome.kind == RESULT_ONGOING &&
			    (next == STONE_BLACK) == (g->human_black != 0))
				human_move(g);
		} else if (sscanf(l, "* OFFEREND %23s", room) == 1 && !strcmp(room, g->room)) {
			g->ended = strstr(l, " declined") ? 1 : 2;
		} else if (!strncmp(l, "ERR", 3)) {
			printf("  the server refused the test's move: %s\n", l);
			return -1;
		}
	}
	return 0;
}

/* c challenges the bot (robo) with the game's settings: the challenge's
 * id; 0 when the challenge was not made. */
static long
challenge(struct tc *c, const char *settings)
{
	tc_send(c, "CHALLENGE robo %s", settings);
	const char *l = tc_expect(c, "OK CHALLENGE ", 5000);
	long id = 0;
	if (!l || sscanf(l, "OK CHALLENGE %ld", &id) != 1)
		return 0;
	return id;
}

/* A game started by a challenge the bot accepts; 0, or -1. */
static int
start_game(struct game *g, struct tc *c, const char *settings, int human_black)
{
	memset(g, 0, sizeof *g);
	g->c = c;
	g->human_black = human_black;
	pos_init(&g->p, RULE_FREESTYLE, 15);
	if (!challenge(c, settings))
		return -1;
	const char *l = tc_expect(c, "* START ", 10000);
	if (!l || sscanf(l, "* START %23s", g->room) != 1)
		return -1;
	if (human_black)
		human_move(g);
	return 0;
}

/* The brain's address-space limit (RLIMIT_AS): none in a sanitizer's
 * build, whose brain maps terabytes of shadow memory at its start and
 * would die of any limit before its first line. */
#define BRAIN_MEMORY (TESTS_SANITIZED ? 0 : 512)

static void
write_conf_brain(const char *brain, const char *extra)
{
	FILE *f = fopen(conf_path, "w");
	if (!f)
		return;
	fprintf(f,
	    "# gomoku-bot for the test\n"
	    "server 127.0.0.1:%d\n"
	    "ca %s/state/cert.pem\n"
	    "name robo\n"
	    "password robo-pass-1\n"
	    "state-file %s/bot.token\n"
	    "brain %s\n"
	    "brain-failures 3\n"
	    "brain-memory %d\n"
	    "turn-ms 300\n"
	    "rules freestyle,standard\n"
	    "sizes 15\n"
	    "%s",
	    relay_port, d.dir, d.dir, brain, BRAIN_MEMORY, extra);
	fclose(f);
}

static void
write_conf(const char *extra)
{
	write_conf_brain(PBRAIN, extra);
}

/* gomoku-bot --check -c path: its exit status, its output into out. */
static int
check_conf(const char *path, char *out, size_t n)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "%s --check -c %s 2>&1", GOMOKU_BOT, path);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	size_t got = fread(out, 1, n - 1, p);
	out[got] = '\0';
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The example config is good; a bad value is named with its line. */
static void
test_check(void)
{
	char out[1024], path[256];
	CHECK(check_conf("bot/gomoku-bot.conf.example", out, sizeof out) == 0,
	    "the example config: %s", out);
	snprintf(path, sizeof path, "%s/bad.conf", d.dir);
	FILE *f = fopen(path, "w");
	REQUIRE(f, "cannot write %s", path);
	fprintf(f, "server 127.0.0.1:1\nname robo\n\nbase-seconds 90-30\n");
	fclose(f);
	CHECK(check_conf(path, out, sizeof out) == 2 && strstr(out, "bad.conf:4: base-seconds"),
	    "a bad config: %s", out);
	/* bot-token: gomokuctl bot token's 32 hex digits, nothing else */
	f = fopen(path, "w");
	REQUIRE(f, "cannot write %s", path);
	fprintf(f, "server 127.0.0.1:1\nname robo\npassword p\nbot-token 0123456789ABCDEF\n");
	fclose(f);
	CHECK(check_conf(path, out, sizeof out) == 2 && strstr(out, "bad.conf:4: bot-token"),
	    "a bad bot-token: %s", out);
	f = fopen(path, "w");
	REQUIRE(f, "cannot write %s", path);
	fprintf(f,
	    "server 127.0.0.1:1\nname robo\npassword p\n"
	    "brain pbrain-gomoku\nbot-token 0123456789abcdef0123456789abcdef\n");
	fclose(f);
	CHECK(check_conf(path, out, sizeof out) == 0, "a good bot-token: %s", out);
	ok("gomoku-bot --check: the example config is good, a bad line is named (a bot-token too)");
}

static void
test_setup(void)
{
	char path[300];
	REQUIRE(daemon_start(&d, GOMOKUD_BIN, "grace 300\n") == 0, "no daemon");
	REQUIRE(relay_start() == 0, "no relay");
	snprintf(conf_path, sizeof conf_path, "%s/bot.conf", d.dir);
	snprintf(log_path, sizeof log_path, "%s/bot.log", d.dir);
	struct tc *c = tc_open(d.port, 1);
	REQUIRE(c, "cannot connect");
	char out[256];
	tc_ask(c, "REGISTER robo robo-pass-1", out, sizeof out, 10000);
	REQUIRE(!strncmp(out, "OK REGISTER robo ", 17), "register: %s", out);
	tc_close(c);
	write_conf("block mallory\n");
	bot_pid = bot_start();
	REQUIRE(bot_pid > 0, "gomoku-bot did not start");
	REQUIRE(wait_log("logged in as robo", 0, 10000), "gomoku-bot did not log in (log %s)",
	    log_path);
	/* -v logs every line, but neither the password nor the session token */
	char token[128] = "";
	snprintf(path, sizeof path, "%s/bot.token", d.dir);
	FILE *t = fopen(path, "r");
	CHECK(t && fgets(token, sizeof token, t), "no token kept in %s", path);
	if (t)
		fclose(t);
	token[strcspn(token, "\n")] = '\0';
	CHECK(strlen(token) >= 16 && log_count(token) == 0, "the session token is in the log");
	struct stat st;
	CHECK(stat(path, &st) == 0 && (st.st_mode & 077) == 0, "the token file is not 0600");
	CHECK(log_count("robo-pass-1") == 0, "the password is in the log");
	ok("gomoku-bot logs in over TLS, the daemon's certificate checked with ca");
}

/* A timed game to its end; the bot's brain is killed at its 3rd move. */
static void
test_whole_game_and_brain_killed(struct tc *c)
{
	long long t0 = tc_now_ms();
	static struct game g;
	REQUIRE(start_game(&g, c, "freestyle 15 60+1 white casual none", 0) == 0,
	    "the bot did not take the challenge (last: %s)", c->line);
	g.offer_at = 1;
	REQUIRE(
	    play(&g, 2, 20000) == 0, "the bot's first moves: %s (illegal %d)", c->line, g.illegal);
	pid_t brain = brain_of(bot_pid);
	REQUIRE(brain > 0, "no brain under gomoku-bot");
	int seen = log_count("brain failure 1 of 3");
	kill(brain, SIGKILL);
	REQUIRE(play(&g, 0, 20000) == 0, "the game did not finish: %s (illegal %d)", c->line,
	    g.illegal);
	CHECK(g.illegal == 0, "an illegal move");
	CHECK(strstr(g.over_line, " five "), "the game did not end by a five: %s", g.over_line);
	CHECK(log_count("brain failure 1 of 3") > seen, "the brain's death was not seen");
	CHECK(!running(brain), "the killed brain still runs");
	CHECK(g.offered && g.ended == 1, "the draw offer was not declined (%d)", g.ended);
	CHECK(wait_log("over: ", 0, 5000), "the bot did not see the end");
	printf("  game %s: %d moves of the bot's, all legal; %s (%lld ms)\n", g.room, g.bot_moves,
	    g.over_line, tc_now_ms() - t0);
	ok("a whole timed game; the brain killed mid-game is restarted and the game finishes; a "
	   "draw offer is declined");
}

/* Each challenge is answered declined. */
static void
test_declined(struct tc *c, struct tc *mallory)
{
	static const struct {
		struct tc **who;
		const char *settings, *why;
	} cases[] = {
		{ NULL, "freestyle 19 none white casual none", "size not accepted" },
		{ NULL, "renju 15 none white casual rif", "opening rule the brain cannot play" },
		{ NULL, "renju 15 none white casual none", "rule not accepted" },
		{ NULL, "freestyle 15 none white casual swap2",
		    "opening rule the brain cannot play" },
		{ NULL, "renju 15 none white casual yamaguchi",
		    "opening rule the brain cannot play" },
		{ NULL, "standard 15 none white casual pro", "opening rule the brain cannot play" },
		{ NULL, "freestyle 15 none white casual none", "opponent blocked" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int last = i == sizeof cases / sizeof cases[0] - 1;
		struct tc *who = last ? mallory : c;
		int before = cases[i].why[0] ? log_count(cases[i].why) : 0;
		long id = challenge(who, cases[i].settings);
		if (!id && strstr(who->line, "ERR 402")) /* a combination the server refuses */
			continue;
		REQUIRE(id, "challenge %s: %s", cases[i].settings, who->line);
		char want[64];
		snprintf(want, sizeof want, "* CHALLENGEEND %ld ", id);
		const char *l = tc_expect(who, want, 5000);
		CHECK(l && strstr(l, "declined"), "%s: not declined: %s", cases[i].settings,
		    who->line);
		if (cases[i].why[0])
			CHECK(log_count(cases[i].why) > before, "%s: the log does not say \"%s\"",
			    cases[i].settings, cases[i].why);
	}
	ok("challenges outside the filters (size, rule, a blocked opponent) and under opening "
	   "rules the brain cannot play (rif, yamaguchi, pro, swap2 undeclared) are declined");
}

/* Stopped with SIGTERM, then SIGKILL, mid-game; restarted each time, it
 * resumes the game, which then finishes. */
static void
test_resume(struct tc *c)
{
	long long t0 = tc_now_ms();
	static struct game g;
	REQUIRE(start_game(&g, c, "freestyle 15 none black casual none", 1) == 0,
	    "the bot did not take the challenge (last: %s)", c->line);
	REQUIRE(play(&g, 2, 20000) == 0, "the first moves: %s", c->line);
	pid_t brain = brain_of(bot_pid);
	REQUIRE(brain > 0, "no brain under gomoku-bot");
	int resumed = log_count("resumed the session");
	CHECK(bot_stop(SIGTERM, 5000) == 0, "gomoku-bot did not exit 0 on SIGTERM");
	CHECK(!running(brain), "the brain outlived gomoku-bot's SIGTERM");
	bot_pid = bot_start();
	REQUIRE(bot_pid > 0, "gomoku-bot did not start again");
	REQUIRE(wait_log("resumed the session", resumed, 10000),
	    "gomoku-bot did not RESUME its session (log %s)", log_path);
	CHECK(wait_log("taken up again", 0, 5000), "the game was not taken up");
	REQUIRE(play(&g, 4, 20000) == 0, "no move after the restart: %s", c->line);

	brain = brain_of(bot_pid);
	REQUIRE(brain > 0, "no brain under the new gomoku-bot");
	resumed = log_count("resumed the session");
	CHECK(bot_stop(SIGKILL, 5000) == 128 + SIGKILL, "gomoku-bot not killed");
	CHECK(gone_within(brain, 3000), "the brain outlived gomoku-bot's SIGKILL");
	bot_pid = bot_start();
	REQUIRE(bot_pid > 0, "gomoku-bot did not start again");
	REQUIRE(wait_log("resumed the session", resumed, 10000),
	    "gomoku-bot did not RESUME after SIGKILL (log %s)", log_path);
	REQUIRE(play(&g, 0, 20000) == 0, "the game did not finish: %s", c->line);
	CHECK(g.illegal == 0, "an illegal move");
	CHECK(strstr(g.over_line, " five "), "not ended by a five: %s", g.over_line);
	printf("  game %s: %d moves of the bot's across two restarts; %s (%lld ms)\n", g.room,
	    g.bot_moves, g.over_line, tc_now_ms() - t0);
	ok("gomoku-bot stopped (SIGTERM: no brain left) or killed mid-game and started again "
	   "RESUMEs its game with its token; the game finishes");
}

/* A swap2 opening with carol, to COLOURS: carol's acts as the test
 * decides them, the bot's from its brain (SWAP2BOARD). 0, or -1. */
static int
swap2_opening(struct game *g, const char **what)
{
	char room[24], stage[16], user[32], side[8], mv[8], black[32];
	for (;;) {
		const char *l = tc_read(g->c, 20000);
		if (!l) {
			*what = "nothing came";
			return -1;
		}
		if (!strncmp(l, "ERR", 3) || !strncmp(l, "* OVER", 6)) {
			*what = l;
			return -1;
		}
		if (sscanf(l, "* SWAP2 %23s %*s %15s %31s", room, stage, user) == 3 &&
		    !strcmp(user, "carol")) {
			if (!strcmp(stage, "put3"))
				tc_send(g->c, "SWAP2 %s put h8,h9,i9", g->room);
			else
				tc_send(g->c, "SWAP2 %s black", g->room);
		} else if (sscanf(l, "* MOVE %23s %*s %7s %7s", room, side, mv) == 3) {
			move_t m;
			if (notation_parse(mv, 15, &m) != 0 || pos_check(&g->p, m) != LEGAL_OK) {
				g->illegal++;
				*what = l;
				return -1;
			}
			pos_play(&g->p, m);
		} else if (sscanf(l, "* COLOURS %23s %*s %31s", room, black) == 2) {
			g->human_black = !strcmp(black, "carol");
			return 0;
		}
	}
}

/* With brain-swap2 yes, swap2 games are taken: the bot opens one and
 * chooses in the other, from its brain's SWAP2BOARD answers. */
static void
test_swap2(struct tc *c)
{
	long long t0 = tc_now_ms();
	write_conf("block mallory\nbrain-swap2 yes\nrules freestyle,standard,renju\n");
	int in = log_count("as robo");
	CHECK(bot_stop(SIGTERM, 5000) == 0, "gomoku-bot did not exit 0 on SIGTERM");
	bot_pid = bot_start();
	REQUIRE(bot_pid > 0, "gomoku-bot did not start again");
	REQUIRE(wait_log("as robo", in, 10000), "gomoku-bot did not log in again");
	static const char *const wish[2] = { "black", "white" }; /* carol opens, then robo */
	for (int i = 0; i < 2; i++) {
		static struct game g;
		memset(&g, 0, sizeof g);
		g.c = c;
		pos_init(&g.p, RULE_FREESTYLE, 15);
		char settings[80];
		snprintf(settings, sizeof settings, "freestyle 15 none %s casual swap2", wish[i]);
		REQUIRE(challenge(c, settings), "challenge %s: %s", settings, c->line);
		const char *l = tc_expect(c, "* START ", 10000);
		REQUIRE(l && sscanf(l, "* START %23s", g.room) == 1, "no start: %s", c->line);
		const char *what = "";
		REQUIRE(
		    swap2_opening(&g, &what) == 0, "the swap2 opening (%s): %s", settings, what);
		int stones = g.p.nmoves;
		if ((pos_to_move(&g.p) == STONE_BLACK) == g.human_black)
			human_move(&g);
		REQUIRE(play(&g, 0, 20000) == 0, "the game did not finish: %s", c->line);
		CHECK(g.illegal == 0, "an illegal move");
		CHECK(strstr(g.over_line, " five "), "not ended by a five: %s", g.over_line);
		printf("  game %s (%s opens): %d stones in the opening, the bot %s; %s\n", g.room,
		    i ? "the bot" : "carol", stones, g.human_black ? "white" : "black",
		    g.over_line);
	}
	printf("  (%lld ms)\n", tc_now_ms() - t0);
	ok("brain-swap2 yes: swap2 games accepted, the bot opening and choosing with its brain");

	/* renju, the bot black: its first stone on the centre, then its
	 * brain's, each judged by renju's rules (no forbidden point) */
	t0 = tc_now_ms();
	static struct game g;
	REQUIRE(start_game(&g, c, "renju 15 none white casual none", 0) == 0,
	    "the bot did not take the renju challenge (last: %s)", c->line);
	pos_init(&g.p, RULE_RENJU, 15);
	REQUIRE(play(&g, 0, 20000) == 0, "the renju game did not finish: %s (illegal %d)", c->line,
	    g.illegal);
	char first[4];
	CHECK(g.p.nmoves > 0 && !strcmp(notation_format(g.p.moves[0], 15, first), "h8"),
	    "renju's first stone not on the centre");
	CHECK(strstr(g.over_line, " five "), "not ended by a five: %s", g.over_line);
	printf("  game %s: renju, %d moves of the bot's (black), all legal; %s (%lld ms)\n", g.room,
	    g.bot_moves, g.over_line, tc_now_ms() - t0);
	ok("renju with the bot black: the centre first, every move legal under renju's rules");
}

/* A brain that answers garbage: after brain-failures 2 the bot resigns. */
static void
test_giveup(struct tc *c)
{
	long long t0 = tc_now_ms();
	write_conf_brain(FIXTURE " garbage", "brain-failures 2\n");
	int in = log_count("as robo");
	CHECK(bot_stop(SIGTERM, 5000) == 0, "gomoku-bot did not exit 0 on SIGTERM");
	bot_pid = bot_start();
	REQUIRE(bot_pid > 0, "gomoku-bot did not start again");
	REQUIRE(wait_log("as robo", in, 10000), "gomoku-bot did not log in again");
	static struct game g;
	REQUIRE(start_game(&g, c, "freestyle 15 none white casual none", 0) == 0,
	    "the bot did not take the challenge (last: %s)", c->line);
	REQUIRE(play(&g, 0, 20000) == 0, "the game did not end: %s", c->line);
	CHECK(strstr(g.over_line, " white resign"), "the bot did not resign: %s", g.over_line);
	CHECK(g.bot_moves == 0, "the garbage brain moved");
	CHECK(log_count("brain failure 2 of 2") >= 1 && log_count("the brain failed too often"),
	    "the log does not say why it resigned");
	printf("  game %s: %s (%lld ms)\n", g.room, g.over_line, tc_now_ms() - t0);
	ok("a brain that answers garbage fails brain-failures times: the bot resigns the game");
}

/* The connection cut mid-game: gomoku-bot reconnects and resumes. */
static void
test_cut(struct tc *c)
{
	long long t0 = tc_now_ms();
	static struct game g;
	REQUIRE(start_game(&g, c, "standard 15 300+2 white casual none", 0) == 0,
	    "the bot did not take the challenge (last: %s)", c->line);
	g.p.rule = RULE_STANDARD;
	REQUIRE(play(&g, 2, 20000) == 0, "the first moves: %s", c->line);
	int down = log_count("disconnected"), resumed = log_count("resumed the session");
	pid_t brain = brain_of(bot_pid);
	kill(relay_pid, SIGUSR1);
	REQUIRE(wait_log("disconnected", down, 5000), "gomoku-bot did not see the cut");
	REQUIRE(wait_log("resumed the session", resumed, 10000),
	    "gomoku-bot did not reconnect and RESUME (log %s)", log_path);
	REQUIRE(play(&g, 0, 20000) == 0, "the game did not finish: %s", c->line);
	CHECK(g.illegal == 0, "an illegal move");
	CHECK(strstr(g.over_line, " five "), "not ended by a five: %s", g.over_line);
	CHECK(brain_of(bot_pid) == brain || brain_of(bot_pid) == 0,
	    "the brain was restarted for a cut connection");
	printf("  game %s: %d moves of the bot's, the connection cut once; %s (%lld ms)\n", g.room,
	    g.bot_moves, g.over_line, tc_now_ms() - t0);
	ok("a connection cut mid-game: gomoku-bot reconnects after its backoff, RESUMEs, and the "
	   "game finishes");
}

/* gomokud stopped (SIGTERM) mid-game and started again on its state: the
 * bot reconnects through the relay, takes its session back, the game
 * finishes. c is carol's connection, taken back with RESUME too. */
static void
test_server_restart(struct tc **cp)
{
	long long t0 = tc_now_ms();
	struct tc *c = *cp;
	static struct game g;
	REQUIRE(start_game(&g, c, "freestyle 15 none white casual none", 0) == 0,
	    "the bot did not take the challenge (last: %s)", c->line);
	REQUIRE(play(&g, 2, 20000) == 0, "the first moves: %s", c->line);
	int in = log_count("as robo");
	char token[80], conf[300];
	snprintf(token, sizeof token, "%s", c->token);
	REQUIRE(daemon_stop(&d, SIGTERM, 10000) == 0, "gomokud did not stop");
	tc_close(c);
	*cp = NULL;
	snprintf(conf, sizeof conf, "state-dir %s/state\ngrace 300\n", d.dir);
	REQUIRE(daemon_start(&d2, GOMOKUD_BIN, conf) == 0, "gomokud did not start again");
	live = &d2;
	REQUIRE(port_put(d2.port) == 0, "cannot tell the relay the new port");
	/* carol takes her seat back; the snapshot says where the game is */
	c = *cp = tc_open(d2.port, 1);
	REQUIRE(c, "carol cannot connect again");
	g.c = c; /* the game is played on the new connection */
	snprintf(c->token, sizeof c->token, "%s", token);
	snprintf(c->name, sizeof c->name, "carol");
	tc_send(c, "RESUME %s %s 0", token, g.room);
	pos_init(&g.p, RULE_FREESTYLE, 15);
	const char *l;
	while ((l = tc_read(c, 5000)) && strncmp(l, "OK RESUME", 9) && strncmp(l, "ERR", 3)) {
		char list[400];
		int at;
		if (sscanf(l, "= MOVES %*s %d %399s", &at, list) == 2 && strcmp(list, "-"))
			for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
				move_t m;
				if (notation_parse(t, 15, &m) == 0)
					pos_play(&g.p, m);
			}
	}
	REQUIRE(l && !strncmp(l, "OK RESUME", 9), "carol's RESUME: %s", c->line);
	REQUIRE(wait_log("as robo", in, 30000), "gomoku-bot did not come back (log %s)", log_path);
	if ((pos_to_move(&g.p) == STONE_BLACK) == (g.human_black != 0))
		human_move(&g);
	REQUIRE(play(&g, 0, 20000) == 0, "the game did not finish: %s", c->line);
	CHECK(g.illegal == 0, "an illegal move");
	CHECK(strstr(g.over_line, " five "), "not ended by a five: %s", g.over_line);
	printf("  game %s: gomokud restarted after %d moves; %s (%lld ms)\n", g.room, 4,
	    g.over_line, tc_now_ms() - t0);
	ok("gomokud restarted mid-game: gomoku-bot reconnects with backoff, takes its session "
	   "back, and the game finishes");
}

int
main(void)
{
	long long t0 = tc_now_ms();
	test_setup();
	if (!failures)
		test_check();
	struct tc *c = NULL, *mallory = NULL;
	if (!failures) {
		c = tc_guest(d.port, "carol");
		mallory = tc_guest(d.port, "mallory");
		CHECK(c && mallory, "no test clients");
	}
	if (!failures)
		test_whole_game_and_brain_killed(c);
	if (!failures)
		test_declined(c, mallory);
	if (!failures)
		test_resume(c);
	if (!failures)
		test_cut(c);
	if (!failures)
		test_server_restart(&c);
	if (!failures)
		test_swap2(c);
	if (!failures)
		test_giveup(c);
	if (bot_pid > 0) {
		pid_t brain = brain_of(bot_pid);
		CHECK(bot_stop(SIGTERM, 5000) == 0, "gomoku-bot did not exit 0 on SIGTERM");
		CHECK(!brain || !running(brain), "a brain outlived gomoku-bot");
	}
	tc_close(c);
	tc_close(mallory);
	if (relay_pid > 0) {
		kill(relay_pid, SIGTERM);
		waitpid(relay_pid, NULL, 0);
	}
	CHECK(daemon_stop(live, SIGTERM, 10000) == 0, "daemon exit");
	if (failures)
		printf("  gomoku-bot's log: %s\n", log_path);
	printf("test_gomoku_bot: %d failed (%lld ms)\n", failures, tc_now_ms() - t0);
	return failures ? 1 : 0;
}
