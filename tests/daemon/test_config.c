/*
 * test_config: the daemon's config parser and game clock, without a server:
 * defaults, every kind of bad value, the file format, flags-style overrides,
 * and the clock's charging and increments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "daemon/cidr.h"
#include "daemon/clock.h"
#include "daemon/config.h"
#include "daemon/log.h"

static void
test_defaults_and_set(void **state)
{
	(void)state;
	struct config c;
	char err[200];
	config_defaults(&c);
	assert_int_equal(c.nlisten, 2);
	assert_string_equal(c.listen[0], "127.0.0.1:5555");
	assert_int_equal(c.grace_s, 60);
	assert_int_equal(c.log_level, LOGL_INFO);
	assert_int_equal(config_set(&c, "grace", "90", err, sizeof err), 0);
	assert_int_equal(c.grace_s, 90);
	assert_int_equal(config_set(&c, "grace", "0", err, sizeof err), -1);
	assert_non_null(strstr(err, "grace"));
	assert_int_equal(config_set(&c, "grace", "12x", err, sizeof err), -1);
	assert_int_equal(config_set(&c, "grace", "", err, sizeof err), -1);
	assert_int_equal(config_set(&c, "grace", "99999999999999999999", err, sizeof err), -1);
	assert_int_equal(config_set(&c, "colour", "red", err, sizeof err), -1);
	assert_non_null(strstr(err, "unknown key"));
	assert_int_equal(config_set(&c, "log-level", "debug", err, sizeof err), 0);
	assert_int_equal(c.log_level, LOGL_DEBUG);
	assert_int_equal(config_set(&c, "log-level", "loud", err, sizeof err), -1);
	assert_int_equal(config_set(&c, "listen", "nocolon", err, sizeof err), -1);
	for (int i = c.nlisten; i < CONFIG_MAX_LISTEN; i++)
		assert_int_equal(config_set(&c, "listen", "[::]:1", err, sizeof err), 0);
	assert_int_equal(config_set(&c, "listen", "[::]:2", err, sizeof err), -1);
	char big[CONFIG_PATH_MAX + 10];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_int_equal(config_set(&c, "cert", big, err, sizeof err), -1);
	assert_int_equal(config_set(&c, "admins", "alice,Bob_2", err, sizeof err), 0);
	assert_int_equal(config_is_admin(&c, "ALICE"), 1);
	assert_int_equal(config_is_admin(&c, "bob_2"), 1);
	assert_int_equal(config_is_admin(&c, "bob"), 0);
	assert_int_equal(config_is_admin(&c, "alice,Bob_2"), 0);
	assert_int_equal(config_set(&c, "admins", "alice,,bob", err, sizeof err), -1);
	assert_int_equal(config_set(&c, "admins", "alice,2bob", err, sizeof err), -1);
	assert_int_equal(config_set(&c, "admins", "al ice", err, sizeof err), -1);
	assert_int_equal(config_set(&c, "admins", "", err, sizeof err), 0);
	assert_int_equal(config_is_admin(&c, "alice"), 0);
	assert_int_equal(config_set(&c, "control-socket", "none", err, sizeof err), 0);
	assert_int_equal(log_level_parse("warn"), LOGL_WARN);
	assert_int_equal(log_level_parse("WARN"), -1);
	printf(
	    "config_set: defaults, ranges, junk, unknown keys, listen cap, path length, admins\n");
}

/* proxy-from: off by default; lists of IPv4/IPv6 addresses and networks,
 * each line adding; a bad item refuses the line. */
static void
test_proxy_from(void **state)
{
	(void)state;
	struct config c;
	char err[200];
	config_defaults(&c);
	assert_int_equal(c.nproxy_from, 0);
	assert_int_equal(
	    config_set(&c, "proxy-from", "10.0.0.10,10.1.0.0/16,2001:db8::/32", err, sizeof err),
	    0);
	assert_int_equal(config_set(&c, "proxy-from", "::1", err, sizeof err), 0);
	assert_int_equal(c.nproxy_from, 4);
	char text[64];
	assert_int_equal(cidr_format(&c.proxy_from[1], text, sizeof text), 0);
	assert_string_equal(text, "10.1.0.0/16");
	assert_int_equal(c.proxy_from[2].family, AF_INET6);
	assert_int_equal(c.proxy_from[3].bits, 128);
	static const char *bad[] = { "", "10.0.0.1,", ",10.0.0.1", "10.0.0.1,,10.0.0.2",
		"10.0.0.300", "10.0.0.0/33", "haproxy.example.org", "10.0.0.1 10.0.0.2",
		"2001:db8::/129" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(config_set(&c, "proxy-from", bad[i], err, sizeof err), -1);
		assert_non_null(strstr(err, "proxy-from"));
	}
	for (int i = c.nproxy_from; i < CONFIG_MAX_FRONTS; i++)
		assert_int_equal(config_set(&c, "proxy-from", "192.0.2.1", err, sizeof err), 0);
	assert_int_equal(config_set(&c, "proxy-from", "192.0.2.2", err, sizeof err), -1);
	printf("proxy-from: lists, IPv4 and IPv6 networks, bad items, the cap\n");
}

/* cluster, node-name, advertise (issue 26): forms, refusals, and that a
 * cluster needs the other two. */
static void
test_cluster(void **state)
{
	(void)state;
	struct config c;
	char err[200];
	config_defaults(&c);
	assert_int_equal(config_check(&c, err, sizeof err), 0); /* no cluster: as ever */
	assert_int_equal(config_set(&c, "cluster", "redis://10.0.0.5:6379", err, sizeof err), 0);
	assert_string_equal(c.cluster_host, "10.0.0.5");
	assert_int_equal(c.cluster_port, 6379);
	assert_int_equal(config_set(&c, "cluster", "redis://[::1]:7000", err, sizeof err), 0);
	assert_string_equal(c.cluster_host, "::1");
	assert_int_equal(c.cluster_port, 7000);
	assert_int_equal(config_set(&c, "cluster", "redis://redis.lan:1", err, sizeof err), 0);
	assert_string_equal(c.cluster_host, "redis.lan");
	static const char *const bad[] = { "10.0.0.5:6379", "redis://10.0.0.5", "redis://:6379",
		"redis://h:0", "redis://h:65536", "redis://h:63x", "redis://user@h:1",
		"redis://h:1/0", "redis://[::1:1", "rediss://h:1", "redis://h h:1" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(config_set(&c, "cluster", bad[i], err, sizeof err), -1);
		assert_non_null(strstr(err, "redis://host:port"));
	}
	assert_int_equal(config_check(&c, err, sizeof err), -1);
	assert_non_null(strstr(err, "node-name"));
	assert_int_equal(config_set(&c, "node-name", "alpha", err, sizeof err), 0);
	static const char *const badnames[] = { "", "Alpha", "abcdefg", "a1", "a-b" };
	for (size_t i = 0; i < sizeof badnames / sizeof badnames[0]; i++)
		assert_int_equal(config_set(&c, "node-name", badnames[i], err, sizeof err), -1);
	assert_string_equal(c.node_name, "alpha");
	assert_int_equal(config_check(&c, err, sizeof err), -1);
	assert_int_equal(config_set(&c, "advertise", "play1.example.org:5555", err, sizeof err), 0);
	assert_int_equal(config_set(&c, "advertise", "[2001:db8::1]:5555", err, sizeof err), 0);
	static const char *const badaddr[] = { "play1", "play1:", ":5555", "h:0", "h:99999",
		"h 1:5", "h:5x" };
	for (size_t i = 0; i < sizeof badaddr / sizeof badaddr[0]; i++)
		assert_int_equal(config_set(&c, "advertise", badaddr[i], err, sizeof err), -1);
	assert_string_equal(c.advertise, "[2001:db8::1]:5555");
	assert_int_equal(config_check(&c, err, sizeof err), 0);
	assert_int_equal(config_set(&c, "cluster", "", err, sizeof err), 0); /* off again */
	assert_string_equal(c.cluster_host, "");
	printf("cluster, node-name, advertise: forms, refusals, the three together\n");
}

/* bot-threads none (issue 26, bots anywhere) needs a cluster; bot-serve. */
static void
test_bots_remote(void **state)
{
	(void)state;
	struct config c;
	char err[200];
	config_defaults(&c);
	assert_int_equal(c.bot_serve, 1);
	assert_int_equal(config_set(&c, "bot-threads", "none", err, sizeof err), 0);
	assert_int_equal(c.bot_threads, CONFIG_BOTS_REMOTE);
	assert_int_equal(config_check(&c, err, sizeof err), -1);
	assert_non_null(strstr(err, "bot-threads none needs a cluster"));
	assert_int_equal(config_set(&c, "cluster", "redis://10.0.0.5:6379", err, sizeof err), 0);
	assert_int_equal(config_set(&c, "node-name", "alpha", err, sizeof err), 0);
	assert_int_equal(config_set(&c, "advertise", "h:5555", err, sizeof err), 0);
	assert_int_equal(config_check(&c, err, sizeof err), 0);
	assert_int_equal(config_set(&c, "bot-threads", "None", err, sizeof err), -1);
	assert_int_equal(config_set(&c, "bot-threads", "-1", err, sizeof err), -1);
	assert_int_equal(config_set(&c, "bot-threads", "2", err, sizeof err), 0);
	assert_int_equal(c.bot_threads, 2);
	assert_int_equal(config_set(&c, "bot-serve", "0", err, sizeof err), 0);
	assert_int_equal(c.bot_serve, 0);
	assert_int_equal(config_set(&c, "bot-serve", "2", err, sizeof err), -1);
	printf("bot-threads none needs a cluster; bot-serve is 0 or 1\n");
}

/* league lines (PROTOCOL.md 5.23): read as given, checked with the engine
 * lines by config_check (an unknown member stops the start), parsed by
 * config_league with its defaults. */
static void
test_leagues(void **state)
{
	(void)state;
	struct config c;
	struct league_conf l;
	char err[200];
	config_defaults(&c);
	assert_int_equal(
	    config_set(&c, "engine", "rapfi /opt/rapfi/pbrain turn-ms=500", err, sizeof err), 0);
	assert_int_equal(config_set(&c, "engine", "wine /opt/wine/pbrain", err, sizeof err), 0);
	assert_int_equal(
	    config_set(&c, "league",
		"main freestyle 15 60+0 members=level10,rapfi cycles=2 every=0.5 first=5", err,
		sizeof err),
	    0);
	assert_int_equal(config_check(&c, err, sizeof err), 0);
	assert_int_equal(config_league(c.leagues[0], &c, &l, err, sizeof err), 0);
	assert_string_equal(l.name, "main");
	assert_int_equal(l.size, 15);
	assert_int_equal(l.tc_base, 60);
	assert_int_equal(l.nmembers, 2);
	assert_string_equal(l.members[0], "level10");
	assert_string_equal(l.members[1], "rapfi");
	assert_int_equal(l.cycles, 2);
	assert_int_equal(l.every_s, 1800);
	assert_int_equal(l.first_s, 5);
	/* the defaults: every engine line's, once, each day, a minute on */
	assert_int_equal(config_league("open renju 15 300+5", &c, &l, err, sizeof err), 0);
	assert_int_equal(l.nmembers, 2);
	assert_string_equal(l.members[1], "wine");
	assert_int_equal(l.cycles, 1);
	assert_int_equal(l.every_s, 24 * 3600);
	assert_int_equal(l.first_s, 60);
	static const char *const bad[] = {
		"main freestyle 15 60+0 members=level11",
		"main freestyle 15 60+0 members=nosuch",
		"main freestyle 15 60+0 members=rapfi,rapfi",
		"main freestyle 15 none",
		"main gomoku 15 60+0",
		"main freestyle 3 60+0",
		"main freestyle 15 60+0 cycles=3",
		"main freestyle 15 60+0 every=0",
		"main freestyle 15 60+0 first=-1",
		"main freestyle 15 60+0 colour=black",
		"9main freestyle 15 60+0",
		"main freestyle 15",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (config_league(bad[i], &c, &l, err, sizeof err) != -1)
			fail_msg("%s: accepted", bad[i]);
	assert_int_equal(config_set(&c, "league", "main renju 15 60+0", err, sizeof err), 0);
	assert_int_equal(config_check(&c, err, sizeof err), -1);
	assert_non_null(strstr(err, "named twice"));
	c.nleagues = 1;
	assert_int_equal(
	    config_set(&c, "league", "x freestyle 15 60+0 members=nosuch", err, sizeof err), 0);
	assert_int_equal(config_check(&c, err, sizeof err), -1);
	assert_non_null(strstr(err, "nosuch"));
	printf("league lines: members levels and engines, defaults, every refusal at start\n");
}

static void
test_file(void **state)
{
	(void)state;
	char path[] = "/tmp/gomokud-config-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fprintf(f,
	    "# a comment\n\n  listen 0.0.0.0:7000   # trailing comment\n"
	    "listen [::]:7000\nstate-dir /var/lib/gomokud\ncert /etc/c.pem\n"
	    "\tidle-timeout\t120\n");
	fclose(f);
	struct config c;
	char err[200];
	config_defaults(&c);
	assert_int_equal(config_load(&c, path, err, sizeof err), 0);
	assert_int_equal(c.nlisten, 2); /* the file's listen lines replace the defaults */
	assert_string_equal(c.listen[0], "0.0.0.0:7000");
	assert_string_equal(c.listen[1], "[::]:7000");
	assert_string_equal(c.state_dir, "/var/lib/gomokud");
	assert_string_equal(c.cert, "/etc/c.pem");
	assert_int_equal(c.idle_s, 120);

	f = fopen(path, "w");
	fprintf(f, "grace 5\nmax-connections lots\n");
	fclose(f);
	assert_int_equal(config_load(&c, path, err, sizeof err), -1);
	assert_non_null(strstr(err, ":2:")); /* names the line */
	unlink(path);
	assert_int_equal(config_load(&c, path, err, sizeof err), -1);
	assert_non_null(strstr(err, path));

	/* the shipped example is valid and says the defaults */
	struct config ex, def;
	config_defaults(&ex);
	config_defaults(&def);
	assert_int_equal(config_load(&ex, "daemon/gomokud.conf.example", err, sizeof err), 0);
	assert_memory_equal(&ex, &def, sizeof ex);
	printf(
	    "config_load: comments, whitespace, listen replacement, line numbers, the example\n");
}

static void
test_clock(void **state)
{
	(void)state;
	struct gclock c;
	gclock_init(&c, 60, 2);
	assert_int_equal(gclock_left(&c, 0, 0), 60000);
	gclock_start(&c, 0, 1000);
	assert_int_equal(gclock_left(&c, 0, 3500), 57500); /* running */
	assert_int_equal(gclock_left(&c, 1, 3500), 60000); /* waiting */
	assert_int_equal(gclock_stop(&c, 4000), 57000);
	assert_int_equal(gclock_left(&c, 0, 9999), 57000); /* stopped */
	gclock_start(&c, 1, 4000);
	gclock_start(&c, 0, 5000); /* switch charges white */
	assert_int_equal(gclock_left(&c, 1, 5000), 59000);
	assert_int_equal(gclock_left(&c, 0, 200000), 0); /* never negative */
	gclock_stop(&c, 200000);
	assert_int_equal(c.left[0], 0);
	gclock_init(&c, 0, 0);
	assert_int_equal(gclock_left(&c, 0, 5), -1); /* untimed */
	assert_true(clock_now_ms() > 0);
	printf("clock: charging, switching, stopping, no negative time, untimed\n");
}

/* bot-max-conns (issue 49): 4 by default, 1 to 64. */
static void
test_bot_max_conns(void **state)
{
	(void)state;
	struct config c;
	char err[200];
	config_defaults(&c);
	assert_int_equal(c.bot_max_conns, 4);
	assert_int_equal(config_set(&c, "bot-max-conns", "1", err, sizeof err), 0);
	assert_int_equal(c.bot_max_conns, 1);
	assert_int_equal(config_set(&c, "bot-max-conns", "64", err, sizeof err), 0);
	assert_int_equal(c.bot_max_conns, 64);
	static const char *bad[] = { "0", "65", "-1", "4x", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(config_set(&c, "bot-max-conns", bad[i], err, sizeof err), -1);
		assert_non_null(strstr(err, "bot-max-conns"));
	}
	assert_int_equal(c.bot_max_conns, 64);
	printf("bot-max-conns: 4 by default, 1 to 64\n");
}

/* ipv6-prefix: 64 by default, 32..128; the units it makes (cidr_unit),
 * the mapped form as IPv4 everywhere, and an IPv6 ban widened to it. */
static void
test_ipv6_prefix(void **state)
{
	(void)state;
	struct config c;
	char err[200], text[64];
	config_defaults(&c);
	assert_int_equal(c.ipv6_prefix, 64);
	assert_int_equal(config_set(&c, "ipv6-prefix", "56", err, sizeof err), 0);
	assert_int_equal(c.ipv6_prefix, 56);
	assert_int_equal(config_set(&c, "ipv6-prefix", "128", err, sizeof err), 0);
	static const char *bad[] = { "31", "129", "0", "-64", "64x", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(config_set(&c, "ipv6-prefix", bad[i], err, sizeof err), -1);
		assert_non_null(strstr(err, "ipv6-prefix"));
	}

	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons(4000) };
	struct cidr u;
	inet_pton(AF_INET6, "2001:db8:1:2:aaaa:bbbb:cccc:dddd", &a6.sin6_addr);
	assert_int_equal(cidr_unit((struct sockaddr *)&a6, 64, &u), 0);
	assert_int_equal(cidr_format(&u, text, sizeof text), 0);
	assert_string_equal(text, "2001:db8:1:2::/64");
	assert_int_equal(cidr_unit((struct sockaddr *)&a6, 48, &u), 0);
	assert_int_equal(cidr_format(&u, text, sizeof text), 0);
	assert_string_equal(text, "2001:db8:1::/48");
	assert_int_equal(cidr_unit((struct sockaddr *)&a6, 128, &u), 0);
	assert_int_equal(u.bits, 128);

	/* ::ffff:198.51.100.9: IPv4 as a unit, a name, an address, a ban */
	inet_pton(AF_INET6, "::ffff:198.51.100.9", &a6.sin6_addr);
	assert_int_equal(cidr_unit((struct sockaddr *)&a6, 64, &u), 0);
	assert_int_equal(u.family, AF_INET);
	assert_int_equal(cidr_format(&u, text, sizeof text), 0);
	assert_string_equal(text, "198.51.100.9");
	cidr_addr_name((struct sockaddr *)&a6, text, sizeof text);
	assert_string_equal(text, "198.51.100.9:4000");
	struct sockaddr_storage ss;
	assert_int_equal(cidr_unmap((struct sockaddr *)&a6, sizeof a6, &ss),
	    (socklen_t)sizeof(struct sockaddr_in));
	assert_int_equal(ss.ss_family, AF_INET);
	assert_int_equal(ntohs(((struct sockaddr_in *)&ss)->sin_port), 4000);
	struct sockaddr_in a4 = { .sin_family = AF_INET };
	inet_pton(AF_INET, "198.51.100.9", &a4.sin_addr);
	struct cidr ban;
	assert_int_equal(cidr_parse("::ffff:198.51.100.9", &ban), 0);
	assert_int_equal(ban.family, AF_INET);
	assert_int_equal(cidr_format(&ban, text, sizeof text), 0);
	assert_string_equal(text, "198.51.100.9");
	assert_true(cidr_match(&ban, (struct sockaddr *)&a4));
	assert_true(cidr_match(&ban, (struct sockaddr *)&a6));
	assert_int_equal(cidr_parse("::ffff:198.51.0.0/112", &ban), 0);
	assert_int_equal(cidr_format(&ban, text, sizeof text), 0);
	assert_string_equal(text, "198.51.0.0/16");
	assert_int_equal(cidr_parse("198.51.100.9", &ban), 0);
	assert_true(cidr_match(&ban, (struct sockaddr *)&a6));

	/* a ban of one IPv6 address covers its /64, a network keeps its prefix */
	assert_int_equal(cidr_parse("2001:db8:1:2::7", &ban), 0);
	cidr_widen(&ban, 64);
	assert_int_equal(cidr_format(&ban, text, sizeof text), 0);
	assert_string_equal(text, "2001:db8:1:2::/64");
	inet_pton(AF_INET6, "2001:db8:1:2:ffff::1", &a6.sin6_addr);
	assert_true(cidr_match(&ban, (struct sockaddr *)&a6));
	inet_pton(AF_INET6, "2001:db8:1:3::1", &a6.sin6_addr);
	assert_false(cidr_match(&ban, (struct sockaddr *)&a6));
	assert_int_equal(cidr_parse("2001:db8::/32", &ban), 0);
	cidr_widen(&ban, 64);
	assert_int_equal(ban.bits, 32);
	assert_int_equal(cidr_parse("::1/127", &ban), 0); /* a prefix given is kept */
	cidr_widen(&ban, 64);
	assert_int_equal(ban.bits, 127);
	assert_int_equal(cidr_parse("192.0.2.7", &ban), 0);
	cidr_widen(&ban, 64);
	assert_int_equal(ban.bits, 32);
	printf("ipv6-prefix: default 64, range; /64 units, mapped IPv4 as IPv4, bans widened\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_set),
		cmocka_unit_test(test_proxy_from),
		cmocka_unit_test(test_ipv6_prefix),
		cmocka_unit_test(test_bot_max_conns),
		cmocka_unit_test(test_cluster),
		cmocka_unit_test(test_bots_remote),
		cmocka_unit_test(test_leagues),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_clock),
	};
	return cmocka_run_group_tests_name("daemon config and clock", tests, NULL, NULL);
}
