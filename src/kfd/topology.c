/*
 * The KFD sysfs topology reader.  The tree (kfd_topology.c in the kernel,
 * mirrored by kfdemu) is:
 *
 *   generation_id, system_properties,
 *   nodes/N/{gpu_id,name,properties},
 *   nodes/N/{mem_banks,caches,io_links,p2p_links}/M/properties
 *
 * where every properties file is "key value\n" lines with decimal values.
 * We are strict where libhsakmt is lax (it stops at the first line that does
 * not parse and carries on with zeros): a known key with a value that is not
 * a decimal number, a line with no value, a number too big for its field, a
 * missing required file or a *_count that disagrees with the directories
 * all give -EINVAL with the path and line in the log, because a silently
 * half-read node later shows up as a wrong CWSR size or a missing heap.
 * Unknown keys are ignored whatever their value (new kernels add keys, and
 * some values such as caches' sibling_map are not numbers).
 *
 * The kernel bumps generation_id when the topology changes (hot plug,
 * partition switch); we read it before and after the snapshot and start
 * over when it moved, as libhsakmt does.  A node whose gpu_id read fails
 * with EPERM is hidden from us by the device cgroup and is skipped.
 */
#define _GNU_SOURCE /* getdents64 */
#include "kfd/kfd_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"

/* Sysfs attribute files are at most one page; leave room for fixtures. */
#define SYSFS_FILE_MAX 16384
#define GENERATION_RETRIES 8

struct prop_field {
	const char *key;
	size_t key_len; /* strlen(key): compared before the bytes */
	size_t offset;
	size_t size; /* 4 or 8 */
};

#define FIELD(type, name) \
	{ #name, sizeof(#name) - 1, offsetof(type, name), sizeof(((type *)0)->name) }

static const struct prop_field node_fields[] = {
#define N(name) FIELD(struct kfd_node_properties, name)
	N(cpu_cores_count), N(simd_count), N(mem_banks_count), N(caches_count),
	N(io_links_count), N(p2p_links_count), N(cpu_core_id_base), N(simd_id_base),
	N(max_waves_per_simd), N(lds_size_in_kb), N(gds_size_in_kb), N(num_gws),
	N(wave_front_size), N(array_count), N(simd_arrays_per_engine),
	N(cu_per_simd_array), N(simd_per_cu), N(max_slots_scratch_cu),
	N(gfx_target_version), N(vendor_id), N(device_id), N(location_id), N(domain),
	N(drm_render_minor), N(hive_id), N(num_sdma_engines), N(num_sdma_xgmi_engines),
	N(num_sdma_queues_per_engine), N(num_cp_queues), N(max_engine_clk_fcompute),
	N(max_engine_clk_ccompute), N(local_mem_size), N(fw_version), N(capability),
	N(debug_prop), N(sdma_fw_version), N(unique_id), N(num_xcc), N(cwsr_size),
	N(ctl_stack_size),
#undef N
};

static const struct prop_field mem_bank_fields[] = {
#define M(name) FIELD(struct kfd_mem_bank, name)
	M(heap_type), M(size_in_bytes), M(flags), M(width), M(mem_clk_max),
#undef M
};

static const struct prop_field cache_fields[] = {
#define C(name) FIELD(struct kfd_cache, name)
	C(processor_id_low), C(level), C(size), C(cache_line_size),
	C(cache_lines_per_tag), C(association), C(latency), C(type),
#undef C
};

static const struct prop_field io_link_fields[] = {
#define L(name) FIELD(struct kfd_io_link, name)
	L(type), L(version_major), L(version_minor), L(node_from), L(node_to),
	L(weight), L(min_latency), L(max_latency), L(min_bandwidth), L(max_bandwidth),
	L(recommended_transfer_size), L(flags), L(recommended_sdma_engine_id_mask),
#undef L
};

static const struct prop_field system_fields[] = {
	{ "platform_oem", sizeof("platform_oem") - 1, offsetof(struct kfd_topology, platform_oem), 8 },
	{ "platform_id", sizeof("platform_id") - 1, offsetof(struct kfd_topology, platform_id), 8 },
	{ "platform_rev", sizeof("platform_rev") - 1, offsetof(struct kfd_topology, platform_rev), 8 },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* A test's hook (test/kfd/test_topology.c); NULL in the library. */
void (*kfd_topology_snapshot_hook)(const char *root, int attempt);

/*
 * Reads the file name (relative to dirfd, or a path with AT_FDCWD) into buf
 * and NUL-terminates it: one openat, one read and one close when the file
 * is smaller than the buffer.  A read that returns less than asked is the
 * end of the file: a sysfs attribute is produced whole by one show() call
 * (at most a page) and handed over by the first read that has room for it,
 * and a regular file (test fixtures) reads short only at its end.  With the
 * buffer full, one more byte means the file is too big (-EFBIG).
 */
static int sysfs_read_at(int dirfd, const char *name, char *buf, size_t cap)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;

	size_t len = 0;
	int ret = 0;
	for (;;) {
		char probe;
		bool full = len + 1 >= cap;
		size_t want = full ? 1 : cap - 1 - len;
		ssize_t n = full ? read(fd, &probe, 1) : read(fd, buf + len, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		if (full) {
			ret = -EFBIG;
			break;
		}
		len += (size_t)n;
		if ((size_t)n < want)
			break;
	}
	close(fd);
	if (ret)
		return ret;
	buf[len] = '\0';
	return (int)len;
}

int kfd_sysfs_read(const char *path, char *buf, size_t cap)
{
	return sysfs_read_at(AT_FDCWD, path, buf, cap);
}

/* Strict decimal: digits only, no sign, no overflow past max. */
static int parse_decimal(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (max - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Parses "key value" lines of buf into the fields of base. */
static int parse_properties(const char *dir, const char *name, char *buf,
			    const struct prop_field *fields, size_t n_fields, void *base)
{
	unsigned line_no = 0;
	char *p = buf;

	while (*p) {
		char *eol = strchr(p, '\n');
		char *next = eol ? eol + 1 : p + strlen(p);
		char *end = eol ? eol : next;
		line_no++;

		while (p < end && is_blank(*p))
			p++;
		if (p == end) { /* empty line */
			p = next;
			continue;
		}
		char *key = p;
		while (p < end && !is_blank(*p))
			p++;
		size_t key_len = (size_t)(p - key);
		while (p < end && is_blank(*p))
			p++;
		char *val = p;
		while (p < end && !is_blank(*p))
			p++;
		size_t val_len = (size_t)(p - val);
		while (p < end && is_blank(*p))
			p++;

		if (val_len == 0) {
			hl_error(KFD_LOG, "%s/%s:%u: EINVAL: key '%.*s' has no value", dir, name, line_no,
				 (int)key_len, key);
			return -EINVAL;
		}

		const struct prop_field *f = NULL;
		for (size_t i = 0; i < n_fields; i++) {
			if (fields[i].key_len == key_len &&
			    !memcmp(fields[i].key, key, key_len)) {
				f = &fields[i];
				break;
			}
		}
		if (!f) {
			hl_debug(KFD_LOG, "%s/%s:%u: ignoring unknown key '%.*s'", dir, name, line_no,
				 (int)key_len, key);
			p = next;
			continue;
		}
		if (p != end) {
			hl_error(KFD_LOG, "%s/%s:%u: EINVAL: text after the value of %s", dir,
				 name, line_no, f->key);
			return -EINVAL;
		}

		uint64_t v;
		uint64_t max = f->size == 4 ? UINT32_MAX : UINT64_MAX;
		int ret = parse_decimal(val, val_len, max, &v);
		if (ret == -ERANGE) {
			hl_error(KFD_LOG, "%s/%s:%u: EINVAL: value %.*s of %s does not fit %zu bits",
				 dir, name, line_no, (int)val_len, val, f->key, f->size * 8);
			return -EINVAL;
		}
		if (ret) {
			hl_error(KFD_LOG, "%s/%s:%u: EINVAL: value '%.*s' of %s is not a decimal number",
				 dir, name, line_no, (int)val_len, val, f->key);
			return -EINVAL;
		}
		char *dst = (char *)base + f->offset;
		if (f->size == 4) {
			uint32_t v32 = (uint32_t)v;
			memcpy(dst, &v32, sizeof(v32));
		} else {
			memcpy(dst, &v, sizeof(v));
		}
		p = next;
	}
	return 0;
}

static int build_path(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int build_path(char *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out, PATH_MAX, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= PATH_MAX) {
		hl_error(KFD_LOG, "ENAMETOOLONG: topology path too long");
		return -ENAMETOOLONG;
	}
	return 0;
}

/*
 * One read of the tree.  Files are opened relative to directory fds
 * (openat), so the kernel walks one or two path components per file rather
 * than the whole /sys/devices/virtual/kfd/kfd/topology/nodes/N/... chain;
 * the absolute names (dir strings below) are built once per directory and
 * only serve the log.  buf is the scratch for properties files, allocated
 * once per read rather than once per file.
 */
struct topo_reader {
	const char *root;
	int root_fd;
	char *buf; /* SYSFS_FILE_MAX bytes */
};

/* Opens dirfd/name as a directory: the fd, or -errno. */
static int open_dir_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Reads the required properties file dirfd/name (dir is dirfd's path, for
 * the log) into base. */
static int read_properties(struct topo_reader *r, int dirfd, const char *dir, const char *name,
			   const struct prop_field *fields, size_t n_fields, void *base)
{
	int ret = sysfs_read_at(dirfd, name, r->buf, SYSFS_FILE_MAX);
	if (ret < 0) {
		hl_error(KFD_LOG, "%s/%s: EINVAL: cannot read a required topology file (%s)", dir,
			 name, hl_errno_name(ret));
		return ret == -ENOMEM ? ret : -EINVAL;
	}
	return parse_properties(dir, name, r->buf, fields, n_fields, base);
}

/* Reads dirfd/name, a file holding one decimal number ("generation_id",
 * "gpu_id").  -errno of the read is returned as is, so the caller can tell
 * a missing file (ENOENT) or a hidden device (EPERM) from a malformed one
 * (EINVAL). */
static int read_number_file(int dirfd, const char *dir, const char *name, uint64_t max,
			    uint64_t *out)
{
	char buf[64];
	int len = sysfs_read_at(dirfd, name, buf, sizeof(buf));
	if (len < 0)
		return len;
	size_t n = (size_t)len;
	while (n > 0 && (buf[n - 1] == '\n' || is_blank(buf[n - 1])))
		n--;
	int ret = parse_decimal(buf, n, max, out);
	if (ret) {
		hl_error(KFD_LOG, "%s/%s:1: EINVAL: '%.*s' is not a decimal number%s", dir, name,
			 (int)n, buf, ret == -ERANGE ? " that fits its field" : "");
		return -EINVAL;
	}
	return 0;
}

/* Counts the numbered entries (0..n-1, no gaps) of the open directory fd
 * (dir is its path, for the log).  getdents64 on the fd we already hold
 * saves opendir's second open and its fstat/fcntl checks. */
static int count_entries(int fd, const char *dir, uint32_t *count)
{
	union {
		struct dirent64 align;
		char bytes[8192];
	} ents;
	uint32_t n = 0;
	uint64_t max_index = 0;

	for (;;) {
		ssize_t len = getdents64(fd, ents.bytes, sizeof(ents.bytes));
		if (len < 0) {
			int err = -errno;
			hl_error(KFD_LOG, "%s: %s: cannot list the directory", dir,
				 hl_errno_name(err));
			return err;
		}
		if (len == 0)
			break;
		for (ssize_t off = 0; off < len;) {
			const struct dirent64 *e = (const struct dirent64 *)(ents.bytes + off);
			uint64_t idx;
			off += e->d_reclen;
			if (parse_decimal(e->d_name, strlen(e->d_name), UINT32_MAX, &idx))
				continue; /* ".", ".." and anything not numbered */
			n++;
			if (idx > max_index)
				max_index = idx;
		}
	}
	if (n > 0 && max_index + 1 != n) {
		hl_error(KFD_LOG, "%s: EINVAL: %u entries but the highest is %llu (a gap)", dir, n,
			 (unsigned long long)max_index);
		return -EINVAL;
	}
	*count = n;
	return 0;
}

/* Reads the M entries of <node_dir>/<sub>/ (node_fd is node_dir) into
 * *array (elem bytes each).  A missing directory has no entries. */
static int read_sub_list(struct topo_reader *r, int node_fd, const char *node_dir,
			 const char *sub, uint32_t expected, const char *count_key,
			 const struct prop_field *fields, size_t n_fields, size_t elem,
			 void **array, uint32_t *n_out)
{
	char dir[PATH_MAX];
	uint32_t n = 0;
	int ret;

	*array = NULL;
	*n_out = 0;
	ret = build_path(dir, "%s/%s", node_dir, sub);
	if (ret)
		return ret;
	int fd = open_dir_at(node_fd, sub);
	if (fd < 0 && fd != -ENOENT) {
		hl_error(KFD_LOG, "%s: %s: cannot list the directory", dir, hl_errno_name(fd));
		return fd;
	}
	if (fd >= 0) {
		ret = count_entries(fd, dir, &n);
		if (ret)
			goto out_close;
	}
	if (n != expected) {
		hl_error(KFD_LOG, "%s/properties: EINVAL: %s is %u but %s holds %u entries",
			 node_dir, count_key, expected, dir, n);
		ret = -EINVAL;
		goto out_close;
	}
	if (n == 0)
		goto out_close;
	char *items = calloc(n, elem);
	if (!items) {
		ret = -ENOMEM;
		goto out_close;
	}
	for (uint32_t i = 0; i < n; i++) {
		char name[32];
		snprintf(name, sizeof(name), "%u/properties", i);
		ret = read_properties(r, fd, dir, name, fields, n_fields, items + (size_t)i * elem);
		if (ret) {
			free(items);
			goto out_close;
		}
	}
	*array = items;
	*n_out = n;
out_close:
	if (fd >= 0)
		close(fd);
	return ret;
}

static void node_free(struct kfd_node *node)
{
	free(node->mem_banks);
	free(node->caches);
	free(node->io_links);
	node->mem_banks = NULL;
	node->caches = NULL;
	node->io_links = NULL;
}

/* Reads the node directory node_fd (dir is its path, for the log) into
 * node.  *skipped is set for a node the cgroup hides. */
static int read_node_at(struct topo_reader *r, int node_fd, const char *dir,
			struct kfd_node *node, bool *skipped)
{
	uint64_t gpu_id;
	int ret;

	ret = read_number_file(node_fd, dir, "gpu_id", UINT32_MAX, &gpu_id);
	if (ret == -EPERM) {
		/* The device cgroup hides this GPU (libhsakmt skips it too). */
		hl_info(KFD_LOG, "%s/gpu_id: EPERM: node not accessible, skipped", dir);
		*skipped = true;
		return 0;
	}
	if (ret == -EINVAL)
		return ret;
	if (ret) {
		hl_error(KFD_LOG, "%s/gpu_id: EINVAL: cannot read a required topology file (%s)",
			 dir, hl_errno_name(ret));
		return ret == -ENOMEM ? ret : -EINVAL;
	}
	node->gpu_id = (uint32_t)gpu_id;

	/* name is informational: a missing one is left empty. */
	char name[sizeof(node->name)];
	int len = sysfs_read_at(node_fd, "name", name, sizeof(name));
	if (len == -EFBIG) {
		hl_error(KFD_LOG, "%s/name: EINVAL: name longer than %zu bytes", dir,
			 sizeof(node->name) - 1);
		return -EINVAL;
	}
	if (len > 0) {
		size_t n = strcspn(name, "\n");
		memcpy(node->name, name, n);
		node->name[n] = '\0';
	}

	node->props.num_xcc = 1; /* absent before multi-XCC kernels */
	ret = read_properties(r, node_fd, dir, "properties", node_fields, ARRAY_LEN(node_fields),
			      &node->props);
	if (ret)
		return ret;

	void *arr;
	uint32_t n;
	ret = read_sub_list(r, node_fd, dir, "mem_banks", node->props.mem_banks_count,
			    "mem_banks_count", mem_bank_fields, ARRAY_LEN(mem_bank_fields),
			    sizeof(struct kfd_mem_bank), &arr, &n);
	if (ret)
		goto err_free;
	node->mem_banks = arr;
	node->n_mem_banks = n;

	ret = read_sub_list(r, node_fd, dir, "caches", node->props.caches_count, "caches_count",
			    cache_fields, ARRAY_LEN(cache_fields), sizeof(struct kfd_cache), &arr,
			    &n);
	if (ret)
		goto err_free;
	node->caches = arr;
	node->n_caches = n;

	ret = read_sub_list(r, node_fd, dir, "io_links", node->props.io_links_count,
			    "io_links_count", io_link_fields, ARRAY_LEN(io_link_fields),
			    sizeof(struct kfd_io_link), &arr, &n);
	if (ret)
		goto err_free;
	node->io_links = arr;
	node->n_io_links = n;

	/* p2p links follow the io links in one array, as libhsakmt lists them. */
	struct kfd_io_link *p2p;
	uint32_t n_p2p;
	ret = read_sub_list(r, node_fd, dir, "p2p_links", node->props.p2p_links_count,
			    "p2p_links_count", io_link_fields, ARRAY_LEN(io_link_fields),
			    sizeof(struct kfd_io_link), (void **)&p2p, &n_p2p);
	if (ret)
		goto err_free;
	if (n_p2p) {
		struct kfd_io_link *all =
			realloc(node->io_links, sizeof(*all) * (node->n_io_links + n_p2p));
		if (!all) {
			free(p2p);
			ret = -ENOMEM;
			goto err_free;
		}
		memcpy(all + node->n_io_links, p2p, sizeof(*all) * n_p2p);
		free(p2p);
		node->io_links = all;
		node->n_io_links += n_p2p;
	}
	return 0;

err_free:
	node_free(node);
	return ret;
}

/* Reads nodes/<index> (nodes_fd is the nodes directory) into node. */
static int read_node(struct topo_reader *r, int nodes_fd, uint32_t index, struct kfd_node *node,
		     bool *skipped)
{
	char dir[PATH_MAX], name[16];
	int ret;

	memset(node, 0, sizeof(*node));
	*skipped = false;
	node->index = index;
	ret = build_path(dir, "%s/nodes/%u", r->root, index);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "%u", index);
	int node_fd = open_dir_at(nodes_fd, name);
	if (node_fd < 0) {
		hl_error(KFD_LOG, "%s: EINVAL: cannot open the node directory (%s)", dir,
			 hl_errno_name(node_fd));
		return node_fd == -ENOMEM ? node_fd : -EINVAL;
	}
	ret = read_node_at(r, node_fd, dir, node, skipped);
	close(node_fd);
	return ret;
}

void kfd_topology_free(struct kfd_topology *topo)
{
	if (!topo)
		return;
	for (uint32_t i = 0; i < topo->n_nodes; i++)
		node_free(&topo->nodes[i]);
	free(topo->nodes);
	memset(topo, 0, sizeof(*topo));
}

static int read_generation(struct topo_reader *r, uint64_t *gen)
{
	int ret = read_number_file(r->root_fd, r->root, "generation_id", UINT64_MAX, gen);
	if (ret == -ENOENT) {
		hl_error(KFD_LOG, "%s/generation_id: EINVAL: missing required file", r->root);
		return -EINVAL;
	}
	if (ret && ret != -EINVAL)
		hl_error(KFD_LOG, "%s/generation_id: %s: cannot read", r->root, hl_errno_name(ret));
	return ret;
}

static int read_snapshot(struct topo_reader *r, struct kfd_topology *topo)
{
	char dir[PATH_MAX];
	uint32_t n_dirs = 0;
	int ret;

	ret = read_properties(r, r->root_fd, r->root, "system_properties", system_fields,
			      ARRAY_LEN(system_fields), topo);
	if (ret)
		return ret;

	ret = build_path(dir, "%s/nodes", r->root);
	if (ret)
		return ret;
	int nodes_fd = open_dir_at(r->root_fd, "nodes");
	if (nodes_fd < 0 && nodes_fd != -ENOENT) {
		hl_error(KFD_LOG, "%s: %s: cannot list the directory", dir, hl_errno_name(nodes_fd));
		return nodes_fd;
	}
	if (nodes_fd >= 0) {
		ret = count_entries(nodes_fd, dir, &n_dirs);
		if (ret)
			goto out_close;
	}
	if (n_dirs == 0) {
		hl_error(KFD_LOG, "%s: EINVAL: no nodes", dir);
		ret = -EINVAL;
		goto out_close;
	}
	topo->nodes = calloc(n_dirs, sizeof(*topo->nodes));
	if (!topo->nodes) {
		ret = -ENOMEM;
		goto out_close;
	}
	for (uint32_t i = 0; i < n_dirs; i++) {
		bool skipped;
		ret = read_node(r, nodes_fd, i, &topo->nodes[topo->n_nodes], &skipped);
		if (ret)
			goto out_close;
		if (!skipped)
			topo->n_nodes++;
	}
out_close:
	if (nodes_fd >= 0)
		close(nodes_fd);
	return ret;
}

/* One attempt: generation_id, the snapshot, generation_id again.  *moved
 * is set (and topo left empty) when generation_id changed under us. */
static int read_attempt(struct topo_reader *r, int attempt, struct kfd_topology *topo,
			bool *moved)
{
	uint64_t gen_before, gen_after;
	int ret;

	*moved = false;
	r->root_fd = open(r->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->root_fd < 0) {
		ret = -errno;
		if (ret == -ENOENT)
			hl_info(KFD_LOG, "%s: ENOENT: no KFD topology (is amdgpu loaded?)", r->root);
		else
			hl_error(KFD_LOG, "%s: %s: cannot open the topology directory", r->root,
				 hl_errno_name(ret));
		return ret;
	}
	ret = read_generation(r, &gen_before);
	if (!ret)
		ret = read_snapshot(r, topo);
	if (!ret && kfd_topology_snapshot_hook)
		kfd_topology_snapshot_hook(r->root, attempt);
	if (!ret)
		ret = read_generation(r, &gen_after);
	close(r->root_fd);
	r->root_fd = -1;
	if (ret) {
		kfd_topology_free(topo);
		return ret;
	}
	if (gen_before != gen_after) {
		hl_debug(KFD_LOG, "%s: generation_id moved from %llu to %llu, reading again",
			 r->root, (unsigned long long)gen_before, (unsigned long long)gen_after);
		kfd_topology_free(topo);
		*moved = true;
		return 0;
	}
	topo->generation_id = gen_before;
	return 0;
}

int kfd_topology_read(const char *root, struct kfd_topology *out)
{
	struct topo_reader r = { .root = root, .root_fd = -1 };
	int ret;

	memset(out, 0, sizeof(*out));
	r.buf = malloc(SYSFS_FILE_MAX);
	if (!r.buf)
		return -ENOMEM;
	for (int attempt = 0; attempt < GENERATION_RETRIES; attempt++) {
		struct kfd_topology topo = { 0 };
		bool moved;
		ret = read_attempt(&r, attempt, &topo, &moved);
		if (ret || !moved) {
			if (!ret)
				*out = topo;
			goto out_free;
		}
	}
	hl_error(KFD_LOG, "%s: EAGAIN: topology kept changing over %d reads", root,
		 GENERATION_RETRIES);
	ret = -EAGAIN;
out_free:
	free(r.buf);
	return ret;
}
