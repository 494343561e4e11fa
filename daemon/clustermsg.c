/* clustermsg.c: the text of the messages between nodes (clustermsg.h). */
#include "daemon/clustermsg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
cmsg_node_ok(const char *name)
{
	size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz");
	return n > 0 && n <= CONFIG_NODE_MAX && name[n] == '\0';
}

int
cmsg_room_node(const char *room, char node[CONFIG_NODE_MAX + 1])
{
	size_t n = strspn(room, "abcdefghijklmnopqrstuvwxyz");
	size_t d = strspn(room + n, "0123456789");
	if (n == 0 || n > CONFIG_NODE_MAX || d == 0 || room[n + d] != '\0' || room[n] == '0')
		return -1;
	memcpy(node, room, n);
	node[n] = '\0';
	return 0;
}

int
cmsg_next_line(const char **p, const char *end, const char **line, size_t *n)
{
	if (*p >= end)
		return 0;
	const char *lf = memchr(*p, '\n', (size_t)(end - *p));
	*line = *p;
	*n = (size_t)((lf ? lf : end) - *p);
	*p = lf ? lf + 1 : end;
	return 1;
}

/* The next space-separated token of [*p, end) into out (cap bytes with the
 * NUL): 0, or -1 when there is none or it does not fit. */
static int
token(const char **p, const char *end, char *out, size_t cap)
{
	const char *s = *p;
	while (s < end && *s != ' ' && *s != '\n')
		s++;
	size_t n = (size_t)(s - *p);
	if (n == 0 || n >= cap)
		return -1;
	memcpy(out, *p, n);
	out[n] = '\0';
	*p = s < end && *s == ' ' ? s + 1 : s;
	return 0;
}

static int
seq_parse(const char *s, uint32_t *seq)
{
	char *end;
	if (s[0] < '0' || s[0] > '9' || (s[0] == '0' && s[1]))
		return -1;
	unsigned long v = strtoul(s, &end, 10);
	if (*end || v > 0xffffffffUL)
		return -1;
	*seq = (uint32_t)v;
	return 0;
}

static int
name_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > PROTO_NAME_MAX ||
	    !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

/* Every line of a body is a protocol line of the server's; in a P body
 * only = USER and = ROOM, in an S body only data lines of the room. */
static int
body_ok(const struct cmsg *m, const char **why)
{
	const char *p = m->body, *end = m->body + m->bodylen, *line;
	size_t n;
	proto_msg_t pm;
	while (cmsg_next_line(&p, end, &line, &n)) {
		if (n == 0 || n >= PROTO_LINE_MAX ||
		    proto_parse(line, n, PROTO_SERVER, &pm, NULL, 0) != 0) {
			*why = "a line of its body is not a protocol line";
			return -1;
		}
		if (m->kind == CMSG_PRESENCE ? pm.id != PD_USER && pm.id != PD_ROOM
					     : proto_kind(pm.id) != PK_DATA ||
			    (pm.room[0] && strcmp(pm.room, m->room) != 0)) {
			*why = "a line of its body is not of its kind";
			return -1;
		}
	}
	return 0;
}

int
cmsg_parse(const char *buf, size_t len, struct cmsg *m, const char **why)
{
	const char *p = buf + 2, *end = buf + len, *lf;
	char seq[16];
	proto_msg_t pm;
	memset(m, 0, sizeof *m);
	*why = "not a message of this cluster";
	if (len < 3 || buf[1] != ' ' || memchr(buf, '\0', len))
		return -1;
	lf = memchr(buf, '\n', len);
	const char *hend = lf ? lf : end; /* the header line */
	switch (buf[0]) {
	case 'P':
		m->kind = CMSG_PRESENCE;
		if (token(&p, hend, m->node, sizeof m->node) || !cmsg_node_ok(m->node) ||
		    token(&p, hend, m->addr, sizeof m->addr) || p != hend ||
		    !strchr(m->addr, ':')) {
			*why = "a bad presence header";
			return -1;
		}
		break;
	case 'T':
		m->kind = CMSG_TELL;
		if (lf || token(&p, end, m->from, sizeof m->from) || !name_ok(m->from) ||
		    token(&p, end, m->to, sizeof m->to) || !name_ok(m->to) || p >= end ||
		    (size_t)(end - p) > PROTO_TEXT_MAX || !proto_utf8_ok(p, (size_t)(end - p))) {
			*why = "a bad TELL";
			return -1;
		}
		m->body = p;
		m->bodylen = (size_t)(end - p);
		return 0;
	case 'W':
		m->kind = CMSG_WATCH;
		if (lf || token(&p, end, m->room, sizeof m->room) ||
		    cmsg_room_node(m->room, m->node) || token(&p, end, m->node, sizeof m->node) ||
		    !cmsg_node_ok(m->node) || p != end) {
			*why = "a bad WATCH";
			return -1;
		}
		return 0;
	case 'S':
		m->kind = CMSG_SNAPSHOT;
		if (token(&p, hend, m->room, sizeof m->room) || cmsg_room_node(m->room, m->node) ||
		    token(&p, hend, seq, sizeof seq) || seq_parse(seq, &m->seq) || p != hend) {
			*why = "a bad snapshot header";
			return -1;
		}
		m->node[0] = '\0';
		break;
	case 'E':
		m->kind = CMSG_EVENT;
		if (lf || (size_t)(end - p) >= PROTO_LINE_MAX ||
		    proto_parse(p, (size_t)(end - p), PROTO_SERVER, &pm, NULL, 0) != 0 ||
		    proto_kind(pm.id) != PK_EVENT || !pm.room[0] || !pm.seq) {
			*why = "a bad room event";
			return -1;
		}
		snprintf(m->room, sizeof m->room, "%s", pm.room);
		m->seq = pm.seq;
		m->body = p;
		m->bodylen = (size_t)(end - p);
		return 0;
	default:
		return -1;
	}
	m->body = lf ? lf + 1 : end;
	m->bodylen = (size_t)(end - m->body);
	return body_ok(m, why);
}

static int
fits(int n, size_t cap)
{
	return n < 0 || (size_t)n >= cap ? -1 : n;
}

int
cmsg_format_presence(char *buf, size_t cap, const char *node, const char *addr)
{
	return fits(snprintf(buf, cap, "P %s %s\n", node, addr), cap);
}

int
cmsg_format_tell(char *buf, size_t cap, const char *from, const char *to, const char *text)
{
	return fits(snprintf(buf, cap, "T %s %s %s", from, to, text), cap);
}

int
cmsg_format_watch(char *buf, size_t cap, const char *room, const char *node)
{
	return fits(snprintf(buf, cap, "W %s %s", room, node), cap);
}

int
cmsg_format_snapshot(char *buf, size_t cap, const char *room, uint32_t seq)
{
	return fits(snprintf(buf, cap, "S %s %u\n", room, (unsigned)seq), cap);
}

int
cmsg_format_event(char *buf, size_t cap, const char *line, size_t n)
{
	if (n && line[n - 1] == '\n')
		n--;
	return fits(snprintf(buf, cap, "E %.*s", (int)n, line), cap);
}
