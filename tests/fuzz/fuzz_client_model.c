/*
 * fuzz_client_model: arbitrary server output must never crash the
 * client's model. Input is split into lines; a line starting with '>'
 * records a request as sent (its second byte picks the request), anything
 * else goes through proto_parse and model_apply, like net.c and session.c
 * do. After each line the renderer's queries are exercised (the
 * tournaments' words too).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "client/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static model_t m;
	model_init(&m);
	size_t i = 0;
	int64_t now = 0;
	while (i < size) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		size_t len = nl ? (size_t)(nl - (data + i)) : size - i;
		char line[PROTO_LINE_MAX + 1];
		if (len <= PROTO_LINE_MAX) {
			memcpy(line, data + i, len);
			line[len] = '\0';
			if (len >= 2 && line[0] == '>') {
				model_sent(&m,
				    (proto_id_t)(PR_HELLO +
					(uint8_t)line[1] % (PR_QUIT - PR_HELLO + 1)));
			} else {
				proto_msg_t x;
				if (proto_parse(line, len, PROTO_SERVER, &x, NULL, 0) == 0)
					model_apply(&m, &x, now);
			}
		}
		now += 100;
		for (int c = 0; c < RULES_CELLS; c += 7) {
			(void)model_cand_rank(&m, (move_t)c);
			(void)model_is_win_cell(&m, (move_t)c);
		}
		(void)model_clock(&m, STONE_BLACK, now);
		(void)model_clock(&m, STONE_WHITE, now);
		(void)model_offer_to_me(&m);
		(void)model_chat_line(&m, 0);
		/* the tournaments' words (`tournaments`) */
		char t[512];
		model_tourney_next_text(&m, 1796000000 + now / 1000, t, sizeof t);
		model_tourney_state_text(&m.tourney, 1796000000 + now / 1000, t, sizeof t);
		for (int k = 0; k < m.ntplayers; k++) {
			model_tourney_rank(&m, k, t, sizeof t);
			model_tourney_points(m.tourney.kind, m.tplayers[k].points, t, sizeof t);
			for (int j = 0; j < m.tplayers[k].ntb; j++)
				model_tourney_tiebreak(
				    m.tourney.kind, j, m.tplayers[k].tb[j], t, sizeof t);
		}
		for (int k = 0; k < m.ntgames; k++)
			model_tgame_text(&m.tgames[k], t, sizeof t);
		(void)model_tourney_room(&m, m.room);
		if (m.record_ready) {
			position_t p;
			char err[64];
			(void)model_record_position(&m, &p, err, sizeof err);
		}
		i += len + 1;
	}
	return 0;
}
