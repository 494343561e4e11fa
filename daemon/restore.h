/* restore.h: at start, the games the store holds unfinished come back as
 * rooms: their players away until they RESUME, their bots at the table. */
#ifndef GOMOKUD_RESTORE_H
#define GOMOKUD_RESTORE_H

struct server;

/* The number of games restored, or -1 (logged) when the store fails. */
int restore_games(struct server *srv);

#endif
