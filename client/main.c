/*
 * main.c: gomoku, the terminal client. Options, then script mode or the
 * interactive session.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <event2/event.h>

#include "client/config.h"
#include "client/i18n.h"
#include "client/input.h"
#include "client/net.h"
#include "client/script.h"
#include "client/session.h"
#include "client/state.h"
#include "client/xdg.h"
#include "proto/proto.h"
#include "rules/version.h"

static void
usage(FILE *f)
{
	fprintf(f, "%s",
	    TR("usage",
		"usage: gomoku [options] [host[:port] | share link]\n"
		"  --script          read requests from stdin, print the server's lines\n"
		"                    (the default when stdin is not a terminal)\n"
		"  --name NAME       take this guest name after connecting\n"
		"  --login NAME      log in to an account (password: $GOMOKU_PASSWORD or asked)\n"
		"  --register NAME   create the account, then log in with it\n"
		"  --ca FILE         trust only the CA certificates in FILE\n"
		"  --insecure        do not check the server's certificate at all\n"
		"  --known-hosts F   pin file (default ~/.config/gomoku/known_hosts)\n"
		"  --timeout SECS    to connect and hear the server's greeting (20)\n"
		"  --ascii           draw with ASCII characters only\n"
		"  --mono            no colours\n"
		"  --no-mouse        leave the mouse to the terminal (select and copy text)\n"
		"  --version         print the version\n"
		"  -h, --help        this text\n"
		"The host defaults to the config file's server, else localhost; the port to\n"
		"5555. A share link (https://host:port/#join=CODE) connects to its server\n"
		"and joins its room. Settings: ~/.config/gomoku/config. See gomoku(1).\n"));
	fprintf(f, TR("usage.lang", "Language: %s (from LANG or LC_MESSAGES)\n"),
	    TR("lang.name", "English"));
}

/* "gomoku: " and a message of the catalog's, then a newline, on stderr. */
static void
say(const char *msg)
{
	fprintf(stderr, "gomoku: %s\n", msg);
}

/* Reads a password from the terminal without echo, after prompt. 0 or -1. */
static int ask_password(const char *prompt, const char *user, char *buf, size_t len)
    __attribute__((format(printf, 1, 0)));
static int
ask_password(const char *prompt, const char *user, char *buf, size_t len)
{
	FILE *tty = fopen("/dev/tty", "r+");
	if (!tty)
		return -1;
	struct termios old, quiet;
	int have = tcgetattr(fileno(tty), &old) == 0;
	if (have) {
		quiet = old;
		quiet.c_lflag &= ~(tcflag_t)ECHO;
		tcsetattr(fileno(tty), TCSAFLUSH, &quiet);
	}
	fprintf(tty, prompt, user);
	fflush(tty);
	int ok = fgets(buf, (int)len, tty) != NULL;
	if (have)
		tcsetattr(fileno(tty), TCSAFLUSH, &old);
	fprintf(tty, "\n");
	fclose(tty);
	buf[strcspn(buf, "\r\n")] = '\0';
	return ok && buf[0] ? 0 : -1;
}

/* Splits "host", "host:port", "[v6]:port" or "v6" into host and port. */
static int
split_hostport(char *arg, const char **host, const char **port)
{
	*port = "5555";
	if (arg[0] == '[') {
		char *end = strchr(arg, ']');
		if (!end || (end[1] != '\0' && end[1] != ':'))
			return -1;
		*end = '\0';
		*host = arg + 1;
		if (end[1] == ':')
			*port = end + 2;
	} else {
		char *colon = strchr(arg, ':');
		*host = arg;
		if (colon && !strchr(colon + 1, ':')) {
			*colon = '\0';
			*port = colon + 1;
		}
	}
	return **host && **port ? 0 : -1;
}

/* A share link, https://host[:port]/#join=CODE, as the web board shows it:
 * its host and port (443 when it names none, as a browser would) and the
 * invite code, if it has one (code[0] == '\0' if not). 1 when arg is a
 * link, 0 when it is not one (a plain host), -1 when it is a bad one. */
static int
split_link(char *arg, const char **host, const char **port, char *code, size_t n)
{
	code[0] = '\0';
	if (strncmp(arg, "https://", 8) != 0)
		return 0;
	if (strstr(arg, "#join=") &&
	    (input_invite_code(arg, code, n) < 6 || strlen(code) > PROTO_CODE_MAX))
		return -1;
	char *hp = arg + 8;
	hp[strcspn(hp, "/?#")] = '\0';
	int has_port = hp[0] == '[' ? strstr(hp, "]:") != NULL : strchr(hp, ':') != NULL;
	if (split_hostport(hp, host, port) != 0)
		return -1;
	if (!has_port)
		*port = "443";
	return 1;
}

int
main(int argc, char **argv)
{
	enum {
		O_CA = 256,
		O_INSECURE,
		O_KNOWN,
		O_ASCII,
		O_MONO,
		O_SCRIPT,
		O_NAME,
		O_TIMEOUT,
		O_LOGIN,
		O_REGISTER,
		O_NOMOUSE,
		O_VERSION
	};
	static const struct option longopts[] = {
		{ "ca", required_argument, NULL, O_CA },
		{ "insecure", no_argument, NULL, O_INSECURE },
		{ "known-hosts", required_argument, NULL, O_KNOWN },
		{ "ascii", no_argument, NULL, O_ASCII },
		{ "mono", no_argument, NULL, O_MONO },
		{ "script", no_argument, NULL, O_SCRIPT },
		{ "name", required_argument, NULL, O_NAME },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "login", required_argument, NULL, O_LOGIN },
		{ "register", required_argument, NULL, O_REGISTER },
		{ "no-mouse", no_argument, NULL, O_NOMOUSE },
		{ "version", no_argument, NULL, O_VERSION },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	net_opts_t no = { 0 };
	session_opts_t so = { 0 };
	so.ascii = so.mono = so.mouse = -1; /* unset: the config file decides */
	i18n_init();
	int script = !isatty(0);
	int c;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case O_CA:
			no.ca_file = optarg;
			break;
		case O_INSECURE:
			no.insecure = 1;
			break;
		case O_KNOWN:
			no.pin_file = optarg;
			break;
		case O_ASCII:
			so.ascii = 1;
			break;
		case O_MONO:
			so.mono = 1;
			break;
		case O_SCRIPT:
			script = 1;
			break;
		case O_NAME:
			so.name = optarg;
			break;
		case O_LOGIN:
			so.login = optarg;
			break;
		case O_REGISTER:
			so.login = optarg;
			so.reg = 1;
			break;
		case O_TIMEOUT:
			no.timeout = atoi(optarg);
			if (no.timeout < 1 || no.timeout > 3600) {
				say(TR("main.timeout", "--timeout takes 1..3600 seconds"));
				return 2;
			}
			break;
		case O_NOMOUSE:
			so.mouse = 0;
			break;
		case O_VERSION:
			printf(TR("main.version", "gomoku %s (protocol %d)\n"), GOMOKU_VERSION,
			    PROTO_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	client_config_t cfg;
	char cpath[1024], err[1200];
	client_config_init(&cfg);
	if (xdg_path(XDG_CONFIG, "config", cpath, sizeof cpath) == 0 &&
	    client_config_load(&cfg, cpath, err, sizeof err) != 0) {
		fprintf(stderr, "gomoku: %s\n", err);
		return 2;
	}
	if (so.ascii < 0)
		so.ascii = cfg.ascii > 0;
	if (so.mono < 0)
		so.mono = cfg.mono > 0;
	if (so.mouse < 0)
		so.mouse = cfg.mouse != 0;
	if (!so.name && cfg.name[0] && !so.login)
		so.name = cfg.name;
	char dflt[sizeof cfg.server];
	snprintf(dflt, sizeof dflt, "%s", cfg.server[0] ? cfg.server : "localhost");
	char code[PROTO_CODE_MAX + 1] = "";
	int link = optind < argc ? split_link(argv[optind], &no.host, &no.port, code, sizeof code)
				 : 0;
	if (optind < argc - 1 || link < 0 ||
	    (!link &&
		split_hostport(optind < argc ? argv[optind] : dflt, &no.host, &no.port) != 0)) {
		usage(stderr);
		return 2;
	}
	if (code[0])
		so.join = code;
	char spath[1024];
	if (state_path(no.host, no.port, so.login ? so.login : so.name, spath, sizeof spath) == 0)
		so.state_file = spath;
	if (no.insecure && no.ca_file) {
		say(TR("main.insecure_ca", "--insecure and --ca contradict each other"));
		return 2;
	}
	char password[PROTO_PASS_MAX + 2] = "";
	if (so.login) {
		if (script) {
			say(TR("main.login_script",
			    "--login is for the interactive client; send LOGIN in script mode"));
			return 2;
		}
		const char *env = getenv("GOMOKU_PASSWORD");
		char again[sizeof password];
		if (env)
			snprintf(password, sizeof password, "%s", env);
		else if (ask_password(so.reg ? TR("main.new_password", "New password for %s: ")
					     : TR("main.password", "Password for %s: "),
			     so.login, password, sizeof password) != 0) {
			say(TR("main.no_password", "no password"));
			return 2;
		} else if (so.reg &&
		    (ask_password(TR("main.again", "Same password again for %s: "), so.login, again,
			 sizeof again) != 0 ||
			strcmp(again, password) != 0)) {
			/* a typo here would lock the new account away */
			say(TR("main.differ", "the passwords differ; nothing registered"));
			return 2;
		}
		so.password = password;
	}
	signal(SIGPIPE, SIG_IGN);
	struct event_base *base = event_base_new();
	if (!base) {
		say(TR("main.no_loop", "cannot start the event loop"));
		return 1;
	}
	int rc = script ? script_run(base, &no, so.name, so.state_file)
			: session_run(base, &no, &so);
	event_base_free(base);
	return rc;
}
