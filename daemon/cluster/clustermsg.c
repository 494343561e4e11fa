/* clustermsg.c: the text of the messages between nodes (clustermsg.h). */
#include "daemon/cluster/clustermsg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/roomid.h"

int
cmsg_next_line(const char **p, const char *end, const char **line, size_t *n)
{
	if (*p >= end)
		return 0;
	const char *lf = memchr(*p, '\n', (size_t)(end - *p));
	*line = *p;
	*n = (size_t)((lf ? lf : end) - *p);
	*p = lf ? lf + 1 : end;
	return 1;
}

/* The next space-separated token of [*p, end) into out (cap bytes with the
 * NUL): 0, or -1 when there is none or it does not fit. */
static int
token(const char **p, const char *end, char *out, size_t cap)
{
	const char *s = *p;
	while (s < end && *s != ' ' && *s != '\n')
		s++;
	size_t n = (size_t)(s - *p);
	if (n == 0 || n >= cap)
		return -1;
	memcpy(out, *p, n);
	out[n] = '\0';
	*p = s < end && *s == ' ' ? s + 1 : s;
	return 0;
}

static int
seq_parse(const char *s, uint32_t *seq)
{
	char *end;
	if (s[0] < '0' || s[0] > '9' || (s[0] == '0' && s[1]))
		return -1;
	unsigned long v = strtoul(s, &end, 10);
	if (*end || v > 0xffffffffUL)
		return -1;
	*seq = (uint32_t)v;
	return 0;
}

/* The next token as a decimal integer in lo..hi: 0, or -1. */
static int
num(const char **p, const char *end, long long lo, long long hi, long long *v)
{
	char t[24], *e;
	if (token(p, end, t, sizeof t) != 0 || t[strspn(t, "-0123456789")] != '\0')
		return -1;
	errno = 0;
	*v = strtoll(t, &e, 10);
	return errno || *e || *v < lo || *v > hi ? -1 : 0;
}

/* The next token as an int in lo..hi into *out: 0, or -1. */
static int
int_in(const char **p, const char *end, int lo, int hi, int *out)
{
	long long v;
	if (num(p, end, lo, hi, &v) != 0)
		return -1;
	*out = (int)v;
	return 0;
}

/* A job's id: 1..2^62, as the owner numbers them. */
static int
job_id(const char **p, const char *end, uint64_t *id)
{
	long long v;
	if (num(p, end, 1, (long long)1 << 62, &v) != 0)
		return -1;
	*id = (uint64_t)v;
	return 0;
}

/* "-" or comma-separated items of [p, end), each given to fn: 0, or -1. */
static int
list(const char *p, const char *end, int (*fn)(const char *item, size_t n, void *arg), void *arg)
{
	if (end - p == 1 && *p == '-')
		return 0;
	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		const char *e = c ? c : end;
		if (e == p || fn(p, (size_t)(e - p), arg) != 0)
			return -1;
		p = c ? c + 1 : end;
		if (c && p == end)
			return -1; /* a trailing comma */
	}
	return 0;
}

/* An integer of exactly [s, s + n) in lo..hi. */
static int
span_int(const char *s, size_t n, long lo, long hi, long *v)
{
	char t[16], *e;
	if (n == 0 || n >= sizeof t)
		return -1;
	memcpy(t, s, n);
	t[n] = '\0';
	if (t[strspn(t, "-0123456789")] != '\0')
		return -1;
	errno = 0;
	*v = strtol(t, &e, 10);
	return errno || *e || *v < lo || *v > hi ? -1 : 0;
}

static int
add_move(const char *s, size_t n, void *arg)
{
	bots_job_t *j = arg;
	long v;
	int x, y;
	if (j->nmoves >= RULES_CELLS || span_int(s, n, 0, RULES_CELLS - 1, &v) != 0)
		return -1;
	x = (int)v % RULES_STRIDE;
	y = (int)v / RULES_STRIDE;
	if (x >= j->size || y >= j->size)
		return -1;
	j->moves[j->nmoves++] = (move_t)v;
	return 0;
}

static int
add_cand(const char *s, size_t n, void *arg)
{
	engine_result_t *r = arg;
	const char *colon = memchr(s, ':', n);
	long mv, score;
	if (!colon || r->ncand >= ENGINE_MAX_NBEST ||
	    span_int(s, (size_t)(colon - s), 0, RULES_CELLS - 1, &mv) != 0 ||
	    span_int(colon + 1, n - (size_t)(colon + 1 - s), -1000000000L, 1000000000L, &score) !=
		0)
		return -1;
	r->cand[r->ncand].move = (move_t)mv;
	r->cand[r->ncand].score = (int)score;
	r->ncand++;
	return 0;
}

static int
add_pv(const char *s, size_t n, void *arg)
{
	engine_result_t *r = arg;
	long v;
	if (r->pvlen == ENGINE_MAX_PV || span_int(s, n, 0, RULES_CELLS - 1, &v) != 0)
		return -1;
	r->pv[r->pvlen++] = (move_t)v;
	return 0;
}

/* The fields of a J after its letter: the owner, the id and the spec. */
static int
parse_job(const char *p, const char *end, struct cmsg *m)
{
	bots_job_t *j = &m->spec;
	int rule;
	long long seed;
	if (token(&p, end, m->node, sizeof m->node) || !roomid_node_ok(m->node) ||
	    job_id(&p, end, &m->job) || int_in(&p, end, RULE_FREESTYLE, RULE_RENJU, &rule) ||
	    int_in(&p, end, RULES_MIN_SIZE, RULES_MAX_SIZE, &j->size) ||
	    int_in(&p, end, 1, 10, &j->level) || int_in(&p, end, 0, 3600000, &j->soft_ms) ||
	    int_in(&p, end, 0, 3600000, &j->hard_ms) ||
	    int_in(&p, end, 0, 1000000000, &j->clock_ms) ||
	    int_in(&p, end, 0, 3600000, &j->inc_ms) || int_in(&p, end, 0, 1000, &j->max_depth) ||
	    int_in(&p, end, 0, ENGINE_MAX_NBEST, &j->nbest) ||
	    num(&p, end, 0, 0xffffffffLL, &seed) || p >= end)
		return -1;
	j->rule = (rule_t)rule;
	j->seed = (uint32_t)seed;
	const char *sp = memchr(p, ' ', (size_t)(end - p));
	if (list(p, sp ? sp : end, add_move, j) != 0)
		return -1;
	if (!sp)
		return 0;
	/* a move's job that wants its line back: " l", the end */
	if (end - sp == 2 && sp[1] == 'l') {
		j->review = 1;
		return 0;
	}
	/* an opening job: " o <orule> <actor> <log>", the log the rest */
	char o[2];
	p = sp + 1;
	if (token(&p, end, o, sizeof o) || o[0] != 'o' ||
	    int_in(&p, end, 0, ORULE_COUNT - 1, &j->orule) || int_in(&p, end, 0, 1, &j->actor) ||
	    p >= end)
		return -1;
	size_t n = (size_t)(end - p);
	if (n >= sizeof j->olog || memchr(p, '\n', n))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (p[i] < ' ' || p[i] > '~')
			return -1;
	if (!(n == 1 && *p == '-')) {
		memcpy(j->olog, p, n);
		j->olog[n] = '\0';
	}
	j->opening = 1;
	return 0;
}

static int
add_act_move(const char *s, size_t n, void *arg)
{
	opening_act_t *a = arg;
	long v;
	if (a->n >= OPENING_MAX_OFFERS || span_int(s, n, 0, RULES_CELLS - 1, &v) != 0)
		return -1;
	a->moves[a->n++] = (move_t)v;
	return 0;
}

/* The act form of an R after "act": kind, n, arg and the moves. */
static int
parse_act(const char *p, const char *end, struct cmsg *m)
{
	opening_act_t *a = &m->act, moves;
	int kind, n, arg;
	if (int_in(&p, end, 0, OACT_COUNT - 1, &kind) ||
	    int_in(&p, end, 0, OPENING_MAX_OFFERS, &n) || int_in(&p, end, 0, 255, &arg) ||
	    p >= end || memchr(p, ' ', (size_t)(end - p)))
		return -1;
	memset(&moves, 0, sizeof moves);
	if (list(p, end, add_act_move, &moves) != 0)
		return -1;
	memset(a, 0, sizeof *a);
	a->kind = (uint8_t)kind;
	a->n = (uint8_t)n;
	a->arg = (uint8_t)arg;
	memcpy(a->moves, moves.moves, sizeof a->moves);
	m->is_act = 1;
	if (m->status != 0)
		return 0;
	/* the moves an act of its kind has: one stone, n offers, or none */
	int want = kind == OACT_PLACE || kind == OACT_CHOOSE ? 1 : kind == OACT_OFFER ? n : 0;
	return moves.n == want ? 0 : -1;
}

/* The fields of an R after its letter. */
static int
parse_result(const char *p, const char *end, struct cmsg *m)
{
	engine_result_t *r = &m->result;
	int best;
	const char *sp;
	if (job_id(&p, end, &m->job) || int_in(&p, end, -1, 0, &m->status))
		return -1;
	if (end - p > 4 && memcmp(p, "act ", 4) == 0)
		return parse_act(p + 4, end, m);
	if (end - p > 3 && memcmp(p, "pv ", 3) == 0) { /* the line a J " l" asked for */
		p += 3;
		sp = memchr(p, ' ', (size_t)(end - p));
		if (!sp || list(p, sp, add_pv, r) != 0)
			return -1;
		p = sp + 1;
	}
	if (int_in(&p, end, -1, RULES_CELLS - 1, &best) ||
	    int_in(&p, end, -1000000000, 1000000000, &r->score) ||
	    int_in(&p, end, -1000, 1000, &r->mate) || int_in(&p, end, 0, 1000, &r->depth) ||
	    int_in(&p, end, 0, 1000, &r->seldepth) || int_in(&p, end, 0, 1000000000, &r->time_ms) ||
	    p >= end)
		return -1;
	r->best = (move_t)best;
	sp = memchr(p, ' ', (size_t)(end - p));
	if (!sp || list(p, sp, add_cand, r) != 0)
		return -1;
	p = sp + 1;
	size_t n = (size_t)(end - p);
	if (n >= sizeof r->reason || !proto_utf8_ok(p, n) || memchr(p, '\n', n))
		return -1;
	memcpy(r->reason, p, n);
	r->reason[n] = '\0';
	return m->status == 0 && best < 0 ? -1 : 0;
}

/* An engine's name: [a-z][a-z0-9]*, at most CMSG_ENGINE_MAX. */
static int
engine_ok(const char *s, size_t n)
{
	if (n < 1 || n > CMSG_ENGINE_MAX || s[0] < 'a' || s[0] > 'z')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return 1;
}

/* Eight lowercase hex digits into *h: 0, or -1. */
static int
hash_of(const char *s, size_t n, uint32_t *h)
{
	uint32_t v = 0;
	if (n != 8)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0'
		    : s[i] >= 'a' && s[i] <= 'f'   ? s[i] - 'a' + 10
						   : -1;
		if (d < 0)
			return -1;
		v = v << 4 | (uint32_t)d;
	}
	*h = v;
	return 0;
}

static int
engine_item(const char *s, size_t n, void *arg)
{
	uint32_t h;
	const char *colon = memchr(s, ':', n);
	(void)arg;
	return colon && engine_ok(s, (size_t)(colon - s)) &&
		hash_of(colon + 1, n - (size_t)(colon + 1 - s), &h) == 0
	    ? 0
	    : -1;
}

/* A game's key: 1 to CMSG_GAME_MAX of [A-Za-z0-9._-]. */
static int
game_ok(const char *s)
{
	size_t n = strlen(s);
	return n >= 1 && n <= CMSG_GAME_MAX &&
	    strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

/* The fields of an H after its letter. */
static int
parse_engine_job(const char *p, const char *end, struct cmsg *m)
{
	bots_job_t *j = &m->spec;
	char hash[12];
	int rule;
	if (token(&p, end, m->node, sizeof m->node) || !roomid_node_ok(m->node) ||
	    job_id(&p, end, &m->job) || token(&p, end, m->game, sizeof m->game) ||
	    !game_ok(m->game) || token(&p, end, m->engine, sizeof m->engine) ||
	    !engine_ok(m->engine, strlen(m->engine)) || token(&p, end, hash, sizeof hash) ||
	    hash_of(hash, strlen(hash), &m->hash) ||
	    int_in(&p, end, RULE_FREESTYLE, RULE_RENJU, &rule) ||
	    int_in(&p, end, RULES_MIN_SIZE, RULES_MAX_SIZE, &j->size) ||
	    int_in(&p, end, 0, 1000000000, &j->clock_ms) ||
	    int_in(&p, end, 0, 3600000, &j->inc_ms) || p >= end ||
	    memchr(p, ' ', (size_t)(end - p)))
		return -1;
	j->rule = (rule_t)rule;
	return list(p, end, add_move, j);
}

/* The fields of an M after its letter. */
static int
parse_engine_move(const char *p, const char *end, struct cmsg *m)
{
	int mv;
	if (job_id(&p, end, &m->job) || token(&p, end, m->node, sizeof m->node) ||
	    !roomid_node_ok(m->node) || int_in(&p, end, -2, 0, &m->status) ||
	    int_in(&p, end, -1, RULES_CELLS - 1, &mv) || (m->status == 0) != (mv >= 0))
		return -1;
	m->move = (move_t)mv;
	size_t n = (size_t)(end - p);
	if (n > CMSG_WHY_MAX || !proto_utf8_ok(p, n) || memchr(p, '\n', n))
		return -1;
	memcpy(m->why, p, n);
	m->why[n] = '\0';
	return 0;
}

static int
name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > PROTO_NAME_MAX ||
	    !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

/* Every line of a body is a protocol line of the server's; in a P body
 * only = BOT, = USER, = ROOM and = SEEK, in an S body only data lines of
 * the room. */
static int
body_ok(const struct cmsg *m, const char **why)
{
	const char *p = m->body, *end = m->body + m->bodylen, *line;
	size_t n;
	proto_msg_t pm;
	while (cmsg_next_line(&p, end, &line, &n)) {
		if (n == 0 || n >= PROTO_LINE_MAX ||
		    proto_parse(line, n, PROTO_SERVER, &pm, NULL, 0) != 0) {
			*why = "a line of its body is not a protocol line";
			return -1;
		}
		if (m->kind == CMSG_PRESENCE ? pm.id != PD_BOT && pm.id != PD_USER &&
			    pm.id != PD_ROOM && pm.id != PD_SEEK
					     : proto_kind(pm.id) != PK_DATA ||
			    (pm.room[0] && strcmp(pm.room, m->room) != 0)) {
			*why = "a line of its body is not of its kind";
			return -1;
		}
	}
	return 0;
}

int
cmsg_parse(const char *buf, size_t len, struct cmsg *m, const char **why)
{
	const char *p = buf + 2, *end = buf + len, *lf;
	char seq[16];
	long long tid;
	proto_msg_t pm;
	memset(m, 0, sizeof *m);
	*why = "not a message of this cluster";
	if (len < 3 || buf[1] != ' ' || memchr(buf, '\0', len))
		return -1;
	lf = memchr(buf, '\n', len);
	const char *hend = lf ? lf : end; /* the header line */
	switch (buf[0]) {
	case 'P':
		m->kind = CMSG_PRESENCE;
		if (token(&p, hend, m->node, sizeof m->node) || !roomid_node_ok(m->node) ||
		    token(&p, hend, m->addr, sizeof m->addr) || !strchr(m->addr, ':') ||
		    (p != hend &&
			(token(&p, hend, m->engines, sizeof m->engines) || p != hend ||
			    list(m->engines, m->engines + strlen(m->engines), engine_item, NULL) !=
				0))) {
			*why = "a bad presence header";
			return -1;
		}
		break;
	case 'H':
		m->kind = CMSG_ENGINE_JOB;
		if (lf || parse_engine_job(p, end, m) != 0) {
			*why = "a bad engine job";
			return -1;
		}
		return 0;
	case 'M':
		m->kind = CMSG_ENGINE_MOVE;
		if (lf || parse_engine_move(p, end, m) != 0) {
			*why = "a bad engine move";
			return -1;
		}
		return 0;
	case 'N':
		m->kind = CMSG_ENGINE_WAKE;
		if (lf || token(&p, end, m->engine, sizeof m->engine) ||
		    !engine_ok(m->engine, strlen(m->engine)) ||
		    hash_of(p, (size_t)(end - p), &m->hash)) {
			*why = "a bad engine notice";
			return -1;
		}
		return 0;
	case 'X':
		m->kind = CMSG_ENGINE_END;
		if (lf || token(&p, end, m->node, sizeof m->node) || !roomid_node_ok(m->node) ||
		    token(&p, end, m->game, sizeof m->game) || !game_ok(m->game) || p != end) {
			*why = "a bad engine game's end";
			return -1;
		}
		return 0;
	case 'T':
		m->kind = CMSG_TELL;
		if (lf || token(&p, end, m->from, sizeof m->from) || !name_ok(m->from) ||
		    token(&p, end, m->to, sizeof m->to) || !name_ok(m->to) || p >= end ||
		    (size_t)(end - p) > PROTO_TEXT_MAX || !proto_utf8_ok(p, (size_t)(end - p))) {
			*why = "a bad TELL";
			return -1;
		}
		m->body = p;
		m->bodylen = (size_t)(end - p);
		return 0;
	case 'W':
		m->kind = CMSG_WATCH;
		if (lf || token(&p, end, m->room, sizeof m->room) ||
		    roomid_parse(m->room, m->node, NULL) ||
		    token(&p, end, m->node, sizeof m->node) || !roomid_node_ok(m->node) ||
		    p != end) {
			*why = "a bad WATCH";
			return -1;
		}
		return 0;
	case 'C':
		m->kind = CMSG_WATCHERS;
		if (lf || token(&p, end, m->room, sizeof m->room) ||
		    roomid_parse(m->room, m->node, NULL) ||
		    token(&p, end, m->node, sizeof m->node) || !roomid_node_ok(m->node) ||
		    token(&p, end, seq, sizeof seq) || seq_parse(seq, &m->seq) ||
		    m->seq > CMSG_WATCHERS_MAX || p != end) {
			*why = "a bad spectator count";
			return -1;
		}
		return 0;
	case 'K':
		m->kind = CMSG_TOURNEY;
		m->job = 0;
		if (lf || token(&p, end, m->node, sizeof m->node) || !roomid_node_ok(m->node) ||
		    num(&p, end, 0, INT64_MAX, &tid) != 0 || p != end) {
			*why = "a bad tournament notice";
			return -1;
		}
		m->job = (uint64_t)tid;
		return 0;
	case 'S':
		m->kind = CMSG_SNAPSHOT;
		if (token(&p, hend, m->room, sizeof m->room) ||
		    roomid_parse(m->room, m->node, NULL) || token(&p, hend, seq, sizeof seq) ||
		    seq_parse(seq, &m->seq) || p != hend) {
			*why = "a bad snapshot header";
			return -1;
		}
		m->node[0] = '\0';
		break;
	case 'L':
		m->kind = CMSG_LOBBY;
		if (lf || token(&p, end, m->node, sizeof m->node) || !roomid_node_ok(m->node) ||
		    p >= end || (size_t)(end - p) >= PROTO_LINE_MAX + 128) {
			*why = "a bad lobby message";
			return -1;
		}
		m->body = p;
		m->bodylen = (size_t)(end - p);
		return 0;
	case 'J':
		m->kind = CMSG_JOB;
		if (lf || parse_job(p, end, m) != 0) {
			*why = "a bad bot job";
			return -1;
		}
		return 0;
	case 'R':
		m->kind = CMSG_RESULT;
		if (lf || parse_result(p, end, m) != 0) {
			*why = "a bad bot result";
			return -1;
		}
		return 0;
	case 'E':
		m->kind = CMSG_EVENT;
		if (lf || (size_t)(end - p) >= PROTO_LINE_MAX ||
		    proto_parse(p, (size_t)(end - p), PROTO_SERVER, &pm, NULL, 0) != 0 ||
		    proto_kind(pm.id) != PK_EVENT || !pm.room[0] || !pm.seq) {
			*why = "a bad room event";
			return -1;
		}
		snprintf(m->room, sizeof m->room, "%s", pm.room);
		m->seq = pm.seq;
		m->body = p;
		m->bodylen = (size_t)(end - p);
		return 0;
	default:
		return -1;
	}
	m->body = lf ? lf + 1 : end;
	m->bodylen = (size_t)(end - m->body);
	return body_ok(m, why);
}

static int
fits(int n, size_t cap)
{
	return n < 0 || (size_t)n >= cap ? -1 : n;
}

int
cmsg_format_presence(char *buf, size_t cap, const char *node, const char *addr, const char *engines)
{
	return fits(
	    snprintf(buf, cap, "P %s %s%s%s\n", node, addr, engines[0] ? " " : "", engines), cap);
}

int
cmsg_format_engine_job(char *buf, size_t cap, const char *node, uint64_t id, const char *game,
    const char *engine, uint32_t hash, const bots_job_t *j)
{
	int n = snprintf(buf, cap, "H %s %llu %s %s %08x %d %d %d %d ", node,
	    (unsigned long long)id, game, engine, (unsigned)hash, (int)j->rule, j->size,
	    j->clock_ms, j->inc_ms);
	if (fits(n, cap) < 0)
		return -1;
	if (j->nmoves == 0 && fits(n += snprintf(buf + n, cap - (size_t)n, "-"), cap) < 0)
		return -1;
	for (int i = 0; i < j->nmoves; i++) {
		int k = snprintf(buf + n, cap - (size_t)n, "%s%d", i ? "," : "", (int)j->moves[i]);
		if (fits(n + k, cap) < 0)
			return -1;
		n += k;
	}
	return n;
}

int
cmsg_format_engine_move(
    char *buf, size_t cap, uint64_t id, const char *worker, int status, move_t m, const char *why)
{
	char w[CMSG_WHY_MAX + 1];
	size_t k = 0;
	/* one line of printable text, cut to fit */
	for (const char *p = why ? why : ""; *p && k < CMSG_WHY_MAX; p++)
		w[k++] = *p >= ' ' && *p <= '~' ? *p : '?';
	w[k] = '\0';
	return fits(snprintf(buf, cap, "M %llu %s %d %d%s%s", (unsigned long long)id, worker,
			status, status == 0 ? (int)m : -1, k ? " " : "", w),
	    cap);
}

int
cmsg_format_engine_wake(char *buf, size_t cap, const char *engine, uint32_t hash)
{
	return fits(snprintf(buf, cap, "N %s %08x", engine, (unsigned)hash), cap);
}

int
cmsg_format_engine_end(char *buf, size_t cap, const char *node, const char *game)
{
	return fits(snprintf(buf, cap, "X %s %s", node, game), cap);
}

int
cmsg_format_tell(char *buf, size_t cap, const char *from, const char *to, const char *text)
{
	return fits(snprintf(buf, cap, "T %s %s %s", from, to, text), cap);
}

int
cmsg_format_watchers(char *buf, size_t cap, const char *room, const char *node, uint32_t n)
{
	return fits(snprintf(buf, cap, "C %s %s %u", room, node, (unsigned)n), cap);
}

int
cmsg_format_tourney(char *buf, size_t cap, const char *node, uint64_t id)
{
	return fits(snprintf(buf, cap, "K %s %llu", node, (unsigned long long)id), cap);
}

int
cmsg_format_lobby(char *buf, size_t cap, const char *node, const char *text)
{
	return fits(snprintf(buf, cap, "L %s %s", node, text), cap);
}

int
cmsg_format_watch(char *buf, size_t cap, const char *room, const char *node)
{
	return fits(snprintf(buf, cap, "W %s %s", room, node), cap);
}

int
cmsg_format_snapshot(char *buf, size_t cap, const char *room, uint32_t seq)
{
	return fits(snprintf(buf, cap, "S %s %u\n", room, (unsigned)seq), cap);
}

int
cmsg_format_event(char *buf, size_t cap, const char *line, size_t n)
{
	if (n && line[n - 1] == '\n')
		n--;
	return fits(snprintf(buf, cap, "E %.*s", (int)n, line), cap);
}

int
cmsg_format_act(char *buf, size_t cap, uint64_t id, int status, const opening_act_t *a)
{
	static const opening_act_t none;
	if (status != 0 || !a)
		a = &none;
	int nm = a->kind == OACT_PLACE || a->kind == OACT_CHOOSE ? 1
	    : a->kind == OACT_OFFER                              ? a->n
								 : 0;
	if (status != 0)
		nm = 0;
	if (nm > OPENING_MAX_OFFERS)
		return -1;
	int n = snprintf(buf, cap, "R %llu %d act %d %d %d ", (unsigned long long)id, status,
	    (int)a->kind, (int)a->n, (int)a->arg);
	if (fits(n, cap) < 0)
		return -1;
	if (nm == 0)
		return fits(n + snprintf(buf + n, cap - (size_t)n, "-"), cap);
	for (int i = 0; i < nm; i++) {
		int k = snprintf(buf + n, cap - (size_t)n, "%s%d", i ? "," : "", (int)a->moves[i]);
		if (fits(n + k, cap) < 0)
			return -1;
		n += k;
	}
	return n;
}

int
cmsg_format_job(char *buf, size_t cap, const char *node, uint64_t id, const bots_job_t *j)
{
	int n = snprintf(buf, cap, "J %s %llu %d %d %d %d %d %d %d %d %d %lu ", node,
	    (unsigned long long)id, (int)j->rule, j->size, j->level, j->soft_ms, j->hard_ms,
	    j->clock_ms, j->inc_ms, j->max_depth, j->nbest, (unsigned long)j->seed);
	if (fits(n, cap) < 0)
		return -1;
	if (j->nmoves == 0 && fits(n += snprintf(buf + n, cap - (size_t)n, "-"), cap) < 0)
		return -1;
	for (int i = 0; i < j->nmoves; i++) {
		int k = snprintf(buf + n, cap - (size_t)n, "%s%d", i ? "," : "", (int)j->moves[i]);
		if (fits(n + k, cap) < 0)
			return -1;
		n += k;
	}
	if (!j->opening)
		return j->review ? fits(n + snprintf(buf + n, cap - (size_t)n, " l"), cap) : n;
	if (memchr(j->olog, '\0', sizeof j->olog) == NULL)
		return -1;
	return fits(n +
		snprintf(buf + n, cap - (size_t)n, " o %d %d %s", j->orule, j->actor,
		    j->olog[0] ? j->olog : "-"),
	    cap);
}

int
cmsg_format_result(
    char *buf, size_t cap, uint64_t id, int status, const engine_result_t *r, int line)
{
	static const engine_result_t none = { .best = MOVE_NONE };
	if (status != 0)
		r = &none;
	int n = snprintf(buf, cap, "R %llu %d ", (unsigned long long)id, status);
	if (line && r->pvlen > 0 && r->pvlen <= ENGINE_MAX_PV) {
		for (int i = 0; i < r->pvlen; i++) {
			int k = snprintf(
			    buf + n, cap - (size_t)n, "%s%d", i ? "," : "pv ", (int)r->pv[i]);
			if (fits(n + k, cap) < 0)
				return -1;
			n += k;
		}
		n += snprintf(buf + n, cap - (size_t)n, " ");
	}
	if (fits(n, cap) < 0 ||
	    fits(n += snprintf(buf + n, cap - (size_t)n, "%d %d %d %d %d %d ", (int)r->best,
		     r->score, r->mate, r->depth, r->seldepth, r->time_ms),
		cap) < 0)
		return -1;
	for (int i = 0; i < r->ncand; i++) {
		int k = snprintf(buf + n, cap - (size_t)n, "%s%d:%d", i ? "," : "",
		    (int)r->cand[i].move, r->cand[i].score);
		if (fits(n + k, cap) < 0)
			return -1;
		n += k;
	}
	return fits(
	    n + snprintf(buf + n, cap - (size_t)n, "%s %s", r->ncand ? "" : "-", r->reason), cap);
}
