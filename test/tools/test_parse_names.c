/*
 * HSA_TOOLS_LIB's list as ROCr parses it (src/tools/names.c): spaces
 * separate, quotes keep spaces, a backslash escapes, and ROCr's corner
 * cases (empty names between two spaces, the text before an opening quote
 * dropped) kept.
 */
#include "hl_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tools_priv.h"

static char *got[8];
static int n_got;

static void parse(const char *list)
{
	n_got = hl_tools_parse_names(list, got, 8);
	ck_assert_int_ge(n_got, 0);
}

static void expect(int n, const char *const *want)
{
	int bad = n_got != n;

	for (int i = 0; i < n && i < n_got; i++)
		bad |= strcmp(got[i], want[i]) != 0;
	for (int i = 0; i < n_got; i++) {
		if (bad)
			printf("got[%d] = \"%s\"\n", i, got[i]);
		free(got[i]);
	}
	ck_assert_int_eq(n_got, n);
	ck_assert_int_eq(bad, 0);
}

START_TEST(space_separates_in_order)
{
	static const char *const w[] = { "liba.so", "/x/libb.so", "libc.so" };
	parse("liba.so /x/libb.so libc.so");
	expect(3, w);
}
END_TEST

START_TEST(quotes_keep_spaces)
{
	/* the closing quote ends the name, so ROCr makes the space after it
	 * end an empty one */
	static const char *const w[] = { "/a dir/lib a.so", "", "libb.so" };
	parse("\"/a dir/lib a.so\" libb.so");
	expect(3, w);
}
END_TEST

START_TEST(backslash_escapes_the_next_character)
{
	static const char *const w[] = { "/a dir/x\"y.so", "z.so" };
	parse("/a\\ dir/x\\\"y.so z.so\\");
	expect(2, w);
}
END_TEST

START_TEST(rocr_corner_cases)
{
	/* two spaces: an empty name between; the end adds nothing empty */
	static const char *const w1[] = { "a", "", "b" };
	parse("a  b ");
	expect(3, w1);
	/* the text just before an opening quote is dropped */
	static const char *const w2[] = { "q r" };
	parse("xx\"q r\"");
	expect(1, w2);
	static const char *const w3[] = { "" };
	parse("\"\"");
	expect(1, w3);
	parse("");
	expect(0, NULL);
}
END_TEST

START_TEST(at_most_max_names)
{
	char *few[2];
	int n = hl_tools_parse_names("a b c d", few, 2);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(few[0], "a");
	ck_assert_str_eq(few[1], "b");
	free(few[0]);
	free(few[1]);
}
END_TEST

static Suite *parse_suite(void)
{
	Suite *s = suite_create("tools_parse_names");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, space_separates_in_order);
	tcase_add_test(tc, quotes_keep_spaces);
	tcase_add_test(tc, backslash_escapes_the_next_character);
	tcase_add_test(tc, rocr_corner_cases);
	tcase_add_test(tc, at_most_max_names);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(parse_suite)
