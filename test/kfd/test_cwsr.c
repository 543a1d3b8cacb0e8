/*
 * kfd_cwsr_sizes against the kernel's kfd_queue_ctx_save_restore_size
 * results for known parts (research/kfd-uapi-facts.md §4), the sysfs
 * override, and nodes without CWSR.
 */
#include <string.h>

#include "hl_check.h"
#include "kfd/kfd.h"

static struct kfd_node gpu_node(uint32_t gfxv, uint32_t simd_count, uint32_t simd_per_cu,
				uint32_t array_count, uint32_t num_xcc)
{
	struct kfd_node n;
	memset(&n, 0, sizeof(n));
	n.gpu_id = 0x1234;
	n.props.gfx_target_version = gfxv;
	n.props.simd_count = simd_count;
	n.props.simd_per_cu = simd_per_cu;
	n.props.array_count = array_count;
	n.props.simd_arrays_per_engine = 1;
	n.props.num_xcc = num_xcc;
	n.props.lds_size_in_kb = 64;
	return n;
}

static void expect(const struct kfd_cwsr_sizes *s, uint32_t ctl, uint32_t cwsr, uint32_t debug,
		   uint32_t eop, uint64_t total)
{
	ck_assert_msg(s->ctl_stack_size == ctl, "ctl_stack_size 0x%x, expected 0x%x",
		      s->ctl_stack_size, ctl);
	ck_assert_msg(s->cwsr_size == cwsr, "cwsr_size 0x%x, expected 0x%x", s->cwsr_size, cwsr);
	ck_assert_msg(s->debug_size == debug, "debug_size 0x%x, expected 0x%x", s->debug_size,
		      debug);
	ck_assert_msg(s->eop_size == eop, "eop_size 0x%x, expected 0x%x", s->eop_size, eop);
	ck_assert_msg(s->total_size == total, "total_size 0x%llx, expected 0x%llx",
		      (unsigned long long)s->total_size, (unsigned long long)total);
}

START_TEST(mi210_gfx90a_104_cu)
{
	struct kfd_node n = gpu_node(90010, 416, 4, 8, 1);
	struct kfd_cwsr_sizes s;
	kfd_cwsr_sizes(&n, &s);
	expect(&s, 0x9000, 0x3C91000, 0x20000, 4096, 0x3CB1000);
}
END_TEST

START_TEST(mi300x_gfx942_spx_8_xcc_has_no_aql_eop)
{
	struct kfd_node n = gpu_node(90402, 1216, 4, 32, 8);
	struct kfd_cwsr_sizes s;
	kfd_cwsr_sizes(&n, &s);
	expect(&s, 0x3000, 0x1621000, 0xBE00, 0, 0xB167000);
}
END_TEST

START_TEST(vega10_gfx900_64_cu)
{
	struct kfd_node n = gpu_node(90000, 256, 4, 4, 1);
	struct kfd_cwsr_sizes s;
	kfd_cwsr_sizes(&n, &s);
	expect(&s, 0x5000, 0x1545000, 0x10000, 4096, 0x1555000);
}
END_TEST

START_TEST(rx7900xtx_gfx1100_96_cu)
{
	struct kfd_node n = gpu_node(110000, 192, 2, 12, 1);
	n.props.simd_arrays_per_engine = 2;
	struct kfd_cwsr_sizes s;
	kfd_cwsr_sizes(&n, &s);
	expect(&s, 0xA000, 0x2BEA000, 0x18000, 4096, 0x2C02000);
}
END_TEST

START_TEST(sysfs_sizes_win_over_the_formula)
{
	struct kfd_node n = gpu_node(90010, 416, 4, 8, 1);
	n.props.cwsr_size = 0x4000000;
	n.props.ctl_stack_size = 0xA000;
	struct kfd_cwsr_sizes s;
	kfd_cwsr_sizes(&n, &s);
	expect(&s, 0xA000, 0x4000000, 0x20000, 4096, 0x4020000);
}
END_TEST

START_TEST(cpu_node_has_no_cwsr)
{
	struct kfd_node n = gpu_node(0, 0, 0, 0, 1);
	n.gpu_id = 0;
	n.props.cpu_cores_count = 16;
	struct kfd_cwsr_sizes s;
	memset(&s, 0xFF, sizeof(s));
	kfd_cwsr_sizes(&n, &s);
	expect(&s, 0, 0, 0, 0, 0);
}
END_TEST

START_TEST(mi210_fixture_node_gives_the_mi210_sizes)
{
	struct kfd_topology topo;
	ck_assert_int_eq(kfd_topology_read(KFD_FIXTURES "/mi210", &topo), 0);
	struct kfd_cwsr_sizes s;
	kfd_cwsr_sizes(&topo.nodes[1], &s);
	kfd_topology_free(&topo);
	expect(&s, 0x9000, 0x3C91000, 0x20000, 4096, 0x3CB1000);
}
END_TEST

START_TEST(mi300x_fixture_node_gives_the_mi300x_sizes)
{
	struct kfd_topology topo;
	ck_assert_int_eq(kfd_topology_read(KFD_FIXTURES "/mi300x_2gpu", &topo), 0);
	struct kfd_cwsr_sizes s;
	kfd_cwsr_sizes(&topo.nodes[2], &s);
	kfd_topology_free(&topo);
	expect(&s, 0x3000, 0x1621000, 0xBE00, 0, 0xB167000);
}
END_TEST

static Suite *cwsr_suite(void)
{
	Suite *s = suite_create("kfd_cwsr");
	TCase *tc = tcase_create("sizes");
	tcase_add_test(tc, mi210_gfx90a_104_cu);
	tcase_add_test(tc, mi300x_gfx942_spx_8_xcc_has_no_aql_eop);
	tcase_add_test(tc, vega10_gfx900_64_cu);
	tcase_add_test(tc, rx7900xtx_gfx1100_96_cu);
	tcase_add_test(tc, sysfs_sizes_win_over_the_formula);
	tcase_add_test(tc, cpu_node_has_no_cwsr);
	tcase_add_test(tc, mi210_fixture_node_gives_the_mi210_sizes);
	tcase_add_test(tc, mi300x_fixture_node_gives_the_mi300x_sizes);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(cwsr_suite)
