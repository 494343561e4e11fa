/*
 * i18n.c: the catalogs through glibc's gettext, the protocol's tokens as
 * words, and text measured in display columns.
 */
#include "client/i18n.h"

#include <libintl.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

/* Where the build puts the catalogs, relative to the program's directory
 * (client/module.mk); installed, they are in ../share/locale. */
#ifndef I18N_BUILD_DIR
#define I18N_BUILD_DIR "../locale"
#endif

static char dir_used[PATH_MAX];

static int
is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

void
i18n_init(void)
{
	setlocale(LC_ALL, "");
	/* the wire's numbers never take a locale's decimal comma */
	setlocale(LC_NUMERIC, "C");
	const char *env = getenv("GOMOKU_LOCALEDIR");
	char exe[PATH_MAX], cand[PATH_MAX + 64];
	dir_used[0] = '\0';
	if (env && env[0]) {
		snprintf(dir_used, sizeof dir_used, "%s", env);
	} else {
		ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
		if (n > 0) {
			exe[n] = '\0';
			char *slash = strrchr(exe, '/');
			if (slash)
				*slash = '\0';
			static const char *const rel[] = { I18N_BUILD_DIR, "../share/locale" };
			for (size_t i = 0; i < sizeof rel / sizeof rel[0] && !dir_used[0]; i++) {
				snprintf(cand, sizeof cand, "%s/%s", exe, rel[i]);
				if (is_dir(cand) && strlen(cand) < sizeof dir_used)
					snprintf(dir_used, sizeof dir_used, "%s", cand);
			}
		}
	}
	if (dir_used[0])
		bindtextdomain(I18N_DOMAIN, dir_used);
	textdomain(I18N_DOMAIN);
}

const char *
i18n_dir(void)
{
	return dir_used;
}

/* gettext's form of a message with a context: "key\004English". */
const char *
i18n_tr(const char *key, const char *en)
{
	char buf[2048];
	size_t kl = strlen(key), el = strlen(en);
	if (kl + el + 2 > sizeof buf)
		return en;
	memcpy(buf, key, kl);
	buf[kl] = '\004';
	memcpy(buf + kl + 1, en, el + 1);
	const char *t = dgettext(I18N_DOMAIN, buf);
	return t == buf ? en : t;
}

struct text {
	const char *key, *en;
};

static const char *
pick(const struct text *t, size_t n, size_t i)
{
	return i < n ? i18n_tr(t[i].key, t[i].en) : "?";
}

#define PICK(table, i) pick(table, sizeof table / sizeof table[0], (size_t)(i))

static const struct {
	int code;
	struct text t;
} errors[] = {
	{ ERR_SYNTAX, { NTR("err.400", "The server could not read that request") } },
	{ ERR_UNKNOWN, { NTR("err.401", "The server does not know that request") } },
	{ ERR_ARGUMENT, { NTR("err.402", "A value in that request is out of range") } },
	{ ERR_TOO_LONG, { NTR("err.403", "That line was too long; disconnected") } },
	{ ERR_UTF8, { NTR("err.404", "That text holds characters the server refuses") } },
	{ ERR_HELLO_FIRST, { NTR("err.405", "The greeting must come first") } },
	{ ERR_VERSION,
	    { NTR("err.406", "This client and the server speak different protocol versions") } },
	{ ERR_RATE, { NTR("err.407", "Too fast: wait a moment before sending more") } },
	{ ERR_LOGIN_FIRST, { NTR("err.410", "Choose a name or log in first") } },
	{ ERR_LOGGED_IN, { NTR("err.411", "You already have a name on this connection") } },
	{ ERR_NAME_TAKEN, { NTR("err.412", "That name is taken (or reserved); pick another") } },
	{ ERR_CREDENTIALS, { NTR("err.413", "Wrong name or password") } },
	{ ERR_BANNED, { NTR("err.414", "You are banned from this server") } },
	{ ERR_MUTED, { NTR("err.415", "You are muted: chat is closed to you for now") } },
	{ ERR_NOT_ADMIN, { NTR("err.416", "Only the server's admins can do that") } },
	{ ERR_ACCOUNT_ONLY,
	    { NTR("err.417",
		"Rated games need an account: register or log in to play rated, or play "
		"casual") } },
	{ ERR_NO_ROOM, { NTR("err.420", "That room does not exist (any more)") } },
	{ ERR_NO_USER, { NTR("err.421", "Nobody of that name is online") } },
	{ ERR_NO_CODE, { NTR("err.422", "No private room has that invite code; check it") } },
	{ ERR_NO_OFFER, { NTR("err.423", "That offer or challenge is no longer open") } },
	{ ERR_NO_SEEK, { NTR("err.424", "You have no seek to cancel") } },
	{ ERR_NOT_PLAYER, { NTR("err.430", "Only the players can do that") } },
	{ ERR_NOT_TURN, { NTR("err.431", "It is not your turn") } },
	{ ERR_OCCUPIED, { NTR("err.432", "That point is already taken") } },
	{ ERR_OFF_BOARD, { NTR("err.433", "That point is off the board") } },
	{ ERR_DOUBLE_THREE, { NTR("err.434", "Forbidden for black under renju: a double three") } },
	{ ERR_DOUBLE_FOUR, { NTR("err.435", "Forbidden for black under renju: a double four") } },
	{ ERR_OVERLINE,
	    { NTR("err.436", "Forbidden for black under renju: six or more in a row") } },
	{ ERR_OUTSIDE_AREA,
	    { NTR("err.437",
		"Not there: under renju black's first stone goes on the centre point") } },
	{ ERR_WRONG_COUNT,
	    { NTR("err.438", "That is not the number of fifth-move offers this stage takes") } },
	{ ERR_SYMMETRIC,
	    { NTR("err.439", "Two of those offers are the same move by the board's symmetry") } },
	{ ERR_GAME_OVER, { NTR("err.440", "No game is being played there") } },
	{ ERR_PHASE, { NTR("err.441", "Not now: the game is in another phase") } },
	{ ERR_OFFER_PENDING,
	    { NTR("err.442", "There is already one of those waiting for an answer") } },
	{ ERR_TOO_LATE, { NTR("err.443", "Too late to abort: both sides have moved") } },
	{ ERR_ROOM_FULL, { NTR("err.444", "That room is full") } },
	{ ERR_BUSY, { NTR("err.445", "Not while you (or they) are seeking or playing a game") } },
	{ ERR_NOT_IN_ROOM, { NTR("err.446", "You are not in that room") } },
	{ ERR_NO_CLAIM,
	    { NTR("err.447", "Your opponent is here or still within the grace period") } },
	{ ERR_RESUME,
	    { NTR("err.448",
		"Your seat could not be taken back (the game ended or the session expired)") } },
	{ ERR_SEEKS,
	    { NTR("err.449",
		"Too many open seeks from your address; wait for one of them to be paired") } },
	{ ERR_AWAY,
	    { NTR("err.450",
		"They are away (their connection dropped); try again when they are back") } },
	{ ERR_NOT_OFFERED, { NTR("err.451", "That fifth move was not offered") } },
	{ ERR_IN_GAME,
	    { NTR("err.452", "No analysis while you play a game, nor of a game being played") } },
	{ ERR_OVER_LIMIT,
	    { NTR("err.453", "You have used this hour's analyses; try again later") } },
	{ ERR_PRIVATE_GAME,
	    { NTR("err.454", "That game was played in a private room you were not in") } },
	{ ERR_NOT_REVIEWED,
	    { NTR("err.455", "That game has not been reviewed yet; a review request makes one") } },
	{ ERR_NO_PUZZLE, { NTR("err.456", "No puzzle for you now: none left, or none yet") } },
	{ ERR_NO_TOURNEY, { NTR("err.457", "There is no such tournament") } },
	{ ERR_TOURNEY_CLOSED,
	    { NTR("err.458",
		"That tournament is not open for this now: it has started, ended or is full") } },
	{ ERR_NOT_ELIGIBLE, { NTR("err.459", "That tournament is not open to you") } },
	{ ERR_NO_LEAGUE, { NTR("err.460", "There is no engine league of that name") } },
	{ ERR_INTERNAL, { NTR("err.500", "The server could not do that; try again") } },
	{ ERR_UNAVAILABLE, { NTR("err.501", "This server does not offer that") } },
	{ ERR_SHUTDOWN, { NTR("err.502", "The server is restarting; try again in a moment") } },
	{ ERR_FULL, { NTR("err.503", "The server is full; try again later") } },
	{ ERR_IDLE, { NTR("err.504", "Disconnected after a long silence") } },
	{ ERR_SLOW, { NTR("err.505", "Disconnected: the connection could not keep up") } },
	{ ERR_SERVER_BUSY, { NTR("err.506", "The server is busy; try again shortly") } },
	{ ERR_DRAINING, { NTR("err.507", "No new games now: the server is about to restart") } },
	{ ERR_STORE_DOWN,
	    { NTR("err.508",
		"The server cannot reach its database; nothing changed, try again shortly") } },
};

const char *
i18n_error(int code)
{
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
		if (errors[i].code == code)
			return i18n_tr(errors[i].t.key, errors[i].t.en);
	return TR("err.other", "The server refused that");
}

static const struct text reasons[] = {
	{ NTR("reason.five", "five") },
	{ NTR("reason.resign", "resign") },
	{ NTR("reason.time", "time") },
	{ NTR("reason.forbidden", "forbidden move") },
	{ NTR("reason.draw-agreed", "draw agreed") },
	{ NTR("reason.board-full", "board full") },
	{ NTR("reason.abandoned", "abandoned") },
	{ NTR("reason.aborted", "aborted") },
};

const char *
i18n_reason(proto_reason_t r)
{
	return PICK(reasons, r);
}

static const struct text results[] = {
	{ NTR("result.black", "black") },
	{ NTR("result.white", "white") },
	{ NTR("result.draw", "draw") },
	{ NTR("result.none", "no result") },
};

const char *
i18n_result(proto_result_t r)
{
	return PICK(results, r);
}

static const struct text offers[] = {
	{ NTR("offer.draw", "draw") },
	{ NTR("offer.undo", "undo") },
	{ NTR("offer.rematch", "rematch") },
};

const char *
i18n_offer(proto_offer_t o)
{
	return PICK(offers, o);
}

static const struct text statuses[] = {
	{ NTR("status.waiting", "waiting") },
	{ NTR("status.opening", "opening") },
	{ NTR("status.playing", "playing") },
	{ NTR("status.over", "over") },
};

const char *
i18n_status(proto_status_t s)
{
	return PICK(statuses, s);
}

static const struct text ustates[] = {
	{ NTR("ustate.idle", "idle") },
	{ NTR("ustate.seeking", "seeking") },
	{ NTR("ustate.playing", "playing") },
	{ NTR("ustate.watching", "watching") },
};

const char *
i18n_ustate(proto_ustate_t s)
{
	return PICK(ustates, s);
}

static const struct text colours[] = {
	{ NTR("colour.black", "black") },
	{ NTR("colour.white", "white") },
	{ NTR("colour.any", "any") },
};

const char *
i18n_colour(proto_colour_t c)
{
	return PICK(colours, c);
}

static const struct text openings[] = {
	{ NTR("opening.none", "none") },
	{ NTR("opening.swap2", "swap2") },
	{ NTR("opening.swap", "swap") },
	{ NTR("opening.pro", "pro") },
	{ NTR("opening.longpro", "long pro") },
	{ NTR("opening.rif", "RIF") },
	{ NTR("opening.yamaguchi", "Yamaguchi") },
	{ NTR("opening.soosorv8", "Soosõrv-8") },
	{ NTR("opening.taraguchi10", "Taraguchi-10") },
};

const char *
i18n_opening(proto_opening_t o)
{
	return PICK(openings, o);
}

static const struct text rules[] = {
	{ NTR("rule.freestyle", "freestyle") },
	{ NTR("rule.standard", "standard") },
	{ NTR("rule.renju", "renju") },
};

const char *
i18n_rule(rule_t r)
{
	return PICK(rules, r);
}

static const struct text stages[] = {
	{ NTR("stage.put3", "place 3 stones") },
	{ NTR("stage.choose", "choose a colour or place 2") },
	{ NTR("stage.put2", "place 2 stones") },
	{ NTR("stage.choose2", "choose a colour") },
};

const char *
i18n_stage(proto_stage_t s)
{
	return PICK(stages, s);
}

static const struct text pclasses[] = {
	{ NTR("pclass.vcf", "VCF: win by fours") },
	{ NTR("pclass.vct", "VCT: win by fours and threes") },
};

const char *
i18n_pclass(proto_pclass_t c)
{
	return PICK(pclasses, c);
}

/* Tournaments (section 5.21): the kind, its state, who may enter, a
 * player's status. */
static const struct text tkinds[] = {
	{ NTR("tkind.arena", "arena") },
	{ NTR("tkind.swiss", "Swiss") },
	{ NTR("tkind.robin", "round robin") },
};

const char *
i18n_tkind(proto_tkind_t k)
{
	return PICK(tkinds, k);
}

static const struct text tstates[] = {
	{ NTR("tstate.soon", "starting soon") },
	{ NTR("tstate.running", "under way") },
	{ NTR("tstate.over", "over") },
	{ NTR("tstate.cancelled", "cancelled") },
};

const char *
i18n_tstate(proto_tstate_t s)
{
	return PICK(tstates, s);
}

static const struct text entrants[] = {
	{ NTR("entrants.people", "people only") },
	{ NTR("entrants.bots", "bots only") },
	{ NTR("entrants.both", "people and bots") },
};

const char *
i18n_entrants(proto_entrants_t e)
{
	return PICK(entrants, e);
}

static const struct text tstatuses[] = {
	{ NTR("tstatus.active", "waiting") },
	{ NTR("tstatus.playing", "playing") },
	{ NTR("tstatus.withdrawn", "withdrawn") },
};

const char *
i18n_tstatus(proto_tstatus_t s)
{
	return PICK(tstatuses, s);
}

static const struct text oareas[] = {
	{ NTR("oarea.any", "anywhere") },
	{ NTR("oarea.centre", "on the centre point") },
	{ NTR("oarea.in3", "in the central 3x3") },
	{ NTR("oarea.in5", "in the central 5x5") },
	{ NTR("oarea.in7", "in the central 7x7") },
	{ NTR("oarea.in9", "in the central 9x9") },
	{ NTR("oarea.out5", "outside the central 5x5") },
	{ NTR("oarea.out7", "outside the central 7x7") },
	{ NTR("oarea.offers", "on an offered point") },
};

static const struct text ostages[] = {
	{ NTR("ostage.place", "place a stone") },
	{ NTR("ostage.swap", "choose a colour") },
	{ NTR("ostage.swap_or_place", "choose a colour or place stones") },
	{ NTR("ostage.declare", "declare the number of offers") },
	{ NTR("ostage.offer", "offer fifth moves") },
	{ NTR("ostage.choose", "choose a fifth move") },
	{ NTR("ostage.branch", "choose one or ten") },
};

const char *
i18n_ostage(proto_ostage_t s)
{
	return PICK(ostages, s);
}

const char *
i18n_oarea(proto_oarea_t a)
{
	/* "-" places no stone: no phrase (an empty msgid is the catalog's header) */
	return a == OAREA_WIRE_NONE ? "" : PICK(oareas, (int)a - 1);
}

/* The 26 canonical renju openings in the protocol's order (d1..d13, then
 * i1..i13; section 5.16): their Japanese names, romanised and in kanji
 * (the web board's words.js says the same keys), the Chinese ones in the
 * catalog. */
static const struct text canons[PROTO_CANONS] = {
	{ NTR("canon.d1", "Kansei 寒星") },
	{ NTR("canon.d2", "Keigetsu 渓月") },
	{ NTR("canon.d3", "Sosei 疎星") },
	{ NTR("canon.d4", "Kagetsu 花月") },
	{ NTR("canon.d5", "Zangetsu 残月") },
	{ NTR("canon.d6", "Ugetsu 雨月") },
	{ NTR("canon.d7", "Kinsei 金星") },
	{ NTR("canon.d8", "Shogetsu 松月") },
	{ NTR("canon.d9", "Kyugetsu 丘月") },
	{ NTR("canon.d10", "Shingetsu 新月") },
	{ NTR("canon.d11", "Zuisei 瑞星") },
	{ NTR("canon.d12", "Sangetsu 山月") },
	{ NTR("canon.d13", "Yusei 遊星") },
	{ NTR("canon.i1", "Chosei 長星") },
	{ NTR("canon.i2", "Kyogetsu 峡月") },
	{ NTR("canon.i3", "Kosei 恒星") },
	{ NTR("canon.i4", "Suigetsu 水月") },
	{ NTR("canon.i5", "Ryusei 流星") },
	{ NTR("canon.i6", "Ungetsu 雲月") },
	{ NTR("canon.i7", "Hogetsu 浦月") },
	{ NTR("canon.i8", "Rangetsu 嵐月") },
	{ NTR("canon.i9", "Gingetsu 銀月") },
	{ NTR("canon.i10", "Myojo 明星") },
	{ NTR("canon.i11", "Shagetsu 斜月") },
	{ NTR("canon.i12", "Meigetsu 名月") },
	{ NTR("canon.i13", "Suisei 彗星") },
};

const char *
i18n_canon(int canon, char *buf, size_t n)
{
	if (!n)
		return buf;
	buf[0] = '\0';
	if (canon < 1 || canon > PROTO_CANONS)
		return buf;
	int i = canon - 1;
	snprintf(buf, n, "%c%d %s", i < 13 ? 'D' : 'I', i % 13 + 1, PICK(canons, i));
	return buf;
}

static const struct text ends[] = {
	{ NTR("end.accepted", "accepted") },
	{ NTR("end.declined", "declined") },
	{ NTR("end.withdrawn", "withdrawn") },
	{ NTR("end.expired", "expired") },
};

const char *
i18n_end(proto_end_t e)
{
	return PICK(ends, e);
}

static const struct text presences[] = {
	{ NTR("presence.gone", "went away") },
	{ NTR("presence.back", "is back") },
	{ NTR("presence.joined", "joined") },
	{ NTR("presence.left", "left") },
	{ NTR("presence.here", "is here") },
};

const char *
i18n_presence(proto_presence_t p)
{
	return PICK(presences, p);
}

static const struct {
	const char *word;
	struct text t;
} byes[] = {
	{ "quit", { NTR("bye.quit", "Goodbye") } },
	{ "takeover",
	    { NTR("bye.takeover",
		"Your session went on in another client (a newer login or resume); this one "
		"stops") } },
	{ "shutdown", { NTR("bye.shutdown", "Server restarting, reconnecting...") } },
}, botwhys[] = {
	{ "five", { NTR("botwhy.five", "makes five") } },
	{ "block-five", { NTR("botwhy.block-five", "blocks a four") } },
	{ "open-four", { NTR("botwhy.open-four", "makes an open four") } },
	{ "four-three", { NTR("botwhy.four-three", "makes a four-three") } },
	{ "vcf", { NTR("botwhy.vcf", "wins by continuous fours") } },
	{ "vct", { NTR("botwhy.vct", "wins by continuous threats") } },
	{ "block-open-three", { NTR("botwhy.block-open-three", "answers an open three") } },
	{ "positional", { NTR("botwhy.positional", "a positional move") } },
};

const char *
i18n_bye(const char *word)
{
	for (size_t i = 0; i < sizeof byes / sizeof byes[0]; i++)
		if (strcmp(byes[i].word, word) == 0)
			return i18n_tr(byes[i].t.key, byes[i].t.en);
	return TR("bye.other", "The server closed the connection");
}

const char *
i18n_botwhy_text(const char *reason, char *buf, size_t n)
{
	char w[8];
	int plies = 0;
	/* vcf and vct carry the plies to the win: the attacker's moves are
	 * every other one, its own first and last */
	if (sscanf(reason, "%7s %d", w, &plies) == 2 && plies > 0 &&
	    (strcmp(w, "vcf") == 0 || strcmp(w, "vct") == 0)) {
		snprintf(buf, n,
		    w[2] == 'f' ? TR("botwhy.vcf.n", "wins by fours in %d moves")
				: TR("botwhy.vct.n", "wins by threats in %d moves"),
		    (plies + 1) / 2);
		return buf;
	}
	snprintf(buf, n, "%s", i18n_botwhy(reason));
	return buf;
}

const char *
i18n_botwhy(const char *word)
{
	size_t wl = strcspn(word, " ");
	for (size_t i = 0; i < sizeof botwhys / sizeof botwhys[0]; i++)
		if (strlen(botwhys[i].word) == wl && strncmp(botwhys[i].word, word, wl) == 0)
			return i18n_tr(botwhys[i].t.key, botwhys[i].t.en);
	return TR("botwhy.other", "its own reasons");
}

/* One character of s at p: its length in bytes and its width in columns
 * (a byte the locale cannot read: one byte, one column). */
static size_t
next_char(const char *p, int *cols)
{
	wchar_t wc;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t n = mbrtowc(&wc, p, MB_CUR_MAX, &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		*cols = 1;
		return 1;
	}
	int w = wcwidth(wc);
	*cols = w < 0 ? 1 : w;
	return n;
}

int
i18n_cols(const char *s)
{
	int cols = 0, w;
	for (const char *p = s; *p; cols += w)
		p += next_char(p, &w);
	return cols;
}

const char *
i18n_fit(const char *s, int w)
{
	int cols = 0, cw;
	const char *p = s;
	while (*p) {
		size_t n = next_char(p, &cw);
		if (cols + cw > w)
			break;
		cols += cw;
		p += n;
	}
	return p;
}

const char *
i18n_tail(const char *s, int w)
{
	const char *p = s;
	int total = i18n_cols(s), cw;
	while (*p && total > w) {
		p += next_char(p, &cw);
		total -= cw;
	}
	return p;
}

void
i18n_pad(char *dst, size_t len, const char *s, int w)
{
	if (!len)
		return;
	const char *end = i18n_fit(s, w);
	size_t n = (size_t)(end - s);
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	int cols = i18n_cols(dst);
	while (cols < w && n + 1 < len) {
		dst[n++] = ' ';
		cols++;
	}
	dst[n] = '\0';
}
