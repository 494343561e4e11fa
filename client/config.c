/*
 * config.c: the client's config file (see config.h).
 */
#include "client/config.h"
#include "client/i18n.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void
client_config_init(client_config_t *c)
{
	memset(c, 0, sizeof *c);
	c->ascii = c->mono = c->mouse = -1;
}

static int
yes_no(const char *v)
{
	return strcmp(v, "yes") == 0 ? 1 : strcmp(v, "no") == 0 ? 0 : -1;
}

int
client_config_load(client_config_t *c, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char line[512];
	int n = 0, rc = 0;
	while (rc == 0 && fgets(line, sizeof line, f)) {
		n++;
		char key[32], val[300], extra[2];
		line[strcspn(line, "#\r\n")] = '\0';
		int k = sscanf(line, "%31s %299s %1s", key, val, extra);
		if (k <= 0)
			continue;
		int *flag = strcmp(key, "ascii") == 0 ? &c->ascii
		    : strcmp(key, "mono") == 0        ? &c->mono
		    : strcmp(key, "mouse") == 0       ? &c->mouse
						      : NULL;
		if (k != 2) {
			snprintf(
			    err, errlen, TR("config.syntax", "%s:%d: want \"key value\""), path, n);
			rc = -1;
		} else if (flag) {
			if ((*flag = yes_no(val)) < 0) {
				snprintf(err, errlen,
				    TR("config.yesno", "%s:%d: %s takes yes or no"), path, n, key);
				rc = -1;
			}
		} else if (strcmp(key, "server") == 0 && strlen(val) < sizeof c->server) {
			snprintf(c->server, sizeof c->server, "%s", val);
		} else if (strcmp(key, "name") == 0 && strlen(val) < sizeof c->name) {
			snprintf(c->name, sizeof c->name, "%s", val);
		} else {
			snprintf(err, errlen,
			    TR("config.unknown",
				"%s:%d: unknown key or value too long: %s (keys: server, name, "
				"ascii, "
				"mono, mouse)"),
			    path, n, key);
			rc = -1;
		}
	}
	fclose(f);
	return rc;
}
