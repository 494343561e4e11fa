/* main.c: gomokud's command line. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/server.h"
#include "proto/proto.h"

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: gomokud [--config FILE] [--listen HOST:PORT]... [--state-dir DIR]\n"
	    "               [--log-level error|warn|info|debug] [--version] [--help]\n"
	    "\n"
	    "The Gomoku/Renju game server: protocol v%d (proto/PROTOCOL.md) over TLS.\n"
	    "  --config FILE       settings (see daemon/gomokud.conf.example)\n"
	    "  --listen HOST:PORT  address to listen on, IPv4 or [IPv6]; repeatable;\n"
	    "                      port 0 picks a free port (logged)\n"
	    "                      default 127.0.0.1:5555 and [::1]:5555\n"
	    "  --state-dir DIR     state (database, self-signed certificate), locked for\n"
	    "                      one gomokud at a time; default ./state\n"
	    "  --log-level LEVEL   default info\n"
	    "Signals: SIGTERM drains and stops; SIGHUP reloads config, certificate and key.\n",
	    PROTO_VERSION);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "listen", required_argument, NULL, 'l' },
		{ "state-dir", required_argument, NULL, 's' },
		{ "log-level", required_argument, NULL, 'L' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct server srv;
	memset(&srv, 0, sizeof srv);
	store_process_init();
	config_defaults(&srv.flags);
	srv.flags.nlisten = 0;
	char err[300];
	int ch;
	while ((ch = getopt_long(argc, argv, "c:l:s:L:Vh", opts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			srv.config_path = optarg;
			break;
		case 'l':
			if (config_set(&srv.flags, "listen", optarg, err, sizeof err)) {
				fprintf(stderr, "gomokud: %s\n", err);
				return 2;
			}
			break;
		case 's':
		case 'L':
			if (config_set(&srv.flags, ch == 's' ? "state-dir" : "log-level", optarg,
				err, sizeof err)) {
				fprintf(stderr, "gomokud: %s\n", err);
				return 2;
			}
			srv.flag_mask |= ch == 's' ? 1 : 2;
			break;
		case 'V':
			printf("gomokud %s (protocol %d)\n", GOMOKUD_VERSION, PROTO_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}

	config_defaults(&srv.cfg);
	if ((srv.config_path && config_load(&srv.cfg, srv.config_path, err, sizeof err)) ||
	    config_check(&srv.cfg, err, sizeof err)) {
		fprintf(stderr, "gomokud: %s\n", err);
		return 2;
	}
	if (srv.flags.nlisten) {
		memcpy(srv.cfg.listen, srv.flags.listen, sizeof srv.cfg.listen);
		srv.cfg.nlisten = srv.flags.nlisten;
	}
	if (srv.flag_mask & 1)
		memcpy(srv.cfg.state_dir, srv.flags.state_dir, sizeof srv.cfg.state_dir);
	if (srv.flag_mask & 2)
		srv.cfg.log_level = srv.flags.log_level;
	log_init(&srv.log, srv.cfg.log_level);

	int rc = 1;
	if (server_init(&srv) == 0)
		rc = server_run(&srv) == 0 ? 0 : 1;
	server_free(&srv);
	return rc;
}
