/*
 * test_bots.c: the bot worker pool with the real engine on a real libevent
 * loop: results and previews arrive on the loop thread, cancellation of
 * running (within engine.h's stop promise) and waiting jobs, a saturated
 * pool says so, first come first served across rooms, 50 games' searches at
 * once, shutdown while busy; opening jobs (issue 46): the worker rebuilds
 * the machine and its act, which the machine takes, comes back on the loop;
 * a log that does not replay ends -1; a remote pool's opening job goes out
 * and its act comes back through bots_remote_act_done only; the log
 * bots_opening_job takes (the room's) replays to the machine it was made
 * from, at every stage of every rule's openings, and one that does not is
 * refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

#include <cmocka.h>
#include <event2/event.h>

#include "daemon/bots.h"
#include "daemon/clock.h"
#include "engine/openbot.h"
#include "tests/promises.h"

/*
 * A cancelled search must free its worker within engine.h's promise for
 * engine_stop, stretched by the workers' lower priority: at nice BOTS_NICE a
 * thread has 1/1.25^BOTS_NICE (1/9.3) of a nice-0 thread's CPU weight, so on
 * a busy machine it takes up to that much longer to run the few
 * microseconds the stop needs. Measured on a 2-core machine with three other
 * CPU-bound jobs: up to 132 ms; idle: under 5 ms.
 */
_Static_assert(BOTS_NICE == 10, "recompute NICE_SLOWDOWN: 1.25^BOTS_NICE, rounded up");
enum { NICE_SLOWDOWN = 10, CANCEL_MS = PROMISE_ENGINE_STOP_MS * NICE_SLOWDOWN };

static struct event_base *base;
static pthread_t loop_thread;

struct tally {
	int done, previews, status, bad_thread, last_depth, depth_went_back;
	int64_t order[64];
	int norder;
	engine_result_t result;
	bots_t *pool; /* for callbacks that submit again */
	int resubmit_owner;
};

static bots_job_t
job_for(uint64_t owner, rule_t rule, int max_depth, int soft_ms)
{
	bots_job_t j;
	static const move_t opening[] = { 7 * 20 + 7, 8 * 20 + 8, 7 * 20 + 8, 6 * 20 + 6 };

	memset(&j, 0, sizeof j);
	j.owner = owner;
	j.rule = rule;
	j.size = 15;
	j.nmoves = 4;
	memcpy(j.moves, opening, sizeof opening);
	j.level = 10;
	j.max_depth = max_depth;
	j.soft_ms = soft_ms;
	j.hard_ms = soft_ms;
	j.nbest = 3;
	return j;
}

static void
on_done(uint64_t id, int status, const engine_result_t *r, void *arg)
{
	struct tally *t = arg;

	if (!pthread_equal(pthread_self(), loop_thread))
		t->bad_thread++;
	t->done++;
	t->status |= status;
	t->result = *r;
	if (t->norder < 64)
		t->order[t->norder++] = (int64_t)id;
}

static void
on_preview(uint64_t id, const engine_result_t *r, void *arg)
{
	struct tally *t = arg;

	(void)id;
	if (!pthread_equal(pthread_self(), loop_thread))
		t->bad_thread++;
	if (r->depth < t->last_depth)
		t->depth_went_back = 1;
	t->last_depth = r->depth;
	t->previews++;
}

/* Runs the loop until *flag reaches want, failing after limit_ms. */
static void
run_until(const int *flag, int want, int limit_ms)
{
	int64_t end = clock_now_ms() + limit_ms;

	while (*flag < want) {
		if (clock_now_ms() > end)
			fail_msg("waited %d ms for %d callbacks, got %d", limit_ms, want, *flag);
		event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
}

/* Spins the loop until the pool's load matches, failing after limit_ms. */
static int64_t
wait_load(bots_t *b, int queued, int running, int limit_ms)
{
	int64_t start = clock_now_ms(), end = start + limit_ms;
	int q, r;

	for (;;) {
		bots_load(b, &q, &r);
		if (q == queued && r == running)
			return clock_now_ms() - start;
		if (clock_now_ms() > end)
			fail_msg("load %d/%d, want %d/%d", q, r, queued, running);
		event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
		struct timespec ts = { 0, 200000 };
		nanosleep(&ts, NULL);
	}
}

static int
setup(void **state)
{
	(void)state;
	base = event_base_new();
	loop_thread = pthread_self();
	return base ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	event_base_free(base);
	return 0;
}

static void
test_result_and_previews(void **state)
{
	(void)state;
	bots_t *b = bots_new(base, 2, 4, 8, 0);
	struct tally t = { 0 };
	position_t p;

	assert_non_null(b);
	bots_job_t j = job_for(1, RULE_FREESTYLE, 6, 0);
	assert_true(bots_submit(b, &j, on_done, on_preview, &t) > 0);
	run_until(&t.done, 1, 60000);
	assert_int_equal(t.status, 0);
	assert_int_equal(t.bad_thread, 0);
	assert_true(t.previews >= 1);
	assert_false(t.depth_went_back);
	pos_init(&p, RULE_FREESTYLE, 15);
	for (int i = 0; i < j.nmoves; i++)
		pos_place(&p, j.moves[i]);
	assert_int_equal(pos_check(&p, t.result.best), LEGAL_OK);
	assert_true(t.result.depth >= 1);
	bots_free(b);
	print_message("  result and %d previews on the loop thread, best %d at depth %d\n",
	    t.previews, t.result.best, t.result.depth);
}

static void
test_cancel(void **state)
{
	(void)state;
	bots_t *b = bots_new(base, 1, 4, 8, 50);
	struct tally ta = { 0 }, tb = { 0 }, tc = { 0 };

	bots_job_t long_a = job_for(1, RULE_RENJU, 0, 60000);
	bots_job_t long_b = job_for(2, RULE_RENJU, 0, 60000);
	int64_t a = bots_submit(b, &long_a, on_done, on_preview, &ta);
	int64_t bb = bots_submit(b, &long_b, on_done, on_preview, &tb);
	assert_true(a > 0 && bb > 0);
	wait_load(b, 1, 1, 10000);
	bots_cancel(b, bb); /* waiting */
	wait_load(b, 0, 1, 1000);
	int64_t t0 = clock_now_ms();
	bots_cancel(b, a); /* running */
	wait_load(b, 0, 0, 10000);
	int64_t stop_ms = clock_now_ms() - t0;
	if (stop_ms > CANCEL_MS)
		fail_msg(
		    "the running search freed its worker %lld ms after bots_cancel; engine.h's "
		    "promise at nice %d allows %d",
		    (long long)stop_ms, BOTS_NICE, CANCEL_MS);
	bots_cancel(b, a); /* twice, and unknown ids, are ignored */
	bots_cancel(b, 999);
	/* the same room may ask again at once, and that search completes */
	bots_job_t quick = job_for(1, RULE_RENJU, 4, 0);
	assert_true(bots_submit(b, &quick, on_done, NULL, &tc) > 0);
	run_until(&tc.done, 1, 60000);
	assert_int_equal(ta.done + tb.done, 0);
	assert_int_equal(tc.done, 1);
	bots_free(b);
	print_message("  a waiting and a running search cancelled; running one stopped in %lld ms"
		      " (at most %d); no callbacks for either\n",
	    (long long)stop_ms, CANCEL_MS);
}

static void
test_saturated(void **state)
{
	(void)state;
	bots_t *b = bots_new(base, 1, 1, 8, 50);
	struct tally t = { 0 };

	bots_job_t j1 = job_for(1, RULE_STANDARD, 0, 60000);
	bots_job_t j2 = job_for(2, RULE_STANDARD, 0, 60000);
	bots_job_t j3 = job_for(3, RULE_STANDARD, 0, 60000);
	int64_t a = bots_submit(b, &j1, on_done, NULL, &t);
	int64_t c = bots_submit(b, &j2, on_done, NULL, &t);
	assert_true(a > 0 && c > 0);
	assert_int_equal(bots_submit(b, &j3, on_done, NULL, &t), BOTS_FULL);
	assert_int_equal(bots_submit(b, &j1, on_done, NULL, &t), BOTS_OWNER_BUSY);
	bots_cancel(b, c);
	assert_true(bots_submit(b, &j3, on_done, NULL, &t) > 0);
	bots_free(b); /* with a search running: stops it, no callbacks */
	assert_int_equal(t.done, 0);
	print_message("  1 worker + 1 waiting: the third room is told BOTS_FULL, a room with a"
		      " search in flight BOTS_OWNER_BUSY; shutdown while busy\n");
}

static void
resubmit_done(uint64_t id, int status, const engine_result_t *r, void *arg)
{
	struct tally *t = arg;

	on_done(id, status, r, arg);
	if (t->resubmit_owner) {
		bots_job_t again = job_for((uint64_t)t->resubmit_owner, RULE_FREESTYLE, 3, 0);
		t->resubmit_owner = 0;
		assert_true(bots_submit(t->pool, &again, resubmit_done, NULL, t) > 0);
	}
}

static void
test_first_come_first_served(void **state)
{
	(void)state;
	bots_t *b = bots_new(base, 1, 8, 8, 50);
	struct tally t = { 0 };
	int64_t ids[5];

	t.pool = b;
	t.resubmit_owner = 1; /* room 1 asks again from its result callback */
	for (int i = 0; i < 5; i++) {
		bots_job_t j = job_for((uint64_t)i + 1, RULE_FREESTYLE, 3, 0);
		ids[i] = bots_submit(b, &j, resubmit_done, NULL, &t);
		assert_true(ids[i] > 0);
	}
	bots_job_t again = job_for(1, RULE_FREESTYLE, 3, 0);
	assert_int_equal(bots_submit(b, &again, on_done, NULL, &t), BOTS_OWNER_BUSY);
	run_until(&t.done, 6, 60000);
	for (int i = 0; i < 5; i++)
		assert_int_equal(t.order[i], ids[i]);
	assert_true(t.order[5] > ids[4]); /* room 1's second search came last */
	bots_free(b);
	print_message("  5 rooms served in order; room 1's next search waits behind the others\n");
}

static void
test_fifty_games(void **state)
{
	(void)state;
	bots_t *b = bots_new(base, 2, 64, 4, 20);
	struct tally t[50];
	int done = 0;

	memset(t, 0, sizeof t);
	for (int i = 0; i < 50; i++) {
		bots_job_t j = job_for((uint64_t)i + 100, (rule_t)(i % 3), 0, 0);
		j.level = 1 + i % 10;
		j.max_depth = 4;
		j.seed = (uint32_t)i;
		assert_true(bots_submit(b, &j, on_done, on_preview, &t[i]) > 0);
	}
	int64_t end = clock_now_ms() + 120000;
	while (done < 50) {
		done = 0;
		for (int i = 0; i < 50; i++)
			done += t[i].done;
		if (clock_now_ms() > end)
			fail_msg("only %d of 50 searches finished", done);
		event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	for (int i = 0; i < 50; i++) {
		position_t p;
		pos_init(&p, (rule_t)(i % 3), 15);
		bots_job_t j = job_for(0, (rule_t)(i % 3), 0, 0);
		for (int k = 0; k < j.nmoves; k++)
			pos_place(&p, j.moves[k]);
		assert_int_equal(t[i].done, 1);
		assert_int_equal(t[i].status, 0);
		assert_int_equal(t[i].bad_thread, 0);
		assert_int_equal(pos_check(&p, t[i].result.best), LEGAL_OK);
	}
	bots_free(b);
	print_message("  50 rooms' searches (3 rules, levels 1-10) on 2 workers, all legal\n");
}

struct act_tally {
	int done, status, bad_thread;
	opening_act_t act;
	char why[32];
};

static void
on_act(uint64_t id, int status, const opening_act_t *a, const char *why, void *arg)
{
	struct act_tally *t = arg;

	(void)id;
	if (!pthread_equal(pthread_self(), loop_thread))
		t->bad_thread++;
	t->done++;
	t->status = status;
	if (a)
		t->act = *a;
	snprintf(t->why, sizeof t->why, "%s", why ? why : "");
}

/* A RIF opening at its offers: D2 Keigetsu, the second player stayed
 * white (logged "3:cw"), white's fourth on g9. */
static bots_job_t
rif_offer_job(uint64_t owner)
{
	bots_job_t j;
	static const move_t stones[] = { 7 * 20 + 7, 6 * 20 + 7, 5 * 20 + 8, 8 * 20 + 6 };

	memset(&j, 0, sizeof j);
	j.owner = owner;
	j.rule = RULE_RENJU;
	j.size = 15;
	j.nmoves = 4;
	memcpy(j.moves, stones, sizeof stones);
	j.level = 5;
	j.max_depth = 3;
	j.soft_ms = 2000;
	j.hard_ms = 4000;
	j.seed = 9;
	j.orule = ORULE_RIF;
	j.actor = 0;
	snprintf(j.olog, sizeof j.olog, "3:cw");
	return j;
}

static int64_t sent_id;
static bots_job_t sent_job;

static int
capture_send(void *arg, int64_t id, const bots_job_t *job)
{
	(void)arg;
	sent_id = id;
	sent_job = *job;
	return 0;
}

static void
test_opening_job(void **state)
{
	(void)state;
	bots_t *b = bots_new(base, 1, 4, 8, 0);
	struct act_tally t = { 0 };
	opening_t o;
	int used;

	assert_non_null(b);
	bots_job_t j = rif_offer_job(1);
	/* a move's entry point takes no opening job */
	j.opening = 1;
	assert_int_equal(bots_submit(b, &j, on_done, NULL, &t), BOTS_FULL);
	assert_true(bots_submit_opening(b, &j, on_act, &t) > 0);
	run_until(&t.done, 1, 60000);
	assert_int_equal(t.bad_thread, 0);
	assert_int_equal(t.status, 0);
	assert_int_equal(t.act.kind, OACT_OFFER);
	assert_int_equal(t.act.n, 2);
	assert_true(t.why[0] != '\0');
	assert_int_equal(opening_init(&o, ORULE_RIF, RULE_RENJU, 15), OERR_OK);
	assert_int_equal(opening_replay(&o, j.olog, j.moves, j.nmoves, &used), OERR_OK);
	assert_int_equal(opening_apply(&o, 0, &t.act), OERR_OK);
	/* a log that does not replay: no act */
	memset(&t, 0, sizeof t);
	snprintf(j.olog, sizeof j.olog, "3:zz");
	assert_true(bots_submit_opening(b, &j, on_act, &t) > 0);
	run_until(&t.done, 1, 60000);
	assert_int_equal(t.status, -1);
	/* the other player's turn: no act either */
	memset(&t, 0, sizeof t);
	j = rif_offer_job(1);
	j.actor = 1;
	assert_true(bots_submit_opening(b, &j, on_act, &t) > 0);
	run_until(&t.done, 1, 60000);
	assert_int_equal(t.status, -1);
	bots_free(b);

	/* remote: the job goes out as an opening job, the act comes back */
	bots_t *r = bots_new(base, 0, 4, 8, 0);
	struct bots_remote tr = { capture_send, NULL, NULL };
	assert_non_null(r);
	bots_set_remote(r, &tr);
	memset(&t, 0, sizeof t);
	j = rif_offer_job(2);
	int64_t id = bots_submit_opening(r, &j, on_act, &t);
	assert_true(id > 0);
	assert_int_equal(sent_id, id);
	assert_true(sent_job.opening);
	assert_string_equal(sent_job.olog, "3:cw");
	opening_act_t a = { .kind = OACT_CHOOSE, .moves = { 7 * 20 + 8 } };
	engine_result_t move = { .best = 1 };
	assert_int_equal(bots_remote_done(r, id, 0, &move), -1); /* a move is no act */
	assert_int_equal(bots_remote_act_done(r, id, 0, &a), 0);
	assert_int_equal(t.done, 1);
	assert_int_equal(t.status, 0);
	assert_int_equal(t.act.kind, OACT_CHOOSE);
	assert_int_equal(t.act.moves[0], 7 * 20 + 8);
	assert_int_equal(bots_remote_act_done(r, id, 0, &a), -1); /* done already */
	bots_free(r);
}

/* The machine a job rebuilds, from o's log, is the one it was made from;
 * a log that does not lead to o makes no job. */
static void
assert_rebuilt(const opening_t *o, const char *log)
{
	bots_job_t j;
	opening_t m;
	int used;

	memset(&j, 0, sizeof j);
	assert_int_equal(bots_opening_job(&j, o, log, o->actor), 0);
	if (log[0]) {
		bots_job_t k;
		assert_int_equal(bots_opening_job(&k, o, "", o->actor), -1);
	}
	assert_true(j.opening);
	assert_int_equal(j.orule, o->rule);
	assert_int_equal(j.actor, o->actor);
	assert_int_equal(opening_init(&m, (opening_rule_t)j.orule, j.rule, j.size), OERR_OK);
	if (opening_replay(&m, j.olog, j.moves, j.nmoves, &used) != OERR_OK)
		fail_msg("%s: log \"%s\" does not replay", opening_rule_name(o->rule), j.olog);
	assert_int_equal(used, o->pos.nmoves);
	assert_int_equal(m.step, o->step);
	assert_int_equal(m.stage, o->stage);
	assert_int_equal(m.actor, o->actor);
	assert_int_equal(m.black, o->black);
	assert_int_equal(m.swaps, o->swaps);
	assert_int_equal(m.declared, o->declared);
	assert_int_equal(m.branch, o->branch);
	assert_int_equal(m.noffers, o->noffers);
	assert_memory_equal(m.offers, o->offers, sizeof m.offers);
	assert_memory_equal(m.pos.moves, o->pos.moves, sizeof m.pos.moves[0] * o->pos.nmoves);
}

static void
test_opening_log(void **state)
{
	(void)state;
	static const struct {
		opening_rule_t orule;
		rule_t rule;
	} rules[] = {
		{ ORULE_NONE, RULE_RENJU },
		{ ORULE_SWAP2, RULE_FREESTYLE },
		{ ORULE_SWAP, RULE_STANDARD },
		{ ORULE_PRO, RULE_FREESTYLE },
		{ ORULE_LONGPRO, RULE_FREESTYLE },
		{ ORULE_RIF, RULE_RENJU },
		{ ORULE_YAMAGUCHI, RULE_RENJU },
		{ ORULE_TARAGUCHI10, RULE_RENJU },
		{ ORULE_SOOSORV8, RULE_RENJU },
	};
	engine_t *e = engine_new(4);
	int swaps = 0;

	assert_non_null(e);
	for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++)
		for (uint32_t seed = 0; seed < 6; seed++) {
			opening_t o;
			opening_act_t a;
			/* level 1: colours and branches nearly at random */
			openbot_limits_t l = openbot_default_limits();
			l.level = 1;
			l.seed = seed * 31 + (uint32_t)k;
			l.max_nodes = 300;
			l.max_depth = 1;
			assert_int_equal(
			    opening_init(&o, rules[k].orule, rules[k].rule, 15), OERR_OK);
			char log[OPENING_LOG_MAX] = "";
			while (!opening_done(&o)) {
				assert_rebuilt(&o, log);
				int actor = o.actor;
				if (o.stage == OSTAGE_BRANCH && seed & 1) {
					/* the ten offers too, which a bot seldom takes */
					memset(&a, 0, sizeof a);
					a.kind = OACT_BRANCH;
					a.arg = OBRANCH_TEN;
				} else {
					assert_int_equal(
					    openbot_decide(e, &o, actor, &l, &a, NULL), 0);
				}
				int stones = o.pos.nmoves;
				assert_int_equal(opening_apply(&o, actor, &a), OERR_OK);
				if (!opening_act_stone(&a))
					assert_int_equal(opening_log_append(log, sizeof log, stones,
							     &a, o.pos.size),
					    0);
				l.seed++;
			}
			swaps += o.swaps;
		}
	assert_true(swaps > 0);
	engine_free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_result_and_previews),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_saturated),
		cmocka_unit_test(test_first_come_first_served),
		cmocka_unit_test(test_fifty_games),
		cmocka_unit_test(test_opening_job),
		cmocka_unit_test(test_opening_log),
	};
	return cmocka_run_group_tests_name("bots", tests, setup, teardown);
}
