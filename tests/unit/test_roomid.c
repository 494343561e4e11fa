/* test_roomid.c: the one spelling of a room id (issue 40): the node its
 * letters name, its number, and everything that is not an id, upper case
 * among it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "daemon/roomid.h"

static void
test_ids(void **state)
{
	char node[ROOMID_NODE_MAX + 1];
	uint32_t num = 0;
	(void)state;
	assert_int_equal(roomid_parse("r12", node, &num), 0);
	assert_string_equal(node, "r");
	assert_int_equal(num, 12);
	assert_int_equal(roomid_parse("abcdef4294967295", node, &num), 0);
	assert_string_equal(node, "abcdef");
	assert_int_equal(num, 4294967295u);
	assert_int_equal(roomid_parse("b1", NULL, NULL), 0);
	static const char *const bad[] = { "", "12", "r", "r0", "r01", "R1", "rA1", "Ab1", "r1x",
		"abcdefg1", "r-1", "r 1", "r4294967296", "r12345678901", "é1" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		strcpy(node, "keep");
		assert_int_equal(roomid_parse(bad[i], node, &num), -1);
		assert_string_equal(node, "keep"); /* nothing written */
	}
}

static void
test_nodes(void **state)
{
	(void)state;
	assert_true(roomid_node_ok("abcdef"));
	assert_true(roomid_node_ok("r"));
	assert_false(roomid_node_ok("abcdefg"));
	assert_false(roomid_node_ok(""));
	assert_false(roomid_node_ok("a_b"));
	assert_false(roomid_node_ok("Ab"));
	assert_false(roomid_node_ok("a1"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_nodes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
