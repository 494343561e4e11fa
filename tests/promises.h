/*
 * promises.h: the numbers that public headers promise, for the tests that
 * hold them to it. Each must equal what its header's comment says.
 */
#ifndef GOMOKU_TESTS_PROMISES_H
#define GOMOKU_TESTS_PROMISES_H

enum {
	/* engine/engine.h, engine_stop: engine_search returns within this many
	 * ms of the call. Measured on a shared 2-core machine, in the default,
	 * ASan+UBSan and TSan builds alike: under 1 ms idle, up to 10 ms at load
	 * 3, up to 24 ms at load 5; the engine polls the flag at every node, the
	 * rest is the searching thread waiting for a CPU. make bench-stop
	 * measures it; test_engine checks only that a stop is honoured. */
	PROMISE_ENGINE_STOP_MS = 50,
};

#endif
