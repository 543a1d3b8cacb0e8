/*
 * test_isa_memfast.c — the interpreter's fast memory paths against a host
 * model, on per-lane addresses chosen to reach each of their cases
 * (kernels/memfast.s, gfx90a, one wave, 1 KiB of LDS filled with dword
 * i = 0x1000 + i):
 *  - LDS reads under the whole EXEC (ds_read_b32, ds_read2_b32, ds_read_b64
 *    and a read2 into its own address register): every 16-lane group
 *    consecutive, every group uniform, groups of different kinds, lanes
 *    outside the LDS (read 0), a run that crosses the LDS's end, addresses
 *    that wrap around 2^32, unaligned ones;
 *  - 32-bit LDS atomics with return (add, max_i32, wrxchg) and without
 *    (add): lanes that collide are applied in lane order, a lane outside
 *    the LDS changes nothing and returns 0;
 *  - GLOBAL atomics with return, colliding lanes in lane order, and a
 *    misaligned lane's fault (lanes before it done, none after);
 *  - GLOBAL dwordx2 and dword loads (SADDR and VADDR pair) and a dword
 *    store of consecutive, reversed and shifted elements, of 16-lane
 *    groups each on consecutive elements (tile rows; one row four times:
 *    the last group's store wins), and a whole-wave load from an unmapped
 *    address faulting at the first lane's address.
 * The model is the ISA's: address = ADDR + OFFSET (32 bits, wrapping) for
 * LDS; an LDS element outside the allocation reads 0 and is not written;
 * lanes in ascending order; GLOBAL atomics naturally aligned or a memory
 * fault (ATOMIC access) at the first misaligned lane.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

#define LDS_BYTES 1024u
#define ROWS 8

static struct hx_code code;
static bool loaded;

static void load(void)
{
	char path[600];

	if (loaded)
		return;
	ck_assert_msg(hx_kernel_path("memfast", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "memfast-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	loaded = true;
}

/* Runs kernel name on one wave: args { out, in, buf }. */
static int run(const char *name, uint32_t *out, const uint32_t *in, void *buf,
	       struct kemu_isa_error *err)
{
	uint64_t args[3] = { (uint64_t)(uintptr_t)out, (uint64_t)(uintptr_t)in,
			     (uint64_t)(uintptr_t)buf };
	struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = sizeof(args),
			       .grid = { 64, 1, 1 }, .wg = { 64, 1, 1 } };

	load();
	l.kd = hx_kd(&code, name);
	ck_assert_msg(l.kd != 0, "no %s.kd", name);
	return hx_run(&l, err);
}

/* ---- the LDS model ---- */
static uint8_t lds[LDS_BYTES];

static void lds_init(void)
{
	for (uint32_t i = 0; i < LDS_BYTES / 4; i++) {
		uint32_t v = 0x1000 + i;
		memcpy(lds + 4 * i, &v, 4);
	}
}

static bool lds_in(uint32_t a, uint32_t n)
{
	return (uint64_t)a + n <= LDS_BYTES;
}

static uint32_t lds_rd(uint32_t a)
{
	uint32_t v = 0;
	if (lds_in(a, 4))
		memcpy(&v, lds + a, 4);
	return v;
}

static void lds_wr(uint32_t a, uint32_t v)
{
	if (lds_in(a, 4))
		memcpy(lds + a, &v, 4);
}

static void check_rows(const char *what, const uint32_t *out, const uint32_t *want, unsigned rows)
{
	for (unsigned i = 0; i < rows * 64; i++)
		ck_assert_msg(out[i] == want[i], "%s: row %u lane %u: 0x%08x, expected 0x%08x", what,
			      i / 64, i % 64, out[i], want[i]);
}

/* The address patterns of the LDS reads. */
enum pat { P_SEQ, P_UNIFORM, P_SAME, P_MIXED, P_END, P_WRAP, P_UNALIGNED, P_COUNT };
static const char *const pat_name[P_COUNT] = {
	"consecutive", "uniform groups", "one address", "mixed groups", "across the end",
	"wrapping", "unaligned",
};

static uint32_t pat_addr(enum pat p, unsigned l)
{
	switch (p) {
	case P_SEQ: return 16 + 4 * l;
	case P_UNIFORM: return 64 * (l / 16) + 4;
	case P_SAME: return 100;
	case P_MIXED:
		if (l < 16)
			return 4 * l;                   /* consecutive */
		if (l < 32)
			return 200;                     /* uniform */
		if (l < 48)
			return (l * 37 * 4) % 1000;     /* scattered */
		return (l & 1) ? 0x20000u + l : 4 * l;  /* some outside */
	case P_END: return LDS_BYTES - 128 + 4 * l;
	case P_WRAP: return 0xffffffc0u + 4 * l;
	case P_UNALIGNED: return 2 + 4 * l;
	default: return 0;
	}
}

START_TEST(test_lds_reads_whole_exec)
{
	uint32_t *out = hx_alloc(ROWS * 256), *in = hx_alloc(256), want[ROWS * 64];

	for (int p = 0; p < P_COUNT; p++) {
		struct kemu_isa_error err;
		lds_init();
		for (unsigned l = 0; l < 64; l++) {
			uint32_t a = pat_addr((enum pat)p, l);
			bool ok64 = lds_in(a + 8, 8);
			in[l] = a;
			want[l] = lds_rd(a);
			want[64 + l] = lds_rd(a + 4);
			want[128 + l] = lds_rd(a + 12);
			want[192 + l] = ok64 ? lds_rd(a + 8) : 0;
			want[256 + l] = ok64 ? lds_rd(a + 12) : 0;
			want[320 + l] = lds_rd(a);
			want[384 + l] = lds_rd(a + 8);
		}
		memset(out, 0xee, ROWS * 256);
		ck_assert_msg(run("mf_ds_read", out, in, NULL, &err) == 0, "%s: %s", pat_name[p],
			      err.message);
		check_rows(pat_name[p], out, want, 7);
	}
	hx_free(out);
	hx_free(in);
}
END_TEST

/* LDS atomic patterns: collisions, outside lanes, unaligned lanes. */
static uint32_t atomic_addr(int p, unsigned l)
{
	switch (p) {
	case 0: return 16 + 4 * (l % 5);                       /* five lanes per dword */
	case 1: return (l % 7 == 3) ? 0x40000u : 4 * l;         /* some outside */
	case 2: return (l & 1) ? LDS_BYTES - 4 : 2 + 4 * (l / 2); /* last dword, unaligned */
	default: return 4 * l;                                  /* distinct */
	}
}

START_TEST(test_lds_atomics_in_lane_order)
{
	uint32_t *out = hx_alloc(ROWS * 256), *in = hx_alloc(256), want[ROWS * 64];

	for (int p = 0; p < 4; p++) {
		struct kemu_isa_error err;
		lds_init();
		for (unsigned l = 0; l < 64; l++)
			in[l] = atomic_addr(p, l);
		for (unsigned l = 0; l < 64; l++) {             /* ds_add_rtn_u32 */
			uint32_t old = lds_rd(in[l]);
			want[l] = old;
			lds_wr(in[l], old + l + 1);
		}
		for (unsigned l = 0; l < 64; l++) {             /* ds_max_rtn_i32 */
			uint32_t old = lds_rd(in[l]), d = 0x1000 + 2 * l - 40;
			want[64 + l] = old;
			lds_wr(in[l], (int32_t)d > (int32_t)old ? d : old);
		}
		for (unsigned l = 0; l < 64; l++) {             /* ds_wrxchg_rtn_b32 */
			want[128 + l] = lds_rd(in[l]);
			lds_wr(in[l], l);
		}
		for (unsigned l = 0; l < 64; l++)               /* ds_add_u32 offset:4 */
			lds_wr(in[l] + 4, lds_rd(in[l] + 4) + 3);
		for (unsigned k = 0; k < 4; k++)
			for (unsigned l = 0; l < 64; l++)
				want[192 + 64 * k + l] = lds_rd(4 * (l + 64 * k));
		memset(out, 0xee, ROWS * 256);
		ck_assert_msg(run("mf_ds_atomic", out, in, NULL, &err) == 0, "pattern %d: %s", p,
			      err.message);
		check_rows("lds atomics", out, want, 7);
	}
	hx_free(out);
	hx_free(in);
}
END_TEST

START_TEST(test_global_atomics_in_lane_order)
{
	uint32_t *out = hx_alloc(ROWS * 256), *in = hx_alloc(256), *buf = hx_alloc(4096);
	uint32_t want[ROWS * 64], mem[1024];
	struct kemu_isa_error err;

	for (unsigned i = 0; i < 1024; i++)
		buf[i] = mem[i] = 5 * i;
	for (unsigned l = 0; l < 64; l++)
		in[l] = 4 * (l % 3) + (l >= 32 ? 4092 - 4 * l : 0);
	for (unsigned l = 0; l < 64; l++) {
		want[l] = mem[in[l] / 4];
		mem[in[l] / 4] += l + 1;
	}
	for (unsigned l = 0; l < 64; l++) {
		uint32_t d = 64 - l, old = mem[in[l] / 4];
		want[64 + l] = old;
		mem[in[l] / 4] = d > old ? d : old;
	}
	ck_assert_msg(run("mf_global_atomic", out, in, buf, &err) == 0, "%s", err.message);
	check_rows("global atomics", out, want, 2);
	for (unsigned i = 0; i < 1024; i++)
		ck_assert_msg(buf[i] == mem[i], "buf[%u] = %u, expected %u", i, buf[i], mem[i]);

	/* lane 5 misaligned: lanes 0-4 add, then the fault names lane 5's
	 * address; nothing after it runs */
	for (unsigned i = 0; i < 1024; i++)
		buf[i] = mem[i] = 0;
	for (unsigned l = 0; l < 64; l++)
		in[l] = l == 5 ? 42 : 8 * l;
	for (unsigned l = 0; l < 5; l++)
		mem[2 * l] = l + 1;
	ck_assert_int_eq(run("mf_global_atomic", out, in, buf, &err), -1);
	ck_assert_msg(err.kind == KEMU_ISA_ERR_MEMORY_FAULT, "%s: %s", kemu_isa_error_name(err.kind),
		      err.message);
	ck_assert_uint_eq(err.va, (uint64_t)(uintptr_t)buf + 42);
	ck_assert_uint_eq(err.access, KEMU_ISA_ACCESS_ATOMIC);
	for (unsigned i = 0; i < 1024; i++)
		ck_assert_msg(buf[i] == mem[i], "after the fault: buf[%u] = %u, expected %u", i, buf[i],
			      mem[i]);
	hx_free(out);
	hx_free(in);
	hx_free(buf);
}
END_TEST

START_TEST(test_global_consecutive_loads)
{
	uint32_t *out = hx_alloc(ROWS * 256), *in = hx_alloc(256), *buf = hx_alloc(4096);
	uint32_t want[ROWS * 64], mem[1024];
	static const char *const names[] = { "consecutive", "reversed", "shifted", "one element",
					     "tile rows", "one row four times" };

	for (int p = 0; p < 6; p++) {
		struct kemu_isa_error err;
		for (unsigned i = 0; i < 1024; i++)
			buf[i] = mem[i] = 3 * i + 7;
		for (unsigned l = 0; l < 64; l++)
			in[l] = p == 0 ? 8 * l : p == 1 ? 8 * (63 - l) : p == 2 ? 8 * l + 4 :
				p == 3 ? 40 : p == 4 ? 4 * (l % 16) + 256 * (l / 16) : 4 * (l % 16);
		for (unsigned l = 0; l < 64; l++) {
			want[l] = want[128 + l] = mem[in[l] / 4];
			want[64 + l] = want[192 + l] = want[256 + l] = mem[in[l] / 4 + 1];
		}
		for (unsigned l = 0; l < 64; l++)       /* the store, lane order */
			mem[(in[l] + 512) / 4] = l;
		ck_assert_msg(run("mf_global_seq", out, in, buf, &err) == 0, "%s: %s", names[p],
			      err.message);
		check_rows(names[p], out, want, 5);
		for (unsigned i = 0; i < 1024; i++)
			ck_assert_msg(buf[i] == mem[i], "%s: buf[%u] = %u, expected %u", names[p], i,
				      buf[i], mem[i]);
	}
	{
		/* nothing mapped at 0x1000: the whole wave's consecutive load
		 * faults at lane 0's address */
		struct kemu_isa_error err;
		for (unsigned l = 0; l < 64; l++)
			in[l] = 8 * l + 16;
		ck_assert_int_eq(run("mf_global_seq", out, in, (void *)(uintptr_t)0x1000, &err), -1);
		ck_assert_msg(err.kind == KEMU_ISA_ERR_MEMORY_FAULT, "%s: %s",
			      kemu_isa_error_name(err.kind), err.message);
		ck_assert_uint_eq(err.va, 0x1010);
		ck_assert_uint_eq(err.access, KEMU_ISA_ACCESS_READ);
	}
	hx_free(out);
	hx_free(in);
	hx_free(buf);
}
END_TEST

static Suite *memfast_suite(void)
{
	Suite *s = suite_create("isa_memfast");
	TCase *tc = tcase_create("paths");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_lds_reads_whole_exec);
	tcase_add_test(tc, test_lds_atomics_in_lane_order);
	tcase_add_test(tc, test_global_atomics_in_lane_order);
	tcase_add_test(tc, test_global_consecutive_loads);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(memfast_suite)
