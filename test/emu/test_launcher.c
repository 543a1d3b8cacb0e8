/*
 * The kfdemu launcher: what it exports to the command, the exit status it
 * returns (the command's, or 128 + signal), its argument errors, and that
 * it leaves no temporary directory behind.  argv[1] is the launcher.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_check.h"
#include "hl_popen.h"

static const char *kfdemu;
static char tmpdir[64];

static int run(const char *args, char **out)
{
	char *line;
	if (asprintf(&line, "TMPDIR=%s %s %s 2>&1", tmpdir, kfdemu, args) < 0)
		return -1;
	char *text;
	int st = hl_popen_read(line, &text);
	free(line);
	ck_assert_msg(st != -1, "could not run the launcher");
	if (out)
		*out = text;
	else
		free(text);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int entries_in_tmpdir(void)
{
	DIR *d = opendir(tmpdir);
	ck_assert_ptr_nonnull(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/kfdemu-launch-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	rmdir(tmpdir);
}

START_TEST(exports_settings_and_preloads_the_shim)
{
	char *out;
	int st = run("--preset mi300x --gpus 2 -- env", &out);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(out, "KFDEMU_PRESET=mi300x\n") && strstr(out, "KFDEMU_GPUS=2\n") &&
		      strstr(out, "KFDEMU_TOPOLOGY_DIR=") && strstr(out, "libkfdemu.so"),
		      "environment:\n%s", out);
	free(out);
}
END_TEST

START_TEST(topology_tree_is_visible_to_the_command)
{
	char *out;
	int st = run("-- cat /sys/devices/virtual/kfd/kfd/topology/nodes/1/properties", &out);
	ck_assert_msg(st == 0 && strstr(out, "gfx_target_version 90010"), "(%d)\n%s", st, out);
	free(out);
}
END_TEST

START_TEST(returns_the_commands_exit_status)
{
	ck_assert_int_eq(run("-- /bin/sh -c 'exit 3'", NULL), 3);
}
END_TEST

START_TEST(returns_128_plus_signal_when_the_command_is_killed)
{
	ck_assert_int_eq(run("-- /bin/sh -c 'kill -TERM $$'", NULL), 128 + 15);
}
END_TEST

START_TEST(missing_command_is_127)
{
	ck_assert_int_eq(run("-- /nonexistent/command", NULL), 127);
}
END_TEST

START_TEST(bad_gpu_count_is_a_usage_error)
{
	ck_assert_int_eq(run("--gpus 0 -- true", NULL), 2);
	ck_assert_int_eq(run("--gpus 9 -- true", NULL), 2);
}
END_TEST

START_TEST(unknown_preset_is_an_error)
{
	ck_assert_int_eq(run("--preset mi9999 -- true", NULL), 2);
}
END_TEST

START_TEST(help_exits_0)
{
	char *out;
	ck_assert_int_eq(run("--help", &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "usage: kfdemu"));
	free(out);
}
END_TEST

START_TEST(no_temporary_directory_is_left)
{
	ck_assert_int_eq(run("-- true", NULL), 0);
	ck_assert_int_eq(run("-- /bin/sh -c 'exit 1'", NULL), 1);
	ck_assert_int_eq(entries_in_tmpdir(), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("kfdemu_launcher");
	TCase *tc = tcase_create("launcher");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, exports_settings_and_preloads_the_shim);
	tcase_add_test(tc, topology_tree_is_visible_to_the_command);
	tcase_add_test(tc, returns_the_commands_exit_status);
	tcase_add_test(tc, returns_128_plus_signal_when_the_command_is_killed);
	tcase_add_test(tc, missing_command_is_127);
	tcase_add_test(tc, bad_gpu_count_is_a_usage_error);
	tcase_add_test(tc, unknown_preset_is_an_error);
	tcase_add_test(tc, help_exits_0);
	tcase_add_test(tc, no_temporary_directory_is_left);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return EXIT_FAILURE;
	kfdemu = argv[1];
	return hl_check_run(suite());
}
