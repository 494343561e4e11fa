/*
 * test_workq.c: the work queue with jobs that are not searches (scrypt
 * password checks, as the daemon's logins will run): done runs on the loop
 * thread once per job, a job cancelled while waiting gets its done later
 * (never inside workq_cancel), and freeing the queue ends every job; jobs
 * submitted with workq_submit_batch run together with the jobs of the same
 * batch function queued right behind them, never past another kind, at
 * most WORKQ_BATCH_MAX at once, their done callbacks in queue order;
 * background jobs wait behind every other job, cancelled ones of either
 * kind leave the order of the rest as it was, and each kind has its own
 * queue_max places.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include <cmocka.h>
#include <event2/event.h>

#include "daemon/auth.h"
#include "daemon/workq.h"

static struct event_base *base;
static pthread_t loop_thread;

struct login {
	char password[32];
	char stored[AUTH_HASH_MAX];
	int verdict; /* set on the worker */
	int done, cancelled, bad_thread;
	int *finished; /* shared count of done callbacks */
};

static void
run_verify(workq_job_t *job, void *ctx, void *arg)
{
	struct login *l = arg;

	(void)job;
	/* no cmocka asserts off the main thread: a wrong context shows as -2 */
	l->verdict = ctx == NULL ? auth_verify_password(l->password, l->stored) : -2;
}

static void
on_done(int64_t id, int cancelled, void *arg)
{
	struct login *l = arg;

	(void)id;
	if (!pthread_equal(pthread_self(), loop_thread))
		l->bad_thread++;
	l->done++;
	l->cancelled = cancelled;
	(*l->finished)++;
}

static void
spin_until(const int *count, int want)
{
	for (int i = 0; *count < want; i++) {
		if (i > 60000)
			fail_msg("waited a minute for %d callbacks, got %d", want, *count);
		event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
}

static void
test_logins_off_the_loop(void **state)
{
	(void)state;
	const auth_cost_t cost = { 12, 8, 1 };
	static struct login l[6];
	int finished = 0;
	workq_t *q = workq_new(base, 2, 8, NULL, NULL, NULL, 0);

	assert_non_null(q);
	char stored[AUTH_HASH_MAX];
	assert_int_equal(auth_hash_password("hunter2", &cost, stored), 0);
	for (int i = 0; i < 6; i++) {
		memset(&l[i], 0, sizeof l[i]);
		snprintf(l[i].password, sizeof l[i].password, "%s", i % 2 ? "wrong" : "hunter2");
		snprintf(l[i].stored, sizeof l[i].stored, "%s", stored);
		l[i].finished = &finished;
		assert_true(workq_submit(q, (uint64_t)i, run_verify, on_done, NULL, &l[i]) > 0);
	}
	spin_until(&finished, 6);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(l[i].done, 1);
		assert_int_equal(l[i].cancelled, 0);
		assert_int_equal(l[i].bad_thread, 0);
		assert_int_equal(l[i].verdict, i % 2 ? 0 : 1);
	}
	workq_free(q);
	print_message("  6 scrypt checks on 2 workers, verdicts right, done on the loop thread\n");
}

static void
test_cancel_and_free(void **state)
{
	(void)state;
	const auth_cost_t slow = { 16, 8, 1 }; /* ~0.2 s a check: keeps the worker busy */
	static struct login l[3];
	int finished = 0;
	workq_t *q = workq_new(base, 1, 4, NULL, NULL, NULL, 0);
	int64_t id[3];

	char stored[AUTH_HASH_MAX];
	assert_int_equal(auth_hash_password("pw", &slow, stored), 0);
	for (int i = 0; i < 3; i++) {
		memset(&l[i], 0, sizeof l[i]);
		snprintf(l[i].password, sizeof l[i].password, "pw");
		snprintf(l[i].stored, sizeof l[i].stored, "%s", stored);
		l[i].finished = &finished;
		id[i] = workq_submit(q, (uint64_t)i + 1, run_verify, on_done, NULL, &l[i]);
		assert_true(id[i] > 0);
	}
	workq_cancel(q, id[1]);        /* waiting behind job 0 */
	assert_int_equal(finished, 0); /* not inside workq_cancel */
	spin_until(&l[1].done, 1);
	assert_int_equal(l[1].cancelled, 1);
	assert_int_equal(l[1].verdict, 0); /* never ran */
	workq_free(q); /* job 0 may be running, job 2 waiting: both end, cancelled */
	assert_int_equal(finished, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(l[i].done, 1);
	assert_int_equal(l[2].cancelled, 1);
	print_message("  a waiting job cancelled gets done(cancelled) from the loop; free ends"
		      " the rest, each exactly once\n");
}

/* Batches: what the worker saw (written on the worker, read after). */
static atomic_int gate;
static int calls[16], ncalls; /* each call's job count, negative for batch_b */
static int order[128], norder;

static void
run_gate(workq_job_t *job, void *ctx, void *arg)
{
	(void)job;
	(void)ctx;
	(void)arg;
	while (!atomic_load(&gate)) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	calls[ncalls++] = 1;
}

static void
batch_a(void *ctx, void *const *args, int n)
{
	(void)ctx;
	(void)args;
	if (ncalls < 16)
		calls[ncalls++] = n;
}

static void
batch_b(void *ctx, void *const *args, int n)
{
	(void)ctx;
	(void)args;
	if (ncalls < 16)
		calls[ncalls++] = -n;
}

static void
on_order(int64_t id, int cancelled, void *arg)
{
	(void)id;
	(void)cancelled;
	order[norder++] = (int)(intptr_t)arg;
}

/* n batch jobs of fn, numbered from k on (their owners too): the next k. */
static int
submit_batch(workq_t *q, workq_batch_fn fn, int k, int n)
{
	for (int i = 0; i < n; i++, k++)
		assert_true(
		    workq_submit_batch(q, (uint64_t)k, fn, on_order, (void *)(intptr_t)k) > 0);
	return k;
}

static void
test_batches(void **state)
{
	(void)state;
	workq_t *q = workq_new(base, 1, 128, NULL, NULL, NULL, 0);
	assert_non_null(q);
	atomic_store(&gate, 0);
	ncalls = norder = 0;
	int k = 0;
	/* the worker waits on the gate while the rest queue behind it */
	assert_true(workq_submit(q, 1000, run_gate, on_order, NULL, (void *)(intptr_t)k++) > 0);
	k = submit_batch(q, batch_a, k, 3);
	assert_true(workq_submit(q, 1001, run_gate, on_order, NULL, (void *)(intptr_t)k++) > 0);
	k = submit_batch(q, batch_a, k, WORKQ_BATCH_MAX + 6);
	k = submit_batch(q, batch_b, k, 2);
	atomic_store(&gate, 1);
	spin_until(&norder, k);
	/* the gate; three of a; the second gate (another kind: the batch
	 * stops before it); 64 of a, then the 6 left; 2 of b */
	const int want[] = { 1, 3, 1, WORKQ_BATCH_MAX, 6, -2 };
	assert_int_equal(ncalls, 6);
	for (int i = 0; i < 6; i++)
		assert_int_equal(calls[i], want[i]);
	for (int i = 0; i < k; i++)
		assert_int_equal(order[i], i);
	workq_free(q);
	print_message("  %d jobs: batches of the same function only, never past another kind,"
		      " at most %d, done in queue order\n",
	    k, WORKQ_BATCH_MAX);
}

static void
run_nothing(workq_job_t *job, void *ctx, void *arg)
{
	(void)job;
	(void)ctx;
	(void)arg;
}

/* Submits job k of owner k, background or not: its id. */
static int64_t
submit_k(workq_t *q, int background, int k)
{
	if (background)
		return workq_submit_background(
		    q, (uint64_t)k, run_nothing, on_order, NULL, (void *)(intptr_t)k);
	return workq_submit(q, (uint64_t)k, run_nothing, on_order, NULL, (void *)(intptr_t)k);
}

static void
test_background(void **state)
{
	(void)state;
	workq_t *q = workq_new(base, 1, 8, NULL, NULL, NULL, 0);
	assert_non_null(q);
	atomic_store(&gate, 0);
	ncalls = norder = 0;
	assert_true(workq_submit(q, 1000, run_gate, on_order, NULL, (void *)(intptr_t)0) > 0);
	/* 1 and 3 background, 2 and 4 not; 5 cancelled (the last of the
	 * others: 6 goes behind 4), 7 background and cancelled (the tail) */
	assert_true(submit_k(q, 1, 1) > 0);
	assert_true(submit_k(q, 0, 2) > 0);
	assert_true(submit_k(q, 1, 3) > 0);
	assert_true(submit_k(q, 0, 4) > 0);
	int64_t five = submit_k(q, 0, 5);
	int64_t seven = submit_k(q, 1, 7);
	assert_true(five > 0 && seven > 0);
	workq_cancel(q, five);
	workq_cancel(q, seven);
	assert_true(submit_k(q, 0, 6) > 0);
	atomic_store(&gate, 1);
	spin_until(&norder, 8);
	/* the cancelled ones end first (from the loop), then the queue */
	const int want[] = { 5, 7, 0, 2, 4, 6, 1, 3 };
	for (int i = 0; i < 8; i++)
		assert_int_equal(order[i], want[i]);

	/* a busy worker, 8 background jobs waiting: the 9th is refused, and
	 * another kind still has its 8 places */
	atomic_store(&gate, 0);
	norder = 0;
	assert_true(workq_submit(q, 1000, run_gate, on_order, NULL, (void *)(intptr_t)0) > 0);
	for (int queued = 1, running = 0; queued || !running;) { /* the worker took it */
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
		workq_load(q, &queued, &running);
	}
	for (int i = 1; i <= 8; i++)
		assert_true(submit_k(q, 1, 10 + i) > 0);
	assert_int_equal(submit_k(q, 1, 19), WORKQ_FULL);
	for (int i = 1; i <= 8; i++)
		assert_true(submit_k(q, 0, 20 + i) > 0);
	assert_int_equal(submit_k(q, 0, 29), WORKQ_FULL);
	atomic_store(&gate, 1);
	spin_until(&norder, 17);
	for (int i = 1; i <= 8; i++) {
		assert_int_equal(order[i], 20 + i);
		assert_int_equal(order[8 + i], 10 + i);
	}
	workq_free(q);
	print_message("  background jobs run after every other waiting job, with places of"
		      " their own\n");
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_logins_off_the_loop),
		cmocka_unit_test(test_cancel_and_free),
		cmocka_unit_test(test_batches),
		cmocka_unit_test(test_background),
	};
	return cmocka_run_group_tests_name("workq", tests, setup, teardown);
}
