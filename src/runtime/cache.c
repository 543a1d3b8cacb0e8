/*
 * Caches, as ROCr builds them (InitCacheList in amd_gpu_agent.cpp and
 * amd_cpu_agent.cpp): one cache object per KFD topology cache entry of the
 * agent's node, data and unified caches only (instruction caches dropped);
 * for a GPU the entries flagged HSACU, for a CPU those flagged CPU.  A GPU
 * therefore lists one L1 per CU, as ROCr does.  Kernels since 5.x no longer
 * report CPU caches in the KFD topology, and libhsakmt then reads them from
 * /sys/devices/system/cpu; we read the first CPU of the node the same way
 * (one entry per level).
 *
 * Two ROCr quirks are kept for drop-in compatibility (core/runtime/cache.cpp):
 * HSA_CACHE_INFO_NAME returns a pointer to the runtime's string (the spec
 * says a character array; ROCr's clients read a const char *) and
 * NAME_LENGTH excludes the terminator; HSA_CACHE_INFO_SIZE is in KiB, the
 * unit KFD reports.  HSA_AGENT_INFO_CACHE_SIZE is in bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/runtime_priv.h"

static void cache_add(struct hl_agent *a, struct hl_cache *c, uint32_t level, uint32_t size_kib)
{
	snprintf(c->name, sizeof(c->name), "%s L%u", a->name, level);
	c->level = (uint8_t)level;
	c->size_kib = size_kib;
	/* HSA_AGENT_INFO_CACHE_SIZE holds one instance per level, the size of
	 * the last entry of that level, as ROCr 5.2.3 reports it (KFD lists a
	 * per-CU L1 and one L2 per group of CUs, all of a size).  ROCr 6
	 * sums the L2+ entries instead; rocminfo 5.2.3 prints the former. */
	if (level >= 1 && level <= 4)
		a->cache_size[level - 1] = size_kib * 1024;
}

uint32_t hl_cache_fill_gpu(struct hl_agent *a, struct hl_cache *out)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < a->node->n_caches; i++) {
		const struct kfd_cache *k = &a->node->caches[i];
		if (!(k->type & KFD_CACHE_TYPE_HSACU) || (k->type & KFD_CACHE_TYPE_INSTRUCTION))
			continue;
		cache_add(a, &out[n++], k->level, k->size);
	}
	return n;
}

/* The first line of dirfd/name, without its newline: one open, one read
 * and one close (sysfs hands a whole attribute to the first read). */
static bool read_line_at(int dirfd, const char *name, char *buf, size_t len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/* Caches of the first CPU of NUMA node `node` from sysfs.  The per-index
 * files are opened relative to the CPU's cache directory. */
static uint32_t cpu_caches_from_sysfs(struct hl_agent *a, struct hl_cache *out)
{
	char path[128], name[32], buf[64];
	unsigned cpu = 0;
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/cpulist", a->node_id);
	if (read_line_at(AT_FDCWD, path, buf, sizeof(buf)))
		cpu = (unsigned)strtoul(buf, NULL, 10);

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cache", cpu);
	int dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return 0;
	uint32_t n = 0;
	for (unsigned idx = 0; n < HL_CPU_SYSFS_CACHES_MAX; idx++) {
		snprintf(name, sizeof(name), "index%u/type", idx);
		if (!read_line_at(dirfd, name, buf, sizeof(buf)))
			break;
		if (!strcmp(buf, "Instruction"))
			continue;
		snprintf(name, sizeof(name), "index%u/level", idx);
		if (!read_line_at(dirfd, name, buf, sizeof(buf)))
			continue;
		uint32_t level = (uint32_t)strtoul(buf, NULL, 10);
		snprintf(name, sizeof(name), "index%u/size", idx);
		if (!read_line_at(dirfd, name, buf, sizeof(buf)))
			continue;
		char *unit;
		uint32_t size = (uint32_t)strtoul(buf, &unit, 10);
		if (*unit == 'M')
			size *= 1024;
		cache_add(a, &out[n++], level, size);
	}
	close(dirfd);
	return n;
}

uint32_t hl_cache_fill_cpu(struct hl_agent *a, struct hl_cache *out)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < a->node->n_caches; i++) {
		const struct kfd_cache *k = &a->node->caches[i];
		if (!(k->type & KFD_CACHE_TYPE_CPU) || (k->type & KFD_CACHE_TYPE_INSTRUCTION))
			continue;
		cache_add(a, &out[n++], k->level, k->size);
	}
	if (n == 0)
		n = cpu_caches_from_sysfs(a, out);
	return n;
}

hsa_status_t hsa_agent_iterate_caches(hsa_agent_t agent,
				      hsa_status_t (*callback)(hsa_cache_t cache, void *data),
				      void *data)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!callback)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	for (uint32_t i = 0; i < a->n_caches; i++) {
		hsa_cache_t c = { (uint64_t)(uintptr_t)&a->caches[i] };
		hsa_status_t s = callback(c, data);
		if (s != HSA_STATUS_SUCCESS)
			return s;
	}
	return HSA_STATUS_SUCCESS;
}

/* hsa_cache_get_info's answers (info.c copies them out). */
HL_INFO_GETTER(cache_name_length, struct hl_cache, uint32_t, (uint32_t)strlen(q->name))
HL_INFO_GETTER(cache_name, struct hl_cache, const char *, q->name)
HL_INFO_GETTER(cache_level, struct hl_cache, uint8_t, q->level)
HL_INFO_GETTER(cache_size, struct hl_cache, uint32_t, q->size_kib)

static const struct hl_info_attr cache_info[] = {
	{ HSA_CACHE_INFO_NAME_LENGTH, sizeof(uint32_t), cache_name_length },
	{ HSA_CACHE_INFO_NAME, sizeof(const char *), cache_name },
	{ HSA_CACHE_INFO_LEVEL, sizeof(uint8_t), cache_level },
	{ HSA_CACHE_INFO_SIZE, sizeof(uint32_t), cache_size },
};

hsa_status_t hsa_cache_get_info(hsa_cache_t cache, hsa_cache_info_t attribute, void *value)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_cache *c = hl_cache_lookup(rt, cache.handle);
	if (!c)
		return HSA_STATUS_ERROR_INVALID_CACHE;
	bool found;
	return hl_info_answer(cache_info, HL_INFO_COUNT(cache_info), (uint32_t)attribute, c, value,
			      &found);
}
