/*
 * Code object metadata: the msgpack map of the NT_AMDGPU_METADATA note
 * (LLVM AMDGPUUsage "Code Object V3 to V6 Metadata"), read with msgpack-c.
 *
 * Every value's type is checked before use and a missing required key is
 * an error, so a forged note is refused rather than half-read.  What we
 * keep: amdhsa.version ([1, 1] for v4, [1, 2] for v5), amdhsa.target (the
 * target ID, compared with e_flags by the caller) and, per kernel, the
 * fields a runtime reports or needs to dispatch: .name, .symbol,
 * .kernarg_segment_size/_align, .group/.private_segment_fixed_size,
 * .wavefront_size, .sgpr_count, .vgpr_count, .max_flat_workgroup_size,
 * .uses_dynamic_stack; .args are checked to fit the kernarg segment.
 * Strings are copied NUL-terminated into co->strings; msgpack's zone is
 * released before returning.
 */
#include <errno.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "loader/loader_priv.h"
#include "util/log.h"

#define LOG "loader"

struct strpool {
	char *buf;
	size_t used, cap;
};

static bool key_is(const msgpack_object *k, const char *name)
{
	size_t n = strlen(name);
	return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
	       memcmp(k->via.str.ptr, name, n) == 0;
}

static const msgpack_object *map_get(const msgpack_object *map, const char *name)
{
	for (uint32_t i = 0; i < map->via.map.size; i++)
		if (key_is(&map->via.map.ptr[i].key, name))
			return &map->via.map.ptr[i].val;
	return NULL;
}

static int get_u32(const msgpack_object *map, const char *ctx, const char *name, bool required,
		   uint32_t *out)
{
	const msgpack_object *v = map_get(map, name);
	if (!v) {
		if (!required)
			return 0;
		hl_error(LOG, "metadata %s: required key %s is missing", ctx, name);
		return -ENOEXEC;
	}
	if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 > UINT32_MAX) {
		hl_error(LOG, "metadata %s: %s is not an unsigned 32-bit integer (msgpack type %d)",
			 ctx, name, (int)v->type);
		return -ENOEXEC;
	}
	*out = (uint32_t)v->via.u64;
	return 0;
}

static int get_str(const msgpack_object *map, const char *ctx, const char *name,
		   struct strpool *pool, const char **out)
{
	const msgpack_object *v = map_get(map, name);
	if (!v || v->type != MSGPACK_OBJECT_STR || v->via.str.size == 0 ||
	    memchr(v->via.str.ptr, 0, v->via.str.size)) {
		hl_error(LOG, "metadata %s: %s is %s", ctx, name,
			 v ? "not a non-empty string without NULs" : "missing");
		return -ENOEXEC;
	}
	size_t n = v->via.str.size;
	if (pool->used + n + 1 > pool->cap) {
		hl_error(LOG, "metadata %s: strings exceed the note", ctx);
		return -ENOEXEC;
	}
	char *s = pool->buf + pool->used;
	memcpy(s, v->via.str.ptr, n);
	s[n] = '\0';
	pool->used += n + 1;
	*out = s;
	return 0;
}

static int parse_args(const msgpack_object *kmap, const struct hl_co_kernel *k)
{
	const msgpack_object *args = map_get(kmap, ".args");
	if (!args)
		return 0;
	if (args->type != MSGPACK_OBJECT_ARRAY) {
		hl_error(LOG, "metadata kernel '%s': .args is not an array", k->name);
		return -ENOEXEC;
	}
	for (uint32_t i = 0; i < args->via.array.size; i++) {
		const msgpack_object *a = &args->via.array.ptr[i];
		if (a->type != MSGPACK_OBJECT_MAP) {
			hl_error(LOG, "metadata kernel '%s': argument %u is not a map", k->name, i);
			return -ENOEXEC;
		}
		uint32_t off = 0, size = 0;
		int err = get_u32(a, k->name, ".offset", true, &off);
		if (!err)
			err = get_u32(a, k->name, ".size", true, &size);
		if (err)
			return err;
		const msgpack_object *kind = map_get(a, ".value_kind");
		if (!kind || kind->type != MSGPACK_OBJECT_STR) {
			hl_error(LOG, "metadata kernel '%s': argument %u has no .value_kind string",
				 k->name, i);
			return -ENOEXEC;
		}
		if ((uint64_t)off + size > k->kernarg_size) {
			hl_error(LOG, "metadata kernel '%s': argument %u [%u, +%u) lies outside the "
				 "%u-byte kernarg segment", k->name, i, off, size, k->kernarg_size);
			return -ENOEXEC;
		}
	}
	return 0;
}

static int parse_kernel(const msgpack_object *m, struct hl_co_kernel *k, struct strpool *pool)
{
	if (m->type != MSGPACK_OBJECT_MAP) {
		hl_error(LOG, "metadata: an amdhsa.kernels entry is not a map");
		return -ENOEXEC;
	}
	int err = get_str(m, "kernel", ".name", pool, &k->name);
	if (!err)
		err = get_str(m, k->name, ".symbol", pool, &k->symbol);
	if (err)
		return err;
	static const struct {
		const char *key;
		size_t off;
	} fields[] = {
		{ ".kernarg_segment_size", offsetof(struct hl_co_kernel, kernarg_size) },
		{ ".kernarg_segment_align", offsetof(struct hl_co_kernel, kernarg_align) },
		{ ".group_segment_fixed_size", offsetof(struct hl_co_kernel, group_size) },
		{ ".private_segment_fixed_size", offsetof(struct hl_co_kernel, private_size) },
		{ ".wavefront_size", offsetof(struct hl_co_kernel, wavefront_size) },
		{ ".sgpr_count", offsetof(struct hl_co_kernel, sgpr_count) },
		{ ".vgpr_count", offsetof(struct hl_co_kernel, vgpr_count) },
		{ ".max_flat_workgroup_size",
		  offsetof(struct hl_co_kernel, max_flat_workgroup_size) },
	};
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		err = get_u32(m, k->name, fields[i].key, true,
			      (uint32_t *)((char *)k + fields[i].off));
		if (err)
			return err;
	}
	if (k->kernarg_align == 0 || (k->kernarg_align & (k->kernarg_align - 1))) {
		hl_error(LOG, "metadata kernel '%s': .kernarg_segment_align %u is not a power of two",
			 k->name, k->kernarg_align);
		return -ENOEXEC;
	}
	if (k->wavefront_size != 32 && k->wavefront_size != 64) {
		hl_error(LOG, "metadata kernel '%s': .wavefront_size %u (32 or 64)", k->name,
			 k->wavefront_size);
		return -ENOEXEC;
	}
	if (k->max_flat_workgroup_size == 0 || k->max_flat_workgroup_size > 1024) {
		hl_error(LOG, "metadata kernel '%s': .max_flat_workgroup_size %u (1..1024)", k->name,
			 k->max_flat_workgroup_size);
		return -ENOEXEC;
	}
	const msgpack_object *dyn = map_get(m, ".uses_dynamic_stack");
	if (dyn) {
		if (dyn->type != MSGPACK_OBJECT_BOOLEAN) {
			hl_error(LOG, "metadata kernel '%s': .uses_dynamic_stack is not a boolean",
				 k->name);
			return -ENOEXEC;
		}
		k->uses_dynamic_stack = dyn->via.boolean;
	}
	return parse_args(m, k);
}

static int parse_root(struct hl_code_object *co, const msgpack_object *root,
		      struct strpool *pool, char *target, size_t target_size)
{
	if (root->type != MSGPACK_OBJECT_MAP) {
		hl_error(LOG, "metadata: the note is not a msgpack map");
		return -ENOEXEC;
	}
	const msgpack_object *ver = map_get(root, "amdhsa.version");
	if (!ver || ver->type != MSGPACK_OBJECT_ARRAY || ver->via.array.size != 2 ||
	    ver->via.array.ptr[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    ver->via.array.ptr[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
		hl_error(LOG, "metadata: amdhsa.version is not [major, minor]");
		return -ENOEXEC;
	}
	uint64_t major = ver->via.array.ptr[0].via.u64, minor = ver->via.array.ptr[1].via.u64;
	/* v4 writes 1.1, v5 1.2 (AMDGPUUsage). */
	if (major != 1 || minor != co->version - 3) {
		hl_error(LOG, "metadata: amdhsa.version %llu.%llu does not belong to code object v%u "
			 "(expected 1.%u)", (unsigned long long)major, (unsigned long long)minor,
			 co->version, co->version - 3);
		return -ENOEXEC;
	}
	co->md_version[0] = (uint32_t)major;
	co->md_version[1] = (uint32_t)minor;

	const char *t;
	int err = get_str(root, "root", "amdhsa.target", pool, &t);
	if (err)
		return err;
	if (strlen(t) >= target_size) {
		hl_error(LOG, "metadata: amdhsa.target is %zu characters long", strlen(t));
		return -ENOEXEC;
	}
	strcpy(target, t);

	const msgpack_object *ks = map_get(root, "amdhsa.kernels");
	if (!ks) /* a code object of variables only */
		return 0;
	if (ks->type != MSGPACK_OBJECT_ARRAY) {
		hl_error(LOG, "metadata: amdhsa.kernels is not an array");
		return -ENOEXEC;
	}
	co->kernels = calloc(ks->via.array.size ? ks->via.array.size : 1, sizeof(*co->kernels));
	if (!co->kernels)
		return -ENOMEM;
	for (uint32_t i = 0; i < ks->via.array.size; i++) {
		err = parse_kernel(&ks->via.array.ptr[i], &co->kernels[i], pool);
		if (err)
			return err;
		for (uint32_t j = 0; j < i; j++) {
			if (strcmp(co->kernels[j].symbol, co->kernels[i].symbol) == 0) {
				hl_error(LOG, "metadata: two kernels with symbol '%s'",
					 co->kernels[i].symbol);
				return -ENOEXEC;
			}
		}
		co->n_kernels = i + 1;
	}
	return 0;
}

static uint64_t be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/*
 * Walks the msgpack encoding before msgpack-c sees it.  msgpack-c allocates
 * an array or map's elements from the count in its header, before reading
 * them, so a forged count (2^32 - 1 entries in a 700-byte note) would ask
 * for gigabytes.  Every element takes at least one byte, so a count larger
 * than the bytes left is impossible; so is a string or binary running past
 * the end.  True when desc[0, size) is exactly one well-formed object.
 */
static bool msgpack_well_formed(const uint8_t *p, size_t size)
{
	uint64_t pending = 1; /* objects still to read */
	size_t i = 0;
	while (pending) {
		if (i >= size)
			return false;
		pending--;
		uint8_t t = p[i++];
		uint64_t skip = 0, items = 0;
		unsigned lenb = 0;
		if (t <= 0x7f || t >= 0xe0 || t == 0xc0 || t == 0xc2 || t == 0xc3)
			continue;                                 /* fixints, nil, bool */
		if ((t & 0xf0) == 0x80)
			items = 2u * (t & 0x0f);                  /* fixmap */
		else if ((t & 0xf0) == 0x90)
			items = t & 0x0f;                         /* fixarray */
		else if ((t & 0xe0) == 0xa0)
			skip = t & 0x1f;                          /* fixstr */
		else
			switch (t) {
			case 0xc4: case 0xd9: lenb = 1; break;    /* bin8, str8 */
			case 0xc5: case 0xda: lenb = 2; break;    /* bin16, str16 */
			case 0xc6: case 0xdb: lenb = 4; break;    /* bin32, str32 */
			case 0xc7: lenb = 1; skip = 1; break;     /* ext8: +type */
			case 0xc8: lenb = 2; skip = 1; break;
			case 0xc9: lenb = 4; skip = 1; break;
			case 0xca: skip = 4; break;               /* float32 */
			case 0xcb: skip = 8; break;               /* float64 */
			case 0xcc: case 0xd0: skip = 1; break;    /* (u)int8 */
			case 0xcd: case 0xd1: skip = 2; break;
			case 0xce: case 0xd2: skip = 4; break;
			case 0xcf: case 0xd3: skip = 8; break;
			case 0xd4: skip = 2; break;               /* fixext 1..16 */
			case 0xd5: skip = 3; break;
			case 0xd6: skip = 5; break;
			case 0xd7: skip = 9; break;
			case 0xd8: skip = 17; break;
			case 0xdc: case 0xdd:                     /* array16/32 */
			case 0xde: case 0xdf: {                   /* map16/32 */
				unsigned nb = (t == 0xdc || t == 0xde) ? 2 : 4;
				if (size - i < nb)
					return false;
				items = be(p + i, nb) * (t >= 0xde ? 2 : 1);
				i += nb;
				break;
			}
			default:
				return false;                     /* 0xc1: never used */
			}
		if (lenb) {
			if (size - i < lenb)
				return false;
			skip += be(p + i, lenb);
			i += lenb;
		}
		if (skip > size - i || items > size - i)
			return false;
		i += skip;
		pending += items;
		if (pending > size - i)
			return false;
	}
	return i == size;
}

int hl_co_metadata_parse(struct hl_code_object *co, const void *desc, size_t size, char *target,
			 size_t target_size)
{
	if (!msgpack_well_formed(desc, size)) {
		hl_error(LOG, "metadata: the %zu-byte note is not one well-formed msgpack object",
			 size);
		return -ENOEXEC;
	}
	msgpack_unpacked res;
	size_t off = 0;
	msgpack_unpacked_init(&res);
	msgpack_unpack_return r = msgpack_unpack_next(&res, desc, size, &off);
	int err;
	if (r != MSGPACK_UNPACK_SUCCESS || off != size) {
		hl_error(LOG, "metadata: the %zu-byte note is not one msgpack object (unpack %d, "
			 "%zu bytes used)", size, (int)r, off);
		err = -ENOEXEC;
		goto out_destroy;
	}
	/* Every string copied is shorter than the note, plus its NUL. */
	struct strpool pool = { .cap = 2 * size + 2 };
	free(co->strings);
	co->strings = pool.buf = malloc(pool.cap);
	if (!pool.buf) {
		err = -ENOMEM;
		goto out_destroy;
	}
	err = parse_root(co, &res.data, &pool, target, target_size);
out_destroy:
	msgpack_unpacked_destroy(&res);
	return err;
}
