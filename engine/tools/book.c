/* book.c: the self-play tools' opening book and mixer (book.h). */
#include "engine/tools/book.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

uint32_t
book_mix(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t h = a * 2654435761u ^ (b + 0x9e3779b9u) * 2246822519u ^ (c + 7u) * 3266489917u;
	h ^= h >> 15;
	h *= 2246822519u;
	h ^= h >> 13;
	return h;
}

int
book_load(const char *prog, const char *path, rule_t rule, int size, book_t *b)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int ln = 0;

	b->n = 0;
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		position_t pos;
		int n = 0;
		ln++;
		line[strcspn(line, "#\n")] = 0;
		pos_init(&pos, rule, size);
		for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t;
		     t = strtok_r(NULL, " \t\r", &save)) {
			move_t m;
			if (n == OPEN_MAX || b->n == BOOK_MAX ||
			    notation_parse_xy(t, size, &m) != 0 || pos_play(&pos, m) != LEGAL_OK ||
			    pos.outcome.kind != RESULT_ONGOING) {
				fprintf(stderr,
				    "%s: %s:%d: '%s' is not a stone the book may have\n", prog,
				    path, ln, t);
				fclose(f);
				return -1;
			}
			b->mv[b->n][n++] = m;
		}
		if (n)
			b->len[b->n++] = n;
	}
	fclose(f);
	if (!b->n)
		fprintf(stderr, "%s: %s has no opening\n", prog, path);
	return b->n ? 0 : -1;
}
