/*
 * emu/topology: presets, derived values and the written sysfs tree.
 * The expected CWSR numbers are the kernel formula's results for the two
 * parts (kfd-uapi-facts.md §4); the tree is parsed back the way libhsakmt
 * reads it ("key value" lines) and compared with struct kemu_gpu.
 */
#define _GNU_SOURCE
#include "hl_check.h"
#include "topology.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#define TOPO "sys/devices/virtual/kfd/kfd/topology"

static struct kemu_topology topo;

static void setup_none(void)
{
	memset(&topo, 0, sizeof(topo));
}

static void teardown(void)
{
	kemu_topology_destroy(&topo);
}

static void create_ok(const char *preset, uint32_t n, bool tree)
{
	int r = kemu_topology_create(preset, n, tree, &topo);
	ck_assert_msg(r == 0, "kemu_topology_create(%s, %u) = %d, expected 0", preset, n, r);
}

/* Reads dir/rel into buf (NUL-terminated); returns the length or -errno. */
static int read_rel(const char *rel, char *buf, size_t n)
{
	char path[2 * PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", topo.dir, rel);
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	size_t got = fread(buf, 1, n - 1, f);
	buf[got] = '\0';
	fclose(f);
	return (int)got;
}

/* The value of key in a "key value\n" file, as libhsakmt's sscanf reads it. */
static unsigned long long prop(const char *rel, const char *key)
{
	static char buf[16384];
	int r = read_rel(rel, buf, sizeof(buf));
	ck_assert_msg(r > 0, "cannot read %s: %d", rel, r);
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		char k[64];
		unsigned long long v;
		if (sscanf(line, "%63s %llu", k, &v) == 2 && strcmp(k, key) == 0)
			return v;
	}
	ck_abort_msg("%s has no key %s", rel, key);
	return 0;
}

static int count_entries(const char *rel)
{
	char path[2 * PATH_MAX];
	int n = 0;
	snprintf(path, sizeof(path), "%s/%s", topo.dir, rel);
	DIR *d = opendir(path);
	if (!d)
		return -errno;
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

START_TEST(test_every_preset_name_creates)
{
	for (const char *const *name = kemu_preset_names; *name; name++) {
		struct kemu_topology t;
		int r = kemu_topology_create(*name, 1, false, &t);
		ck_assert_msg(r == 0, "preset %s: %d", *name, r);
		ck_assert_str_eq(t.preset, *name);
	}
}
END_TEST

START_TEST(test_unknown_preset_is_einval)
{
	ck_assert_int_eq(kemu_topology_create("mi999", 1, true, &topo), -EINVAL);
	ck_assert_str_eq(topo.dir, "");
	ck_assert_int_eq(kemu_topology_create(NULL, 1, false, &topo), -EINVAL);
}
END_TEST

START_TEST(test_bad_gpu_count_is_einval)
{
	ck_assert_int_eq(kemu_topology_create("mi210", 0, false, &topo), -EINVAL);
	ck_assert_int_eq(kemu_topology_create("mi210", KEMU_MAX_GPUS + 1, false, &topo), -EINVAL);
	ck_assert_int_eq(kemu_topology_create("mi210", 1, false, NULL), -EINVAL);
}
END_TEST

START_TEST(test_mi210_cwsr_sizes_follow_kernel_formula)
{
	create_ok("mi210", 1, false);
	const struct kemu_gpu *g = &topo.gpus[0];
	ck_assert_uint_eq(g->ctl_stack_size, 0x9000);
	ck_assert_uint_eq(g->cwsr_size, 0x3C91000);
	ck_assert_uint_eq(g->debug_memory_size, 0x20000);
	ck_assert_uint_eq(g->eop_buffer_size, 4096);
}
END_TEST

START_TEST(test_mi300x_cwsr_sizes_follow_kernel_formula)
{
	create_ok("mi300x", 1, false);
	const struct kemu_gpu *g = &topo.gpus[0];
	ck_assert_uint_eq(g->ctl_stack_size, 0x3000);
	ck_assert_uint_eq(g->cwsr_size, 0x1621000);
	ck_assert_uint_eq(g->debug_memory_size, 0xBE00);
}
END_TEST

START_TEST(test_mi210_preset_facts)
{
	create_ok("mi210", 1, false);
	const struct kemu_gpu *g = &topo.gpus[0];
	ck_assert_str_eq(g->name, "gfx90a");
	ck_assert_uint_eq(g->gfx_target_version, 90010);
	ck_assert_uint_eq(g->cu_count, 104);
	ck_assert_uint_eq(g->simd_count, 416);
	ck_assert_uint_eq(g->array_count, 8);
	ck_assert_uint_eq(g->num_xcc, 1);
	ck_assert_uint_eq(g->device_id, 0x740F);
	ck_assert_uint_eq(g->vendor_id, 0x1002);
	ck_assert_uint_eq(g->max_queues, 127);
	ck_assert_uint_eq(g->vram_size >> 30, 63); /* 64 GiB less the firmware's 16 MiB */
}
END_TEST

START_TEST(test_mi300x_preset_facts)
{
	create_ok("mi300x", 1, false);
	const struct kemu_gpu *g = &topo.gpus[0];
	ck_assert_str_eq(g->name, "gfx942");
	ck_assert_uint_eq(g->gfx_target_version, 90402);
	ck_assert_uint_eq(g->cu_count, 304);
	ck_assert_uint_eq(g->simd_count, 1216);
	ck_assert_uint_eq(g->array_count, 32);
	ck_assert_uint_eq(g->num_xcc, 8);
	ck_assert_uint_eq(g->device_id, 0x74A1);
	ck_assert_uint_eq(g->max_queues, 255);
}
END_TEST

START_TEST(test_gfx9_apertures)
{
	create_ok("mi210", 1, false);
	const struct kemu_gpu *g = &topo.gpus[0];
	ck_assert_uint_eq(g->lds_base, 1ull << 48);
	ck_assert_uint_eq(g->lds_limit, (1ull << 48) + 0xFFFFFFFFull);
	ck_assert_uint_eq(g->scratch_base, 2ull << 48);
	ck_assert_uint_eq(g->gpuvm_base, 0x10000);
	ck_assert_uint_eq(g->gpuvm_limit, 0x7FFFFFFFFFFFull);
}
END_TEST

START_TEST(test_capability_has_doorbell2_svm_and_debug_firmware)
{
	create_ok("mi300x", 1, false);
	uint32_t cap = topo.gpus[0].capability;
	ck_assert_uint_eq((cap >> 12) & 3, 2);
	ck_assert_uint_ne(cap & 0x08000000u, 0);   /* SVM API */
	ck_assert_uint_ne(cap & 0x20000000u, 0);   /* debug firmware */
	ck_assert_uint_eq((cap >> 8) & 0xF, 2);    /* log2(4 watch points) */
	ck_assert_uint_eq(cap & 0x00080000u, 0);   /* reserved bit stays 0 */
}
END_TEST

/* kfd_topology_set_capabilities: GC 9.4.2 has no always-valid dispatch
 * info in the trap temporaries and uses the gfx9 watch mask bits (6, 29);
 * GC 9.4.3 has both, with mask bits 7 and 30. */
START_TEST(test_debug_prop_per_gc_version)
{
	struct kemu_topology t2;
	create_ok("mi210", 1, false);
	ck_assert_int_eq(kemu_topology_create("mi300x", 1, false, &t2), 0);
	ck_assert_uint_eq(topo.gpus[0].debug_prop, 6 | (29u << 4));
	ck_assert_uint_eq(t2.gpus[0].debug_prop, 0x400 | 7 | (30u << 4));
}
END_TEST

START_TEST(test_two_gpus_have_distinct_ids_and_minors)
{
	create_ok("mi210", 2, false);
	const struct kemu_gpu *a = &topo.gpus[0], *b = &topo.gpus[1];
	ck_assert_uint_ne(a->gpu_id, 0);
	ck_assert_uint_ne(b->gpu_id, 0);
	ck_assert_uint_le(a->gpu_id, 0xFFFF);
	ck_assert_uint_ne(a->gpu_id, b->gpu_id);
	ck_assert_uint_eq(a->drm_render_minor, 128);
	ck_assert_uint_eq(b->drm_render_minor, 129);
	ck_assert_uint_eq(a->node_index, 1);
	ck_assert_uint_eq(b->node_index, 2);
}
END_TEST

START_TEST(test_gpu_id_is_stable_across_instances)
{
	struct kemu_topology t2;
	create_ok("mi300x", 3, false);
	ck_assert_int_eq(kemu_topology_create("mi300x", 3, false, &t2), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_uint_eq(topo.gpus[i].gpu_id, t2.gpus[i].gpu_id);
}
END_TEST

START_TEST(test_lookup_by_minor_and_id)
{
	create_ok("mi300x", 2, false);
	ck_assert_ptr_eq(kemu_topology_gpu_by_minor(&topo, 129), &topo.gpus[1]);
	ck_assert_ptr_eq(kemu_topology_gpu_by_id(&topo, topo.gpus[0].gpu_id), &topo.gpus[0]);
	ck_assert_ptr_null(kemu_topology_gpu_by_minor(&topo, 130));
	ck_assert_ptr_null(kemu_topology_gpu_by_id(&topo, 0));
}
END_TEST

START_TEST(test_null_arguments_are_harmless)
{
	ck_assert_ptr_null(kemu_topology_gpu_by_minor(NULL, 128));
	ck_assert_ptr_null(kemu_topology_gpu_by_id(NULL, 1));
	ck_assert_uint_eq(kemu_gpu_cu_mask(NULL, 0, 0, 0), 0);
	kemu_topology_destroy(NULL);
}
END_TEST

START_TEST(test_no_tree_without_write_tree)
{
	create_ok("mi210", 1, false);
	ck_assert_str_eq(topo.dir, "");
}
END_TEST

START_TEST(test_tree_dir_is_private)
{
	struct stat st;
	create_ok("mi210", 1, true);
	ck_assert_int_eq(stat(topo.dir, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0700);
}
END_TEST

START_TEST(test_gpu_properties_in_kernel_order)
{
	static const char *const keys[] = {
		"cpu_cores_count", "simd_count", "mem_banks_count", "caches_count",
		"io_links_count", "p2p_links_count", "cpu_core_id_base", "simd_id_base",
		"max_waves_per_simd", "lds_size_in_kb", "gds_size_in_kb", "num_gws",
		"wave_front_size", "array_count", "simd_arrays_per_engine",
		"cu_per_simd_array", "simd_per_cu", "max_slots_scratch_cu",
		"gfx_target_version", "vendor_id", "device_id", "location_id", "domain",
		"drm_render_minor", "hive_id", "num_sdma_engines", "num_sdma_xgmi_engines",
		"num_sdma_queues_per_engine", "num_cp_queues", "cwsr_size", "ctl_stack_size",
		"max_engine_clk_fcompute", "local_mem_size", "fw_version", "capability",
		"capability2", "debug_prop", "sdma_fw_version", "unique_id", "num_xcc",
		"max_engine_clk_ccompute",
	};
	char buf[8192];
	size_t i = 0;

	create_ok("mi210", 1, true);
	ck_assert_int_gt(read_rel(TOPO "/nodes/1/properties", buf, sizeof(buf)), 0);
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"), i++) {
		char k[64];
		unsigned long long v;
		ck_assert_msg(sscanf(line, "%63s %llu", k, &v) == 2, "line %zu unparsable: '%s'", i, line);
		ck_assert_msg(i < sizeof(keys) / sizeof(keys[0]), "extra key %s", k);
		ck_assert_msg(strcmp(k, keys[i]) == 0, "key %zu is %s, expected %s", i, k, keys[i]);
	}
	ck_assert_uint_eq(i, sizeof(keys) / sizeof(keys[0]));
}
END_TEST

START_TEST(test_gpu_properties_match_kemu_gpu)
{
	create_ok("mi300x", 2, true);
	for (int n = 0; n < 2; n++) {
		const struct kemu_gpu *g = &topo.gpus[n];
		char rel[128], buf[32];
		snprintf(rel, sizeof(rel), TOPO "/nodes/%u/properties", g->node_index);
		ck_assert_uint_eq(prop(rel, "simd_count"), g->simd_count);
		ck_assert_uint_eq(prop(rel, "array_count"), g->array_count);
		ck_assert_uint_eq(prop(rel, "gfx_target_version"), g->gfx_target_version);
		ck_assert_uint_eq(prop(rel, "drm_render_minor"), g->drm_render_minor);
		ck_assert_uint_eq(prop(rel, "location_id"), g->location_id);
		ck_assert_uint_eq(prop(rel, "capability"), g->capability);
		/* no per-SDMA-queue reset on MEC 151 (kfd_topology.c node_show) */
		ck_assert_uint_eq(prop(rel, "capability2"), 0);
		ck_assert_uint_eq(g->capability2, 0);
		ck_assert_uint_eq(prop(rel, "cwsr_size"), g->cwsr_size);
		ck_assert_uint_eq(prop(rel, "ctl_stack_size"), g->ctl_stack_size);
		ck_assert_uint_eq(prop(rel, "num_xcc"), g->num_xcc);
		ck_assert_uint_eq(prop(rel, "local_mem_size"), 0);
		snprintf(rel, sizeof(rel), TOPO "/nodes/%u/gpu_id", g->node_index);
		ck_assert_int_gt(read_rel(rel, buf, sizeof(buf)), 0);
		ck_assert_uint_eq(strtoul(buf, NULL, 10), g->gpu_id);
		snprintf(rel, sizeof(rel), TOPO "/nodes/%u/mem_banks/0/properties", g->node_index);
		ck_assert_uint_eq(prop(rel, "heap_type"), 1);
		ck_assert_uint_eq(prop(rel, "size_in_bytes"), g->vram_size);
	}
}
END_TEST

START_TEST(test_cpu_node_from_host)
{
	char buf[16];
	create_ok("mi210", 2, true);
	ck_assert_int_gt(read_rel(TOPO "/nodes/0/gpu_id", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "0\n");
	ck_assert_uint_eq(prop(TOPO "/nodes/0/properties", "cpu_cores_count"), (unsigned)get_nprocs());
	ck_assert_uint_eq(prop(TOPO "/nodes/0/properties", "simd_count"), 0);
	ck_assert_uint_eq(prop(TOPO "/nodes/0/properties", "io_links_count"), 2);
	ck_assert_uint_eq(prop(TOPO "/nodes/0/mem_banks/0/properties", "size_in_bytes"),
			  topo.system_memory);
	ck_assert_uint_eq(prop(TOPO "/nodes/0/io_links/1/properties", "node_to"), 2);
	ck_assert_int_eq(count_entries(TOPO "/nodes"), 3);
}
END_TEST

START_TEST(test_generation_and_system_properties)
{
	create_ok("mi210", 2, true);
	char buf[256];
	ck_assert_int_gt(read_rel(TOPO "/generation_id", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "3\n"); /* CPU VCRAT + two GPUs */
	ck_assert_int_gt(read_rel(TOPO "/system_properties", buf, sizeof(buf)), 0);
	ck_assert_ptr_nonnull(strstr(buf, "platform_oem "));
	ck_assert_ptr_nonnull(strstr(buf, "platform_rev "));
}
END_TEST

/* ROCr 5.2 asserts "GPU cache info missing" unless a cache has the HSACU
 * type bit and processor_id_low == simd_id_base. */
static void check_caches(unsigned expected_count)
{
	const struct kemu_gpu *g = &topo.gpus[0];
	char rel[128];
	int found = 0, n;

	n = count_entries(TOPO "/nodes/1/caches");
	ck_assert_int_eq(n, (int)prop(TOPO "/nodes/1/properties", "caches_count"));
	ck_assert_int_eq(n, (int)expected_count);
	for (int c = 0; c < n; c++) {
		snprintf(rel, sizeof(rel), TOPO "/nodes/1/caches/%d/properties", c);
		if ((prop(rel, "type") & 8) && prop(rel, "processor_id_low") == g->simd_id_base)
			found++;
	}
	ck_assert_int_gt(found, 0);
}

START_TEST(test_mi210_caches_per_kernel_walk)
{
	create_ok("mi210", 1, true);
	/* 104 TCP L1 + 56 SQC-I + 56 SQC-D (pairs of 13 CUs in 8 arrays) + L2 */
	check_caches(217);
	ck_assert_uint_eq(prop(TOPO "/nodes/1/caches/216/properties", "level"), 2);
	ck_assert_uint_eq(prop(TOPO "/nodes/1/caches/216/properties", "size"), 8192);
}
END_TEST

START_TEST(test_mi300x_caches_per_kernel_walk)
{
	create_ok("mi300x", 1, true);
	/* 304 L1 + 160 + 160 (5 pairs in each of 32 arrays) + L2 + L3 */
	check_caches(626);
}
END_TEST

START_TEST(test_mi300x_hive_has_xgmi_io_links)
{
	create_ok("mi300x", 3, true);
	ck_assert_uint_eq(prop(TOPO "/nodes/1/properties", "io_links_count"), 3);
	ck_assert_uint_eq(prop(TOPO "/nodes/1/properties", "p2p_links_count"), 0);
	ck_assert_uint_eq(prop(TOPO "/nodes/1/io_links/0/properties", "type"), 2);
	ck_assert_uint_eq(prop(TOPO "/nodes/1/io_links/0/properties", "node_to"), 0);
	ck_assert_uint_eq(prop(TOPO "/nodes/1/io_links/1/properties", "type"), 11);
	ck_assert_uint_eq(prop(TOPO "/nodes/1/io_links/1/properties", "node_to"), 2);
	ck_assert_uint_eq(prop(TOPO "/nodes/3/io_links/2/properties", "node_to"), 2);
	ck_assert_uint_ne(prop(TOPO "/nodes/2/properties", "hive_id"), 0);
	/* fewer than 8 sockets: every xGMI SDMA engine (2..15) is recommended */
	ck_assert_uint_eq(prop(TOPO "/nodes/1/io_links/1/properties",
			       "recommended_sdma_engine_id_mask"), 0xFFFC);
}
END_TEST

/* A full 8-GPU MI300X hive uses the kernel's per-socket xGMI SDMA engine
 * table (rec_sdma_eng_map[0][1] = 14); the CPU link keeps the PCIe engines. */
START_TEST(test_mi300x_8_gpu_hive_recommends_one_sdma_engine)
{
	create_ok("mi300x", 8, true);
	ck_assert_uint_eq(prop(TOPO "/nodes/1/properties", "io_links_count"), 8);
	ck_assert_uint_eq(prop(TOPO "/nodes/1/io_links/1/properties",
			       "recommended_sdma_engine_id_mask"), 1u << 14);
	ck_assert_uint_eq(prop(TOPO "/nodes/1/io_links/0/properties",
			       "recommended_sdma_engine_id_mask"), 0x3);
}
END_TEST

START_TEST(test_mi210_pcie_peers_are_p2p_links)
{
	create_ok("mi210", 2, true);
	ck_assert_uint_eq(prop(TOPO "/nodes/1/properties", "io_links_count"), 1);
	ck_assert_uint_eq(prop(TOPO "/nodes/1/properties", "p2p_links_count"), 1);
	ck_assert_uint_eq(prop(TOPO "/nodes/2/p2p_links/0/properties", "node_to"), 1);
	ck_assert_uint_eq(prop(TOPO "/nodes/2/p2p_links/0/properties", "type"), 2);
	ck_assert_uint_eq(prop(TOPO "/nodes/2/p2p_links/0/properties", "weight"), 40);
	ck_assert_uint_eq(prop(TOPO "/nodes/2/p2p_links/0/properties", "flags"), 3);
	ck_assert_int_eq(count_entries(TOPO "/nodes/1/io_links"), 1);
}
END_TEST

START_TEST(test_class_kfd_path_is_the_same_tree)
{
	char a[32], b[32];
	create_ok("mi210", 1, true);
	ck_assert_int_gt(read_rel(TOPO "/nodes/1/gpu_id", a, sizeof(a)), 0);
	ck_assert_int_gt(read_rel("sys/class/kfd/kfd/topology/nodes/1/gpu_id", b, sizeof(b)), 0);
	ck_assert_str_eq(a, b);
}
END_TEST

START_TEST(test_render_node_sysfs_for_libdrm)
{
	char buf[512];
	create_ok("mi210", 2, true);
	ck_assert_int_gt(read_rel("sys/dev/char/226:129/device/vendor", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "0x1002\n");
	ck_assert_int_gt(read_rel("sys/dev/char/226:129/device/device", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "0x740f\n");
	ck_assert_int_gt(read_rel("sys/dev/char/226:128/device/revision", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "0x02\n");
	ck_assert_int_gt(read_rel("sys/dev/char/226:129/device/uevent", buf, sizeof(buf)), 0);
	ck_assert_ptr_nonnull(strstr(buf, "PCI_SLOT_NAME=0000:23:00.0\n"));
	ck_assert_int_eq(count_entries("sys/dev/char/226:129/device/drm"), 2); /* card1, renderD129 */
	ck_assert_int_gt(read_rel("sys/class/drm/renderD128/dev", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "226:128\n");
	ck_assert_int_gt(read_rel("sys/module/amdgpu/initstate", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "live\n");

	char path[2 * PATH_MAX], real[PATH_MAX];
	snprintf(path, sizeof(path), "%s/sys/dev/char/226:128/device/subsystem", topo.dir);
	ck_assert_ptr_nonnull(realpath(path, real));
	ck_assert_str_eq(strrchr(real, '/'), "/pci"); /* drmParseSubsystemType */
}
END_TEST

START_TEST(test_destroy_removes_everything)
{
	char dir[PATH_MAX];
	struct stat st;
	create_ok("mi300x", 2, true);
	snprintf(dir, sizeof(dir), "%s", topo.dir);
	kemu_topology_destroy(&topo);
	ck_assert_str_eq(topo.dir, "");
	ck_assert_int_eq(stat(dir, &st), -1);
	ck_assert_int_eq(errno, ENOENT);
	kemu_topology_destroy(&topo); /* idempotent */
}
END_TEST

START_TEST(test_missing_tmpdir_fails_without_leftovers)
{
	const char *old = getenv("TMPDIR");
	char *saved = old ? strdup(old) : NULL;
	setenv("TMPDIR", "/nonexistent/kfdemu-h5", 1);
	int r = kemu_topology_create("mi210", 1, true, &topo);
	if (saved) {
		setenv("TMPDIR", saved, 1);
		free(saved);
	} else {
		unsetenv("TMPDIR");
	}
	ck_assert_int_eq(r, -ENOENT);
	ck_assert_str_eq(topo.dir, "");
}
END_TEST

START_TEST(test_cu_mask_covers_every_active_cu)
{
	create_ok("mi300x", 1, false);
	const struct kemu_gpu *g = &topo.gpus[0];
	uint32_t total = 0;
	for (uint32_t x = 0; x < g->num_xcc; x++)
		for (uint32_t se = 0; se < g->num_shader_engines; se++)
			for (uint32_t sh = 0; sh < g->simd_arrays_per_engine; sh++)
				total += (uint32_t)__builtin_popcount(kemu_gpu_cu_mask(g, x, se, sh));
	ck_assert_uint_eq(total, g->cu_count);
	ck_assert_uint_eq(kemu_gpu_cu_mask(g, g->num_xcc, 0, 0), 0);
}
END_TEST

static Suite *topology_suite(void)
{
	Suite *s = suite_create("emu_topology");
	TCase *tc = tcase_create("topology");
	tcase_add_checked_fixture(tc, setup_none, teardown);
	tcase_add_test(tc, test_every_preset_name_creates);
	tcase_add_test(tc, test_unknown_preset_is_einval);
	tcase_add_test(tc, test_bad_gpu_count_is_einval);
	tcase_add_test(tc, test_mi210_cwsr_sizes_follow_kernel_formula);
	tcase_add_test(tc, test_mi300x_cwsr_sizes_follow_kernel_formula);
	tcase_add_test(tc, test_mi210_preset_facts);
	tcase_add_test(tc, test_mi300x_preset_facts);
	tcase_add_test(tc, test_gfx9_apertures);
	tcase_add_test(tc, test_capability_has_doorbell2_svm_and_debug_firmware);
	tcase_add_test(tc, test_debug_prop_per_gc_version);
	tcase_add_test(tc, test_two_gpus_have_distinct_ids_and_minors);
	tcase_add_test(tc, test_gpu_id_is_stable_across_instances);
	tcase_add_test(tc, test_lookup_by_minor_and_id);
	tcase_add_test(tc, test_null_arguments_are_harmless);
	tcase_add_test(tc, test_no_tree_without_write_tree);
	tcase_add_test(tc, test_tree_dir_is_private);
	tcase_add_test(tc, test_gpu_properties_in_kernel_order);
	tcase_add_test(tc, test_gpu_properties_match_kemu_gpu);
	tcase_add_test(tc, test_cpu_node_from_host);
	tcase_add_test(tc, test_generation_and_system_properties);
	tcase_add_test(tc, test_mi210_caches_per_kernel_walk);
	tcase_add_test(tc, test_mi300x_caches_per_kernel_walk);
	tcase_add_test(tc, test_mi300x_hive_has_xgmi_io_links);
	tcase_add_test(tc, test_mi300x_8_gpu_hive_recommends_one_sdma_engine);
	tcase_add_test(tc, test_mi210_pcie_peers_are_p2p_links);
	tcase_add_test(tc, test_class_kfd_path_is_the_same_tree);
	tcase_add_test(tc, test_render_node_sysfs_for_libdrm);
	tcase_add_test(tc, test_destroy_removes_everything);
	tcase_add_test(tc, test_missing_tmpdir_fails_without_leftovers);
	tcase_add_test(tc, test_cu_mask_covers_every_active_cu);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(topology_suite)
