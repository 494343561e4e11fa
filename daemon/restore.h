/* restore.h: at start, the games the store holds unfinished come back as
 * rooms: their players away until they RESUME, their bots at the table. */
#ifndef GOMOKUD_RESTORE_H
#define GOMOKUD_RESTORE_H

struct server;
struct room;
struct archive_saved;

/* The number of games restored, or -1 (logged) when the store fails. */
int restore_games(struct server *srv);
/* One saved game back on a table (at start, or adopted from another node):
 * bots sit at once, people on RESUME. 0 with *room (may be NULL), or -1
 * with *why. */
int restore_game(
    struct server *srv, const struct archive_saved *sv, struct room **room, const char **why);

#endif
