/* log.h: one line per event on stderr, with a level. Under systemd
 * (JOURNAL_STREAM set) lines carry the <N> priority prefix journald reads. */
#ifndef GOMOKUD_LOG_H
#define GOMOKUD_LOG_H

enum { LOGL_ERROR, LOGL_WARN, LOGL_INFO, LOGL_DEBUG };

struct logger {
	int level;
	int journald;
};

void log_init(struct logger *lg, int level);
/* "error", "warn", "info", "debug"; -1 if unknown. */
int log_level_parse(const char *s);
void log_at(const struct logger *lg, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define log_error(lg, ...) log_at((lg), LOGL_ERROR, __VA_ARGS__)
#define log_warn(lg, ...) log_at((lg), LOGL_WARN, __VA_ARGS__)
#define log_info(lg, ...) log_at((lg), LOGL_INFO, __VA_ARGS__)
#define log_debug(lg, ...) log_at((lg), LOGL_DEBUG, __VA_ARGS__)

#endif
