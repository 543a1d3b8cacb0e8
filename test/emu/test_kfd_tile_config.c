/*
 * GET_TILE_CONFIG on the kfdemu driver model, against the kernel's
 * kfd_ioctl_get_tile_config + amdgpu_amdkfd_get_tile_config for GFX9:
 * gb_addr_config from the GPU's gfx config, num_banks / num_ranks 0 (not set
 * from GFX9 on), 32 tile and 16 macro-tile modes (all 0 on GFX9), each count
 * clamped to its table and written back, a failed copy zeroing its count and
 * answering -EFAULT, an unknown gpu_id -EINVAL.  ROCr 5.2.3's image manager
 * asserts this ioctl succeeds at start-up.
 */
#include "emu_fixture.h"

#define POISON 0xA5A5A5A5u

static uint32_t tiles[40], macros[20];

static void poison(void)
{
	for (size_t i = 0; i < sizeof(tiles) / sizeof(tiles[0]); i++)
		tiles[i] = POISON;
	for (size_t i = 0; i < sizeof(macros) / sizeof(macros[0]); i++)
		macros[i] = POISON;
}

static void args(struct kfd_args_get_tile_config *a, uint32_t n_tiles, uint32_t n_macros)
{
	poison();
	memset(a, 0, sizeof(*a));
	a->tile_config_ptr = (uintptr_t)tiles;
	a->macro_tile_config_ptr = (uintptr_t)macros;
	a->num_tile_configs = n_tiles;
	a->num_macro_tile_configs = n_macros;
	a->gpu_id = E.gpu_id;
	a->num_banks = POISON;
	a->num_ranks = POISON;
}

/* A page the kernel's copy_to_user faults on. */
static void *fault_page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

START_TEST(mi210_reports_its_gb_addr_config_and_no_banks)
{
	struct kfd_args_get_tile_config a;
	args(&a, 32, 16);
	ck_assert_int_eq(kio(KFD_IOCTL_GET_TILE_CONFIG, &a), 0);
	/* gfx_v9_0_gpu_early_init, GC 9.4.2: golden value 0x22014042 */
	ck_assert_uint_eq(a.gb_addr_config, 0x22014042u);
	ck_assert_uint_eq(a.num_banks, 0);
	ck_assert_uint_eq(a.num_ranks, 0);
	ck_assert_uint_eq(a.num_tile_configs, 32);
	ck_assert_uint_eq(a.num_macro_tile_configs, 16);
}
END_TEST

START_TEST(tables_are_copied_as_zeros)
{
	struct kfd_args_get_tile_config a;
	args(&a, 32, 16);
	ck_assert_int_eq(kio(KFD_IOCTL_GET_TILE_CONFIG, &a), 0);
	for (int i = 0; i < 32; i++)
		ck_assert_msg(tiles[i] == 0, "tile_mode[%d] = 0x%x", i, tiles[i]);
	for (int i = 0; i < 16; i++)
		ck_assert_msg(macros[i] == 0, "macrotile_mode[%d] = 0x%x", i, macros[i]);
	ck_assert_uint_eq(tiles[32], POISON);
	ck_assert_uint_eq(macros[16], POISON);
}
END_TEST

START_TEST(counts_above_the_tables_are_clamped)
{
	struct kfd_args_get_tile_config a;
	args(&a, 40, 20);
	ck_assert_int_eq(kio(KFD_IOCTL_GET_TILE_CONFIG, &a), 0);
	ck_assert_uint_eq(a.num_tile_configs, 32);
	ck_assert_uint_eq(a.num_macro_tile_configs, 16);
	ck_assert_uint_eq(tiles[32], POISON); /* nothing past the table */
	ck_assert_uint_eq(macros[16], POISON);
}
END_TEST

START_TEST(smaller_counts_copy_only_that_many)
{
	struct kfd_args_get_tile_config a;
	args(&a, 3, 1);
	ck_assert_int_eq(kio(KFD_IOCTL_GET_TILE_CONFIG, &a), 0);
	ck_assert_uint_eq(a.num_tile_configs, 3);
	ck_assert_uint_eq(a.num_macro_tile_configs, 1);
	ck_assert_uint_eq(tiles[2], 0);
	ck_assert_uint_eq(tiles[3], POISON);
	ck_assert_uint_eq(macros[0], 0);
	ck_assert_uint_eq(macros[1], POISON);
}
END_TEST

START_TEST(zero_counts_accept_null_pointers)
{
	struct kfd_args_get_tile_config a;
	args(&a, 0, 0);
	a.tile_config_ptr = 0;
	a.macro_tile_config_ptr = 0;
	ck_assert_int_eq(kio(KFD_IOCTL_GET_TILE_CONFIG, &a), 0);
	ck_assert_uint_eq(a.gb_addr_config, E.gpu->gb_addr_config);
	ck_assert_uint_eq(a.num_tile_configs, 0);
	ck_assert_uint_eq(a.num_macro_tile_configs, 0);
}
END_TEST

START_TEST(unknown_gpu_id_is_einval)
{
	struct kfd_args_get_tile_config a;
	args(&a, 32, 16);
	a.gpu_id = E.gpu_id + 1;
	ck_assert_int_eq(kio(KFD_IOCTL_GET_TILE_CONFIG, &a), -EINVAL);
	ck_assert_uint_eq(a.num_tile_configs, 32); /* untouched */
	ck_assert_uint_eq(tiles[0], POISON);
}
END_TEST

START_TEST(bad_tile_pointer_is_efault_and_zeroes_its_count)
{
	struct kfd_args_get_tile_config a;
	void *ro = fault_page();
	args(&a, 32, 16);
	a.tile_config_ptr = (uintptr_t)ro;
	ck_assert_int_eq(kio(KFD_IOCTL_GET_TILE_CONFIG, &a), -EFAULT);
	ck_assert_uint_eq(a.num_tile_configs, 0);
	ck_assert_uint_eq(a.num_macro_tile_configs, 16); /* never reached */
	ck_assert_uint_eq(macros[0], POISON);
	/* the scalar fields were filled before the copy and are written back */
	ck_assert_uint_eq(a.gb_addr_config, E.gpu->gb_addr_config);
	ck_assert_uint_eq(a.num_banks, 0);
	munmap(ro, 4096);
}
END_TEST

START_TEST(bad_macro_pointer_is_efault_after_the_tiles)
{
	struct kfd_args_get_tile_config a;
	args(&a, 40, 16);
	a.macro_tile_config_ptr = 1ull << 60; /* outside user space */
	ck_assert_int_eq(kio(KFD_IOCTL_GET_TILE_CONFIG, &a), -EFAULT);
	ck_assert_uint_eq(a.num_tile_configs, 32);
	ck_assert_uint_eq(a.num_macro_tile_configs, 0);
	ck_assert_uint_eq(tiles[31], 0);
}
END_TEST

START_TEST(works_before_acquire_vm)
{
	struct kfd_args_get_tile_config a;
	args(&a, 32, 16);
	ck_assert_int_eq(kio(KFD_IOCTL_GET_TILE_CONFIG, &a), 0);
	ck_assert_uint_eq(a.gb_addr_config, 0x22014042u);
}
END_TEST

START_TEST(mi300x_reports_its_gb_addr_config)
{
	struct kfd_args_get_tile_config a;
	args(&a, 32, 16);
	ck_assert_int_eq(kio(KFD_IOCTL_GET_TILE_CONFIG, &a), 0);
	ck_assert_uint_eq(a.gb_addr_config, E.gpu->gb_addr_config);
	ck_assert_uint_ne(a.gb_addr_config, 0);
	ck_assert_uint_eq(a.num_banks, 0);
	ck_assert_uint_eq(a.num_ranks, 0);
	ck_assert_uint_eq(a.num_tile_configs, 32);
	ck_assert_uint_eq(a.num_macro_tile_configs, 16);
	ck_assert_uint_eq(tiles[0], 0);
}
END_TEST

static void setup_mi300x(void)
{
	emu_setup_preset("mi300x", 1, true);
}

static Suite *suite(void)
{
	Suite *s = suite_create("kfd_tile_config");
	TCase *tc = tcase_create("mi210");
	tcase_add_checked_fixture(tc, emu_setup, emu_teardown);
	tcase_add_test(tc, mi210_reports_its_gb_addr_config_and_no_banks);
	tcase_add_test(tc, tables_are_copied_as_zeros);
	tcase_add_test(tc, counts_above_the_tables_are_clamped);
	tcase_add_test(tc, smaller_counts_copy_only_that_many);
	tcase_add_test(tc, zero_counts_accept_null_pointers);
	tcase_add_test(tc, unknown_gpu_id_is_einval);
	tcase_add_test(tc, bad_tile_pointer_is_efault_and_zeroes_its_count);
	tcase_add_test(tc, bad_macro_pointer_is_efault_after_the_tiles);
	suite_add_tcase(s, tc);

	tc = tcase_create("no_vm");
	tcase_add_checked_fixture(tc, emu_setup_no_vm, emu_teardown);
	tcase_add_test(tc, works_before_acquire_vm);
	suite_add_tcase(s, tc);

	tc = tcase_create("mi300x");
	tcase_add_checked_fixture(tc, setup_mi300x, emu_teardown);
	tcase_add_test(tc, mi300x_reports_its_gb_addr_config);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
