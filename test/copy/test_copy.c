/*
 * Async copies, rect copies, fills, hsa_memory_copy and copy profiling on
 * kfdemu.  Public API only: the same binary runs against Debian's ROCr
 * 5.2.3 (COPY_PEER=rocr, label peer), where it expects ROCr's documented
 * differences (docs/differences.md): rect copies need SDMA there.
 *
 * Every copy is checked byte for byte, including the bytes around the
 * destination range (guards), for sizes 1 B .. 64 MiB and unaligned
 * source and destination addresses, in every direction the machine has:
 * host->device, device->host, device->device, host->host and, with
 * --gpus 2, GPU->GPU.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "hl_hsa.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

#define GUARD 64u
#define WAIT_NS (120ull * 1000 * 1000 * 1000)

static hsa_agent_t cpu, gpus[4];
static unsigned n_gpus;
static hsa_amd_memory_pool_t sys_pool, vram[4];
static bool peer_rocr;

static hsa_status_t find_pool(hsa_amd_memory_pool_t p, void *data)
{
	hsa_amd_segment_t seg;
	uint32_t flags = 0;
	bool alloc = false;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
	if (seg != HSA_AMD_SEGMENT_GLOBAL || !alloc)
		return HSA_STATUS_SUCCESS;
	hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	hsa_amd_memory_pool_t *out = data;
	if (!out->handle)
		*out = p;
	if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED && data == &sys_pool)
		*out = p;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_agent(hsa_agent_t a, void *data)
{
	(void)data;
	hsa_device_type_t t;
	hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
	if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) {
		cpu = a;
		hsa_amd_agent_iterate_memory_pools(a, find_pool, &sys_pool);
	} else if (t == HSA_DEVICE_TYPE_GPU && n_gpus < 4) {
		hsa_amd_agent_iterate_memory_pools(a, find_pool, &vram[n_gpus]);
		gpus[n_gpus++] = a;
	}
	return HSA_STATUS_SUCCESS;
}

static void setup(void)
{
	const char *p = getenv("COPY_PEER");
	peer_rocr = p && strcmp(p, "rocr") == 0;
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	cpu.handle = 0;
	n_gpus = 0;
	sys_pool.handle = 0;
	memset(vram, 0, sizeof(vram));
	ck_assert_int_eq(hsa_iterate_agents(find_agent, NULL), HSA_STATUS_SUCCESS);
	ck_assert(cpu.handle && n_gpus > 0 && sys_pool.handle && vram[0].handle);
}

static void teardown(void)
{
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

/* Memory of a kind: 's' system fine-grained, 'v' VRAM of gpus[0], 'w'
 * VRAM of gpus[1], 'm' malloc'ed host memory (locked for async copies). */
struct buf {
	char kind;
	char *base;       /* what was allocated */
	void *agent_ptr;  /* locked: the GPU address of base */
	size_t size;
};

static void buf_alloc(struct buf *b, char kind, size_t size, bool lock)
{
	b->kind = kind;
	b->size = size;
	b->agent_ptr = NULL;
	void *p = NULL;
	if (kind == 'm') {
		ck_assert_int_eq(posix_memalign(&p, 4096, size), 0);
		if (lock)
			ck_assert_int_eq(hsa_amd_memory_lock(p, size, gpus, n_gpus, &b->agent_ptr),
					 HSA_STATUS_SUCCESS);
	} else {
		hsa_amd_memory_pool_t pool = kind == 's' ? sys_pool : kind == 'v' ? vram[0] : vram[1];
		ck_assert_int_eq(hsa_amd_memory_pool_allocate(pool, size, 0, &p), HSA_STATUS_SUCCESS);
		/* one call: the list replaces the previous one (libhsakmt
		 * unmaps from GPUs left out) */
		hsa_agent_t all[5];
		memcpy(all, gpus, n_gpus * sizeof(all[0]));
		all[n_gpus] = cpu;
		ck_assert_int_eq(hsa_amd_agents_allow_access(n_gpus + 1, all, NULL, p),
				 HSA_STATUS_SUCCESS);
	}
	b->base = p;
	if (!b->agent_ptr)
		b->agent_ptr = p;
}

static void buf_free(struct buf *b)
{
	if (b->kind == 'm') {
		if (b->agent_ptr != b->base)
			hsa_amd_memory_unlock(b->base);
		else
			hsa_amd_memory_unlock(b->base);
		free(b->base);
	} else {
		hsa_amd_memory_pool_free(b->base);
	}
}

static hsa_agent_t agent_of(char kind)
{
	return kind == 'v' ? gpus[0] : kind == 'w' ? gpus[1] : cpu;
}

static void pattern(char *p, size_t n, unsigned seed)
{
	uint32_t x = seed * 2654435761u + 1;
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (char)(x >> 16);
	}
}

static hsa_signal_t sig(int64_t v)
{
	hsa_signal_t s;
	ck_assert_int_eq(hsa_signal_create(v, 0, NULL, &s), HSA_STATUS_SUCCESS);
	return s;
}

static void wait_zero(hsa_signal_t s)
{
	int64_t v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, WAIT_NS,
					      HSA_WAIT_STATE_BLOCKED);
	ck_assert_msg(v == 0, "completion signal %lld, expected 0", (long long)v);
}

/* One async copy of size bytes from src+so to dst+do, checked with the
 * guards around it. */
static void copy_one(char dk, char sk, size_t size, size_t so, size_t dof)
{
	struct buf s, d;
	size_t span = size + 2 * GUARD;
	buf_alloc(&s, sk, span, true);
	buf_alloc(&d, dk, span, true);
	char *ref = malloc(span), *want = malloc(span), *got = malloc(span);
	pattern(ref, span, (unsigned)size);
	pattern(want, span, (unsigned)size + 7);
	memcpy(s.base, ref, span);
	memcpy(d.base, want, span);
	hl_hdp_flush_all(); /* the CPU wrote VRAM: flushed before the GPU reads */
	memcpy(want + GUARD + dof, ref + GUARD + so, size);
	hsa_signal_t done = sig(1);
	hsa_status_t st = hsa_amd_memory_async_copy((char *)d.agent_ptr + GUARD + dof, agent_of(dk),
						    (char *)s.agent_ptr + GUARD + so, agent_of(sk),
						    size, 0, NULL, done);
	ck_assert_int_eq(st, HSA_STATUS_SUCCESS);
	wait_zero(done);
	memcpy(got, d.base, span);
	size_t bad = span;
	for (size_t i = 0; i < span && bad == span; i++)
		if (got[i] != want[i])
			bad = i;
	ck_assert_msg(bad == span, "%c<-%c size %zu so %zu do %zu: byte %zu (offset %zd in "
		      "the range) is %02x, expected %02x", dk, sk, size, so, dof, bad,
		      (ssize_t)bad - (ssize_t)(GUARD + dof), (unsigned char)got[bad],
		      (unsigned char)want[bad]);
	hsa_signal_destroy(done);
	free(ref);
	free(want);
	free(got);
	buf_free(&s);
	buf_free(&d);
}

static const size_t sizes[] = { 1, 2, 3, 15, 16, 17, 255, 4096, 4099, 65536 + 13,
				(1u << 20) + 5 };

static void copy_dir(char dk, char sk)
{
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		copy_one(dk, sk, sizes[i], 0, 0);
		copy_one(dk, sk, sizes[i], 1, 3);
		copy_one(dk, sk, sizes[i], 5, 4);
	}
}

START_TEST(copy_h2d) { copy_dir('v', 's'); }
END_TEST
START_TEST(copy_d2h) { copy_dir('s', 'v'); }
END_TEST
START_TEST(copy_d2d) { copy_dir('v', 'v'); }
END_TEST
START_TEST(copy_h2h) { copy_dir('s', 's'); }
END_TEST
START_TEST(copy_locked_malloc)
{
	copy_one('v', 'm', 4096 + 3, 1, 2);
	copy_one('m', 'v', 65536 + 7, 3, 0);
}
END_TEST
START_TEST(copy_64mib)
{
	/* COPY_SKIP_LARGE: ROCr's blit kernels (HSA_ENABLE_SDMA=0) take
	 * minutes for 64 MiB on kfdemu's interpreter under ASan */
	if (getenv("COPY_SKIP_LARGE"))
		return;
	copy_one('v', 's', 64u << 20, 0, 0);
	copy_one('s', 'v', 64u << 20, 1, 3);
}
END_TEST
START_TEST(copy_peer)
{
	if (n_gpus < 2)
		return;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i += 3) {
		copy_one('w', 'v', sizes[i], 1, 0);
		copy_one('v', 'w', sizes[i], 0, 5);
	}
}
END_TEST

/* The copy waits for every dependency (7: two barrier packets on the blit
 * queue with HSA_ENABLE_SDMA=0, fourteen polls on an SDMA queue else): a
 * small copy and a large one. */
static void dependencies(size_t n)
{
	struct buf s, d;
	buf_alloc(&s, 's', n, false);
	buf_alloc(&d, 'v', n, false);
	memset(s.base, 0x5a, n);
	memset(d.base, 0, n);
	hl_hdp_flush_all();
	hsa_signal_t deps[7], done = sig(1);
	for (int i = 0; i < 7; i++)
		deps[i] = sig(1);
	ck_assert_int_eq(hsa_amd_memory_async_copy(d.base, gpus[0], s.base, cpu, n, 7, deps, done),
			 HSA_STATUS_SUCCESS);
	for (int i = 0; i < 7; i++) {
		/* not done while any dependency is pending */
		ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1,
							   20 * 1000 * 1000, HSA_WAIT_STATE_BLOCKED),
				 1);
		ck_assert_int_eq((unsigned char)d.base[0], 0);
		hsa_signal_store_screlease(deps[i], 0);
	}
	wait_zero(done);
	ck_assert_int_eq((unsigned char)d.base[n - 1], 0x5a);
	/* a chain: copy B waits for copy A's completion signal */
	hsa_signal_t a = sig(1), b = sig(1);
	struct buf m;
	buf_alloc(&m, 'v', n, false);
	memset(s.base, 0x33, n);
	hl_hdp_flush_all();
	ck_assert_int_eq(hsa_amd_memory_async_copy(d.base, gpus[0], s.base, cpu, n, 0, NULL, a),
			 HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_amd_memory_async_copy(m.base, gpus[0], d.base, gpus[0], n, 1, &a, b),
			 HSA_STATUS_SUCCESS);
	wait_zero(b);
	ck_assert_int_eq((unsigned char)m.base[n / 2], 0x33);
	/* CPU to CPU with a dependency */
	hsa_signal_t c = sig(1), e = sig(1);
	memset(d.base, 0, n);
	ck_assert_int_eq(hsa_amd_memory_async_copy(s.base, cpu, m.base, cpu, n, 1, &c, e),
			 HSA_STATUS_SUCCESS);
	hsa_signal_store_screlease(c, 0);
	wait_zero(e);
	for (int i = 0; i < 7; i++)
		hsa_signal_destroy(deps[i]);
	hsa_signal_destroy(done);
	hsa_signal_destroy(a);
	hsa_signal_destroy(b);
	hsa_signal_destroy(c);
	hsa_signal_destroy(e);
	buf_free(&s);
	buf_free(&d);
	buf_free(&m);
}
START_TEST(copy_dependencies)
{
	dependencies(8192);
	dependencies(300000 + 3);
}
END_TEST

/* ROCr's statuses for bad arguments. */
START_TEST(copy_bad_arguments)
{
	struct buf s, d;
	buf_alloc(&s, 's', 4096, false);
	buf_alloc(&d, 'v', 4096, false);
	hsa_signal_t done = sig(1), dead = sig(1);
	hsa_signal_destroy(dead);
	hsa_agent_t bad_agent = { 0x1234 };
	hsa_signal_t null_sig = { 0 };
	ck_assert_int_eq(hsa_amd_memory_async_copy(NULL, gpus[0], s.base, cpu, 16, 0, NULL, done),
			 HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(hsa_amd_memory_async_copy(d.base, gpus[0], NULL, cpu, 16, 0, NULL, done),
			 HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(hsa_amd_memory_async_copy(d.base, gpus[0], s.base, cpu, 16, 1, NULL, done),
			 HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(hsa_amd_memory_async_copy(d.base, gpus[0], s.base, cpu, 16, 0, &done, done),
			 HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* ROCr dereferences a garbage agent handle (it crashes), so only
	 * hsalite is asked */
	if (!peer_rocr) {
		ck_assert_int_eq(hsa_amd_memory_async_copy(d.base, bad_agent, s.base, cpu, 16, 0,
							   NULL, done),
				 HSA_STATUS_ERROR_INVALID_AGENT);
		ck_assert_int_eq(hsa_amd_memory_async_copy(d.base, gpus[0], s.base, bad_agent, 16,
							   0, NULL, done),
				 HSA_STATUS_ERROR_INVALID_AGENT);
	}
	/* Signal::Convert: handle 0 is INVALID_ARGUMENT, a dead one
	 * INVALID_SIGNAL */
	ck_assert_int_eq(hsa_amd_memory_async_copy(d.base, gpus[0], s.base, cpu, 16, 0, NULL,
						   null_sig), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(hsa_amd_memory_async_copy(d.base, gpus[0], s.base, cpu, 16, 1, &null_sig,
						   done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	if (!peer_rocr) /* ROCr reads the dead signal's memory (use after free) */
		ck_assert_int_eq(hsa_amd_memory_async_copy(d.base, gpus[0], s.base, cpu, 16, 0,
							   NULL, dead),
				 HSA_STATUS_ERROR_INVALID_SIGNAL);
	/* size 0: success, and the signal is not touched */
	ck_assert_int_eq(hsa_amd_memory_async_copy(d.base, gpus[0], s.base, cpu, 0, 0, NULL, done),
			 HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_signal_load_scacquire(done), 1);
	/* fill */
	ck_assert_int_eq(hsa_amd_memory_fill(NULL, 0, 4), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(hsa_amd_memory_fill(d.base + 2, 0, 4), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(hsa_amd_memory_fill(d.base, 0, 0), HSA_STATUS_SUCCESS);
	static uint32_t unknown[16];
	ck_assert_int_eq(hsa_amd_memory_fill(unknown, 0, 16), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	/* profiling */
	hsa_amd_profiling_async_copy_time_t t;
	ck_assert_int_eq(hsa_amd_profiling_get_async_copy_time(done, NULL),
			 HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(hsa_amd_profiling_get_async_copy_time(null_sig, &t),
			 HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(hsa_amd_profiling_get_async_copy_time(done, &t), HSA_STATUS_ERROR);
	/* hsa_memory_copy */
	ck_assert_int_eq(hsa_memory_copy(NULL, s.base, 4), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(hsa_memory_copy(d.base, NULL, 4), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(hsa_memory_copy(d.base, s.base, 0), HSA_STATUS_SUCCESS);
	/* a bad host pointer against VRAM: locking it fails, HSA_STATUS_ERROR
	 * (ROCr: the same) */
	ck_assert_int_eq(hsa_memory_copy(d.base, (void *)0x1000, 4096), HSA_STATUS_ERROR);
	ck_assert_int_eq(hsa_memory_copy((void *)0x1000, d.base, 4096), HSA_STATUS_ERROR);
	ck_assert_int_eq(hsa_amd_memory_fill((void *)0x1000, 1, 16),
			 HSA_STATUS_ERROR_INVALID_ALLOCATION);
	hsa_signal_destroy(done);
	buf_free(&s);
	buf_free(&d);
}
END_TEST

/* One rect copy checked against a CPU reference over the whole
 * destination: src (pitch sp, slice ss, depth sd slices) in system memory,
 * dst (dp, ds, dd) in VRAM. */
static void rect_one(size_t sp, size_t ss, size_t sd, size_t dp, size_t ds, size_t dd,
		     hsa_dim3_t so, hsa_dim3_t dof, hsa_dim3_t range)
{
	struct buf s, d;
	buf_alloc(&s, 's', ss * sd, false);
	buf_alloc(&d, 'v', ds * dd, false);
	pattern(s.base, ss * sd, (unsigned)(sp + range.x));
	memset(d.base, 0xee, ds * dd);
	hl_hdp_flush_all();
	char *want = malloc(ds * dd);
	memset(want, 0xee, ds * dd);
	for (size_t z = 0; z < range.z; z++)
		for (size_t y = 0; y < range.y; y++)
			memcpy(want + (dof.z + z) * ds + (dof.y + y) * dp + dof.x,
			       s.base + (so.z + z) * ss + (so.y + y) * sp + so.x, range.x);
	hsa_pitched_ptr_t src = { s.base, sp, range.z > 1 ? ss : 0 };
	hsa_pitched_ptr_t dst = { d.base, dp, range.z > 1 ? ds : 0 };
	hsa_signal_t done = sig(1);
	hsa_status_t st = hsa_amd_memory_async_copy_rect(&dst, &dof, &src, &so, &range, gpus[0],
							 hsaHostToDevice, 0, NULL, done);
	if (!(peer_rocr && st == HSA_STATUS_ERROR_OUT_OF_RESOURCES)) {
		ck_assert_int_eq(st, HSA_STATUS_SUCCESS);
		wait_zero(done);
		size_t bad = ds * dd;
		for (size_t i = 0; i < ds * dd && bad == ds * dd; i++)
			if (d.base[i] != want[i])
				bad = i;
		ck_assert_msg(bad == ds * dd, "rect %ux%ux%u pitch %zu->%zu: byte %zu differs",
			      range.x, range.y, range.z, sp, dp, bad);
	}
	free(want);
	hsa_signal_destroy(done);
	buf_free(&s);
	buf_free(&d);
}

/* Tiles: a width over 2^14 elements (odd: one-byte elements), unaligned
 * offsets, more than 2^14 rows, a flat box without slices. */
START_TEST(copy_rect_tiles)
{
	rect_one(70016, 70016 * 2, 1, 70020, 70020 * 2, 1, (hsa_dim3_t){ 3, 0, 0 },
		 (hsa_dim3_t){ 1, 1, 0 }, (hsa_dim3_t){ 70001, 1, 1 });
	rect_one(16, 16 * 16500, 1, 20, 20 * 16500, 1, (hsa_dim3_t){ 2, 1, 0 },
		 (hsa_dim3_t){ 5, 0, 0 }, (hsa_dim3_t){ 9, 16390, 1 });
	rect_one(256, 256 * 4, 3, 128, 128 * 5, 4, (hsa_dim3_t){ 16, 1, 1 },
		 (hsa_dim3_t){ 32, 2, 1 }, (hsa_dim3_t){ 96, 3, 2 });
}
END_TEST

START_TEST(copy_rect)
{
	/* a 3-D box of 37 x 5 x 3 bytes at offset (3, 2, 1) of a 64-byte
	 * pitch, 8-row source to offset (5, 1, 0) of a 48-byte pitch, 6-row
	 * destination in VRAM */
	size_t sp = 64, ss = 64 * 8, dp = 48, ds = 48 * 6;
	struct buf s, d;
	buf_alloc(&s, 's', ss * 4, false);
	buf_alloc(&d, 'v', ds * 4, false);
	pattern(s.base, ss * 4, 1);
	memset(d.base, 0xee, ds * 4);
	hl_hdp_flush_all();
	hsa_pitched_ptr_t src = { s.base, sp, ss }, dst = { d.base, dp, ds };
	hsa_dim3_t so = { 3, 2, 1 }, dof = { 5, 1, 0 }, range = { 37, 5, 3 };
	hsa_signal_t done = sig(1);
	hsa_status_t st = hsa_amd_memory_async_copy_rect(&dst, &dof, &src, &so, &range, gpus[0],
							 hsaHostToDevice, 0, NULL, done);
	if (peer_rocr && st == HSA_STATUS_ERROR_OUT_OF_RESOURCES) {
		/* ROCr 5.2.3 without an SDMA engine (docs/differences.md) */
		hsa_signal_destroy(done);
		buf_free(&s);
		buf_free(&d);
		return;
	}
	ck_assert_int_eq(st, HSA_STATUS_SUCCESS);
	wait_zero(done);
	for (size_t z = 0; z < 4; z++)
		for (size_t y = 0; y < 6; y++)
			for (size_t x = 0; x < dp; x++) {
				unsigned char want = 0xee;
				bool in = z < 3 && y >= 1 && y < 6 && x >= 5 && x < 42;
				if (in)
					want = (unsigned char)s.base[(z + 1) * ss + (y - 1 + 2) * sp +
								 (x - 5 + 3)];
				unsigned char got = (unsigned char)d.base[z * ds + y * dp + x];
				ck_assert_msg(got == want, "(%zu,%zu,%zu): %02x, expected %02x",
					      x, y, z, got, want);
			}
	/* ROCr's SDMA checks: unaligned pitch, box past the pitch, no slice */
	hsa_pitched_ptr_t bad = { s.base, 62, ss };
	ck_assert_int_eq(hsa_amd_memory_async_copy_rect(&dst, &dof, &bad, &so, &range, gpus[0],
							hsaHostToDevice, 0, NULL, done),
			 HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_dim3_t wide = { 60, 1, 1 };
	ck_assert_int_eq(hsa_amd_memory_async_copy_rect(&dst, &dof, &src, &so, &wide, gpus[0],
							hsaHostToDevice, 0, NULL, done),
			 HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(hsa_amd_memory_async_copy_rect(&dst, &dof, &src, &so, &range, gpus[0],
							hsaHostToHost, 0, NULL, done),
			 HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(hsa_amd_memory_async_copy_rect(&dst, &dof, &src, &so, &range, cpu,
							hsaHostToDevice, 0, NULL, done),
			 HSA_STATUS_ERROR_INVALID_AGENT);
	hsa_signal_destroy(done);
	buf_free(&s);
	buf_free(&d);
}
END_TEST

START_TEST(fill_pools)
{
	static const size_t counts[] = { 1, 3, 4, 5, 63, 1000, 65536 + 3 };
	for (int k = 0; k < 2; k++) {
		struct buf b;
		size_t n = 65536 + 3 + 16;
		buf_alloc(&b, k ? 'v' : 's', n * 4, false);
		for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
			uint32_t *p = (uint32_t *)b.base;
			memset(p, 0xab, n * 4);
			hl_hdp_flush_all();
			uint32_t v = 0x01020304u + (uint32_t)c;
			ck_assert_int_eq(hsa_amd_memory_fill(p + 1, v, counts[c]), HSA_STATUS_SUCCESS);
			ck_assert_uint_eq(p[0], 0xababababu);
			for (size_t i = 0; i < counts[c]; i++)
				ck_assert_msg(p[1 + i] == v, "pool %d count %zu: [%zu] = %08x", k,
					      counts[c], i, p[1 + i]);
			ck_assert_uint_eq(p[1 + counts[c]], 0xababababu);
		}
		buf_free(&b);
	}
}
END_TEST

/* hsa_memory_copy between every pair of kinds, unaligned. */
START_TEST(memory_copy_pairs)
{
	const char kinds[] = "svmw";
	for (const char *dk = kinds; *dk; dk++)
		for (const char *sk = kinds; *sk; sk++) {
			if ((*dk == 'w' || *sk == 'w') && n_gpus < 2)
				continue;
			size_t n = 70001, span = n + 2 * GUARD;
			struct buf s, d;
			buf_alloc(&s, *sk, span, false);
			buf_alloc(&d, *dk, span, false);
			char *ref = malloc(span), *want = malloc(span);
			pattern(ref, span, 3);
			pattern(want, span, 4);
			memcpy(s.base, ref, span);
			memcpy(d.base, want, span);
			hl_hdp_flush_all();
			memcpy(want + GUARD + 1, ref + GUARD + 2, n);
			ck_assert_int_eq(hsa_memory_copy(d.base + GUARD + 1, s.base + GUARD + 2, n),
					 HSA_STATUS_SUCCESS);
			ck_assert_msg(memcmp(d.base, want, span) == 0, "hsa_memory_copy %c <- %c",
				      *dk, *sk);
			free(ref);
			free(want);
			buf_free(&s);
			buf_free(&d);
		}
}
END_TEST

/* reps profiled copies in a row: more than an SDMA queue's 63 timestamp
 * slots wraps their ring */
static void profiling(size_t n, unsigned reps)
{
	struct buf s, d;
	buf_alloc(&s, 's', n, false);
	buf_alloc(&d, 'v', n, false);
	ck_assert_int_eq(hsa_amd_profiling_async_copy_enable(true), HSA_STATUS_SUCCESS);
	hsa_signal_t done = sig(1);
	for (unsigned r = 0; r < reps; r++) {
		hsa_signal_store_relaxed(done, 1);
		uint64_t before = 0, after = 0;
		hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &before);
		ck_assert_int_eq(hsa_amd_memory_async_copy(d.base, gpus[0], s.base, cpu, n, 0,
							   NULL, done),
				 HSA_STATUS_SUCCESS);
		wait_zero(done);
		hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &after);
		hsa_amd_profiling_async_copy_time_t t = { 0, 0 };
		ck_assert_int_eq(hsa_amd_profiling_get_async_copy_time(done, &t),
				 HSA_STATUS_SUCCESS);
		ck_assert_msg(t.start > 0 && t.start <= t.end, "start %llu end %llu",
			      (unsigned long long)t.start, (unsigned long long)t.end);
		/* in the system domain, inside the call and the wait (1 ms slack for
		 * the tick conversion) */
		ck_assert_msg(t.start + 1000000 >= before && t.end <= after + 1000000,
			      "copy [%llu, %llu] outside [%llu, %llu]", (unsigned long long)t.start,
			      (unsigned long long)t.end, (unsigned long long)before,
			      (unsigned long long)after);
	}
	ck_assert_int_eq(hsa_amd_profiling_async_copy_enable(false), HSA_STATUS_SUCCESS);
	hsa_signal_destroy(done);
	buf_free(&s);
	buf_free(&d);
}
START_TEST(copy_profiling)
{
	profiling(4096, 70);
	profiling(1 << 20, 1);
}
END_TEST

/* Threads issuing copies at once on one GPU's engines (the blit queue or
 * the SDMA queues take one submitter at a time): every copy lands. */
#define T_THREADS 4
#define T_COPIES 48
struct t_arg {
	unsigned id;
	struct buf h, d, back;
	bool ok;
};

static void *t_run(void *p)
{
	struct t_arg *a = p;
	size_t n = a->h.size;
	hsa_signal_t s = sig(1);
	a->ok = true;
	for (unsigned i = 0; i < T_COPIES && a->ok; i++) {
		pattern(a->h.base, n, a->id * 1000 + i);
		hl_hdp_flush_all();
		hsa_signal_store_relaxed(s, 2);
		if (hsa_amd_memory_async_copy(a->d.base, gpus[0], a->h.base, cpu, n, 0, NULL, s) ||
		    hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 2, WAIT_NS,
					      HSA_WAIT_STATE_BLOCKED) != 1 ||
		    hsa_amd_memory_async_copy(a->back.base, cpu, a->d.base, gpus[0], n, 0, NULL, s) ||
		    hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, WAIT_NS,
					      HSA_WAIT_STATE_BLOCKED) != 0 ||
		    memcmp(a->back.base, a->h.base, n))
			a->ok = false;
	}
	hsa_signal_destroy(s);
	return NULL;
}

START_TEST(copy_threads)
{
	struct t_arg args[T_THREADS];
	pthread_t t[T_THREADS];
	for (unsigned i = 0; i < T_THREADS; i++) {
		args[i].id = i;
		/* small and large copies: the two SDMA queues (the blit
		 * queue with HSA_ENABLE_SDMA=0, copy_threads_mi210) */
		size_t n = i % 2 ? 100000 + i : 4096 * (i + 1) + i;
		buf_alloc(&args[i].h, 's', n, false);
		buf_alloc(&args[i].d, 'v', n, false);
		buf_alloc(&args[i].back, 's', n, false);
		ck_assert_int_eq(pthread_create(&t[i], NULL, t_run, &args[i]), 0);
	}
	for (unsigned i = 0; i < T_THREADS; i++) {
		pthread_join(t[i], NULL);
		ck_assert_msg(args[i].ok, "thread %u: a copy failed or came back wrong", i);
		buf_free(&args[i].h);
		buf_free(&args[i].d);
		buf_free(&args[i].back);
	}
}
END_TEST

static void add_case(Suite *s, const char *name, const TTest *fn)
{
	TCase *tc = tcase_create(name);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, fn);
	suite_add_tcase(s, tc);
}

/* One case per test, so CK_RUN_CASE=<test> runs one of them. */
static Suite *copy_suite(void)
{
	Suite *s = suite_create("copy");
	add_case(s, "copy_bad_arguments", copy_bad_arguments);
	add_case(s, "copy_h2d", copy_h2d);
	add_case(s, "copy_d2h", copy_d2h);
	add_case(s, "copy_d2d", copy_d2d);
	add_case(s, "copy_h2h", copy_h2h);
	add_case(s, "copy_locked_malloc", copy_locked_malloc);
	add_case(s, "copy_peer", copy_peer);
	add_case(s, "copy_dependencies", copy_dependencies);
	add_case(s, "copy_rect", copy_rect);
	add_case(s, "copy_rect_tiles", copy_rect_tiles);
	add_case(s, "fill_pools", fill_pools);
	add_case(s, "memory_copy_pairs", memory_copy_pairs);
	add_case(s, "copy_profiling", copy_profiling);
	add_case(s, "copy_threads", copy_threads);
	add_case(s, "copy_64mib", copy_64mib);
	return s;
}

HL_CHECK_MAIN(copy_suite)
