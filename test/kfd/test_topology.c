/*
 * kfd_topology_read on fixture trees (test/kfd/fixtures): a CPU + MI210
 * (gfx90a) machine, a CPU + 2 x MI300X (gfx942) machine with an XGMI pair
 * and exported CWSR sizes, and malformed trees that must be refused with
 * -EINVAL, leaving the output empty.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hl_check.h"
#include "kfd/kfd_priv.h"

static struct kfd_topology topo;

static void read_ok(const char *name)
{
	char root[512];
	snprintf(root, sizeof(root), "%s/%s", KFD_FIXTURES, name);
	int ret = kfd_topology_read(root, &topo);
	ck_assert_msg(ret == 0, "%s: got %d, expected 0", name, ret);
}

static void read_fails(const char *name, int expected)
{
	char root[512];
	snprintf(root, sizeof(root), "%s/%s", KFD_FIXTURES, name);
	memset(&topo, 0xA5, sizeof(topo));
	int ret = kfd_topology_read(root, &topo);
	ck_assert_msg(ret == expected, "%s: got %d, expected %d", name, ret, expected);
	ck_assert_ptr_null(topo.nodes);
	ck_assert_uint_eq(topo.n_nodes, 0);
}

static void teardown(void)
{
	kfd_topology_free(&topo);
}

START_TEST(mi210_has_a_cpu_and_a_gpu_node)
{
	read_ok("mi210");
	ck_assert_uint_eq(topo.generation_id, 7);
	ck_assert_uint_eq(topo.n_nodes, 2);
	ck_assert_uint_eq(topo.nodes[0].index, 0);
	ck_assert(!kfd_node_is_gpu(&topo.nodes[0]));
	ck_assert_str_eq(topo.nodes[0].name, "");
	ck_assert_uint_eq(topo.nodes[1].index, 1);
	ck_assert_uint_eq(topo.nodes[1].gpu_id, 53812);
	ck_assert_str_eq(topo.nodes[1].name, "aldebaran");
}
END_TEST

START_TEST(mi210_gpu_properties_are_parsed)
{
	read_ok("mi210");
	const struct kfd_node_properties *p = &topo.nodes[1].props;
	ck_assert_uint_eq(p->simd_count, 416);
	ck_assert_uint_eq(p->simd_id_base, 2147487744u);
	ck_assert_uint_eq(p->array_count, 8);
	ck_assert_uint_eq(p->gfx_target_version, 90010);
	ck_assert_uint_eq(p->device_id, 29711);
	ck_assert_uint_eq(p->drm_render_minor, 128);
	ck_assert_uint_eq(p->capability, 671588992u);
	ck_assert_uint_eq(p->unique_id, 12345678901234567890ull);
	ck_assert_uint_eq(p->max_engine_clk_ccompute, 3000);
	ck_assert_uint_eq(p->num_xcc, 1);
	ck_assert_uint_eq(p->cwsr_size, 0);
	ck_assert_uint_eq(p->ctl_stack_size, 0);
}
END_TEST

START_TEST(mi210_mem_banks_caches_and_links_are_parsed)
{
	read_ok("mi210");
	const struct kfd_node *gpu = &topo.nodes[1];
	ck_assert_uint_eq(gpu->n_mem_banks, 1);
	ck_assert_uint_eq(gpu->mem_banks[0].heap_type, KFD_HEAP_TYPE_FB_PUBLIC);
	ck_assert_uint_eq(gpu->mem_banks[0].size_in_bytes, 68702699520ull);
	ck_assert_uint_eq(gpu->mem_banks[0].width, 4096);
	ck_assert_uint_eq(gpu->n_caches, 2);
	ck_assert_uint_eq(gpu->caches[1].level, 2);
	ck_assert_uint_eq(gpu->caches[1].size, 8192);
	ck_assert_uint_eq(gpu->caches[1].type, 13);
	ck_assert_uint_eq(gpu->n_io_links, 1);
	ck_assert_uint_eq(gpu->io_links[0].type, KFD_IOLINK_TYPE_PCIEXPRESS);
	ck_assert_uint_eq(gpu->io_links[0].node_from, 1);
	ck_assert_uint_eq(gpu->io_links[0].node_to, 0);
	ck_assert_uint_eq(gpu->io_links[0].max_bandwidth, 64000);
}
END_TEST

START_TEST(cpu_node_without_num_xcc_reads_1)
{
	read_ok("mi210");
	ck_assert_uint_eq(topo.nodes[0].props.num_xcc, 1);
	ck_assert_uint_eq(topo.nodes[0].props.cpu_cores_count, 16);
	ck_assert_uint_eq(topo.nodes[0].props.local_mem_size, 0);
}
END_TEST

START_TEST(mi300x_pair_has_two_gpus_with_8_xccs)
{
	read_ok("mi300x_2gpu");
	ck_assert_uint_eq(topo.n_nodes, 3);
	ck_assert_uint_eq(topo.nodes[1].gpu_id, 11491);
	ck_assert_uint_eq(topo.nodes[2].gpu_id, 40231);
	ck_assert_str_eq(topo.nodes[2].name, "ip discovery");
	for (int i = 1; i <= 2; i++) {
		ck_assert_uint_eq(topo.nodes[i].props.num_xcc, 8);
		ck_assert_uint_eq(topo.nodes[i].props.gfx_target_version, 90402);
		ck_assert_uint_eq(topo.nodes[i].props.hive_id, 9876543210987654321ull);
	}
	ck_assert_uint_eq(topo.nodes[2].props.drm_render_minor, 129);
}
END_TEST

START_TEST(mi300x_exported_cwsr_sizes_are_read)
{
	read_ok("mi300x_2gpu");
	ck_assert_uint_eq(topo.nodes[1].props.cwsr_size, 0x1621000);
	ck_assert_uint_eq(topo.nodes[1].props.ctl_stack_size, 0x3000);
}
END_TEST

START_TEST(p2p_links_follow_io_links)
{
	read_ok("mi300x_2gpu");
	const struct kfd_node *gpu = &topo.nodes[2];
	ck_assert_uint_eq(gpu->props.io_links_count, 1);
	ck_assert_uint_eq(gpu->props.p2p_links_count, 1);
	ck_assert_uint_eq(gpu->n_io_links, 2);
	ck_assert_uint_eq(gpu->io_links[0].type, KFD_IOLINK_TYPE_PCIEXPRESS);
	ck_assert_uint_eq(gpu->io_links[1].type, KFD_IOLINK_TYPE_XGMI);
	ck_assert_uint_eq(gpu->io_links[1].node_to, 1);
}
END_TEST

START_TEST(unknown_keys_are_tolerated)
{
	read_ok("unknown_keys");
	ck_assert_uint_eq(topo.n_nodes, 1);
	ck_assert_uint_eq(topo.nodes[0].props.cpu_cores_count, 4);
	ck_assert_uint_eq(topo.nodes[0].props.max_engine_clk_ccompute, 2000);
}
END_TEST

START_TEST(non_numeric_value_is_einval)
{
	read_fails("bad_nonnumeric", -EINVAL);
}
END_TEST

START_TEST(truncated_last_line_is_einval)
{
	read_fails("bad_truncated", -EINVAL);
}
END_TEST

START_TEST(key_without_value_is_einval)
{
	read_fails("bad_no_value", -EINVAL);
}
END_TEST

START_TEST(value_overflowing_its_field_is_einval)
{
	read_fails("bad_overflow", -EINVAL);
}
END_TEST

START_TEST(negative_value_is_einval)
{
	read_fails("bad_negative", -EINVAL);
}
END_TEST

START_TEST(missing_properties_file_is_einval)
{
	read_fails("bad_missing_properties", -EINVAL);
}
END_TEST

START_TEST(missing_gpu_id_file_is_einval)
{
	read_fails("bad_missing_gpu_id", -EINVAL);
}
END_TEST

START_TEST(mem_banks_count_disagreeing_with_directories_is_einval)
{
	read_fails("bad_count_mismatch", -EINVAL);
}
END_TEST

START_TEST(gap_in_node_numbers_is_einval)
{
	read_fails("bad_node_gap", -EINVAL);
}
END_TEST

START_TEST(malformed_system_properties_is_einval)
{
	read_fails("bad_system_properties", -EINVAL);
}
END_TEST

START_TEST(name_of_62_characters_is_read_whole)
{
	read_ok("name_63");
	ck_assert_uint_eq(strlen(topo.nodes[0].name), 62);
}
END_TEST

START_TEST(name_longer_than_the_field_is_einval)
{
	read_fails("bad_name_too_long", -EINVAL);
}
END_TEST

START_TEST(missing_tree_is_enoent)
{
	read_fails("no_such_tree", -ENOENT);
}
END_TEST

START_TEST(free_of_an_empty_topology_is_safe)
{
	struct kfd_topology empty = { 0 };
	kfd_topology_free(&empty);
	kfd_topology_free(NULL);
	ck_assert_ptr_null(empty.nodes);
}
END_TEST

/*
 * generation_id moving under a read: the snapshot hook bumps it after the
 * first snapshot (as a hot plug would), so the reader must start over and
 * return the second, consistent snapshot.
 */
static char gen_root[64];
static int hook_calls;

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[600];
	int n = snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_msg(n > 0 && (size_t)n < sizeof(path), "path %s/%s does not fit", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void bump_generation_once(const char *root, int attempt)
{
	hook_calls++;
	if (attempt == 0) {
		write_file(root, "generation_id", "2\n");
		write_file(root, "nodes/0/properties", "cpu_cores_count 8\n");
	}
}

START_TEST(generation_change_during_a_read_reads_again)
{
	char node[600];
	snprintf(gen_root, sizeof(gen_root), "/tmp/hsalite-topo-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(gen_root));
	snprintf(node, sizeof(node), "%s/nodes", gen_root);
	ck_assert_int_eq(mkdir(node, 0755), 0);
	snprintf(node, sizeof(node), "%s/nodes/0", gen_root);
	ck_assert_int_eq(mkdir(node, 0755), 0);
	write_file(gen_root, "generation_id", "1\n");
	write_file(gen_root, "system_properties",
		   "platform_oem 0\nplatform_id 0\nplatform_rev 0\n");
	write_file(node, "gpu_id", "0\n");
	write_file(node, "properties", "cpu_cores_count 2\n");

	kfd_topology_snapshot_hook = bump_generation_once;
	int ret = kfd_topology_read(gen_root, &topo);
	kfd_topology_snapshot_hook = NULL;

	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -r '%s'", gen_root);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(ret, 0);
	ck_assert_int_eq(hook_calls, 2);
	ck_assert_uint_eq(topo.generation_id, 2);
	ck_assert_uint_eq(topo.nodes[0].props.cpu_cores_count, 8);
}
END_TEST

static Suite *topology_suite(void)
{
	Suite *s = suite_create("kfd_topology");
	TCase *tc = tcase_create("fixtures");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, mi210_has_a_cpu_and_a_gpu_node);
	tcase_add_test(tc, mi210_gpu_properties_are_parsed);
	tcase_add_test(tc, mi210_mem_banks_caches_and_links_are_parsed);
	tcase_add_test(tc, cpu_node_without_num_xcc_reads_1);
	tcase_add_test(tc, mi300x_pair_has_two_gpus_with_8_xccs);
	tcase_add_test(tc, mi300x_exported_cwsr_sizes_are_read);
	tcase_add_test(tc, p2p_links_follow_io_links);
	tcase_add_test(tc, unknown_keys_are_tolerated);
	tcase_add_test(tc, non_numeric_value_is_einval);
	tcase_add_test(tc, truncated_last_line_is_einval);
	tcase_add_test(tc, key_without_value_is_einval);
	tcase_add_test(tc, value_overflowing_its_field_is_einval);
	tcase_add_test(tc, negative_value_is_einval);
	tcase_add_test(tc, missing_properties_file_is_einval);
	tcase_add_test(tc, missing_gpu_id_file_is_einval);
	tcase_add_test(tc, mem_banks_count_disagreeing_with_directories_is_einval);
	tcase_add_test(tc, gap_in_node_numbers_is_einval);
	tcase_add_test(tc, malformed_system_properties_is_einval);
	tcase_add_test(tc, name_of_62_characters_is_read_whole);
	tcase_add_test(tc, name_longer_than_the_field_is_einval);
	tcase_add_test(tc, missing_tree_is_enoent);
	tcase_add_test(tc, free_of_an_empty_topology_is_safe);
	tcase_add_test(tc, generation_change_during_a_read_reads_again);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(topology_suite)
