/*
 * kfdemu: the host CPU's caches as Linux's x86 cacheinfo derives them from
 * CPUID, for the /sys/devices/system/cpu/cpuN/cache tree libhsakmt reads
 * when the KFD topology lists no CPU caches (every kernel since 5.x).
 * kfdemu writes that tree only on hosts whose kernel exposes none (some
 * minimal VM kernels): a machine with an AMD GPU has one, and without it
 * libhsakmt's topology snapshot fails and ROCr reports no agents.
 */
#ifndef KFDEMU_CPU_CACHE_H
#define KFDEMU_CPU_CACHE_H

#include <stdint.h>

#define KEMU_CPU_CACHES_MAX 8

enum kemu_cpu_cache_type {
	KEMU_CPU_CACHE_DATA = 1,        /* CPUID leaf 4's type encoding */
	KEMU_CPU_CACHE_INSTRUCTION = 2,
	KEMU_CPU_CACHE_UNIFIED = 3,
};

/* One cacheinfo leaf (one cpuN/cache/indexI directory). */
struct kemu_cpu_cache {
	uint32_t level;
	enum kemu_cpu_cache_type type;
	uint32_t size_kib;
	uint32_t line_size;
	uint32_t ways;          /* 0: fully associative, as sysfs shows it */
	uint32_t partitions;    /* physical_line_partition (lines per tag) */
	uint32_t sets;
	uint32_t sharing;       /* logical CPUs sharing one instance, >= 1 */
};

/* regs = EAX, EBX, ECX, EDX of CPUID(leaf, subleaf). */
typedef void (*kemu_cpuid_fn)(uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/* The host's CPUID (all zeros off x86). */
void kemu_host_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/* Decodes the caches the way arch/x86/kernel/cpu/cacheinfo.c finds them:
 * leaf 4 on Intel and other vendors, leaf 0x8000001D on AMD/Hygon with
 * TOPOEXT, else AMD's legacy leaves 0x80000005/6 (L1d, L1i, L2, L3), whose
 * associativity codes map through the kernel's table; a legacy leaf whose
 * code maps to nothing (0, or 9: "see leaf 0x8000001D") is left out, as
 * is any leaf of zero size.  cpu_count bounds the L3 sharing of the legacy
 * leaves (the kernel shares it among the package's cores).  Returns how
 * many of out[0..max) were filled. */
uint32_t kemu_cpu_caches(kemu_cpuid_fn cpuid, uint32_t cpu_count, struct kemu_cpu_cache *out,
			 uint32_t max);

/* "Data", "Instruction" or "Unified", as the sysfs type file reads. */
const char *kemu_cpu_cache_type_name(enum kemu_cpu_cache_type type);

#endif /* KFDEMU_CPU_CACHE_H */
