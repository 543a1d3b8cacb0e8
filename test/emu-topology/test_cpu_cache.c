/*
 * emu/topology/cpu_cache: the CPU caches decoded from CPUID register
 * values (fed from tables, as Intel, AMD with and without TOPOEXT report
 * them), and the cacheinfo tree kfdemu writes when the host shows none.
 */
#define _GNU_SOURCE
#include "hl_check.h"
#include "cpu_cache.h"
#include "topology.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* A fake CPU: (leaf, subleaf) -> registers; anything else reads as 0. */
struct fake_leaf {
	uint32_t leaf, sub, r[4];
};
static const struct fake_leaf *fake;
static size_t n_fake;

static void fake_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	memset(r, 0, 4 * sizeof(r[0]));
	for (size_t i = 0; i < n_fake; i++)
		if (fake[i].leaf == leaf && fake[i].sub == sub)
			memcpy(r, fake[i].r, sizeof(fake[i].r));
}

#define USE(table) (fake = (table), n_fake = sizeof(table) / sizeof((table)[0]))
/* "AuthenticAMD" / "GenuineIntel" in EBX, ECX, EDX order */
#define AMD_ID 0x68747541, 0x444d4163, 0x69746e65
#define INTEL_ID 0x756e6547, 0x6c65746e, 0x49656e69

static void expect(const struct kemu_cpu_cache *c, uint32_t level, enum kemu_cpu_cache_type type,
		   uint32_t kib, uint32_t ways, uint32_t sets, uint32_t sharing)
{
	ck_assert_uint_eq(c->level, level);
	ck_assert_str_eq(kemu_cpu_cache_type_name(c->type), kemu_cpu_cache_type_name(type));
	ck_assert_uint_eq(c->size_kib, kib);
	ck_assert_uint_eq(c->line_size, 64);
	ck_assert_uint_eq(c->ways, ways);
	ck_assert_uint_eq(c->sets, sets);
	ck_assert_uint_eq(c->sharing, sharing);
}

/* The registers of the 2-vCPU AMD EPYC guest this was found on: no
 * TOPOEXT, L3's associativity code 9 ("see 0x8000001D"). */
static const struct fake_leaf amd_legacy[] = {
	{ 0, 0, { 13, AMD_ID } },
	{ 0x80000000, 0, { 0x80000021 } },
	{ 0x80000001, 0, { 0, 0, 0, 0 } },
	{ 0x80000005, 0, { 0xff60ff40, 0xff60ff40, 0x300c0140, 0x20080140 } },
	{ 0x80000006, 0, { 0x40802040, 0x60804040, 0x04006140, 0x0fe09140 } },
};

START_TEST(test_amd_legacy_leaves)
{
	struct kemu_cpu_cache c[KEMU_CPU_CACHES_MAX];
	USE(amd_legacy);
	ck_assert_uint_eq(kemu_cpu_caches(fake_cpuid, 2, c, KEMU_CPU_CACHES_MAX), 3);
	expect(&c[0], 1, KEMU_CPU_CACHE_DATA, 48, 12, 64, 1);
	expect(&c[1], 1, KEMU_CPU_CACHE_INSTRUCTION, 32, 8, 64, 1);
	expect(&c[2], 2, KEMU_CPU_CACHE_UNIFIED, 1024, 8, 2048, 1); /* code 6 = 8 ways */
}
END_TEST

/* An L3 the legacy leaf describes (code 0xa = 32 ways, 64 x 512 KiB) is
 * shared by the die's CPUs; a cut-short output array stops early. */
static const struct fake_leaf amd_legacy_l3[] = {
	{ 0, 0, { 13, AMD_ID } },
	{ 0x80000000, 0, { 0x80000008 } },
	{ 0x80000005, 0, { 0, 0, 0x20080140, 0x20080140 } },
	{ 0x80000006, 0, { 0, 0, 0x02006140, 0x0100a140 } },
};

START_TEST(test_amd_legacy_l3_is_shared)
{
	struct kemu_cpu_cache c[KEMU_CPU_CACHES_MAX];
	USE(amd_legacy_l3);
	ck_assert_uint_eq(kemu_cpu_caches(fake_cpuid, 16, c, KEMU_CPU_CACHES_MAX), 4);
	expect(&c[2], 2, KEMU_CPU_CACHE_UNIFIED, 512, 8, 1024, 1);
	expect(&c[3], 3, KEMU_CPU_CACHE_UNIFIED, 32768, 32, 16384, 16);
	ck_assert_uint_eq(kemu_cpu_caches(fake_cpuid, 16, c, 2), 2);
	ck_assert_uint_eq(c[1].type, KEMU_CPU_CACHE_INSTRUCTION);
}
END_TEST

/* Leaf 4 format: EAX type [4:0], level [7:5], sharing-1 [25:14];
 * EBX line-1 [11:0], partitions-1 [21:12], ways-1 [31:22]; ECX sets-1. */
#define LEAF4_EAX(type, level, share) ((type) | (level) << 5 | ((share) - 1) << 14)
#define LEAF4_EBX(ways) (63u | 0u << 12 | ((ways) - 1) << 22)

static const struct fake_leaf intel[] = {
	{ 0, 0, { 0x20, INTEL_ID } },
	{ 4, 0, { LEAF4_EAX(1, 1, 2), LEAF4_EBX(12), 63 } },
	{ 4, 1, { LEAF4_EAX(2, 1, 2), LEAF4_EBX(8), 63 } },
	{ 4, 2, { LEAF4_EAX(3, 2, 2), LEAF4_EBX(16), 2047 } },
	{ 4, 3, { LEAF4_EAX(3, 3, 64), LEAF4_EBX(15), 65535 } },
	/* leaves AMD would use must not be read on Intel */
	{ 0x80000000, 0, { 0x80000008 } },
	{ 0x80000005, 0, { 0, 0, 0x01010140, 0x01010140 } },
};

START_TEST(test_intel_leaf_4)
{
	struct kemu_cpu_cache c[KEMU_CPU_CACHES_MAX];
	USE(intel);
	ck_assert_uint_eq(kemu_cpu_caches(fake_cpuid, 64, c, KEMU_CPU_CACHES_MAX), 4);
	expect(&c[0], 1, KEMU_CPU_CACHE_DATA, 48, 12, 64, 2);
	expect(&c[1], 1, KEMU_CPU_CACHE_INSTRUCTION, 32, 8, 64, 2);
	expect(&c[2], 2, KEMU_CPU_CACHE_UNIFIED, 2048, 16, 2048, 2);
	expect(&c[3], 3, KEMU_CPU_CACHE_UNIFIED, 61440, 15, 65536, 64);
}
END_TEST

/* AMD with TOPOEXT reads 0x8000001D (leaf 4's format), not the legacy
 * leaves. */
static const struct fake_leaf amd_topoext[] = {
	{ 0, 0, { 16, AMD_ID } },
	{ 0x80000000, 0, { 0x80000021 } },
	{ 0x80000001, 0, { 0, 0, 1u << 22, 0 } },
	{ 0x80000005, 0, { 0, 0, 0x01010140, 0x01010140 } },
	{ 0x8000001d, 0, { LEAF4_EAX(1, 1, 2), LEAF4_EBX(8), 63 } },
	{ 0x8000001d, 1, { LEAF4_EAX(3, 3, 16), LEAF4_EBX(16), 32767 } },
};

START_TEST(test_amd_topoext_leaf_8000001d)
{
	struct kemu_cpu_cache c[KEMU_CPU_CACHES_MAX];
	USE(amd_topoext);
	ck_assert_uint_eq(kemu_cpu_caches(fake_cpuid, 32, c, KEMU_CPU_CACHES_MAX), 2);
	expect(&c[0], 1, KEMU_CPU_CACHE_DATA, 32, 8, 64, 2);
	expect(&c[1], 3, KEMU_CPU_CACHE_UNIFIED, 32768, 16, 32768, 16);
}
END_TEST

static const struct fake_leaf no_leaves[] = {
	{ 0, 0, { 2, INTEL_ID } },
};

START_TEST(test_nothing_to_decode)
{
	struct kemu_cpu_cache c[KEMU_CPU_CACHES_MAX];
	USE(no_leaves);
	ck_assert_uint_eq(kemu_cpu_caches(fake_cpuid, 4, c, KEMU_CPU_CACHES_MAX), 0);
	ck_assert_uint_eq(kemu_cpu_caches(NULL, 4, c, KEMU_CPU_CACHES_MAX), 0);
	ck_assert_uint_eq(kemu_cpu_caches(fake_cpuid, 4, NULL, 4), 0);
}
END_TEST

static bool host_has_cacheinfo(void)
{
	struct stat st;
	return stat("/sys/devices/system/cpu/cpu0/cache", &st) == 0;
}

static void read_tree(const struct kemu_topology *t, const char *rel, char *buf, size_t n)
{
	char path[2 * PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", t->dir, rel);
	FILE *f = fopen(path, "re");
	ck_assert_msg(f != NULL, "%s is missing from the tree", rel);
	size_t got = fread(buf, 1, n - 1, f);
	buf[got] = '\0';
	fclose(f);
}

/* A host with cacheinfo keeps it (the tree adds nothing under
 * /sys/devices/system); one without gets the decoded caches for CPU 0,
 * reachable through its NUMA node as libhsakmt walks it. */
START_TEST(test_tree_fills_in_missing_cacheinfo)
{
	struct kemu_topology t;
	char path[2 * PATH_MAX], buf[64];
	struct stat st;
	ck_assert_int_eq(kemu_topology_create("mi210", 1, true, &t), 0);
	snprintf(path, sizeof(path), "%s/sys/devices/system", t.dir);
	if (host_has_cacheinfo()) {
		ck_assert_msg(stat(path, &st) != 0, "the host has cacheinfo: the tree must not shadow it");
		kemu_topology_destroy(&t);
		return;
	}
	struct kemu_cpu_cache c[KEMU_CPU_CACHES_MAX];
	uint32_t n = kemu_cpu_caches(kemu_host_cpuid, 1, c, KEMU_CPU_CACHES_MAX);
	for (uint32_t i = 0; i < n; i++) {
		char rel[128], want[32];
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu0/cache/index%u/level", i);
		read_tree(&t, rel, buf, sizeof(buf));
		snprintf(want, sizeof(want), "%u\n", c[i].level);
		ck_assert_str_eq(buf, want);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu0/cache/index%u/size", i);
		read_tree(&t, rel, buf, sizeof(buf));
		snprintf(want, sizeof(want), "%uK\n", c[i].size_kib);
		ck_assert_str_eq(buf, want);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu0/cache/index%u/shared_cpu_list", i);
		read_tree(&t, rel, buf, sizeof(buf));
		ck_assert_msg(buf[0] == '0', "CPU 0's cache lists %s", buf);
	}
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu0/cache/index%u", t.dir, n);
	ck_assert_int_ne(stat(path, &st), 0);
	if (n > 0 && stat("/sys/devices/system/node/node0/cpu0", &st) == 0) {
		snprintf(path, sizeof(path), "%s/sys/devices/system/node/node0/cpu0/cache/index0/level",
			 t.dir);
		ck_assert_msg(stat(path, &st) == 0, "node0/cpu0 does not lead to the cache tree");
	}
	kemu_topology_destroy(&t);
}
END_TEST

static Suite *cpu_cache_suite(void)
{
	Suite *s = suite_create("emu_cpu_cache");
	TCase *tc = tcase_create("cpu_cache");
	tcase_add_test(tc, test_amd_legacy_leaves);
	tcase_add_test(tc, test_amd_legacy_l3_is_shared);
	tcase_add_test(tc, test_intel_leaf_4);
	tcase_add_test(tc, test_amd_topoext_leaf_8000001d);
	tcase_add_test(tc, test_nothing_to_decode);
	tcase_add_test(tc, test_tree_fills_in_missing_cacheinfo);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(cpu_cache_suite)
