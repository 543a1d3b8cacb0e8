/*
 * test_isa_insts.c — per-instruction behaviour of kfdemu_isa from the
 * assembly kernels in kernels/insts.s (assembled at build time by llvm-mc
 * for gfx90a): shift amounts past the width, carries and overflow,
 * NaN/Inf/denormal rules, an all-zero EXEC, the MODE register, MFMA and
 * packed f32 ops, the initial wave state from the kernel descriptor,
 * barriers in a loop, and the error paths (illegal instruction, memory
 * fault, s_trap).  Expected values cite the ISA rule they check.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

static struct hx_code code, code2;
static bool loaded;

static void load(void)
{
	char path[600];
	if (loaded)
		return;
	ck_assert_msg(hx_kernel_path("insts", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "insts-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code, path), 0);
	ck_assert_msg(hx_kernel_path("insts2", KEMU_ISA_GFX90A, path, sizeof(path)) != NULL,
		      "insts2-gfx90a.co not built");
	ck_assert_int_eq(hx_load(&code2, path), 0);
	loaded = true;
}

static uint32_t irq_m0, irq_count;
static void on_interrupt(void *ctx, uint32_t m0, uint32_t wave)
{
	(void)ctx;
	(void)wave;
	irq_m0 = m0;
	irq_count++;
}

/* Run kernel `name` with out as its only argument; returns hx_run's rc. */
static int run(const char *name, void *out, uint32_t gx, uint32_t gy, uint32_t gz, uint16_t wx,
	       uint16_t wy, uint16_t wz, struct kemu_isa_error *err)
{
	uint64_t arg = (uint64_t)(uintptr_t)out;
	struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = &arg, .args_size = 8,
			       .grid = { gx, gy, gz }, .wg = { wx, wy, wz } };
	load();
	l.kd = hx_kd(&code, name);
	if (!l.kd)
		l.kd = hx_kd(&code2, name);
	l.interrupt = on_interrupt;
	ck_assert_msg(l.kd != 0, "no %s.kd", name);
	return hx_run(&l, err);
}

static uint32_t *run_wave(const char *name)
{
	uint32_t *out = hx_alloc(4096);
	struct kemu_isa_error err;
	int rc = run(name, out, 64, 1, 1, 64, 1, 1, &err);
	ck_assert_msg(rc == 0, "%s: %s: %s", name, kemu_isa_error_name(err.kind), err.message);
	return out;
}

#define EXPECT(out, k, v) \
	ck_assert_msg((out)[k] == (uint32_t)(v), "out[%d] = 0x%08x, expected 0x%08x (%s)", k, (out)[k], \
		      (uint32_t)(v), #v)

static uint32_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

START_TEST(test_shift_amounts_are_masked)
{
	uint32_t *o = run_wave("t_shift");
	EXPECT(o, 0, 2);            /* v_lshlrev_b32 by 33: 5-bit amount */
	EXPECT(o, 1, 2);            /* s_lshl_b32 by 33 */
	EXPECT(o, 2, 2);            /* v_lshlrev_b64 by 65: 6-bit amount */
	EXPECT(o, 3, 0);
	EXPECT(o, 4, 0xffffffffu);  /* s_lshr_b64 by 64 = by 0 */
	EXPECT(o, 5, 0xffffffffu);  /* v_ashrrev_i32 by 63 = by 31 */
	EXPECT(o, 6, 1);            /* v_bfe_u32 bit 31 */
	EXPECT(o, 7, 0x18000000u);  /* v_alignbit_b32 ({1, 0x80000000} >> 4) */
	hx_free(o);
}
END_TEST

START_TEST(test_carries_and_overflow)
{
	uint32_t *o = run_wave("t_carry");
	EXPECT(o, 0, 0);            /* 0xffffffff + 1 */
	EXPECT(o, 1, 1);            /* v_addc takes the carry from VCC */
	EXPECT(o, 2, 1);            /* s_add_u32 -1 + 2 */
	EXPECT(o, 3, 1);            /* s_addc_u32 0 + 0 + SCC */
	EXPECT(o, 4, 1);            /* v_mad_u64_u32 (2^32-1)^2 low */
	EXPECT(o, 5, 0xfffffffeu);  /*                       high */
	EXPECT(o, 6, 7);            /* s_sub_u32 0 - 1 borrows: SCC=1 */
	EXPECT(o, 7, 6);            /* v_sub_co_u32 borrow in VCC */
	EXPECT(o, 8, 1);            /* s_add_i32 signed overflow sets SCC */
	EXPECT(o, 9, 0xfffffffeu);  /* v_mul_hi_u32 */
	hx_free(o);
}
END_TEST

START_TEST(test_float_specials)
{
	uint32_t *o = run_wave("t_float");
	EXPECT(o, 0, fbits(1.0f));   /* v_max_f32(qNaN, 1) = 1 */
	EXPECT(o, 1, 0x80000000u);   /* v_min_f32(+0, -0) = -0 */
	EXPECT(o, 2, 0x7fc00000u);   /* inf + -inf = the default quiet NaN */
	EXPECT(o, 3, 0);             /* v_cvt_i32_f32(NaN) = 0 */
	EXPECT(o, 4, 0x7fffffffu);   /* v_cvt_i32_f32(3e9) saturates */
	EXPECT(o, 5, 0);             /* v_cvt_u32_f32(-1) = 0 */
	EXPECT(o, 6, 0x7f800000u);   /* v_rcp_f32(0) = +inf */
	EXPECT(o, 7, 0x7fc00000u);   /* v_sqrt_f32(-1) = quiet NaN */
	EXPECT(o, 8, 0x3e22f983u);   /* inline constant 1/(2*pi) */
	EXPECT(o, 9, 1);             /* v_cmp_class_f32 quiet-NaN bit */
	EXPECT(o, 10, fbits(0.5f));  /* v_frexp_mant_f32(8) */
	EXPECT(o, 11, 4);            /* v_frexp_exp_i32_f32(8) */
	EXPECT(o, 12, fbits(0.5f));  /* v_fract_f32(-0.5) */
	EXPECT(o, 13, 0x7f800000u);  /* v_ldexp_f32(1, 200) overflows */
	EXPECT(o, 14, 1);            /* denormal kept with FP_DENORM = 3 */
	EXPECT(o, 15, fbits(2.0f));  /* v_med3_f32(1, 4, 2) */
	hx_free(o);
}
END_TEST

START_TEST(test_denormals_follow_mode)
{
	uint32_t *o = run_wave("t_denorm");
	EXPECT(o, 0, 0);             /* input denormal flushed (FP_DENORM 0) */
	EXPECT(o, 1, 0);             /* denormal result flushed */
	EXPECT(o, 2, 0);             /* s_getreg MODE.FP_DENORM f32 */
	EXPECT(o, 3, 1);             /* after s_setreg FP_DENORM = 3: kept */
	EXPECT(o, 4, 0x3f0u);        /* MODE[9:0]: IEEE, DX10_CLAMP, denorms 3/3 */
	hx_free(o);
}
END_TEST

START_TEST(test_exec_zero_does_nothing)
{
	uint32_t *o = run_wave("t_exec");
	EXPECT(o, 0, 0);             /* store with EXEC = 0 writes nothing */
	EXPECT(o, 1, 7);             /* v_mov with EXEC = 0 changes nothing */
	EXPECT(o, 2, 1);             /* s_cbranch_execz taken */
	EXPECT(o, 3, 5);             /* lane 0 written under EXEC = 1 */
	EXPECT(o, 4, 0);             /* lane 1 untouched */
	EXPECT(o, 5, 0xffffffffu);   /* VOPC result covers the active lanes */
	hx_free(o);
}
END_TEST

START_TEST(test_illegal_instruction_is_named)
{
	uint32_t *o = hx_alloc(4096);
	struct kemu_isa_error err;
	int rc = run("t_illegal", o, 64, 1, 1, 64, 1, 1, &err);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(err.kind == KEMU_ISA_ERR_ILLEGAL_INSTRUCTION, "kind %s", kemu_isa_error_name(err.kind));
	ck_assert_msg(strstr(err.message, "v_screen_partition_4se_b32") && strstr(err.message, "VOP3") &&
		      strstr(err.message, "0x177"), "message: %s", err.message);
	ck_assert_uint_eq(err.encoding[0], 0xd1770000u);
	ck_assert_msg(err.pc != 0, "no PC");
	hx_free(o);
	{
		/* and the decoder's own list names it */
		struct kemu_isa_dispatch d;
		struct kemu_isa_program *p;
		char list[256];
		memset(&d, 0, sizeof(d));
		d.gfx_target_version = KEMU_ISA_GFX90A;
		d.mem = hx_mem();
		d.kernel_object = hx_kd(&code, "t_illegal");
		p = kemu_isa_program_get(&d, &err);
		ck_assert(p != NULL);
		ck_assert_uint_eq(kemu_isa_program_unimplemented(p, list, sizeof(list)), 1);
		ck_assert_msg(strstr(list, "v_screen_partition_4se_b32") != NULL, "%s", list);
		kemu_isa_program_put(p);
	}
}
END_TEST

START_TEST(test_cache_maintenance_ops_complete)
{
	uint32_t *o = run_wave("t_cache_ops");
	EXPECT(o, 0, 0x1234);
	EXPECT(o, 1, 0x1235); /* the load after wbl2/invl2/wbinvl1 sees the store */
	hx_free(o);
}
END_TEST

START_TEST(test_mimg_is_named_with_its_opcode)
{
	uint32_t *o = hx_alloc(4096);
	struct kemu_isa_error err;
	int rc = run("t_mimg", o, 64, 1, 1, 64, 1, 1, &err);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(err.kind == KEMU_ISA_ERR_ILLEGAL_INSTRUCTION, "kind %s",
		      kemu_isa_error_name(err.kind));
	/* image_atomic_add with LWE (not implemented): word 0xf04a1100,
	 * opcode bits [24:18] = 0x12 */
	ck_assert_msg(strstr(err.message, "MIMG opcode 0x12 (image_atomic_add) not implemented"),
		      "message: %s", err.message);
	ck_assert_uint_eq(err.encoding[0], 0xf04a1100u);
	hx_free(o);
}
END_TEST

/* image_get_resinfo: the mip level's width and height, the layers of an
 * array, the level count; a level the image does not have reads 0; DMASK
 * packs the selected components. */
START_TEST(test_image_get_resinfo)
{
	uint32_t *o = run_wave("t_resinfo");
	EXPECT(o, 0, 50);
	EXPECT(o, 1, 25);
	EXPECT(o, 2, 7);
	EXPECT(o, 3, 3);
	for (int k = 4; k < 8; k++)
		EXPECT(o, k, 0);
	EXPECT(o, 8, 100);
	EXPECT(o, 9, 7);
	hx_free(o);
}
END_TEST

/* image_load_mip: a level beyond the image reads 0 (LAST_LEVEL 0; or
 * LAST_LEVEL 2 over a resource of one level, MAX_MIP 0); a level of a
 * tiled mip chain (not modelled) stops the wave with an error naming it,
 * never a wrong texel.  Linear chains: test_isa_ops' test_image_mip_*. */
START_TEST(test_image_load_mip_levels)
{
	uint32_t *o = run_wave("t_mip_oob");
	struct kemu_isa_error err;
	EXPECT(o, 0, 0);
	EXPECT(o, 1, 0);
	hx_free(o);
	o = run_wave("t_mip_view");
	EXPECT(o, 0, 0);
	EXPECT(o, 1, 0);
	ck_assert_int_eq(run("t_mip_levels", o, 64, 1, 1, 64, 1, 1, &err), -1);
	ck_assert_msg(err.kind == KEMU_ISA_ERR_ILLEGAL_INSTRUCTION &&
		      strstr(err.message, "image_load_mip") && strstr(err.message, "mip level 1") &&
		      strstr(err.message, "tiled mip chain"),
		      "%s: %s", kemu_isa_error_name(err.kind), err.message);
	hx_free(o);
}
END_TEST

START_TEST(test_memory_fault_reports_va)
{
	uint32_t *o = hx_alloc(4096);
	struct kemu_isa_error err;
	int rc = run("t_fault", o, 64, 1, 1, 64, 1, 1, &err);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(err.kind == KEMU_ISA_ERR_MEMORY_FAULT, "kind %s: %s", kemu_isa_error_name(err.kind),
		      err.message);
	ck_assert_uint_eq(err.va, 0x1000);
	ck_assert_uint_eq(err.access, KEMU_ISA_ACCESS_READ);
	EXPECT(o, 0, 0); /* the store after the faulting load never ran */
	hx_free(o);
}
END_TEST

START_TEST(test_s_trap_stops_dispatch)
{
	uint32_t *o = hx_alloc(4096);
	struct kemu_isa_error err;
	int rc = run("t_trap", o, 64, 1, 1, 64, 1, 1, &err);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(err.kind == KEMU_ISA_ERR_TRAP, "kind %s", kemu_isa_error_name(err.kind));
	ck_assert_uint_eq(err.trap_id, 2);
	hx_free(o);
}
END_TEST

START_TEST(test_mfma_16x16x4f32)
{
	uint32_t *o = run_wave("t_mfma");
	/* D = C + A x B with C = 1, A lane l = l & 7, B lane l = (l >> 3) & 3;
	 * layout: A[i][k] lane i+16k, B[k][j] lane j+16k, D[i][j] register
	 * i%4 of lane j + 16(i/4). */
	for (unsigned lane = 0; lane < 64; lane++) {
		for (unsigned r = 0; r < 4; r++) {
			unsigned i = r + 4 * (lane / 16), j = lane % 16;
			float ref = 1.0f;
			for (unsigned k = 0; k < 4; k++)
				ref += (float)((i + 16 * k) & 7) * (float)(((j + 16 * k) >> 3) & 3);
			ck_assert_msg(o[lane * 4 + r] == fbits(ref), "lane %u reg %u: 0x%08x expected %g", lane,
				      r, o[lane * 4 + r], (double)ref);
		}
	}
	hx_free(o);
}
END_TEST

START_TEST(test_packed_f32_op_sel)
{
	uint32_t *o = run_wave("t_pk");
	EXPECT(o, 0, fbits(16.0f));  /* lo = S0.hi * S1.lo + S2.lo (op_sel[0]) */
	EXPECT(o, 1, fbits(28.0f));  /* hi = S0.hi * S1.hi + S2.hi */
	EXPECT(o, 2, fbits(2.0f));   /* v_pk_mov_b32 op_sel:[1,0]: S0.hi */
	EXPECT(o, 3, fbits(3.0f));   /*                            S1.lo */
	EXPECT(o, 4, fbits(3.0f));
	EXPECT(o, 5, fbits(8.0f));
	EXPECT(o, 6, fbits(2.0f));   /* neg_lo on S0: -1 + 3 */
	EXPECT(o, 7, fbits(6.0f));
	hx_free(o);
}
END_TEST

START_TEST(test_initial_sgprs_from_descriptor)
{
	uint32_t *o = hx_alloc(16 * 128);
	struct kemu_isa_error err;
	int rc = run("t_abi", o, 128, 3, 2, 64, 1, 1, &err);
	ck_assert_msg(rc == 0, "%s", err.message);
	for (uint32_t z = 0; z < 2; z++)
		for (uint32_t y = 0; y < 3; y++)
			for (uint32_t x = 0; x < 2; x++) {
				uint32_t *r = o + (z * 6 + y * 2 + x) * 32;
				EXPECT(r, 0, hx_last.srd[0]);             /* s[0:3] scratch SRD */
				EXPECT(r, 1, hx_last.srd[3]);
				EXPECT(r, 2, (uint32_t)hx_last.packet);  /* s[4:5] dispatch ptr */
				EXPECT(r, 3, (uint32_t)(hx_last.packet >> 32));
				EXPECT(r, 4, 0);                          /* s[6:7] queue ptr */
				EXPECT(r, 5, 0);
				EXPECT(r, 6, (uint32_t)hx_last.kernarg); /* s[8:9] kernarg */
				EXPECT(r, 7, 1);                          /* s[10:11] dispatch id */
				EXPECT(r, 8, (uint32_t)hx_last.scratch); /* s[12:13] flat scratch init */
				EXPECT(r, 9, 16);                         /* s14 private size */
				EXPECT(r, 10, x);                         /* s15..s17 workgroup id */
				EXPECT(r, 11, y);
				EXPECT(r, 12, z);
				EXPECT(r, 13, 0);                         /* s19 wave offset, wave 0 */
				EXPECT(r, 14, 5);                         /* v0 of lane 5 = x id 5 */
				/* MODE from rsrc1: IEEE, DX10_CLAMP, FP_DENORM f64 3 and f32 0
				 * (the .amdhsa_float_denorm_mode_32 default) */
				EXPECT(r, 15, 0x3c0u);
			}
	hx_free(o);
}
END_TEST

START_TEST(test_workitem_ids_packed_in_v0)
{
	uint32_t *o = hx_alloc(4096);
	struct kemu_isa_error err;
	int rc = run("t_vid", o, 4, 4, 4, 4, 4, 4, &err);
	ck_assert_msg(rc == 0, "%s", err.message);
	for (uint32_t l = 0; l < 64; l++) {
		uint32_t x = l % 4, y = (l / 4) % 4, z = l / 16;
		EXPECT(o, (int)l, x | y << 10 | z << 20);
	}
	hx_free(o);
}
END_TEST

START_TEST(test_barriers_in_a_loop)
{
	uint32_t *o = hx_alloc(4096);
	uint32_t v[256], nv[256];
	struct kemu_isa_error err;
	int rc = run("t_barrier", o, 256, 1, 1, 256, 1, 1, &err);
	ck_assert_msg(rc == 0, "%s", err.message);
	for (uint32_t l = 0; l < 256; l++)
		v[l] = l;
	for (int round = 0; round < 8; round++) {
		for (uint32_t l = 0; l < 256; l++)
			nv[l] = v[(l + 64) & 255] + 1;
		memcpy(v, nv, sizeof(v));
	}
	for (uint32_t l = 0; l < 256; l++)
		EXPECT(o, (int)l, v[l]);
	hx_free(o);
}
END_TEST

START_TEST(test_decoded_program_is_cached)
{
	struct kemu_isa_stats before, after;
	uint32_t *o;
	load();
	o = run_wave("t_pk");
	hx_free(o);
	kemu_isa_stats_get(&before);
	o = run_wave("t_pk");
	hx_free(o);
	kemu_isa_stats_get(&after);
	ck_assert_uint_eq(after.programs_decoded, before.programs_decoded);
	ck_assert_uint_gt(after.wave_instructions, before.wave_instructions);
}
END_TEST

START_TEST(test_scalar_bit_ops)
{
	uint32_t *o = run_wave("t_salu");
	EXPECT(o, 0, 0x56);                 /* s_bfe_u32 offset 8 width 8 */
	EXPECT(o, 1, 0xffffff80u);          /* s_bfe_i32 sign-extends the field */
	EXPECT(o, 2, 0x80000000u);          /* s_brev_b32 */
	EXPECT(o, 3, 8);                    /* s_ff1_i32_b32 */
	EXPECT(o, 4, 23);                   /* s_flbit_i32_b32 */
	EXPECT(o, 5, __builtin_popcount(0x12345678u));
	EXPECT(o, 6, 9);                    /* s_quadmask_b64 0xf00f */
	EXPECT(o, 7, 0xffffffffu);          /* s_ff1 of 0: -1 */
	EXPECT(o, 8, 0xffff8001u);          /* s_sext_i32_i16 */
	EXPECT(o, 9, 0xffffffffu);          /* s_mul_hi_i32 -2 * 3 */
	EXPECT(o, 10, 0xfffe);              /* s_movk + s_addk */
	EXPECT(o, 11, 7);                   /* s_absdiff_i32 */
	EXPECT(o, 12, 21);                  /* s_lshl2_add_u32 */
	EXPECT(o, 13, 0x2222aaaau);         /* s_pack_lh_b32_b16 */
	EXPECT(o, 14, 0x10);                /* s_bitset1_b32 */
	EXPECT(o, 15, 1);                   /* s_cmp_eq_u64 */
	hx_free(o);
}
END_TEST

START_TEST(test_vop3_integer_ops)
{
	uint32_t *o = run_wave("t_vop3");
	EXPECT(o, 0, 0x00ff7711u);          /* v_perm_b32 selectors 7, 1, 0xf, 0xc */
	EXPECT(o, 1, 0x11663388u);          /* v_bfi_b32 */
	EXPECT(o, 2, 2);                    /* v_med3_i32 */
	EXPECT(o, 3, 4);                    /* v_min3_u32 */
	EXPECT(o, 4, 0xffffffffu);          /* v_max3_i32 */
	EXPECT(o, 5, 53);                   /* v_lshl_add_u32 */
	EXPECT(o, 6, 4);                    /* v_add3_u32 */
	EXPECT(o, 7, __builtin_popcount(0x11223344u) + 1);
	EXPECT(o, 8, 0xff000000u);          /* v_mul_i32_i24: 24-bit signed */
	EXPECT(o, 9, 0xffffffffu);          /* v_mul_hi_i32 -4 * 2^30 */
	EXPECT(o, 10, 15);                  /* v_ffbh_u32 */
	EXPECT(o, 11, 0xf1);                /* v_xad_u32 */
	EXPECT(o, 12, fbits(34.0f));        /* v_cvt_f32_ubyte2 */
	EXPECT(o, 13, 0x44556677u);         /* v_alignbyte_b32 */
	EXPECT(o, 14, 0xf00);               /* v_bfm_b32, then v_swap_b32 */
	EXPECT(o, 16, 0x777);
	EXPECT(o, 15, 0xc0003c00u);         /* v_cvt_pkrtz_f16_f32 (1, -2) */
	EXPECT(o, 17, 0x3344u * 0x7788u + 1);  /* v_mad_u32_u16 */
	EXPECT(o, 18, 4 * 0x44 + 2);        /* v_sad_u8 */
	EXPECT(o, 19, (uint32_t)-15);       /* v_mad_i32_i16 */
	EXPECT(o, 20, 0x4000);              /* v_sqrt_f16(4) = 2 */
	EXPECT(o, 21, 0x3400);              /* v_rcp_f16(4) = 0.25 */
	EXPECT(o, 22, 4);                   /* v_cvt_u16_f16 */
	EXPECT(o, 23, 0x8000);              /* v_cvt_i16_f16(-inf) = -32768 (16 bits) */
	hx_free(o);
}
END_TEST

START_TEST(test_lds_and_global_atomics)
{
	uint32_t *o = run_wave("t_atomic");
	EXPECT(o, 0, 10);                   /* ds_add_rtn returns the old value */
	EXPECT(o, 1, 15);                   /* ds_cmpst_rtn: matched */
	EXPECT(o, 2, 99);
	EXPECT(o, 3, 98);                   /* ds_dec_rtn */
	EXPECT(o, 4, 98);                   /* ds_wrxchg_rtn */
	EXPECT(o, 5, 10);                   /* ds_max_rtn_i32 */
	EXPECT(o, 6, 0);                    /* global_atomic_add glc: old */
	EXPECT(o, 7, 7);                    /* global_atomic_cmpswap glc: old */
	EXPECT(o, 16, 3);                   /* 42, then umin 3 */
	EXPECT(o, 8, 0);                    /* add_x2 old low */
	EXPECT(o, 9, 0xffffffffu);          /* 64-bit result */
	EXPECT(o, 10, 0);
	EXPECT(o, 20, fbits(6.0f));         /* global_atomic_add_f32 twice */
	EXPECT(o, 11, 0x3ff80000u);         /* ds_add_rtn_f64 returns 1.5 (high dword) */
	EXPECT(o, 12, 0x40080000u);         /* LDS holds 3.0 */
	EXPECT(o, 21, 0);                   /* inc wraps at the operand: 0,1,2 -> 0 */
	EXPECT(o, 13, 10);                  /* DS ADDR + OFFSET wraps at 32 bits: read */
	EXPECT(o, 14, 77);                  /* write */
	EXPECT(o, 15, 77);                  /* atomic */
	EXPECT(o, 17, 92);                  /* read2: 82 + 10 */
	hx_free(o);
}
END_TEST

START_TEST(test_cross_lane_ops)
{
	uint32_t *o = run_wave("t_lanes");
	for (uint32_t l = 0; l < 64; l++) {
		EXPECT(o, (int)(4 * l), (l + 1) & 63);                      /* ds_bpermute */
		EXPECT(o, (int)(4 * l + 1), 100 * ((l & ~3u) | (3 - (l & 3)))); /* quad perm */
		EXPECT(o, (int)(4 * l + 2), 100 * ((l & 32) | 1));          /* bitmask: or 1 */
	}
	EXPECT(o, 256, 0);                  /* v_readfirstlane, all lanes */
	EXPECT(o, 257, 400);                /* first active lane 4 */
	EXPECT(o, 258, 400);                /* v_writelane / v_readlane */
	hx_free(o);
}
END_TEST

START_TEST(test_sendmsg_and_setpc)
{
	uint32_t *o;
	irq_count = 0;
	o = run_wave("t_flow");
	ck_assert_uint_eq(irq_count, 1);    /* one wave: one MSG_INTERRUPT */
	ck_assert_uint_eq(irq_m0, 0x123456);
	EXPECT(o, 0, 1);                    /* s_setpc_b64 skipped the store of 2 */
	EXPECT(o, 1, 1);                    /* s_memtime is nonzero */
	hx_free(o);
}
END_TEST

START_TEST(test_dpp_lane_moves)
{
	uint32_t *o = run_wave("t_dpp");
	for (uint32_t l = 0; l < 64; l++) {
		uint32_t row = l / 16, i = l % 16;
		/* row_shr:1 — lane 0 of a row has no source: not written ... */
		EXPECT(o, (int)(4 * l), i ? l - 1 : 0xffffffffu);
		/* ... unless bound_ctrl:0 (BOUND_CTRL=1), which reads zero */
		EXPECT(o, (int)(4 * l + 1), i ? l - 1 : 0);
		/* quad_perm [1,0,3,2] in rows 0 and 2 (row_mask 0x5) */
		EXPECT(o, (int)(4 * l + 2), (row == 0 || row == 2) ? (l ^ 1) + l : 0xffffffffu);
		/* row_bcast:15 to rows 1 and 3 (row_mask 0xa): lane 15 of the
		 * previous row */
		EXPECT(o, (int)(4 * l + 3), (row == 1 || row == 3) ? row * 16 - 1 : 0xffffffffu);
	}
	hx_free(o);
}
END_TEST

START_TEST(test_trig_preop_pieces_of_two_over_pi)
{
	uint32_t *o = run_wave("t_trig");
	uint64_t v[4];
	memcpy(v, o, sizeof(v));
	/* 53-bit pieces of 2/pi (0.A2F9836E4E441529FC2757D1...), computed
	 * independently with Python integers */
	ck_assert_msg(v[0] == 0x3fe45f306dc9c882ull, "piece 0: 0x%016llx", (unsigned long long)v[0]);
	ck_assert_msg(v[1] == 0x3c94a7f09d5f47d4ull, "piece 1: 0x%016llx", (unsigned long long)v[1]);
	ck_assert_msg(v[2] == 0x394a6ee06db14accull, "piece 2: 0x%016llx", (unsigned long long)v[2]);
	/* exponent 1123 > 1077 shifts the window by 46 bits */
	ck_assert_msg(v[3] == 0x3cb529fc2757d1e0ull, "2^100: 0x%016llx", (unsigned long long)v[3]);
	hx_free(o);
}
END_TEST

START_TEST(test_vopc_sdwa_scalar_destination)
{
	uint32_t *o = run_wave("t_vopc_sdwa");
	EXPECT(o, 0, ~(1u << 5));           /* lane byte != 5: all but lane 5 */
	EXPECT(o, 1, 0xffffffffu);
	EXPECT(o, 2, 0);                    /* lane > 40: lanes 41..63 */
	EXPECT(o, 3, 0xfffffe00u);
	hx_free(o);
}
END_TEST

static Suite *insts_suite(void)
{
	Suite *s = suite_create("isa_insts");
	TCase *tc = tcase_create("insts");
	tcase_add_test(tc, test_shift_amounts_are_masked);
	tcase_add_test(tc, test_carries_and_overflow);
	tcase_add_test(tc, test_float_specials);
	tcase_add_test(tc, test_denormals_follow_mode);
	tcase_add_test(tc, test_exec_zero_does_nothing);
	tcase_add_test(tc, test_illegal_instruction_is_named);
	tcase_add_test(tc, test_cache_maintenance_ops_complete);
	tcase_add_test(tc, test_mimg_is_named_with_its_opcode);
	tcase_add_test(tc, test_image_get_resinfo);
	tcase_add_test(tc, test_image_load_mip_levels);
	tcase_add_test(tc, test_memory_fault_reports_va);
	tcase_add_test(tc, test_s_trap_stops_dispatch);
	tcase_add_test(tc, test_mfma_16x16x4f32);
	tcase_add_test(tc, test_packed_f32_op_sel);
	tcase_add_test(tc, test_initial_sgprs_from_descriptor);
	tcase_add_test(tc, test_workitem_ids_packed_in_v0);
	tcase_add_test(tc, test_barriers_in_a_loop);
	tcase_add_test(tc, test_decoded_program_is_cached);
	tcase_add_test(tc, test_scalar_bit_ops);
	tcase_add_test(tc, test_vop3_integer_ops);
	tcase_add_test(tc, test_lds_and_global_atomics);
	tcase_add_test(tc, test_cross_lane_ops);
	tcase_add_test(tc, test_sendmsg_and_setpc);
	tcase_add_test(tc, test_dpp_lane_moves);
	tcase_add_test(tc, test_trig_preop_pieces_of_two_over_pi);
	tcase_add_test(tc, test_vopc_sdwa_scalar_destination);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(insts_suite)
