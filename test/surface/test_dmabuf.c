/*
 * dma-buf export (ROCr 1.18): hsa_amd_portable_export_dmabuf, _v2 and
 * hsa_amd_portable_close_dmabuf.  A VRAM allocation is exported, the fd
 * imported back through graphics interop (hsa_amd_interop_map_buffer) and
 * the bytes read through the import; then ROCr's statuses for mistakes.
 * Label surface.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "surface.h"

SURF_FIXTURE(ag)

START_TEST(dmabuf_before_init)
{
	static char buf[64];
	int fd = -1;
	uint64_t off = 0;
	ck_status(hsa_amd_portable_export_dmabuf(buf, 64, &fd, &off),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_portable_export_dmabuf_v2(buf, 64, &fd, &off, 0),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	/* close needs no runtime: a descriptor that is not open */
	ck_status(hsa_amd_portable_close_dmabuf(-1), HSA_STATUS_ERROR_RESOURCE_FREE);
}
END_TEST

static void copy(void *dst, hsa_agent_t da, const void *src, hsa_agent_t sa, size_t n)
{
	hsa_signal_t s;
	ck_status(hsa_signal_create(1, 0, NULL, &s), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_async_copy(dst, da, src, sa, n, 0, NULL, s), HSA_STATUS_SUCCESS);
	surf_wait_zero(s);
	hsa_signal_destroy(s);
}

/* Export, import through interop, read the bytes back through the import. */
START_TEST(dmabuf_export_import_roundtrip)
{
	enum { N = 64 * 1024 };
	hsa_agent_t gpu = ag.gpu[0];
	uint8_t *h = surf_host_alloc(&ag, N);
	uint8_t *d = surf_vram_alloc(&ag, gpu, N);
	for (size_t i = 0; i < N; i++)
		h[i] = (uint8_t)(i * 13 + 1);
	copy(d, gpu, h, ag.cpu, N);

	int fd = -1;
	uint64_t off = 99;
	ck_status(hsa_amd_portable_export_dmabuf(d, N, &fd, &off), HSA_STATUS_SUCCESS);
	ck_assert_int_ge(fd, 0);
	ck_assert_uint_eq(off, 0);
	ck_assert_int_ne(fcntl(fd, F_GETFD), -1);

	/* a range inside: the same buffer, its offset */
	int fd2 = -1;
	ck_status(hsa_amd_portable_export_dmabuf_v2(d + 8192, 4096, &fd2, &off,
						    HSA_AMD_DMABUF_MAPPING_TYPE_NONE),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_ne(fd2, fd);
	ck_assert_uint_eq(off, 8192);

	size_t size = 0;
	void *imp = NULL;
	ck_status(hsa_amd_interop_map_buffer(1, &gpu, fd, 0, &size, &imp, NULL, NULL),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_ge(size, N);
	memset(h, 0, N);
	copy(h, ag.cpu, imp, gpu, N);
	for (size_t i = 0; i < N; i++)
		if (h[i] != (uint8_t)(i * 13 + 1))
			ck_abort_msg("byte %zu through the import: %u", i, h[i]);
	/* and a write through the import shows in the original */
	memset(h, 0x5A, 4096);
	copy(imp, gpu, h, ag.cpu, 4096);
	memset(h, 0, 4096);
	copy(h, ag.cpu, d, gpu, 4096);
	ck_assert_uint_eq(h[0], 0x5A);
	ck_assert_uint_eq(h[4095], 0x5A);
	ck_status(hsa_amd_interop_unmap_buffer(imp), HSA_STATUS_SUCCESS);

	/* the fds are the caller's: closing them leaves the allocation */
	ck_status(hsa_amd_portable_close_dmabuf(fd), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_portable_close_dmabuf(fd2), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_portable_close_dmabuf(fd), HSA_STATUS_ERROR_RESOURCE_FREE);
	memset(h, 0, 4096);
	copy(h, ag.cpu, d + 4096, gpu, 4096);
	ck_assert_uint_eq(h[0], (uint8_t)(4096 * 13 + 1));
	ck_status(hsa_amd_memory_pool_free(d), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(h), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(dmabuf_export_arguments)
{
	enum { N = 16 * 1024 };
	hsa_agent_t gpu = ag.gpu[0];
	uint8_t *d = surf_vram_alloc(&ag, gpu, N);
	int fd = -7;
	uint64_t off = 7;
	ck_status(hsa_amd_portable_export_dmabuf(NULL, N, &fd, &off),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_portable_export_dmabuf(d, N, NULL, &off),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_portable_export_dmabuf(d, N, &fd, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_portable_export_dmabuf(d, 0, &fd, &off),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_portable_export_dmabuf_v2(d, 0, &fd, &off, 0),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* past the end, memory no pool gave out, and system memory */
	ck_status(hsa_amd_portable_export_dmabuf(d + 4096, N, &fd, &off),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	static char stack_like[4096];
	ck_status(hsa_amd_portable_export_dmabuf(stack_like, 64, &fd, &off),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	void *sys = NULL;
	ck_status(hsa_amd_memory_pool_allocate(surf_pool(ag.cpu, true), 4096, 0, &sys),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_portable_export_dmabuf(sys, 4096, &fd, &off),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	/* nothing written on failure */
	ck_assert_int_eq(fd, -7);
	ck_assert_uint_eq(off, 7);
	/* a freed allocation is gone */
	ck_status(hsa_amd_memory_pool_free(d), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_portable_export_dmabuf(d, 64, &fd, &off),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	hsa_amd_memory_pool_free(sys);
}
END_TEST

/* The PCIe mapping type needs VRAM the host can reach (large BAR), which
 * the CPU's access to the GPU's pool tells. */
START_TEST(dmabuf_export_pcie_mapping)
{
	hsa_agent_t gpu = ag.gpu[0];
	hsa_amd_memory_pool_t pool = surf_pool(gpu, false);
	hsa_amd_memory_pool_access_t acc = HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
	ck_status(hsa_amd_agent_memory_pool_get_info(ag.cpu, pool,
						     HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &acc),
		  HSA_STATUS_SUCCESS);
	uint8_t *d = surf_vram_alloc(&ag, gpu, 4096);
	int fd = -1;
	uint64_t off;
	hsa_status_t st = hsa_amd_portable_export_dmabuf_v2(d, 4096, &fd, &off,
							    HSA_AMD_DMABUF_MAPPING_TYPE_PCIE);
	if (acc == HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED) {
		ck_status(st, HSA_STATUS_ERROR_NOT_SUPPORTED);
	} else {
		ck_status(st, HSA_STATUS_SUCCESS);
		ck_status(hsa_amd_portable_close_dmabuf(fd), HSA_STATUS_SUCCESS);
	}
	hsa_amd_memory_pool_free(d);
}
END_TEST

static Suite *dmabuf_suite(void)
{
	Suite *s = suite_create("surface-dmabuf");
	TCase *pre = tcase_create("uninit");
	tcase_add_test(pre, dmabuf_before_init);
	suite_add_tcase(s, pre);
	TCase *tc = tcase_create("dmabuf");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, dmabuf_export_import_roundtrip);
	tcase_add_test(tc, dmabuf_export_arguments);
	tcase_add_test(tc, dmabuf_export_pcie_mapping);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(dmabuf_suite)
