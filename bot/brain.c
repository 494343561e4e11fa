/*
 * brain.c: one Gomocup brain process on a libevent loop (brain.h). The
 * states: no process; START sent (R_START); idle; a request outstanding
 * (R_MOVE, R_SWAP2, R_TAKEBACK); END sent (closing); killed and not yet
 * reaped. What the game wants from the brain (want) is kept apart from
 * what is asked now (req), so that a restarted brain is asked again.
 */
#include "bot/brain.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <event2/buffer.h>
#include <event2/event.h>

#include "bot/sandbox.h"

enum { R_NONE, R_START, R_MOVE, R_SWAP2, R_TAKEBACK };
enum { W_NONE, W_MOVE, W_SWAP2 };
enum { REAP_POLL_MS = 5 };

struct brain {
	struct event_base *base;
	brain_conf_t conf;
	char **argv;
	brain_cb cb;
	void *arg;

	pid_t pid;
	int to_fd, from_fd; /* the brain's stdin, stdout */
	struct event *rd, *wr, *timer, *reaper, *settle;
	struct evbuffer *out;
	char *line; /* the partial line, line_max bytes at most */
	size_t linelen;
	size_t answered; /* bytes written since the request */

	int req, want, started, closing, reaping, tb_pending;
	int64_t req_at, deadline; /* ms, monotonic */
	int64_t quiet_until;      /* ms: nothing is written to the brain before (settle_ms) */
	int fresh;                /* no move asked of this process yet: its set-up comes first */
	char why[200];            /* a kill's reason, before the status is known */
	int why_status;           /* append the exit status to why */

	int in_game, failures, game_type;
	position_t pos;
	stone_t ours;
	int synced; /* moves of pos the brain knows, -1 unknown (BOARD next) */
	brain_clock_t clk, sent;
	int sent_any;

	char **log;
	int nlog, dropped;

	int in_cb, free_pending;
};

static void brain_kill(brain_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void spawn_and_start(brain_t *b);
static void issue_if_ready(brain_t *b);
static void settle(brain_t *b);

void
brain_conf_memory(brain_conf_t *c, long bytes)
{
	c->max_memory = bytes > 0 ? bytes : 0;
	c->mem_bytes = bytes > 0 ? 2 * bytes + 512L * 1024 * 1024 : 0;
}

brain_conf_t
brain_conf_default(void)
{
	brain_conf_t c = { 0 };
	c.max_failures = 3;
	c.start_ms = 5000;
	c.margin_ms = 500;
	c.setup_ms = 2000;
	c.think_ms = 10000;
	c.end_ms = 1000;
	c.settle_ms = 20;
	c.line_max = 4096;
	c.answer_max = 1 << 20;
	c.log_max = 32;
	c.stderr_fd = -1;
	return c;
}

int
brain_rule_info(rule_t r)
{
	return r == RULE_RENJU ? 4 : r == RULE_STANDARD ? 1 : 0;
}

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
arm(struct event *ev, int64_t ms)
{
	struct timeval tv;
	if (ms < 0)
		ms = 0;
	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	evtimer_add(ev, &tv);
}

/* The deadline is absolute: set once per request, never moved by output. */
static void
set_deadline(brain_t *b, int64_t at)
{
	b->deadline = at;
	arm(b->timer, at - now_ms());
}

static void
log_clear(brain_t *b)
{
	for (int i = 0; i < b->nlog; i++)
		free(b->log[i]);
	b->nlog = 0;
	b->dropped = 0;
}

static void
log_add(brain_t *b, const char *line)
{
	char *s;
	if (b->nlog >= b->conf.log_max || !(s = strdup(line))) {
		b->dropped++;
		return;
	}
	b->log[b->nlog++] = s;
}

/* Calls back; returns 1 when the callback freed b (the caller returns). */
static int
report(brain_t *b, brain_result_t *r)
{
	r->log = (const char **)b->log;
	r->nlog = b->nlog;
	r->dropped = b->dropped;
	r->failures = b->failures;
	r->elapsed_ms = (long)(now_ms() - b->req_at);
	if (!r->text)
		r->text = "";
	b->in_cb++;
	b->cb(b, r, b->arg);
	b->in_cb--;
	if (b->free_pending && b->in_cb == 0) {
		brain_free(b);
		return 1;
	}
	return 0;
}

static void say(brain_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void
say(brain_t *b, const char *fmt, ...)
{
	va_list ap;
	if (!b->pid || b->reaping)
		return;
	va_start(ap, fmt);
	evbuffer_add_vprintf(b->out, fmt, ap);
	va_end(ap);
	evbuffer_add(b->out, "\r\n", 2);
	if (!event_pending(b->settle, EV_TIMEOUT, NULL))
		event_add(b->wr, NULL);
}

/* The settle timer: the brain's quiet time after a move is over. */
static void
on_settled(evutil_socket_t fd, short what, void *arg)
{
	brain_t *b = arg;
	(void)fd;
	(void)what;
	if (b->wr && evbuffer_get_length(b->out) > 0)
		event_add(b->wr, NULL);
}

static void
on_writable(evutil_socket_t fd, short what, void *arg)
{
	brain_t *b = arg;
	(void)what;
	int64_t wait = b->quiet_until - now_ms();
	if (wait > 0) { /* written when the brain has settled */
		struct timeval tv = { (time_t)(wait / 1000), (suseconds_t)(wait % 1000) * 1000 };
		event_del(b->wr);
		evtimer_add(b->settle, &tv);
		return;
	}
	while (evbuffer_get_length(b->out) > 0) {
		int n = evbuffer_write(b->out, fd);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			/* EPIPE: it closed its input; its exit or EOF tells why */
			evbuffer_drain(b->out, evbuffer_get_length(b->out));
			break;
		}
	}
	if (evbuffer_get_length(b->out) == 0)
		event_del(b->wr);
}

static void
close_pipes(brain_t *b)
{
	if (b->rd)
		event_free(b->rd);
	if (b->wr)
		event_free(b->wr);
	b->rd = b->wr = NULL;
	if (b->to_fd >= 0)
		close(b->to_fd);
	if (b->from_fd >= 0)
		close(b->from_fd);
	b->to_fd = b->from_fd = -1;
	evbuffer_drain(b->out, evbuffer_get_length(b->out));
	b->linelen = 0;
	b->quiet_until = 0;
	if (b->settle)
		evtimer_del(b->settle);
}

/* The child: its own group, rlimits, the pipes as stdin and stdout. */
static void
child(brain_t *b, int in, int outp, pid_t parent)
{
	struct rlimit rl;
	sigset_t none;
	int null = open("/dev/null", O_RDWR);

	setpgid(0, 0);
#ifdef __linux__
	/* it dies with its parent; a parent gone before this line: now */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
#else
	(void)parent;
#endif
	/* the brain starts with no signal blocked and none ignored */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	dup2(in, 0);
	dup2(outp, 1);
	dup2(b->conf.stderr_fd >= 0 ? b->conf.stderr_fd : null, 2);
	long maxfd = sysconf(_SC_OPEN_MAX);
	if (maxfd < 0 || maxfd > 65536)
		maxfd = 65536;
	for (int fd = 3; fd < maxfd; fd++)
		close(fd);
	rl.rlim_cur = rl.rlim_max = 0;
	setrlimit(RLIMIT_CORE, &rl);
	if (b->conf.cpu_seconds > 0) {
		rl.rlim_cur = (rlim_t)b->conf.cpu_seconds;
		rl.rlim_max = (rlim_t)b->conf.cpu_seconds + 1;
		setrlimit(RLIMIT_CPU, &rl);
	}
	if (b->conf.mem_bytes > 0) {
		rl.rlim_cur = rl.rlim_max = (rlim_t)b->conf.mem_bytes;
		setrlimit(RLIMIT_AS, &rl);
	}
	if (b->conf.sandbox) {
		char dir[4096], err[256];
		const char *dirs[] = { dir };
		int nd = sandbox_prog_dir(b->argv[0], dir, sizeof dir) == 0;
		if (sandbox_enter(dirs, nd, err, sizeof err) != 0) {
			dprintf(2, "brain sandbox: %s\n", err);
			_exit(126);
		}
	}
	execvp(b->argv[0], b->argv);
	_exit(127);
}

static void on_readable(evutil_socket_t fd, short what, void *arg);

static int
spawn(brain_t *b)
{
	int in[2], outp[2];

	if (pipe(in) < 0)
		return -1;
	if (pipe(outp) < 0) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	pid_t parent = getpid(), pid = fork();
	if (pid < 0) {
		close(in[0]);
		close(in[1]);
		close(outp[0]);
		close(outp[1]);
		return -1;
	}
	if (pid == 0)
		child(b, in[0], outp[1], parent);
	setpgid(pid, pid); /* both sides set it: no race with a kill */
	close(in[0]);
	close(outp[1]);
	b->pid = pid;
	b->to_fd = in[1];
	b->from_fd = outp[0];
	fcntl(b->to_fd, F_SETFD, FD_CLOEXEC);
	fcntl(b->from_fd, F_SETFD, FD_CLOEXEC);
	evutil_make_socket_nonblocking(b->to_fd);
	evutil_make_socket_nonblocking(b->from_fd);
	b->rd = event_new(b->base, b->from_fd, EV_READ | EV_PERSIST, on_readable, b);
	b->wr = event_new(b->base, b->to_fd, EV_WRITE | EV_PERSIST, on_writable, b);
	if (!b->rd || !b->wr)
		return -1;
	event_add(b->rd, NULL);
	b->started = 0;
	b->req = R_NONE;
	b->linelen = 0;
	b->tb_pending = 0;
	b->sent_any = 0;
	return 0;
}

/* A failure: counted, reported, and the brain restarted with the game
 * replayed, or the game given up. */
static void
failed(brain_t *b, const char *why)
{
	brain_result_t r = { 0 };

	b->failures++;
	r.text = why;
	if (b->failures >= b->conf.max_failures) {
		r.kind = BRAIN_GIVEUP;
		b->in_game = 0;
		b->want = W_NONE;
		report(b, &r);
		return;
	}
	r.kind = BRAIN_FAILED;
	if (report(b, &r))
		return;
	if (b->in_game && !b->pid && !b->reaping)
		spawn_and_start(b);
}

static void
on_reap(evutil_socket_t fd, short what, void *arg)
{
	brain_t *b = arg;
	int st;
	(void)fd;
	(void)what;
	pid_t r = waitpid(b->pid, &st, WNOHANG);
	if (r == 0 || (r < 0 && errno == EINTR)) {
		arm(b->reaper, REAP_POLL_MS);
		return;
	}
	b->pid = 0;
	b->reaping = 0;
	evtimer_del(b->timer);
	if (b->closing) { /* END: its exit is no failure */
		b->closing = 0;
		return;
	}
	if (!b->in_game)
		return;
	char why[sizeof b->why + 64];
	if (b->why_status && r > 0 && WIFEXITED(st))
		snprintf(why, sizeof why, "%s (exit status %d)", b->why, WEXITSTATUS(st));
	else if (b->why_status && r > 0 && WIFSIGNALED(st))
		snprintf(why, sizeof why, "%s (killed by signal %d, %s)", b->why, WTERMSIG(st),
		    strsignal(WTERMSIG(st)));
	else
		snprintf(why, sizeof why, "%s", b->why);
	failed(b, why);
}

/* Kills the process group and reaps it off the loop; a failure unless the
 * game is over (closing). */
static void
brain_kill(brain_t *b, const char *fmt, ...)
{
	va_list ap;

	if (!b->pid || b->reaping)
		return;
	va_start(ap, fmt);
	vsnprintf(b->why, sizeof b->why, fmt, ap);
	va_end(ap);
	b->why_status = 0;
	killpg(b->pid, SIGKILL);
	close_pipes(b);
	evtimer_del(b->timer);
	b->req = R_NONE;
	b->started = 0;
	b->reaping = 1;
	arm(b->reaper, 0);
}

/* INFO lines for what changed since the last ones sent to this process. */
static void
send_info(brain_t *b)
{
	brain_clock_t *c = &b->clk, *s = &b->sent;
	if (!b->sent_any) {
		say(b, "INFO max_memory %ld",
		    b->conf.max_memory > 0 ? b->conf.max_memory : b->conf.mem_bytes);
		say(b, "INFO rule %d", brain_rule_info((rule_t)b->pos.rule));
		say(b, "INFO game_type %d", b->game_type);
	}
	if (!b->sent_any || c->timeout_turn != s->timeout_turn)
		say(b, "INFO timeout_turn %d", c->timeout_turn);
	if (!b->sent_any || c->timeout_match != s->timeout_match)
		say(b, "INFO timeout_match %d", c->timeout_match);
	if (c->timeout_match > 0 && (!b->sent_any || c->time_left != s->time_left))
		say(b, "INFO time_left %d", c->time_left);
	*s = *c;
	b->sent_any = 1;
}

/* A move's time: the turn's, capped by the time left; think_ms without. */
static int
move_ms(const brain_t *b)
{
	int t = b->clk.timeout_turn > 0 ? b->clk.timeout_turn : 0;
	if (b->clk.timeout_match > 0 && b->clk.time_left > 0 && (t == 0 || b->clk.time_left < t))
		t = b->clk.time_left;
	return t > 0 ? t : b->conf.think_ms;
}

static void
send_board(brain_t *b, const char *cmd, int fields)
{
	char xy[8];
	say(b, "%s", cmd);
	for (int i = 0; i < b->pos.nmoves; i++) {
		move_t m = b->pos.moves[i];
		stone_t c = (stone_t)b->pos.cell[m];
		if (fields)
			say(b, "%s,%d", notation_format_xy(m, xy), c == b->ours ? 1 : 2);
		else
			say(b, "%s", notation_format_xy(m, xy));
	}
	say(b, "DONE");
}

/* Sends what the game wants when the process can take it. */
static void
issue_if_ready(brain_t *b)
{
	char xy[8];
	int n = b->pos.nmoves;

	if (!b->pid || b->reaping || !b->started || b->req != R_NONE || b->want == W_NONE)
		return;
	send_info(b);
	log_clear(b);
	b->answered = 0;
	if (b->want == W_SWAP2) {
		send_board(b, "SWAP2BOARD", 0);
		b->req = R_SWAP2;
	} else {
		if (n == 0 && b->synced == 0)
			say(b, "BEGIN");
		else if (n > 0 && b->synced == n - 1)
			say(b, "TURN %s", notation_format_xy(b->pos.moves[n - 1], xy));
		else
			send_board(b, "BOARD", 1);
		b->req = R_MOVE;
	}
	/* a brain sets itself up at its first search (a hash of max_memory
	 * cleared: Rapfi spends most of a second there), not counted in the
	 * turn it keeps to: that first move gets setup_ms more; and the
	 * request leaves once the brain has settled after its last move */
	int64_t now = now_ms(), from = b->quiet_until > now ? b->quiet_until : now;
	set_deadline(b, from + move_ms(b) + b->conf.margin_ms + (b->fresh ? b->conf.setup_ms : 0));
	b->fresh = 0;
}

static void
spawn_and_start(brain_t *b)
{
	if (spawn(b) < 0) {
		if (b->pid) {
			brain_kill(b, "could not set the brain up: %s", strerror(errno));
			return;
		}
		failed(b, "could not start the brain");
		return;
	}
	b->synced = 0;
	b->fresh = 1;
	b->req = R_START;
	log_clear(b);
	b->answered = 0;
	say(b, "START %d", b->pos.size);
	set_deadline(b, now_ms() + b->conf.start_ms);
	/* a restarted brain's clock: what the request has spent is gone */
	if (b->want != W_NONE && b->clk.timeout_match > 0 && b->clk.time_left > 0) {
		int spent = (int)(now_ms() - b->req_at);
		b->clk.time_left = b->clk.time_left - spent > 1 ? b->clk.time_left - spent : 1;
		b->req_at = now_ms();
	}
}

static void
on_timer(evutil_socket_t fd, short what, void *arg)
{
	brain_t *b = arg;
	(void)fd;
	(void)what;
	if (b->closing) {
		brain_kill(b, "did not exit after END");
		return;
	}
	switch (b->req) {
	case R_START:
		brain_kill(b, "no answer to START within %d ms", b->conf.start_ms);
		break;
	case R_TAKEBACK:
		brain_kill(b, "no answer to TAKEBACK within %d ms", b->conf.start_ms);
		break;
	case R_MOVE:
	case R_SWAP2:
		brain_kill(
		    b, "no move within %d ms and the %d ms margin", move_ms(b), b->conf.margin_ms);
		break;
	default:
		break;
	}
}

static int
word_is(const char *line, const char *w, const char **rest)
{
	size_t n = strlen(w);
	if (strncasecmp(line, w, n) != 0 || (line[n] && line[n] != ' ' && line[n] != '\t'))
		return 0;
	if (rest) {
		const char *r = line + n;
		while (*r == ' ' || *r == '\t')
			r++;
		*rest = r;
	}
	return 1;
}

/* An ERROR or UNKNOWN that names INFO complains of an INFO line (which
 * wants no answer, but some brains answer a key they do not know): kept
 * for the logs. Any other is the answer to what was asked. */
static int
about_info(const char *line)
{
	for (const char *p = line; *p; p++)
		if (strncasecmp(p, "INFO", 4) == 0)
			return 1;
	return 0;
}

static void
got_move(brain_t *b, const char *line)
{
	move_t m;
	brain_result_t r = { 0 };
	legality_t l;

	if (notation_parse_xy(line, b->pos.size, &m) < 0) {
		brain_kill(b, "answered \"%.60s\", not a move", line);
		return;
	}
	if ((l = pos_check(&b->pos, m)) != LEGAL_OK) {
		brain_kill(b, "played %s: illegal (%s)", line, legality_name(l));
		return;
	}
	pos_play(&b->pos, m);
	evtimer_del(b->timer);
	settle(b);
	b->synced = b->pos.nmoves;
	b->req = R_NONE;
	b->want = W_NONE;
	r.kind = BRAIN_MOVE;
	r.moves[0] = m;
	r.nmoves = 1;
	report(b, &r);
}

/*
 * A brain has answered a search: nothing is written to it for settle_ms.
 * Rapfi prints its move before it leaves its thinking state, and a command
 * that comes in between loses its first word ("TURN"), after which the
 * coordinates read as an unknown command: against an opponent that answers
 * at once (a bot, a premove) it would fail every move. Piskvork and the
 * Gomocup manager never answer that fast; 20 ms is far below any clock.
 */
static void
settle(brain_t *b)
{
	b->quiet_until = b->conf.settle_ms > 0 ? now_ms() + b->conf.settle_ms : 0;
}

static void
got_swap2(brain_t *b, const char *line)
{
	brain_result_t r = { 0 };
	char buf[64], *save = NULL, *tok;
	position_t p = b->pos;

	if (strcasecmp(line, "SWAP") == 0) {
		r.swap = 1;
	} else {
		snprintf(buf, sizeof buf, "%s", line);
		for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
			move_t m;
			if (r.nmoves == 3 || notation_parse_xy(tok, p.size, &m) < 0 ||
			    pos_play(&p, m) != LEGAL_OK) {
				brain_kill(b, "answered SWAP2BOARD with \"%.60s\"", line);
				return;
			}
			r.moves[r.nmoves++] = m;
		}
		/* 3 stones to open, 1 or 2 after 3, 1 after 5 */
		int n = b->pos.nmoves, k = r.nmoves;
		if (!(n == 0 ? k == 3 : n == 3 ? k == 1 || k == 2 : k == 1)) {
			brain_kill(b, "answered SWAP2BOARD with \"%.60s\"", line);
			return;
		}
	}
	evtimer_del(b->timer);
	settle(b);
	b->req = R_NONE;
	b->want = W_NONE;
	b->synced = -1; /* the caller's brain_setpos says how the opening went */
	r.kind = BRAIN_SWAP2;
	report(b, &r);
}

static void
got_line(brain_t *b, char *line)
{
	const char *rest;
	brain_result_t r = { 0 };

	while (*line == ' ' || *line == '\t')
		line++;
	size_t n = strlen(line);
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
		line[--n] = 0;
	if (!n)
		return;
	if (word_is(line, "MESSAGE", NULL) || word_is(line, "DEBUG", NULL) ||
	    word_is(line, "SUGGEST", NULL)) {
		log_add(b, line);
		return;
	}
	int refusal = word_is(line, "ERROR", &rest) || word_is(line, "UNKNOWN", &rest);
	switch (b->req) {
	case R_START:
		if (strcasecmp(line, "OK") == 0) {
			evtimer_del(b->timer);
			b->started = 1;
			b->req = R_NONE;
			send_info(b);
			issue_if_ready(b);
		} else if (word_is(line, "ERROR", &rest)) {
			evtimer_del(b->timer);
			b->req = R_NONE;
			b->in_game = 0;
			b->want = W_NONE;
			r.kind = BRAIN_NO_SIZE;
			r.text = rest;
			report(b, &r);
		} else {
			brain_kill(b, "answered START with \"%.60s\"", line);
		}
		return;
	case R_MOVE:
		if (refusal && about_info(line))
			log_add(b, line);
		else if (refusal)
			brain_kill(b, "refused to move: %.100s", line);
		else
			got_move(b, line);
		return;
	case R_SWAP2:
		if (refusal && about_info(line)) {
			log_add(b, line);
		} else if (refusal) {
			evtimer_del(b->timer);
			b->req = R_NONE;
			b->want = W_NONE;
			r.kind = BRAIN_NO_SWAP2;
			r.text = line;
			report(b, &r);
		} else {
			got_swap2(b, line);
		}
		return;
	case R_TAKEBACK:
		if (strcasecmp(line, "OK") == 0) {
			if (b->synced > 0)
				b->synced--;
		} else if (refusal) {
			b->synced = -1;
		} else {
			brain_kill(b, "answered TAKEBACK with \"%.60s\"", line);
			return;
		}
		if (--b->tb_pending == 0) {
			evtimer_del(b->timer);
			b->req = R_NONE;
			issue_if_ready(b);
		}
		return;
	default: /* nothing asked: kept for the logs */
		log_add(b, line);
		return;
	}
}

static void
on_readable(evutil_socket_t fd, short what, void *arg)
{
	brain_t *b = arg;
	char buf[4096];
	(void)what;

	for (int rounds = 0; rounds < 16; rounds++) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {
			if (b->closing) {
				/* END: it went as asked; reap it */
				close_pipes(b);
				evtimer_del(b->timer);
				killpg(b->pid, SIGKILL);
				b->reaping = 1;
				arm(b->reaper, 0);
				return;
			}
			brain_kill(b, "closed its output");
			b->why_status = 1;
			return;
		}
		b->answered += (size_t)n;
		if (b->answered > b->conf.answer_max) {
			brain_kill(b, "flooded its output: over %zu bytes for one answer",
			    b->conf.answer_max);
			return;
		}
		for (ssize_t i = 0; i < n; i++) {
			char c = buf[i];
			if (c == '\n' || c == '\r') {
				b->line[b->linelen] = 0;
				b->linelen = 0;
				pid_t pid = b->pid;
				b->in_cb++; /* a callback's brain_free waits for us */
				got_line(b, b->line);
				b->in_cb--;
				if (b->free_pending && b->in_cb == 0) {
					brain_free(b);
					return;
				}
				/* killed, or a new process (a callback's new game) */
				if (b->pid != pid || b->reaping || b->from_fd != fd)
					return;
				continue;
			}
			if (b->linelen >= b->conf.line_max) {
				brain_kill(b, "wrote a line over %zu bytes", b->conf.line_max);
				return;
			}
			b->line[b->linelen++] = c;
		}
	}
}

brain_t *
brain_new(struct event_base *base, const brain_conf_t *conf, brain_cb cb, void *arg)
{
	brain_t *b;
	int argc = 0;

	if (!conf || !conf->argv || !conf->argv[0] || conf->max_failures < 1 ||
	    conf->line_max < 16 || conf->log_max < 0 || !cb)
		return NULL;
	if (!(b = calloc(1, sizeof *b)))
		return NULL;
	b->base = base;
	b->conf = *conf;
	b->cb = cb;
	b->arg = arg;
	b->to_fd = b->from_fd = -1;
	while (conf->argv[argc])
		argc++;
	b->argv = calloc((size_t)argc + 1, sizeof *b->argv);
	b->line = malloc(conf->line_max + 1);
	b->log = calloc((size_t)conf->log_max + 1, sizeof *b->log);
	b->out = evbuffer_new();
	b->timer = evtimer_new(base, on_timer, b);
	b->reaper = evtimer_new(base, on_reap, b);
	b->settle = evtimer_new(base, on_settled, b);
	int ok = b->argv && b->line && b->log && b->out && b->timer && b->reaper && b->settle;
	for (int i = 0; ok && i < argc; i++)
		ok = (b->argv[i] = strdup(conf->argv[i])) != NULL;
	b->conf.argv = NULL;
	if (!ok) {
		brain_free(b);
		return NULL;
	}
	return b;
}

void
brain_free(brain_t *b)
{
	if (!b)
		return;
	if (b->in_cb) {
		b->free_pending = 1;
		b->in_game = 0;
		b->want = W_NONE;
		return;
	}
	if (b->pid) {
		if (!b->reaping)
			killpg(b->pid, SIGKILL);
		close_pipes(b);
		/* SIGKILL cannot be caught: the wait is the kernel's teardown */
		while (waitpid(b->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	close_pipes(b);
	if (b->timer)
		event_free(b->timer);
	if (b->reaper)
		event_free(b->reaper);
	if (b->settle)
		event_free(b->settle);
	if (b->out)
		evbuffer_free(b->out);
	if (b->log)
		log_clear(b);
	free(b->log);
	for (int i = 0; b->argv && b->argv[i]; i++)
		free(b->argv[i]);
	free(b->argv);
	free(b->line);
	free(b);
}

static int
load_pos(position_t *p, rule_t rule, int size, const move_t *moves, int n)
{
	if (pos_init(p, rule, size) < 0 || n < 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (pos_play(p, moves[i]) != LEGAL_OK)
			return -1;
	return 0;
}

static int
our_turn(const brain_t *b)
{
	return b->in_game && b->pos.outcome.kind == RESULT_ONGOING &&
	    pos_to_move(&b->pos) == b->ours;
}

int
brain_game(brain_t *b, rule_t rule, int size, stone_t ours, const move_t *moves, int n,
    const brain_clock_t *clk, int game_type)
{
	position_t p;

	if (ours > STONE_WHITE || load_pos(&p, rule, size, moves, n) < 0)
		return -1;
	if (b->pid && !b->reaping) { /* an earlier game's brain: gone at once */
		b->closing = 1;
		killpg(b->pid, SIGKILL);
		close_pipes(b);
		evtimer_del(b->timer);
		while (waitpid(b->pid, NULL, 0) < 0 && errno == EINTR)
			;
		b->pid = 0;
		b->closing = 0;
	} else if (b->pid) { /* being reaped: the SIGKILL is sent */
		evtimer_del(b->reaper);
		while (waitpid(b->pid, NULL, 0) < 0 && errno == EINTR)
			;
		b->pid = 0;
		b->reaping = 0;
		b->closing = 0;
	}
	b->pos = p;
	b->ours = ours;
	b->in_game = 1;
	b->failures = 0;
	b->game_type = game_type;
	b->clk = clk ? *clk : (brain_clock_t){ 0 };
	b->want = our_turn(b) ? W_MOVE : W_NONE;
	b->req_at = now_ms();
	spawn_and_start(b);
	return 0;
}

static int
ask(brain_t *b, int want, const brain_clock_t *clk)
{
	if (clk)
		b->clk = *clk;
	b->want = want;
	b->req_at = now_ms();
	issue_if_ready(b);
	return 0;
}

static int
busy(const brain_t *b)
{
	return b->req == R_MOVE || b->req == R_SWAP2 || b->want != W_NONE;
}

int
brain_turn(brain_t *b, move_t m, const brain_clock_t *clk)
{
	if (!b->in_game || b->ours == STONE_EMPTY || b->pos.outcome.kind != RESULT_ONGOING ||
	    pos_to_move(&b->pos) == b->ours || busy(b))
		return -1;
	if (m < 0 || m >= RULES_CELLS || pos_play(&b->pos, m) != LEGAL_OK)
		return -1;
	if (b->pos.outcome.kind != RESULT_ONGOING)
		return 1;
	return ask(b, W_MOVE, clk);
}

int
brain_think(brain_t *b, const brain_clock_t *clk)
{
	if (!our_turn(b) || busy(b))
		return -1;
	return ask(b, W_MOVE, clk);
}

int
brain_swap2(brain_t *b, const brain_clock_t *clk)
{
	int n = b->pos.nmoves;
	if (!b->conf.swap2 || !b->in_game || busy(b) || (n != 0 && n != 3 && n != 5))
		return -1;
	return ask(b, W_SWAP2, clk);
}

int
brain_takeback(brain_t *b, int n)
{
	char xy[8];

	if (!b->in_game || busy(b) || n < 1 || n > b->pos.nmoves)
		return -1;
	int talk = b->pid && !b->reaping && b->started && b->synced == b->pos.nmoves &&
	    (b->req == R_NONE || b->req == R_TAKEBACK);
	for (int i = 0; i < n; i++) {
		move_t m = pos_undo(&b->pos);
		if (talk) {
			say(b, "TAKEBACK %s", notation_format_xy(m, xy));
			b->tb_pending++;
		}
	}
	if (talk) {
		if (b->req == R_NONE) {
			log_clear(b);
			b->req = R_TAKEBACK;
			set_deadline(b, now_ms() + b->conf.start_ms);
		}
	} else if (b->synced > b->pos.nmoves) {
		b->synced = -1; /* it knew moves now taken back: BOARD next */
	}
	return 0;
}

int
brain_setpos(brain_t *b, stone_t ours, const move_t *moves, int n)
{
	position_t p;
	if (!b->in_game || busy(b) || ours > STONE_WHITE ||
	    load_pos(&p, (rule_t)b->pos.rule, b->pos.size, moves, n) < 0)
		return -1;
	b->pos = p;
	b->ours = ours;
	b->synced = -1;
	return 0;
}

void
brain_end(brain_t *b)
{
	b->in_game = 0;
	b->want = W_NONE;
	if (!b->pid || b->reaping)
		return;
	b->closing = 1;
	b->req = R_NONE;
	say(b, "END");
	set_deadline(b, now_ms() + b->conf.end_ms);
}

const position_t *
brain_pos(const brain_t *b)
{
	return &b->pos;
}

pid_t
brain_pid(const brain_t *b)
{
	return b->pid;
}

int
brain_failures(const brain_t *b)
{
	return b->failures;
}
