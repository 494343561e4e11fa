/*
 * session.c: placeholder until the interactive client lands.
 */
#include "client/session.h"

#include <stdio.h>

int session_run(struct event_base *base, const net_opts_t *o, const session_opts_t *so)
{
	(void)base;
	(void)o;
	(void)so;
	fprintf(stderr, "gomoku: the interactive client is not built yet; use --script\n");
	return 2;
}
