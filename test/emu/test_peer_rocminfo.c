/*
 * Stock Debian ROCm on kfdemu: runs the unmodified /usr/bin/rocminfo (ROCr
 * 5.2.3 + libhsakmt 5.2.3) under the launcher and checks what it reports.
 * argv[1] is the kfdemu launcher, argv[2] (optional) the directory of our
 * library, to run the same rocminfo on hsalite.  Exits 77 (skipped) without
 * rocminfo.
 *
 * ROCr 5.2.3 predates gfx942, so on an MI300X it enumerates the GPU node
 * and then refuses it ("The GPU node has an unrecognized id"), exactly as
 * it would on real hardware; the MI300X case checks that, plus the gfx942
 * ISA that ROCm's rocm_agent_enumerator derives from the same sysfs tree.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_check.h"
#include "hl_popen.h"

#define ROCMINFO "/usr/bin/rocminfo"
#define ENUMERATOR "/usr/bin/rocm_agent_enumerator"

static const char *kfdemu;
static const char *hsalite_dir; /* our library's directory, or NULL */
static char tmpdir[64];

/* Runs "kfdemu <args> -- <cmd>" with TMPDIR=tmpdir; returns the output
 * (stdout and stderr) and the exit status. */
static char *run_env(const char *env, const char *args, const char *cmd, int *status)
{
	char *line;
	if (asprintf(&line, "%s TMPDIR=%s %s %s -- %s 2>&1", env, tmpdir, kfdemu, args, cmd) < 0)
		return NULL;
	char *out;
	int st = hl_popen_read(line, &out);
	free(line);
	ck_assert_msg(st != -1, "could not run the launcher");
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	return out;
}

static char *run(const char *args, const char *cmd, int *status)
{
	return run_env("", args, cmd, status);
}

/* Agents whose "Name:" (at agent indentation) starts with gfx. */
static int count_gpu_agents(const char *out, const char *gfx)
{
	int n = 0;
	for (const char *s = out; (s = strstr(s, "\n  Name:")); s++) {
		const char *v = s + 8;
		while (*v == ' ')
			v++;
		if (!strncmp(v, gfx, strlen(gfx)))
			n++;
	}
	return n;
}

static void setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/kfdemu-peer-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	rmdir(tmpdir);
}

START_TEST(mi210_rocminfo_lists_a_gfx90a_agent)
{
	int st;
	char *out = run("--preset mi210", ROCMINFO, &st);
	ck_assert_msg(st == 0, "rocminfo exited %d:\n%s", st, out);
	int n = count_gpu_agents(out, "gfx90a");
	ck_assert_msg(n == 1, "%d gfx90a agents, expected 1:\n%s", n, out);
	ck_assert_msg(strstr(out, "AMD Instinct MI210"), "no marketing name:\n%s", out);
	free(out);
}
END_TEST

START_TEST(two_gpus_give_two_gpu_agents)
{
	int st;
	char *out = run("--gpus 2", ROCMINFO, &st);
	ck_assert_msg(st == 0, "rocminfo exited %d:\n%s", st, out);
	int n = count_gpu_agents(out, "gfx90a");
	ck_assert_msg(n == 2, "%d gfx90a agents, expected 2:\n%s", n, out);
	free(out);
}
END_TEST

START_TEST(mi300x_node_reaches_rocr_as_gfx942)
{
	int st;
	char *out = run("--preset mi300x", ROCMINFO, &st);
	ck_assert_msg(st == 0, "rocminfo exited %d:\n%s", st, out);
	ck_assert_msg(strstr(out, "The GPU node has an unrecognized id"),
		      "ROCr 5.2.3 should reject the gfx942 node:\n%s", out);
	free(out);
	if (access(ENUMERATOR, X_OK) == 0) {
		out = run("--preset mi300x", ENUMERATOR, &st);
		ck_assert_msg(st == 0 && strstr(out, "gfx942\n"), "enumerator (%d):\n%s", st, out);
		free(out);
	}
}
END_TEST

START_TEST(session_leaves_no_temporary_files)
{
	int st;
	char *out = run("", ROCMINFO, &st);
	ck_assert_int_eq(st, 0);
	free(out);
	DIR *d = opendir(tmpdir);
	ck_assert_ptr_nonnull(d);
	int entries = 0;
	for (struct dirent *e; (e = readdir(d));)
		entries += e->d_name[0] != '.';
	closedir(d);
	ck_assert_msg(entries == 0, "%d entries left in %s", entries, tmpdir);
}
END_TEST

START_TEST(debug_log_decodes_every_ioctl)
{
	int st;
	char *out = run_env("KFDEMU_LOG=debug", "", ROCMINFO, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(out, "GET_VERSION out: major=0x1 minor=0x11 -> 0"), "no GET_VERSION:\n%s",
		      out);
	ck_assert_msg(strstr(out, "ACQUIRE_VM out: drm_fd="), "no ACQUIRE_VM:\n%s", out);
	ck_assert_msg(strstr(out, "DBG_TRAP_ROCM(0x82), size 40): ROCm-DKMS only: -ENOTTY"),
		      "no 0x82:\n%s", out);
	free(out);
}
END_TEST

/* Stock rocminfo on hsalite: the same agent, and nothing the sanitizers of
 * an instrumented build report (rocminfo hands agent_get_info unaligned
 * fields, e.g. for HSA_AMD_AGENT_INFO_BDFID). */
START_TEST(rocminfo_on_hsalite_lists_the_agent_cleanly)
{
	if (!hsalite_dir)
		return;
	char *env;
	ck_assert_int_ge(asprintf(&env, "LD_LIBRARY_PATH=%s ASAN_OPTIONS=detect_leaks=0", hsalite_dir),
			 0);
	int st;
	char *out = run_env(env, "--preset mi210", ROCMINFO, &st);
	free(env);
	ck_assert_msg(st == 0, "rocminfo on hsalite exited %d:\n%s", st, out);
	int n = count_gpu_agents(out, "gfx90a");
	ck_assert_msg(n == 1, "%d gfx90a agents, expected 1:\n%s", n, out);
	ck_assert_msg(!strstr(out, "runtime error"), "sanitizer report:\n%s", out);
	free(out);
}
END_TEST

START_TEST(injected_acquire_vm_failure_fails_hsa_init)
{
	int st;
	char *out = run_env("KFDEMU_FAIL=ioctl:ACQUIRE_VM:1", "", ROCMINFO, &st);
	ck_assert_msg(st != 0 && strstr(out, "HSA_STATUS_ERROR"), "(%d)\n%s", st, out);
	free(out);
}
END_TEST

START_TEST(exit_status_of_the_command_is_returned)
{
	int st;
	char *out = run("", "/bin/sh -c 'exit 7'", &st);
	ck_assert_msg(st == 7, "status %d, expected 7", st);
	free(out);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("kfdemu_peer_rocminfo");
	TCase *tc = tcase_create("rocminfo");
	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, mi210_rocminfo_lists_a_gfx90a_agent);
	tcase_add_test(tc, two_gpus_give_two_gpu_agents);
	tcase_add_test(tc, mi300x_node_reaches_rocr_as_gfx942);
	tcase_add_test(tc, session_leaves_no_temporary_files);
	tcase_add_test(tc, debug_log_decodes_every_ioctl);
	tcase_add_test(tc, rocminfo_on_hsalite_lists_the_agent_cleanly);
	tcase_add_test(tc, injected_acquire_vm_failure_fails_hsa_init);
	tcase_add_test(tc, exit_status_of_the_command_is_returned);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return EXIT_FAILURE;
	kfdemu = argv[1];
	hsalite_dir = argc > 2 ? argv[2] : NULL;
	if (access(ROCMINFO, X_OK) != 0)
		return HL_SKIP;
	return hl_check_run(suite());
}
