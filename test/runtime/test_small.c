/*
 * The shared pages of small runtime objects (src/memory/small.c), as a unit
 * over a fake thunk: this file defines kfd_mem_alloc / kfd_mem_map /
 * kfd_mem_free, which record what they were asked and hand out page-aligned
 * host pages.  What must hold: every page is one BO of exactly one page,
 * fine-grained host memory mapped to every GPU of the runtime; objects are
 * powers of two aligned to their size, zeroed, packed first-fit into the
 * oldest page before a new one is made; a freed object is handed out again
 * and the page stays; bad sizes, a double free, a wrong size or a foreign
 * pointer are refused; without a GPU nothing is allocated; the teardown
 * frees every page once and a fork child's forget frees none; a failing
 * ALLOC or MAP leaves nothing behind.  Label unit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hl_check.h"
#include "memory/memory.h"
#include "memory/memory_priv.h"

#define PAGE 4096u
#define MAX_FAKE 16

/* ---- the fake thunk ---- */

static struct kfd_mem fake_mems[MAX_FAKE];
static void *fake_pages[MAX_FAKE];
static int n_alloc, n_map, n_free, fail_alloc, fail_map;
static struct kfd_mem_alloc_args last_args;
static uint32_t last_map_n, last_map_ids[8];

int kfd_mem_alloc(struct kfd_process *proc, const struct kfd_mem_alloc_args *args,
		  struct kfd_mem **out)
{
	(void)proc;
	if (fail_alloc)
		return -ENOMEM;
	ck_assert_int_lt(n_alloc, MAX_FAKE);
	last_args = *args;
	void *p = aligned_alloc(PAGE, args->size);
	ck_assert_ptr_nonnull(p);
	memset(p, 0xA5, args->size); /* the allocator must zero what it hands out */
	fake_pages[n_alloc] = p;
	fake_mems[n_alloc] = (struct kfd_mem){ .addr = p, .size = args->size };
	*out = &fake_mems[n_alloc++];
	return 0;
}

int kfd_mem_map(struct kfd_process *proc, struct kfd_mem *mem, const uint32_t *gpu_ids,
		uint32_t n)
{
	(void)proc;
	(void)mem;
	if (fail_map)
		return -EIO;
	n_map++;
	last_map_n = n;
	for (uint32_t i = 0; i < n && i < 8; i++)
		last_map_ids[i] = gpu_ids[i];
	return 0;
}

int kfd_mem_free(struct kfd_process *proc, struct kfd_mem *mem)
{
	(void)proc;
	ck_assert_ptr_nonnull(mem->addr);
	n_free++;
	free(mem->addr);
	mem->addr = NULL;
	return 0;
}

/* ---- a runtime with two GPUs ---- */

static struct hl_runtime rt;
static uint32_t gpu_ids[2] = { 0x1111, 0x2222 };

static void setup(void)
{
	memset(&rt, 0, sizeof(rt));
	rt.gpu_ids = gpu_ids;
	rt.n_gpus = 2;
	n_alloc = n_map = n_free = fail_alloc = fail_map = 0;
	ck_assert_int_eq(hl_small_attach(&rt), 0);
}

static void teardown(void)
{
	if (rt.small)
		hl_small_release_all(&rt);
	/* the forget case leaves its pages to the "thunk": free them here */
	for (int i = 0; i < n_alloc; i++)
		if (fake_mems[i].addr)
			free(fake_mems[i].addr);
}

static void *obj(uint32_t size)
{
	void *p = NULL;
	ck_assert_int_eq(hl_small_alloc(&rt, size, &p), 0);
	ck_assert_ptr_nonnull(p);
	return p;
}

static uintptr_t page_of(const void *p)
{
	return (uintptr_t)p & ~(uintptr_t)(PAGE - 1);
}

START_TEST(a_page_is_one_mapped_page_of_fine_grained_host_memory)
{
	void *p = obj(64);
	ck_assert_int_eq(n_alloc, 1);
	ck_assert_int_eq(last_args.kind, KFD_MEM_USERPTR);
	ck_assert_uint_eq(last_args.size, PAGE);
	ck_assert_uint_eq(last_args.align, PAGE);
	ck_assert_uint_eq(last_args.extra_flags & KFD_ALLOC_COHERENT, KFD_ALLOC_COHERENT);
	ck_assert(last_args.host_access);
	ck_assert_int_eq(n_map, 1);
	ck_assert_uint_eq(last_map_n, 2);
	ck_assert_uint_eq(last_map_ids[0], gpu_ids[0]);
	ck_assert_uint_eq(last_map_ids[1], gpu_ids[1]);
	ck_assert_ptr_eq((void *)page_of(p), fake_mems[0].addr);
}
END_TEST

START_TEST(objects_are_aligned_zeroed_and_packed)
{
	static const uint32_t sizes[] = { 512, 1024, 64, 128, 256, 512, 1024 };
	void *p[sizeof(sizes) / sizeof(sizes[0])];
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		p[i] = obj(sizes[i]);
		ck_assert_msg(((uintptr_t)p[i] & (sizes[i] - 1)) == 0, "%u bytes at %p",
			      sizes[i], p[i]);
		for (uint32_t b = 0; b < sizes[i]; b++)
			ck_assert_msg(((unsigned char *)p[i])[b] == 0, "byte %u of object %zu", b, i);
		memset(p[i], 0xFF, sizes[i]); /* overlaps would show below */
	}
	/* 512+1024+64+128+256+512+1024 = 3520 bytes: one page, first fit
	 * at each size's alignment */
	ck_assert_int_eq(n_alloc, 1);
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		ck_assert(page_of(p[i]) == page_of(p[0]));
	char *base = (char *)page_of(p[0]);
	ck_assert_ptr_eq(p[0], base);           /* 512 at 0 */
	ck_assert_ptr_eq(p[1], base + 1024);    /* 1024 at the next 1 KiB */
	ck_assert_ptr_eq(p[2], base + 512);     /* 64 in the hole */
	ck_assert_ptr_eq(p[3], base + 640);     /* 128 aligned after it */
	ck_assert_ptr_eq(p[4], base + 768);     /* 256 */
	ck_assert_ptr_eq(p[5], base + 2048);    /* 512 */
	ck_assert_ptr_eq(p[6], base + 3072);    /* 1024 */
	/* 576 bytes are left, 576..639 and 2560..3071 */
	ck_assert_ptr_eq(obj(64), base + 576);
	ck_assert_ptr_eq(obj(512), base + 2560);
	ck_assert_int_eq(n_alloc, 1);
	/* the page is full: the next object opens another */
	void *r = obj(64);
	ck_assert_int_eq(n_alloc, 2);
	ck_assert(page_of(r) != page_of(base));
}
END_TEST

START_TEST(a_whole_page_object_takes_a_page_of_its_own)
{
	void *a = obj(64);
	void *b = obj(PAGE);
	ck_assert_int_eq(n_alloc, 2);
	ck_assert_ptr_eq(b, (void *)page_of(b));
	ck_assert(page_of(a) != page_of(b));
	/* the first page still serves small objects */
	void *c = obj(64);
	ck_assert(page_of(c) == page_of(a));
	ck_assert_int_eq(n_alloc, 2);
}
END_TEST

START_TEST(a_freed_object_is_handed_out_again)
{
	void *a = obj(1024);
	void *b = obj(1024);
	ck_assert_int_eq(hl_small_free(&rt, a, 1024), 0);
	memset(a, 0x77, 1024); /* a stale writer; the next owner sees zeros */
	void *c = obj(1024);
	ck_assert_ptr_eq(c, a);
	ck_assert_int_eq(((unsigned char *)c)[100], 0);
	ck_assert_int_eq(n_alloc, 1);
	ck_assert_int_eq(n_free, 0); /* the page stays */
	(void)b;
}
END_TEST

START_TEST(bad_frees_are_refused)
{
	void *a = obj(512);
	void *b = obj(64);
	ck_assert_int_eq(hl_small_free(&rt, a, 1024), -EINVAL);     /* wrong size */
	ck_assert_int_eq(hl_small_free(&rt, (char *)a + 64, 512), -EINVAL); /* misaligned */
	ck_assert_int_eq(hl_small_free(&rt, a, 96), -EINVAL);       /* not a power of two */
	ck_assert_int_eq(hl_small_free(&rt, NULL, 512), -EINVAL);
	ck_assert_int_eq(hl_small_free(NULL, a, 512), -EINVAL);
	static _Alignas(4096) char foreign[4096];
	ck_assert_int_eq(hl_small_free(&rt, foreign, 64), -EINVAL);
	ck_assert_int_eq(hl_small_free(&rt, b, 64), 0);
	ck_assert_int_eq(hl_small_free(&rt, b, 64), -EINVAL);       /* double free */
	/* a is still in use: a new 512 does not land on it */
	void *c = obj(512);
	ck_assert_ptr_ne(c, a);
}
END_TEST

START_TEST(bad_sizes_and_arguments_are_refused)
{
	void *p = (void *)1;
	static const uint32_t bad[] = { 0, 1, 32, 63, 96, 1000, 2 * PAGE };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(hl_small_alloc(&rt, bad[i], &p), -EINVAL);
		ck_assert_ptr_eq(p, (void *)1);
	}
	ck_assert_int_eq(hl_small_alloc(&rt, 64, NULL), -EINVAL);
	ck_assert_int_eq(hl_small_alloc(NULL, 64, &p), -EINVAL);
	ck_assert_int_eq(n_alloc, 0);
}
END_TEST

START_TEST(no_gpu_no_page)
{
	rt.n_gpus = 0;
	void *p = NULL;
	ck_assert_int_eq(hl_small_alloc(&rt, 64, &p), -ENODEV);
	ck_assert_int_eq(n_alloc, 0);
}
END_TEST

START_TEST(failed_alloc_or_map_leaves_nothing)
{
	void *p = NULL;
	fail_alloc = 1;
	ck_assert_int_eq(hl_small_alloc(&rt, 64, &p), -ENOMEM);
	fail_alloc = 0;
	fail_map = 1;
	ck_assert_int_eq(hl_small_alloc(&rt, 64, &p), -EIO);
	ck_assert_int_eq(n_alloc, 1);
	ck_assert_int_eq(n_free, 1); /* the unmapped BO went back */
	fail_map = 0;
	p = obj(64);
	ck_assert_int_eq(n_alloc, 2);
	hl_small_release_all(&rt);
	ck_assert_int_eq(n_free, 2); /* only the page that worked, once */
}
END_TEST

START_TEST(teardown_frees_every_page_once)
{
	for (int i = 0; i < 3; i++)
		obj(PAGE);
	obj(64);
	ck_assert_int_eq(n_alloc, 4);
	hl_small_release_all(&rt);
	ck_assert_ptr_null(rt.small);
	ck_assert_int_eq(n_free, 4);
}
END_TEST

START_TEST(forget_frees_no_page)
{
	obj(64);
	obj(PAGE);
	hl_small_forget_all(&rt);
	ck_assert_ptr_null(rt.small);
	ck_assert_int_eq(n_free, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("memory_small");
	TCase *tc = tcase_create("small");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, a_page_is_one_mapped_page_of_fine_grained_host_memory);
	tcase_add_test(tc, objects_are_aligned_zeroed_and_packed);
	tcase_add_test(tc, a_whole_page_object_takes_a_page_of_its_own);
	tcase_add_test(tc, a_freed_object_is_handed_out_again);
	tcase_add_test(tc, bad_frees_are_refused);
	tcase_add_test(tc, bad_sizes_and_arguments_are_refused);
	tcase_add_test(tc, no_gpu_no_page);
	tcase_add_test(tc, failed_alloc_or_map_leaves_nothing);
	tcase_add_test(tc, teardown_frees_every_page_once);
	tcase_add_test(tc, forget_frees_no_page);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
