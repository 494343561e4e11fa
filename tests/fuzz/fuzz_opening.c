/*
 * fuzz_opening.c: libFuzzer target for the opening machines
 * (rules/opening.h). The input picks an opening rule, a rule and a size,
 * then acts of any kind by either player with any arguments. A refused act
 * must leave the machine as it was; an accepted one is logged as the store
 * logs it, and after every act the log and the stones must play the
 * machine back exactly (opening_replay), as a restart does. Logs made of
 * the input's own bytes must be refused or played back without harm.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/opening.h"

/* The machine after the replay of log and o's stones equals o. */
static void
check_replay(const opening_t *o, const char *log)
{
	opening_t r;
	int used;
	if (opening_init(&r, (opening_rule_t)o->rule, (rule_t)o->pos.rule, o->pos.size) !=
		OERR_OK ||
	    opening_replay(&r, log, o->pos.moves, o->pos.nmoves, &used) != OERR_OK ||
	    used != o->pos.nmoves || memcmp(&r, o, sizeof r) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	opening_t o;
	char log[OPENING_LOG_MAX] = "";

	if (size < 3)
		return 0;
	opening_rule_t orule = (opening_rule_t)(data[0] % ORULE_COUNT);
	rule_t rule = (rule_t)(data[1] % 3);
	int bsize = RULES_MIN_SIZE + data[2] % (RULES_MAX_SIZE - RULES_MIN_SIZE + 1);
	if (opening_init(&o, orule, rule, bsize) != OERR_OK) {
		/* a log of the input's bytes on a sound machine: no harm */
		if (opening_init(&o, ORULE_SOOSORV8, RULE_RENJU, 15) != OERR_OK)
			abort();
		char junk[OPENING_LOG_MAX];
		size_t n = size - 3 < sizeof junk - 1 ? size - 3 : sizeof junk - 1;
		memcpy(junk, data + 3, n);
		junk[n] = '\0';
		int used;
		move_t none[1] = { 0 };
		(void)opening_replay(&o, junk, none, 0, &used);
		return 0;
	}
	for (size_t i = 3; i + 2 < size && !opening_done(&o); i += 3) {
		opening_act_t a;
		memset(&a, 0, sizeof a);
		a.kind = (uint8_t)(data[i] % OACT_COUNT);
		int player = data[i] >> 7;
		a.n = (uint8_t)(data[i + 1] % (OPENING_MAX_OFFERS + 2));
		a.arg = (uint8_t)(data[i + 1] % 3);
		/* moves near the centre mostly, so that areas are met */
		for (int k = 0; k < OPENING_MAX_OFFERS; k++) {
			int c = (bsize - 1) / 2, d = (data[i + 2] + 37 * k) % 81;
			a.moves[k] = rules_move(c - 4 + d % 9, c - 4 + d / 9);
		}
		if (a.kind == OACT_OFFER && data[i + 2] & 1)
			a.moves[1] = a.moves[0]; /* a duplicate now and then */
		if (data[i + 2] == 0xff)
			player = o.actor; /* the right player, often enough */
		opening_t before = o;
		int stones = o.pos.nmoves;
		if (opening_apply(&o, player, &a) != OERR_OK) {
			if (memcmp(&before, &o, sizeof o) != 0)
				abort(); /* a refusal changed the machine */
			continue;
		}
		if (!opening_act_stone(&a) &&
		    opening_log_append(log, sizeof log, stones, &a, bsize) != 0)
			abort(); /* every rule's acts fit the log */
		check_replay(&o, log);
	}
	return 0;
}
