/*
 * filter.c: the challenges gomoku-bot accepts.
 */
#include "bot/filter.h"

#include <stdio.h>
#include <strings.h>

int
filter_opening_ok(const bot_conf_t *c, proto_opening_t o)
{
	return o == OPENING_NONE || (o == OPENING_SWAP2 && c->brain_swap2);
}

static int
listed(const char list[][PROTO_NAME_MAX + 1], int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcasecmp(list[i], name))
			return 1;
	return 0;
}

const char *
filter_challenge(const bot_conf_t *c, const proto_msg_t *ch, int games_now)
{
	if (listed(c->block, c->nblock, ch->user))
		return "opponent blocked";
	if (c->nallow && !listed(c->allow, c->nallow, ch->user))
		return "opponent not allowed";
	if (!filter_opening_ok(c, ch->opening))
		return "opening rule the brain cannot play";
	if (!(c->rules & 1u << ch->rule))
		return "rule not accepted";
	if (!(c->sizes & 1u << ch->size))
		return "size not accepted";
	if (ch->tc_base == 0 && !c->untimed)
		return "untimed games not accepted";
	if (ch->tc_base != 0 &&
	    (ch->tc_base < c->base_min || ch->tc_base > c->base_max || ch->tc_inc < c->inc_min ||
		ch->tc_inc > c->inc_max))
		return "time control out of range";
	if (ch->rated ? !c->rated : !c->casual)
		return ch->rated ? "rated games not accepted" : "casual games not accepted";
	if (games_now >= c->max_games)
		return "max-games reached";
	return NULL;
}
