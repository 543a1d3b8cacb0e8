/*
 * test_isa_gws.c — the ds_gws_* instructions of kfdemu_isa (global wave
 * sync) from kernels/gws.s (gfx90a and gfx942), run as cooperative grids
 * by the harness: every workgroup resident, saved while its waves wait on
 * GWS and resumed once released.  Checks each instruction's effect on the resource (counter,
 * flag, queue), the resource id (M0[21:16] + offset mod 64), DATA from the
 * first active lane, the grid barrier as ockl's __ockl_grid_sync uses it,
 * and the error paths: no GWS for the VMID or a resource outside its range
 * (memory violation), a barrier that can never open (deadlock).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

/* Every test runs on both targets (loop index 0: gfx90a, 1: gfx942); the
 * gfx942 object needs llvm-mc-19 (without it that half is skipped, as the
 * other isa suites do). */
static const uint32_t targets[2] = { KEMU_ISA_GFX90A, KEMU_ISA_GFX942 };
static struct hx_code code[2];
static bool loaded[2];
static uint32_t gfx;            /* the target of the running test */
static unsigned tgt;

/* false: this target's kernels were not built (compiler missing) */
static bool use_target(int i)
{
	char path[600];
	tgt = (unsigned)i;
	gfx = targets[i];
	if (loaded[i])
		return true;
	if (!hx_kernel_path("gws", gfx, path, sizeof(path))) {
		ck_assert_msg(!hx_target_expected(gfx) || gfx == KEMU_ISA_GFX942,
			      "gws kernels for %u not built", gfx);
		return false;
	}
	ck_assert_int_eq(hx_load(&code[i], path), 0);
	loaded[i] = true;
	return true;
}

#define TARGET_OR_SKIP()                \
	do {                            \
		if (!use_target(_i))    \
			return;         \
	} while (0)

static struct hx_launch launch(const char *name, const void *args, size_t size, uint32_t grid,
			       uint16_t wg, struct kemu_isa_gws *gws)
{
	struct hx_launch l = { .gfx = gfx, .args = args, .args_size = size,
			       .grid = { grid, 1, 1 }, .wg = { wg, 1, 1 }, .gws = gws,
			       .gws_base = 0, .gws_size = KEMU_ISA_GWS_RESOURCES };
	l.kd = hx_kd(&code[tgt], name);
	ck_assert_msg(l.kd != 0, "no %s.kd", name);
	return l;
}

static struct kemu_isa_gws_resource res(struct kemu_isa_gws *g, unsigned rid)
{
	struct kemu_isa_gws_resource r;
	ck_assert_int_eq(kemu_isa_gws_resource(g, rid, &r), 0);
	return r;
}

/* ds_gws_init value on resource M0[21:16]+0 and value+1 on +10. */
static int run_init(struct kemu_isa_gws *g, uint32_t value, uint32_t m0, uint32_t base,
		    uint32_t size, struct kemu_isa_error *err)
{
	uint32_t args[2] = { value, m0 };
	struct hx_launch l = launch("t_gws_init", args, sizeof(args), 64, 64, g);
	l.gws_base = base;
	l.gws_size = size;
	return hx_run(&l, err);
}

START_TEST(test_init_sets_counter_from_first_active_lane)
{
	TARGET_OR_SKIP();
	struct kemu_isa_gws *g = kemu_isa_gws_create();
	struct kemu_isa_error err;
	ck_assert_ptr_nonnull(g);
	ck_assert_msg(run_init(g, 41, 7u << 16, 0, 64, &err) == 0, "%s", err.message);
	ck_assert_int_eq(res(g, 7).counter, 41);     /* lane 5's DATA, not lane 0's */
	ck_assert_int_eq(res(g, 17).counter, 42);    /* offset:10 */
	ck_assert_uint_eq(res(g, 7).flag, 0);
	ck_assert_int_eq(res(g, 0).counter, 0);
	kemu_isa_gws_put(g);
}
END_TEST

START_TEST(test_resource_id_wraps_mod_64)
{
	TARGET_OR_SKIP();
	struct kemu_isa_gws *g = kemu_isa_gws_create();
	struct kemu_isa_error err;
	/* M0[21:16] = 60: resources 60 and (60 + 10) % 64 = 6; M0 bits
	 * outside [21:16] do not count */
	ck_assert_msg(run_init(g, 9, (60u << 16) | 0xffc0ffffu, 0, 64, &err) == 0, "%s",
		      err.message);
	ck_assert_int_eq(res(g, 60).counter, 9);
	ck_assert_int_eq(res(g, 6).counter, 10);
	kemu_isa_gws_put(g);
}
END_TEST

START_TEST(test_no_gws_is_a_memory_violation)
{
	TARGET_OR_SKIP();
	struct kemu_isa_error err;
	ck_assert_int_eq(run_init(NULL, 1, 0, 0, 0, &err), -1);
	ck_assert_int_eq(err.kind, KEMU_ISA_ERR_MEM_VIOL);
	ck_assert_msg(strstr(err.message, "ds_gws_init") != NULL, "%s", err.message);
}
END_TEST

START_TEST(test_resource_outside_vmid_range_is_a_memory_violation)
{
	TARGET_OR_SKIP();
	struct kemu_isa_gws *g = kemu_isa_gws_create();
	struct kemu_isa_error err;
	/* the VMID has resources 4..11: base 4 + M0 0 = 4 is in, + 10 = 14
	 * is not */
	ck_assert_int_eq(run_init(g, 3, 0, 4, 8, &err), -1);
	ck_assert_int_eq(err.kind, KEMU_ISA_ERR_MEM_VIOL);
	ck_assert_int_eq(res(g, 4).counter, 3);
	ck_assert_int_eq(res(g, 14).counter, 0);
	kemu_isa_gws_put(g);
}
END_TEST

/* The grid barrier: n workgroups of 128, three rounds. */
static void grid_barrier(uint32_t nwg)
{
	struct kemu_isa_gws *g = kemu_isa_gws_create();
	uint32_t *counter = hx_alloc(4096);
	uint32_t *out = hx_alloc((size_t)3 * nwg * 128 * 4);
	struct kemu_isa_error err;
	ck_assert_msg(run_init(g, nwg - 1, 0, 0, 64, &err) == 0, "%s", err.message);
	struct {
		uint64_t counter, out;
		uint32_t nwm1;
	} args = { (uint64_t)(uintptr_t)counter, (uint64_t)(uintptr_t)out, nwg - 1 };
	struct hx_launch l = launch("t_gws_grid_barrier", &args, sizeof(args), nwg * 128, 128, g);
	ck_assert_msg(hx_run(&l, &err) == 0, "%s: %s", kemu_isa_error_name(err.kind), err.message);
	/* every work-item saw the adds of every work-item of its round */
	for (uint32_t k = 0; k < 3; k++)
		for (uint32_t i = 0; i < nwg * 128; i++)
			ck_assert_msg(out[k * nwg * 128 + i] == nwg * 128,
				      "round %u item %u read %u, expected %u", k, i,
				      out[k * nwg * 128 + i], nwg * 128);
	if (nwg > 1)
		ck_assert_msg(l.gws_suspends >= 3 * (nwg - 1), "%u resumes", l.gws_suspends);
	/* the last arrival re-armed the counter and flipped the flag 3 times */
	ck_assert_int_eq(res(g, 0).counter, (int32_t)nwg - 1);
	ck_assert_uint_eq(res(g, 0).flag, 1);
	ck_assert_uint_eq(res(g, 0).waiting, 0);
	hx_free(out);
	hx_free(counter);
	kemu_isa_gws_put(g);
}

START_TEST(test_grid_barrier_orders_rounds)
{
	TARGET_OR_SKIP();
	grid_barrier(5);
}
END_TEST

START_TEST(test_grid_barrier_of_one_workgroup)
{
	TARGET_OR_SKIP();
	grid_barrier(1);
}
END_TEST

START_TEST(test_barrier_that_never_opens_is_a_deadlock)
{
	TARGET_OR_SKIP();
	struct kemu_isa_gws *g = kemu_isa_gws_create();
	uint32_t *counter = hx_alloc(4096);
	uint32_t *out = hx_alloc(3 * 4 * 128 * 4);
	struct kemu_isa_error err;
	/* armed for 5 waves, 4 workgroups arrive */
	ck_assert_msg(run_init(g, 4, 0, 0, 64, &err) == 0, "%s", err.message);
	struct {
		uint64_t counter, out;
		uint32_t nwm1;
	} args = { (uint64_t)(uintptr_t)counter, (uint64_t)(uintptr_t)out, 3 };
	struct hx_launch l = launch("t_gws_grid_barrier", &args, sizeof(args), 4 * 128, 128, g);
	ck_assert_int_eq(hx_run(&l, &err), -1);
	ck_assert_int_eq(err.kind, KEMU_ISA_ERR_DEADLOCK);
	ck_assert_uint_eq(res(g, 0).waiting, 4);
	ck_assert_int_eq(res(g, 0).counter, 0);
	hx_free(out);
	hx_free(counter);
	kemu_isa_gws_put(g);
}
END_TEST

START_TEST(test_unsuspendable_gws_wait_is_a_deadlock)
{
	TARGET_OR_SKIP();
	/* kemu_isa_run_workgroup (no way to save the workgroup) of a wave
	 * that must wait fails instead of hanging */
	struct kemu_isa_gws *g = kemu_isa_gws_create();
	uint32_t *counter = hx_alloc(4096), *out = hx_alloc(4096);
	struct kemu_isa_error err;
	ck_assert_msg(run_init(g, 1, 0, 0, 64, &err) == 0, "%s", err.message);
	struct {
		uint64_t counter, out;
		uint32_t nwm1;
	} args = { (uint64_t)(uintptr_t)counter, (uint64_t)(uintptr_t)out, 1 };
	struct hx_launch l = launch("t_gws_grid_barrier", &args, sizeof(args), 2 * 128, 128, g);
	struct kemu_isa_dispatch d = { .gfx_target_version = gfx, .mem = hx_mem(),
				       .kernel_object = l.kd, .grid_size = { 256, 1, 1 },
				       .workgroup_size = { 128, 1, 1 }, .gws = g,
				       .gws_size = KEMU_ISA_GWS_RESOURCES };
	void *ka = hx_alloc(4096);
	memcpy(ka, &args, sizeof(args));
	d.kernarg_address = (uint64_t)(uintptr_t)ka;
	struct kemu_isa_program *p = kemu_isa_program_get(&d, &err);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(kemu_isa_run_workgroup(p, &d, 0, 0, 0, &err), -1);
	ck_assert_int_eq(err.kind, KEMU_ISA_ERR_DEADLOCK);
	kemu_isa_program_put(p);
	hx_free(ka);
	hx_free(out);
	hx_free(counter);
	kemu_isa_gws_put(g);
}
END_TEST

/* Semaphore release by the last workgroup; mode 0 sema_br, 1 sema_v,
 * 2 release_all. */
static void sema(uint32_t mode)
{
	const uint32_t n = 6;
	struct kemu_isa_gws *g = kemu_isa_gws_create();
	uint32_t *out = hx_alloc(4096);
	struct kemu_isa_error err;
	struct {
		uint64_t out;
		uint32_t n, mode;
	} args = { (uint64_t)(uintptr_t)out, n, mode };
	struct hx_launch l = launch("t_gws_sema", &args, sizeof(args), n * 64, 64, g);
	ck_assert_msg(hx_run(&l, &err) == 0, "mode %u: %s: %s", mode, kemu_isa_error_name(err.kind),
		      err.message);
	/* the waiters ran after the releaser's store: they were queued */
	for (uint32_t i = 0; i + 1 < n; i++)
		ck_assert_msg(out[i] == 0x5e3a, "mode %u: out[%u] = 0x%x", mode, i, out[i]);
	ck_assert_uint_eq(l.gws_suspends, n - 1);
	ck_assert_int_eq(res(g, 5).counter, 0);      /* every count was taken */
	ck_assert_uint_eq(res(g, 5).waiting, 0);
	ck_assert(res(g, 5).semaphore);
	hx_free(out);
	kemu_isa_gws_put(g);
}

START_TEST(test_sema_br_releases_count_waiters)
{
	TARGET_OR_SKIP();
	sema(0);
}
END_TEST

START_TEST(test_sema_v_releases_one_waiter_each)
{
	TARGET_OR_SKIP();
	sema(1);
}
END_TEST

START_TEST(test_sema_release_all_releases_every_waiter)
{
	TARGET_OR_SKIP();
	sema(2);
}
END_TEST

static Suite *gws_suite(void)
{
	Suite *s = suite_create("isa_gws");
	TCase *tc = tcase_create("gws");
	tcase_add_loop_test(tc, test_init_sets_counter_from_first_active_lane, 0, 2);
	tcase_add_loop_test(tc, test_resource_id_wraps_mod_64, 0, 2);
	tcase_add_loop_test(tc, test_no_gws_is_a_memory_violation, 0, 2);
	tcase_add_loop_test(tc, test_resource_outside_vmid_range_is_a_memory_violation, 0, 2);
	tcase_add_loop_test(tc, test_grid_barrier_orders_rounds, 0, 2);
	tcase_add_loop_test(tc, test_grid_barrier_of_one_workgroup, 0, 2);
	tcase_add_loop_test(tc, test_barrier_that_never_opens_is_a_deadlock, 0, 2);
	tcase_add_loop_test(tc, test_unsuspendable_gws_wait_is_a_deadlock, 0, 2);
	tcase_add_loop_test(tc, test_sema_br_releases_count_waiters, 0, 2);
	tcase_add_loop_test(tc, test_sema_v_releases_one_waiter_each, 0, 2);
	tcase_add_loop_test(tc, test_sema_release_all_releases_every_waiter, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(gws_suite)
