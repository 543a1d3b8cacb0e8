/*
 * The program cache of kfdemu_isa (isa.h, kemu_isa_dispatch.cache_vm): a
 * program keyed by (owner, VM) is decoded once and reused while the VM and
 * icache generations stay; code rewritten in place is not seen until one
 * of them moves (the instruction cache), a changed descriptor is; the
 * cache stays bounded, flushing an owner forgets its programs, and a
 * program in use outlives a flush.  Hand-assembled kernels in a host
 * buffer behind a small memory interface (no compiler needed).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa.h"

#define BASE_VA   0x40000000ull
#define PAGES     160u
#define OUT_PAGE  (PAGES - 1)

/* PAGES pages of GPU memory at BASE_VA: kernels in the first ones, the
 * kernels' output in the last. */
static uint8_t *mem;
static unsigned translations;

static void *translate(void *ctx, uint64_t va, uint64_t len, unsigned access)
{
	(void)ctx;
	(void)access;
	translations++;
	if (va < BASE_VA || va + len > BASE_VA + PAGES * 4096ull)
		return NULL;
	return mem + (va - BASE_VA);
}

static const struct kemu_isa_mem vm = { .ctx = NULL, .translate = translate };
static int owner, process; /* their addresses are the keys */

static void setup(void)
{
	mem = aligned_alloc(4096, PAGES * 4096u);
	ck_assert_ptr_nonnull(mem);
	memset(mem, 0, PAGES * 4096u);
	kemu_isa_cache_flush(NULL);
}

static void teardown(void)
{
	kemu_isa_cache_flush(NULL);
	free(mem);
}

/* A kernel at page `page`: descriptor, then at +256 "s_mov_b32 s0/s1 <-
 * the output slot; s_mov_b32 s2, value; s_store_dword s2, s[0:1]; s_endpgm".
 * Returns the descriptor's VA; the value literal is at code byte 20. */
static uint64_t kernel_at(unsigned page, uint32_t value)
{
	uint8_t *h = mem + page * 4096u;
	uint64_t out = BASE_VA + OUT_PAGE * 4096ull + 4ull * page;
	const uint32_t code[] = {
		0xBE8000FF, (uint32_t)out, 0xBE8100FF, (uint32_t)(out >> 32),
		0xBE8200FF, value, 0xC0420080, 0, 0xBF8C0000, 0xBF810000,
	};
	int64_t entry = 256;
	memset(h, 0, 4096);
	memcpy(h + 16, &entry, 8);
	memcpy(h + 256, code, sizeof(code));
	return BASE_VA + page * 4096ull;
}

static void set_value(unsigned page, uint32_t value)
{
	memcpy(mem + page * 4096u + 256 + 20, &value, 4);
}

static struct kemu_isa_dispatch dispatch(uint64_t kd, uint64_t vm_gen, uint64_t icache_gen)
{
	struct kemu_isa_dispatch d;
	memset(&d, 0, sizeof(d));
	d.gfx_target_version = KEMU_ISA_GFX90A;
	d.mem = &vm;
	d.kernel_object = kd;
	d.grid_size[0] = d.grid_size[1] = d.grid_size[2] = 1;
	d.workgroup_size[0] = d.workgroup_size[1] = d.workgroup_size[2] = 1;
	d.cache_owner = &owner;
	d.cache_vm = &process;
	d.cache_vm_gen = vm_gen;
	d.cache_icache_gen = icache_gen;
	return d;
}

/* Gets the program for (kd, generations), runs it, returns what it stored. */
static uint32_t run(uint64_t kd, uint64_t vm_gen, uint64_t icache_gen)
{
	struct kemu_isa_dispatch d = dispatch(kd, vm_gen, icache_gen);
	struct kemu_isa_error err;
	struct kemu_isa_program *p = kemu_isa_program_get(&d, &err);
	ck_assert_msg(p != NULL, "program_get: %s", err.message);
	ck_assert_msg(!kemu_isa_run_workgroup(p, &d, 0, 0, 0, &err), "run: %s", err.message);
	kemu_isa_program_put(p);
	uint32_t v;
	memcpy(&v, mem + OUT_PAGE * 4096u + 4 * ((kd - BASE_VA) / 4096), 4);
	return v;
}

static struct kemu_isa_stats stats(void)
{
	struct kemu_isa_stats s;
	kemu_isa_stats_get(&s);
	return s;
}

START_TEST(same_generations_decode_once_and_read_no_code)
{
	uint64_t kd = kernel_at(0, 1);
	struct kemu_isa_stats s0 = stats();
	ck_assert_uint_eq(run(kd, 1, 1), 1);
	unsigned before = translations;
	ck_assert_uint_eq(run(kd, 1, 1), 1);
	ck_assert_uint_eq(run(kd, 1, 1), 1);
	struct kemu_isa_stats s1 = stats();
	ck_assert_uint_eq(s1.programs_decoded - s0.programs_decoded, 1);
	ck_assert_uint_eq(s1.programs_reused - s0.programs_reused, 2);
	/* per run: the descriptor (the CP reads it for every dispatch) and
	 * the store; no instruction fetch */
	ck_assert_uint_le(translations - before, 2 * 2);
}
END_TEST

START_TEST(code_rewritten_in_place_needs_a_generation_change)
{
	uint64_t kd = kernel_at(0, 1);
	ck_assert_uint_eq(run(kd, 1, 1), 1);
	set_value(0, 2);
	ck_assert_uint_eq(run(kd, 1, 1), 1);  /* the instruction cache */
	ck_assert_uint_eq(run(kd, 1, 2), 2);  /* icache invalidated */
	set_value(0, 3);
	ck_assert_uint_eq(run(kd, 1, 2), 2);
	ck_assert_uint_eq(run(kd, 2, 2), 3);  /* the VM changed */
}
END_TEST

START_TEST(older_generation_does_not_evict_a_newer_program)
{
	/* a dispatch that read its generations before a concurrent unmap
	 * decodes for itself and leaves the newer program cached */
	uint64_t kd = kernel_at(0, 1);
	ck_assert_uint_eq(run(kd, 5, 5), 1);
	set_value(0, 2);
	struct kemu_isa_stats s0 = stats();
	ck_assert_uint_eq(run(kd, 4, 5), 2);
	ck_assert_uint_eq(run(kd, 5, 5), 1);
	struct kemu_isa_stats s1 = stats();
	ck_assert_uint_eq(s1.programs_decoded - s0.programs_decoded, 1);
	ck_assert_uint_eq(s1.programs_reused - s0.programs_reused, 1);
}
END_TEST

START_TEST(changed_descriptor_is_decoded_again)
{
	/* the descriptor is data the CP reads for each dispatch: a change is
	 * seen at once (here: the entry point moves to new code) */
	uint64_t kd = kernel_at(0, 1);
	ck_assert_uint_eq(run(kd, 1, 1), 1);
	uint8_t *h = mem;
	memcpy(h + 512, h + 256, 40);
	uint32_t two = 2;
	memcpy(h + 512 + 20, &two, 4);
	int64_t entry = 512;
	memcpy(h + 16, &entry, 8);
	ck_assert_uint_eq(run(kd, 1, 1), 2);
}
END_TEST

START_TEST(cache_is_bounded_and_flushed_by_owner)
{
	unsigned n = 2 * KEMU_ISA_CACHE_PROGRAMS;
	ck_assert_uint_lt(n, OUT_PAGE);
	for (unsigned i = 0; i < n; i++)
		ck_assert_uint_eq(run(kernel_at(i, i), 1, 1), i);
	ck_assert_uint_eq(stats().programs_cached, KEMU_ISA_CACHE_PROGRAMS);
	/* the most recently used ones stayed */
	struct kemu_isa_stats s0 = stats();
	ck_assert_uint_eq(run(BASE_VA + (n - 1) * 4096ull, 1, 1), n - 1);
	ck_assert_uint_eq(stats().programs_decoded, s0.programs_decoded);
	kemu_isa_cache_flush(&owner);
	ck_assert_uint_eq(stats().programs_cached, 0);
}
END_TEST

START_TEST(program_in_use_outlives_a_flush)
{
	uint64_t kd = kernel_at(0, 9);
	struct kemu_isa_dispatch d = dispatch(kd, 1, 1);
	struct kemu_isa_error err;
	struct kemu_isa_program *p = kemu_isa_program_get(&d, &err);
	ck_assert_ptr_nonnull(p);
	kemu_isa_cache_flush(&owner);
	ck_assert_uint_eq(stats().programs_cached, 0);
	/* ASan would see a use after free here */
	ck_assert_int_eq(kemu_isa_run_workgroup(p, &d, 0, 0, 0, &err), 0);
	kemu_isa_program_put(p);
	uint32_t v;
	memcpy(&v, mem + OUT_PAGE * 4096u, 4);
	ck_assert_uint_eq(v, 9);
}
END_TEST

START_TEST(context_keyed_programs_still_compare_code)
{
	/* cache_vm NULL: the old contract, a change to the first 16 code
	 * bytes is seen at once (here: the store goes to the next slot) */
	uint64_t kd = kernel_at(0, 1);
	struct kemu_isa_dispatch d = dispatch(kd, 0, 0);
	d.cache_owner = d.cache_vm = NULL;
	struct kemu_isa_error err;
	struct kemu_isa_program *p = kemu_isa_program_get(&d, &err);
	ck_assert_ptr_nonnull(p);
	kemu_isa_program_put(p);
	uint32_t next_slot = (uint32_t)(BASE_VA + OUT_PAGE * 4096ull + 4);
	memcpy(mem + 256 + 4, &next_slot, 4);
	struct kemu_isa_stats s0 = stats();
	p = kemu_isa_program_get(&d, &err);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(kemu_isa_run_workgroup(p, &d, 0, 0, 0, &err), 0);
	kemu_isa_program_put(p);
	ck_assert_uint_eq(stats().programs_decoded - s0.programs_decoded, 1);
	uint32_t v;
	memcpy(&v, mem + OUT_PAGE * 4096u + 4, 4);
	ck_assert_uint_eq(v, 1);
}
END_TEST

static Suite *cache_suite(void)
{
	Suite *s = suite_create("isa_cache");
	TCase *tc = tcase_create("cache");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, same_generations_decode_once_and_read_no_code);
	tcase_add_test(tc, code_rewritten_in_place_needs_a_generation_change);
	tcase_add_test(tc, older_generation_does_not_evict_a_newer_program);
	tcase_add_test(tc, changed_descriptor_is_decoded_again);
	tcase_add_test(tc, cache_is_bounded_and_flushed_by_owner);
	tcase_add_test(tc, program_in_use_outlives_a_flush);
	tcase_add_test(tc, context_keyed_programs_still_compare_code);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(cache_suite)
