/*
 * The host CPU's caches from CPUID, after Linux's x86 cacheinfo (facts
 * from arch/x86/kernel/cpu/cacheinfo.c; see cpu_cache.h for the use).
 */
#include "cpu_cache.h"

#include <stdbool.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

enum { EAX, EBX, ECX, EDX };

void kemu_host_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	memset(regs, 0, 4 * sizeof(regs[0]));
#if defined(__x86_64__) || defined(__i386__)
	/* __get_cpuid_count checks the leaf against the range's maximum */
	unsigned int a, b, c, d;
	if (__get_cpuid_count(leaf, subleaf, &a, &b, &c, &d)) {
		regs[EAX] = a;
		regs[EBX] = b;
		regs[ECX] = c;
		regs[EDX] = d;
	}
#else
	(void)leaf;
	(void)subleaf;
#endif
}

const char *kemu_cpu_cache_type_name(enum kemu_cpu_cache_type type)
{
	switch (type) {
	case KEMU_CPU_CACHE_DATA:
		return "Data";
	case KEMU_CPU_CACHE_INSTRUCTION:
		return "Instruction";
	case KEMU_CPU_CACHE_UNIFIED:
		return "Unified";
	}
	return "Unknown";
}

/* Leaf 4 / 0x8000001D: one subleaf per cache until type 0 (no more). */
static uint32_t deterministic_leaves(kemu_cpuid_fn cpuid, uint32_t leaf,
				     struct kemu_cpu_cache *out, uint32_t max)
{
	uint32_t n = 0;
	for (uint32_t sub = 0; n < max && sub < 16; sub++) {
		uint32_t r[4];
		cpuid(leaf, sub, r);
		uint32_t type = r[EAX] & 0x1f;
		if (type == 0)
			break;
		if (type > KEMU_CPU_CACHE_UNIFIED)
			continue;
		struct kemu_cpu_cache *c = &out[n];
		c->type = (enum kemu_cpu_cache_type)type;
		c->level = (r[EAX] >> 5) & 0x7;
		c->sharing = ((r[EAX] >> 14) & 0xfff) + 1;
		c->line_size = (r[EBX] & 0xfff) + 1;
		c->partitions = ((r[EBX] >> 12) & 0x3ff) + 1;
		c->ways = ((r[EBX] >> 22) & 0x3ff) + 1;
		c->sets = r[ECX] + 1;
		uint64_t bytes = (uint64_t)c->ways * c->partitions * c->line_size * c->sets;
		c->size_kib = (uint32_t)(bytes / 1024);
		if (r[EAX] & (1u << 9)) /* fully associative */
			c->ways = 0;
		if (c->size_kib)
			n++;
	}
	return n;
}

/* The kernel's table for the 4-bit associativity codes of 0x80000006;
 * 0 where a code has no count (disabled, reserved, or 9: "described by
 * leaf 0x8000001D"); 0xffff: fully associative. */
static uint32_t legacy_assoc(uint32_t code)
{
	static const uint16_t ways[16] = {
		[1] = 1, [2] = 2, [4] = 4, [6] = 8, [8] = 16, [0xa] = 32,
		[0xb] = 48, [0xc] = 64, [0xd] = 96, [0xe] = 128, [0xf] = 0xffff,
	};
	return ways[code & 0xf];
}

static bool legacy_put(struct kemu_cpu_cache *c, uint32_t level, enum kemu_cpu_cache_type type,
		       uint32_t size_kib, uint32_t assoc, uint32_t lines_per_tag,
		       uint32_t line_size, uint32_t sharing)
{
	if (!size_kib || !assoc || !line_size || !lines_per_tag)
		return false;
	c->level = level;
	c->type = type;
	c->size_kib = size_kib;
	c->line_size = line_size;
	c->partitions = lines_per_tag;
	c->sharing = sharing;
	if (assoc == 0xffff) {
		c->ways = 0;
		c->sets = 1;
	} else {
		c->ways = assoc;
		c->sets = (uint32_t)((uint64_t)size_kib * 1024 / line_size / assoc);
	}
	return true;
}

/* AMD without TOPOEXT: the kernel's amd_cpuid4() emulation of leaf 4 over
 * 0x80000005 (L1d in ECX, L1i in EDX: size KiB [31:24], ways [23:16],
 * lines per tag [15:8], line [7:0]) and 0x80000006 (L2 in ECX: size KiB
 * [31:16], code [15:12]; L3 in EDX: size in 512 KiB [31:18], code
 * [15:12]; lines per tag [11:8], line [7:0]).  Every leaf but L3 belongs
 * to one CPU; L3 is shared by the die's cores. */
static uint32_t legacy_amd_leaves(kemu_cpuid_fn cpuid, uint32_t cpu_count,
				  struct kemu_cpu_cache *out, uint32_t max)
{
	uint32_t r[4], n = 0;
	cpuid(0x80000000, 0, r);
	if (r[EAX] < 0x80000006)
		return 0;
	cpuid(0x80000005, 0, r);
	uint32_t l1[2] = { r[ECX], r[EDX] };
	enum kemu_cpu_cache_type l1_type[2] = { KEMU_CPU_CACHE_DATA, KEMU_CPU_CACHE_INSTRUCTION };
	for (int i = 0; i < 2 && n < max; i++) {
		uint32_t v = l1[i], ways = (v >> 16) & 0xff;
		if (legacy_put(&out[n], 1, l1_type[i], v >> 24, ways == 0xff ? 0xffff : ways,
			       (v >> 8) & 0xff, v & 0xff, 1))
			n++;
	}
	cpuid(0x80000006, 0, r);
	if (n < max && legacy_put(&out[n], 2, KEMU_CPU_CACHE_UNIFIED, r[ECX] >> 16,
				  legacy_assoc(r[ECX] >> 12), (r[ECX] >> 8) & 0xf, r[ECX] & 0xff, 1))
		n++;
	if (n < max && legacy_put(&out[n], 3, KEMU_CPU_CACHE_UNIFIED, (r[EDX] >> 18) * 512,
				  legacy_assoc(r[EDX] >> 12), (r[EDX] >> 8) & 0xf, r[EDX] & 0xff,
				  cpu_count ? cpu_count : 1))
		n++;
	return n;
}

uint32_t kemu_cpu_caches(kemu_cpuid_fn cpuid, uint32_t cpu_count, struct kemu_cpu_cache *out,
			 uint32_t max)
{
	uint32_t r[4];
	char vendor[13];

	if (!cpuid || !out || !max)
		return 0;
	memset(out, 0, max * sizeof(*out));
	cpuid(0, 0, r);
	uint32_t max_leaf = r[EAX];
	memcpy(vendor, &r[EBX], 4);
	memcpy(vendor + 4, &r[EDX], 4);
	memcpy(vendor + 8, &r[ECX], 4);
	vendor[12] = '\0';
	if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")) {
		cpuid(0x80000000, 0, r);
		uint32_t ext_max = r[EAX];
		cpuid(0x80000001, 0, r);
		bool topoext = ext_max >= 0x8000001d && ext_max < 0x80010000 &&
			       (r[ECX] & (1u << 22));
		if (topoext)
			return deterministic_leaves(cpuid, 0x8000001d, out, max);
		return legacy_amd_leaves(cpuid, cpu_count, out, max);
	}
	if (max_leaf >= 4)
		return deterministic_leaves(cpuid, 4, out, max);
	return 0;
}
