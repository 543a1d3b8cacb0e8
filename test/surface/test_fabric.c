/*
 * Fabric handles (interface 1.25: hsa_amd_vmem_export_fabric_handle /
 * _import_fabric_handle) with the statuses of AMD's current ROCr
 * (rocm-systems runtime.cpp VMemoryExport/ImportFabricHandle and
 * KfdDriver's FABRIC_HANDLE path) on a KFD without a memory fabric:
 *  - export: an unknown handle INVALID_ALLOCATION, an imported one
 *    INCOMPATIBLE_ARGUMENTS, a NULL out-pointer INVALID_ARGUMENT (in that
 *    order), then HSA_STATUS_ERROR with the output untouched (libhsakmt's
 *    export fails: the amdkfd UAPI has no fabric);
 *  - import: records the name and succeeds (ROCr imports lazily); the
 *    import proper fails where hsalite imports a handle's memory, at map,
 *    with HSA_STATUS_ERROR; the handle is released as any other.
 * hsalite only: no ROCr release the repository runs (5.2.3, 1.18) exports
 * these calls.  Label surface_newest; runs under kfdemu.
 */
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "surface.h"

/* AMD's layout: 16 bytes passed by value. */
_Static_assert(sizeof(hsa_fabric_handle_t) == 16, "fabric handle size");
_Static_assert(offsetof(hsa_fabric_handle_t, handle) == 0, "fabric handle bytes");

#define HSIZE (2u * 1024u * 1024u)

static struct surf_agents ag;
static hsa_amd_memory_pool_t vram0;

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	surf_agents(&ag);
	vram0 = surf_pool(ag.gpu[0], false);
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static hsa_fabric_handle_t name_of(uint8_t seed)
{
	hsa_fabric_handle_t f;
	for (unsigned i = 0; i < sizeof(f.handle); i++)
		f.handle[i] = (uint8_t)(seed + i);
	return f;
}

static hsa_amd_vmem_alloc_handle_t handle_new(void)
{
	hsa_amd_vmem_alloc_handle_t h = { 0 };
	ck_status(hsa_amd_vmem_handle_create(vram0, HSIZE, MEMORY_TYPE_NONE, 0, &h),
		  HSA_STATUS_SUCCESS);
	return h;
}

START_TEST(fabric_before_init)
{
	hsa_fabric_handle_t f = name_of(1);
	hsa_amd_vmem_alloc_handle_t h = { 1 };
	ck_status(hsa_amd_vmem_export_fabric_handle(&f, h, 0), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_vmem_import_fabric_handle(f, &h), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_assert_uint_eq(h.handle, 1);
}
END_TEST

START_TEST(fabric_export_unknown_handle)
{
	hsa_fabric_handle_t f = name_of(7), before = f;
	hsa_amd_vmem_alloc_handle_t bad[] = { { 0 }, { 12345 }, { (uint64_t)(uintptr_t)&f } };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_status(hsa_amd_vmem_export_fabric_handle(&f, bad[i], 0),
			  HSA_STATUS_ERROR_INVALID_ALLOCATION);
		/* ROCr looks the handle up before the driver's NULL check */
		ck_status(hsa_amd_vmem_export_fabric_handle(NULL, bad[i], 0),
			  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	}
	/* a released handle is unknown */
	hsa_amd_vmem_alloc_handle_t h = handle_new();
	ck_status(hsa_amd_vmem_handle_release(h), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_export_fabric_handle(&f, h, 0), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_assert(!memcmp(&f, &before, sizeof(f)));
}
END_TEST

START_TEST(fabric_export_null_out)
{
	hsa_amd_vmem_alloc_handle_t h = handle_new();
	ck_status(hsa_amd_vmem_export_fabric_handle(NULL, h, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_handle_release(h), HSA_STATUS_SUCCESS);
}
END_TEST

/* kfdemu's GPUs, like the amdkfd UAPI, have no memory fabric: ROCr's
 * HSA_STATUS_ERROR, nothing written, and the handle works on. */
START_TEST(fabric_export_without_fabric)
{
	hsa_amd_vmem_alloc_handle_t h = handle_new();
	hsa_fabric_handle_t f, before;
	memset(&f, 0xA5, sizeof(f));
	before = f;
	ck_status(hsa_amd_vmem_export_fabric_handle(&f, h, 0), HSA_STATUS_ERROR);
	ck_status(hsa_amd_vmem_export_fabric_handle(&f, h, ~0ull), HSA_STATUS_ERROR);
	ck_assert(!memcmp(&f, &before, sizeof(f)));

	void *va = NULL;
	ck_status(hsa_amd_vmem_address_reserve(&va, HSIZE, 0, 0), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_map(va, HSIZE, 0, h, 0), HSA_STATUS_SUCCESS);
	/* mapped, and released while mapped: still a handle to export */
	ck_status(hsa_amd_vmem_handle_release(h), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_export_fabric_handle(&f, h, 0), HSA_STATUS_ERROR);
	ck_status(hsa_amd_vmem_unmap(va, HSIZE), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_export_fabric_handle(&f, h, 0), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_address_free(va, HSIZE), HSA_STATUS_SUCCESS);
}
END_TEST

/* An imported handle (a dma-buf's or a fabric name's) is not exported as
 * a fabric handle again: INCOMPATIBLE_ARGUMENTS, before the NULL check. */
START_TEST(fabric_export_imported)
{
	hsa_amd_vmem_alloc_handle_t h = handle_new(), in = { 0 }, named = { 0 };
	int fd = -1;
	ck_status(hsa_amd_vmem_export_shareable_handle(&fd, h, 0), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_import_shareable_handle(fd, &in), HSA_STATUS_SUCCESS);
	hsa_fabric_handle_t f = name_of(3);
	ck_status(hsa_amd_vmem_export_fabric_handle(&f, in, 0),
		  HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
	ck_status(hsa_amd_vmem_export_fabric_handle(NULL, in, 0),
		  HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
	ck_status(hsa_amd_vmem_import_fabric_handle(f, &named), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_export_fabric_handle(&f, named, 0),
		  HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
	ck_status(hsa_amd_vmem_export_fabric_handle(NULL, named, 0),
		  HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
	ck_status(hsa_amd_vmem_handle_release(named), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_release(in), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_release(h), HSA_STATUS_SUCCESS);
	close(fd);
}
END_TEST

START_TEST(fabric_import_null_out)
{
	ck_status(hsa_amd_vmem_import_fabric_handle(name_of(0), NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

/* The import succeeds with a handle of its own (ROCr records the name);
 * what needs the memory refuses, release frees it once. */
START_TEST(fabric_import_lifecycle)
{
	hsa_amd_vmem_alloc_handle_t a = { 0 }, b = { 0 };
	ck_status(hsa_amd_vmem_import_fabric_handle(name_of(9), &a), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_import_fabric_handle(name_of(9), &b), HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(a.handle, 0);
	ck_assert_uint_ne(b.handle, 0);
	ck_assert_uint_ne(a.handle, b.handle);

	/* no pool and no type yet, as ROCr answers for an imported handle */
	hsa_amd_memory_pool_t pool = { 77 };
	hsa_amd_memory_type_t type = MEMORY_TYPE_PINNED;
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(a, &pool, &type),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(pool.handle, 0);
	ck_assert_int_eq(type, MEMORY_TYPE_NONE);

	int fd = 1234;
	ck_status(hsa_amd_vmem_export_shareable_handle(&fd, a, 0),
		  HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
	ck_assert_int_eq(fd, -1);

	/* the range checks come first; then the import fails: no fabric */
	void *va = NULL;
	char outside[64];
	ck_status(hsa_amd_vmem_map(outside, HSIZE, 0, a, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_address_reserve(&va, HSIZE, 0, 0), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_map(va, HSIZE, 0, a, 0), HSA_STATUS_ERROR);
	/* nothing was mapped: no handle to retain, and the range is free */
	hsa_amd_vmem_alloc_handle_t r = { 0 };
	ck_status(hsa_amd_vmem_retain_alloc_handle(&r, va), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_address_free(va, HSIZE), HSA_STATUS_SUCCESS);

	ck_status(hsa_amd_vmem_handle_release(a), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_release(a), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(a, &pool, &type),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_export_fabric_handle(&(hsa_fabric_handle_t){ { 0 } }, a, 0),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	/* b is its own handle, still live; shutdown frees what is left */
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(b, &pool, &type),
		  HSA_STATUS_SUCCESS);
	hsa_amd_vmem_alloc_handle_t left = { 0 };
	ck_status(hsa_amd_vmem_import_fabric_handle(name_of(5), &left), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_release(b), HSA_STATUS_SUCCESS);
}
END_TEST

/* A created handle is not mistaken for a fabric import, nor the reverse. */
START_TEST(fabric_handles_kept_apart)
{
	hsa_amd_vmem_alloc_handle_t h = handle_new(), named = { 0 };
	ck_status(hsa_amd_vmem_import_fabric_handle(name_of(2), &named), HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(h.handle, named.handle);
	hsa_amd_memory_pool_t pool = { 0 };
	hsa_amd_memory_type_t type;
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(h, &pool, &type),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(pool.handle, vram0.handle);
	ck_status(hsa_amd_vmem_handle_release(named), HSA_STATUS_SUCCESS);
	/* the created handle still maps */
	void *va = NULL;
	ck_status(hsa_amd_vmem_address_reserve(&va, HSIZE, 0, 0), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_map(va, HSIZE, 0, h, 0), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_unmap(va, HSIZE), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_address_free(va, HSIZE), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_release(h), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_release(h), HSA_STATUS_ERROR_INVALID_ALLOCATION);
}
END_TEST

static Suite *fabric_suite(void)
{
	Suite *s = suite_create("surface-fabric");
	TCase *pre = tcase_create("before-init");
	tcase_add_test(pre, fabric_before_init);
	suite_add_tcase(s, pre);
	TCase *tc = tcase_create("fabric");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, fabric_export_unknown_handle);
	tcase_add_test(tc, fabric_export_null_out);
	tcase_add_test(tc, fabric_export_without_fabric);
	tcase_add_test(tc, fabric_export_imported);
	tcase_add_test(tc, fabric_import_null_out);
	tcase_add_test(tc, fabric_import_lifecycle);
	tcase_add_test(tc, fabric_handles_kept_apart);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(fabric_suite)
