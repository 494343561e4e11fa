/*
 * spiral.h: the points of a 15x15 board spiralling out from the centre, a
 * player's moves in the daemon tests (each point is tried in turn, so the
 * server's refusals steer it).
 */
#ifndef GOMOKUD_TEST_SPIRAL_H
#define GOMOKUD_TEST_SPIRAL_H

static void
make_spiral(int spiral[225][2])
{
	int x = 7, y = 7, n = 0, step = 1, dir = 0;
	static const int dx[4] = { 1, 0, -1, 0 }, dy[4] = { 0, 1, 0, -1 };

	spiral[n][0] = x;
	spiral[n][1] = y;
	n++;
	while (n < 225) {
		for (int rep = 0; rep < 2 && n < 225; rep++) {
			for (int k = 0; k < step && n < 225; k++) {
				x += dx[dir];
				y += dy[dir];
				if (x >= 0 && y >= 0 && x < 15 && y < 15) {
					spiral[n][0] = x;
					spiral[n][1] = y;
					n++;
				}
			}
			dir = (dir + 1) % 4;
		}
		step++;
	}
}

#endif
