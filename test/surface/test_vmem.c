/*
 * The virtual memory API (ROCr 1.18, hsa_amd_vmem_*): reserved ranges,
 * memory handles, mappings, access per agent and shareable handles, with
 * ROCr 1.18's statuses for mistakes (runtime.cpp VMemory*,
 * hsa_ext_amd.cpp's argument checks).  Kernels (vadd, built by
 * test/loader) read and write through mapped ranges; with two GPUs the
 * second is given access to the first one's memory; a handle exported as a
 * dma-buf fd is imported by a child process (this binary exec'd with
 * --child) that reads it and writes back.  Label surface.
 *
 * The binary also runs on another runtime first on LD_LIBRARY_PATH: one
 * without the API (ROCr 5.2.3) skips (77).  HL_VMEM_CHILD_LIBS, when set,
 * is the child's LD_LIBRARY_PATH: the other runtime imports the handle.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "surface.h"
#include "rt_test.h"
#include "hl_hsa.h"

#define MIB (1024u * 1024u)
#define HSIZE (2u * MIB) /* one handle */
#define WAIT_NS (20ull * 1000 * 1000 * 1000)

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

/* Whether pointer info answers as AMD's interface 1.12 and later: a
 * reserved range is RESERVED_ADDR with its host address and no agent
 * address, a mapped handle HSA_VMEM (ROCr 1.18, interface 1.11, reports
 * the thunk's reserved object for both). */
static bool newest_ptr_info(void)
{
	uint16_t minor = 0;
	return hsa_system_get_info((hsa_system_info_t)HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR,
				   &minor) == HSA_STATUS_SUCCESS && minor >= 12;
}

static hsa_amd_memory_access_desc_t desc(hsa_agent_t a, hsa_access_permission_t p)
{
	hsa_amd_memory_access_desc_t d = { .permissions = p, .agent_handle = a };
	return d;
}

/* A mapped handle of HSIZE bytes of GPU 0's memory in a fresh range. */
struct mapping {
	void *va;
	size_t range;
	hsa_amd_vmem_alloc_handle_t h;
};

static struct mapping map_new(size_t range)
{
	struct mapping m = { .range = range };
	ck_status(hsa_amd_vmem_address_reserve(&m.va, range, 0, 0), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_create(vram0, HSIZE, MEMORY_TYPE_NONE, 0, &m.h),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_map(m.va, HSIZE, 0, m.h, 0), HSA_STATUS_SUCCESS);
	return m;
}

static void map_free(struct mapping *m)
{
	ck_status(hsa_amd_vmem_unmap(m->va, HSIZE), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_release(m->h), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_address_free(m->va, m->range), HSA_STATUS_SUCCESS);
}

START_TEST(vmem_before_init)
{
	void *va = NULL;
	hsa_amd_vmem_alloc_handle_t h = { 1 };
	hsa_amd_memory_pool_t pool = { 1 };
	hsa_amd_memory_type_t type;
	hsa_access_permission_t perm;
	hsa_amd_memory_access_desc_t d = { HSA_ACCESS_PERMISSION_RW, { 1 } };
	int fd;
	char buf[8];
	ck_status(hsa_amd_vmem_address_reserve(&va, HSIZE, 0, 0), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_vmem_address_reserve_align(&va, HSIZE, 0, HSIZE, 0),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_vmem_address_free(buf, HSIZE), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_vmem_handle_create(pool, HSIZE, MEMORY_TYPE_NONE, 0, &h),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_vmem_handle_release(h), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_vmem_map(buf, HSIZE, 0, h, 0), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_vmem_unmap(buf, HSIZE), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_vmem_set_access(buf, HSIZE, &d, 1), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_vmem_get_access(buf, &perm, d.agent_handle),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_vmem_export_shareable_handle(&fd, h, 0),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_vmem_retain_alloc_handle(&h, buf), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(h, &pool, &type),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	/* import checks its arguments before anything else */
	ck_status(hsa_amd_vmem_import_shareable_handle(-1, &h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_import_shareable_handle(0, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(vmem_supported)
{
	bool on = false;
	ck_status(hsa_system_get_info((hsa_system_info_t)0x205 /* VIRTUAL_MEM_API_SUPPORTED */,
				      &on),
		  HSA_STATUS_SUCCESS);
	ck_assert(on);
}
END_TEST

START_TEST(vmem_reserve_free)
{
	void *va = NULL;
	ck_status(hsa_amd_vmem_address_reserve(&va, 0, 0, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_address_reserve_align(&va, 0, 0, HSIZE, 0),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);

	ck_status(hsa_amd_vmem_address_reserve(&va, 4 * MIB, 0, 0), HSA_STATUS_SUCCESS);
	ck_assert_ptr_nonnull(va);
	ck_assert_uint_eq((uintptr_t)va % 4096, 0);
	/* pointer info: libhsakmt's reserved object */
	hsa_amd_pointer_info_t info = { .size = sizeof(info) };
	ck_status(hsa_amd_pointer_info((char *)va + 4096, &info, NULL, NULL, NULL),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_RESERVED_ADDR);
	if (newest_ptr_info()) {
		ck_assert_ptr_null(info.agentBaseAddress);
		ck_assert_ptr_eq(info.hostBaseAddress, va);
	} else {
		ck_assert_ptr_eq(info.agentBaseAddress, va);
		ck_assert_ptr_null(info.hostBaseAddress);
	}
	ck_assert_uint_eq(info.sizeInBytes, 4 * MIB);
	/* registered (interface 1.13, newer than ROCr 1.18, which leaves it 0):
	 * hsalite fills it */
	ck_assert(info.registered == surf_is_hsalite());

	/* free: the exact start and size */
	ck_status(hsa_amd_vmem_address_free(NULL, 4 * MIB), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_address_free(va, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_address_free((char *)va + 4096, 4 * MIB),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_address_free(va, 2 * MIB), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_address_free(va, 4 * MIB), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_address_free(va, 4 * MIB), HSA_STATUS_ERROR_INVALID_ALLOCATION);

	/* the address asked for, free again: granted */
	void *again = NULL;
	ck_status(hsa_amd_vmem_address_reserve(&again, 4 * MIB, (uint64_t)(uintptr_t)va, 0),
		  HSA_STATUS_SUCCESS);
	ck_assert_ptr_eq(again, va);
	/* taken now: another address */
	void *other = NULL;
	ck_status(hsa_amd_vmem_address_reserve(&other, 4 * MIB, (uint64_t)(uintptr_t)va, 0),
		  HSA_STATUS_SUCCESS);
	ck_assert_ptr_ne(other, va);
	ck_status(hsa_amd_vmem_address_free(other, 4 * MIB), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_address_free(again, 4 * MIB), HSA_STATUS_SUCCESS);

	/* aligned */
	ck_status(hsa_amd_vmem_address_reserve_align(&va, 2 * MIB, 0, 64 * MIB, 0),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq((uintptr_t)va % (64 * MIB), 0);
	ck_status(hsa_amd_vmem_address_free(va, 2 * MIB), HSA_STATUS_SUCCESS);

	/* NO_REGISTER: host memory the CPU may use at once, unknown to the
	 * thunk (ROCr 1.18's pointer info) */
	ck_status(hsa_amd_vmem_address_reserve(&va, 8192, 0, HSA_AMD_VMEM_ADDRESS_NO_REGISTER),
		  HSA_STATUS_SUCCESS);
	info.registered = true;
	ck_status(hsa_amd_pointer_info(va, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, newest_ptr_info() ? HSA_EXT_POINTER_TYPE_RESERVED_ADDR
						      : HSA_EXT_POINTER_TYPE_UNKNOWN);
	ck_assert(!info.registered);
	memset(va, 0x5a, 8192);
	ck_assert_uint_eq(((uint8_t *)va)[8191], 0x5a);
	ck_status(hsa_amd_vmem_address_free(va, 8192), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(vmem_handle_args)
{
	hsa_amd_vmem_alloc_handle_t h = { 0 };
	hsa_amd_memory_pool_t bogus = { RT_BOGUS_HANDLE };
	ck_status(hsa_amd_vmem_handle_create(vram0, 0, MEMORY_TYPE_NONE, 0, &h),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_handle_create(vram0, HSIZE, (hsa_amd_memory_type_t)7, 0, &h),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_handle_create(bogus, HSIZE, MEMORY_TYPE_NONE, 0, &h),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_handle_create(vram0, 4097, MEMORY_TYPE_NONE, 0, &h),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* system memory has no memory-only allocation */
	ck_status(hsa_amd_vmem_handle_create(surf_pool(ag.cpu, true), HSIZE, MEMORY_TYPE_NONE, 0,
					     &h),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* more than the pool can ever give */
	size_t max = 0;
	ck_status(hsa_amd_memory_pool_get_info(vram0, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE,
					       &max),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_create(vram0, max + 4096, MEMORY_TYPE_NONE, 0, &h),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);

	/* properties, release */
	hsa_amd_vmem_alloc_handle_t a, b;
	ck_status(hsa_amd_vmem_handle_create(vram0, HSIZE, MEMORY_TYPE_NONE, 0, &a),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_create(vram0, 4096, MEMORY_TYPE_PINNED, 0, &b),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(a.handle, b.handle);
	hsa_amd_memory_pool_t pool = { 0 };
	hsa_amd_memory_type_t type = MEMORY_TYPE_PINNED;
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(a, &pool, &type),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(pool.handle, vram0.handle);
	ck_assert_int_eq(type, MEMORY_TYPE_NONE);
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(b, &pool, &type),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(type, MEMORY_TYPE_PINNED);
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(a, NULL, &type),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(a, &pool, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_amd_vmem_alloc_handle_t unknown = { RT_BOGUS_HANDLE };
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(unknown, &pool, &type),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_handle_release(unknown), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_handle_release(a), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_release(a), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(a, &pool, &type),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_handle_release(b), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(vmem_map_args)
{
	void *va = NULL;
	ck_status(hsa_amd_vmem_address_reserve(&va, 2 * HSIZE, 0, 0), HSA_STATUS_SUCCESS);
	char *v = va;
	hsa_amd_vmem_alloc_handle_t h;
	ck_status(hsa_amd_vmem_handle_create(vram0, HSIZE, MEMORY_TYPE_NONE, 0, &h),
		  HSA_STATUS_SUCCESS);
	hsa_amd_vmem_alloc_handle_t unknown = { RT_BOGUS_HANDLE };
	static char outside[4096];

	ck_status(hsa_amd_vmem_map(NULL, HSIZE, 0, h, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_map(v, 0, 0, h, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_map(outside, HSIZE, 0, h, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* running past the end of the range */
	ck_status(hsa_amd_vmem_map(v + HSIZE + 4096, HSIZE, 0, h, 0),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_map(v, HSIZE, 0, unknown, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* larger than the handle */
	ck_status(hsa_amd_vmem_map(v, 2 * HSIZE, 0, h, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);

	/* nothing mapped yet */
	hsa_access_permission_t perm = HSA_ACCESS_PERMISSION_RW;
	hsa_amd_memory_access_desc_t d = desc(ag.gpu[0], HSA_ACCESS_PERMISSION_RW);
	ck_status(hsa_amd_vmem_get_access(v, &perm, ag.gpu[0]),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_assert_int_eq(perm, HSA_ACCESS_PERMISSION_NONE);
	ck_status(hsa_amd_vmem_set_access(v, HSIZE, &d, 1), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_unmap(v, HSIZE), HSA_STATUS_ERROR_INVALID_ALLOCATION);

	ck_status(hsa_amd_vmem_map(v, HSIZE, 0, h, 0), HSA_STATUS_SUCCESS);
	/* overlapping an existing mapping */
	ck_status(hsa_amd_vmem_map(v, HSIZE, 0, h, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_map(v + 4096, HSIZE, 0, h, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* the range is in use */
	ck_status(hsa_amd_vmem_address_free(v, 2 * HSIZE), HSA_STATUS_ERROR_RESOURCE_FREE);

	/* access: arguments, then the range, then the mappings */
	ck_status(hsa_amd_vmem_set_access(NULL, HSIZE, &d, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_set_access(v, 0, &d, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_set_access(v, HSIZE, NULL, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_set_access(v, HSIZE, &d, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_amd_memory_access_desc_t bad = desc((hsa_agent_t){ RT_BOGUS_HANDLE },
						HSA_ACCESS_PERMISSION_RW);
	ck_status(hsa_amd_vmem_set_access(v, HSIZE, &bad, 1), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_vmem_set_access(outside, 4096, &d, 1),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* not the start of a mapping; past the mapped part */
	ck_status(hsa_amd_vmem_set_access(v + 4096, 4096, &d, 1),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_set_access(v, 2 * HSIZE, &d, 1),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);

	ck_status(hsa_amd_vmem_get_access(NULL, &perm, ag.gpu[0]),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_get_access(v, NULL, ag.gpu[0]), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* GPU agents only */
	ck_status(hsa_amd_vmem_get_access(v, &perm, ag.cpu), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_vmem_get_access(v, &perm, (hsa_agent_t){ RT_BOGUS_HANDLE }),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	/* mapped, no access given yet */
	perm = HSA_ACCESS_PERMISSION_RW;
	ck_status(hsa_amd_vmem_get_access(v + 8192, &perm, ag.gpu[0]), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(perm, HSA_ACCESS_PERMISSION_NONE);

	/* retain: the start of a mapping only */
	hsa_amd_vmem_alloc_handle_t r = { 0 };
	ck_status(hsa_amd_vmem_retain_alloc_handle(&r, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_retain_alloc_handle(&r, v + 4096),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);

	/* unmap: exactly the mappings */
	ck_status(hsa_amd_vmem_unmap(NULL, HSIZE), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_unmap(v, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_unmap(v, 4096), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_unmap(v, 2 * HSIZE), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_unmap(v, HSIZE), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_release(h), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_address_free(v, 2 * HSIZE), HSA_STATUS_SUCCESS);
}
END_TEST

/* ---- kernels through mapped ranges ---- */

struct dev {
	hsa_queue_t *queue;
	uint64_t vadd_kd;
};

static struct dev load_dev(hsa_agent_t agent)
{
	char path[4096];
	struct dev d;
	snprintf(path, sizeof(path), "%s/vadd.%s.co", getenv("HL_CO_DIR"), getenv("HL_GFX"));
	d.vadd_kd = rt_load_kernel(path, agent, "vadd.kd");
	ck_status(hsa_queue_create(agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &d.queue),
		  HSA_STATUS_SUCCESS);
	return d;
}

/* CPU writes to device memory go through the BAR: flush the GPU's HDP
 * before a kernel reads them (as HIP does; kfdemu checks it). */
static void hdp_flush(hsa_agent_t gpu)
{
	hsa_amd_hdp_flush_t h;
	ck_status(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_HDP_FLUSH, &h),
		  HSA_STATUS_SUCCESS);
	__atomic_store_n(h.HDP_MEM_FLUSH_CNTL, 1u, __ATOMIC_SEQ_CST);
}

/* c[i] = a[i] + b[i], i < n, on d; false when it did not complete. */
static bool vadd(struct dev *d, const float *a, const float *b, float *c, uint32_t n)
{
	struct {
		const float *a, *b;
		float *c;
		uint32_t n;
	} __attribute__((packed)) args = { a, b, c, n };
	void *ka = surf_host_alloc(&ag, sizeof(args));
	memcpy(ka, &args, sizeof(args));
	hsa_signal_t done;
	ck_status(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
	hl_dispatch_1d(d->queue, d->vadd_kd, ka, (n + 63) / 64 * 64, 0, true, done);
	bool ok = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS,
					    HSA_WAIT_STATE_BLOCKED) == 0;
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(ka), HSA_STATUS_SUCCESS);
	return ok;
}

/* Two handles mapped back to back in one range; GPU 0 and the CPU given
 * access to both at once; a kernel reads the first and writes the second;
 * the CPU reads it. */
START_TEST(vmem_kernel_through_mapping)
{
	enum { N = HSIZE / sizeof(float) };
	struct dev d = load_dev(ag.gpu[0]);
	void *va = NULL;
	ck_status(hsa_amd_vmem_address_reserve(&va, 2 * HSIZE, 0, 0), HSA_STATUS_SUCCESS);
	float *in = va, *out = (float *)((char *)va + HSIZE);
	hsa_amd_vmem_alloc_handle_t h[2];
	for (int i = 0; i < 2; i++) {
		ck_status(hsa_amd_vmem_handle_create(vram0, HSIZE, MEMORY_TYPE_NONE, 0, &h[i]),
			  HSA_STATUS_SUCCESS);
		ck_status(hsa_amd_vmem_map((char *)va + i * HSIZE, HSIZE, 0, h[i], 0),
			  HSA_STATUS_SUCCESS);
	}
	hsa_amd_memory_access_desc_t dd[2] = { desc(ag.gpu[0], HSA_ACCESS_PERMISSION_RW),
					       desc(ag.cpu, HSA_ACCESS_PERMISSION_RW) };
	ck_status(hsa_amd_vmem_set_access(va, 2 * HSIZE, dd, 2), HSA_STATUS_SUCCESS);
	hsa_access_permission_t perm = HSA_ACCESS_PERMISSION_NONE;
	ck_status(hsa_amd_vmem_get_access(out, &perm, ag.gpu[0]), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(perm, HSA_ACCESS_PERMISSION_RW);
	hsa_amd_pointer_info_t info = { .size = sizeof(info) };
	ck_status(hsa_amd_pointer_info(out, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	if (newest_ptr_info()) {
		/* interface 1.12: the mapping itself, at the queried address,
		 * GPU 0 and the CPU given access: so a GPU can fill it */
		uint32_t n_acc = 0;
		hsa_agent_t *acc = NULL;
		ck_status(hsa_amd_pointer_info(out, &info, malloc, &n_acc, &acc),
			  HSA_STATUS_SUCCESS);
		ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_HSA_VMEM);
		ck_assert_ptr_eq(info.agentBaseAddress, out);
		ck_assert_ptr_eq(info.hostBaseAddress, out);
		ck_assert_uint_eq(info.sizeInBytes, HSIZE);
		ck_assert(info.registered);
		ck_assert_uint_eq(info.agentOwner.handle, ag.gpu[0].handle);
		ck_assert_uint_eq(n_acc, 2);
		free(acc);
		ck_status(hsa_amd_memory_fill(out, 0, 16), HSA_STATUS_SUCCESS);
	} else {
		/* mapped, still the reserved range to pointer info */
		ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_RESERVED_ADDR);
		ck_assert_ptr_eq(info.agentBaseAddress, va);
		ck_assert_uint_eq(info.sizeInBytes, 2 * HSIZE);
		/* so hsa_amd_memory_fill finds no agent to fill it with, as
		 * in ROCr 1.18 (its pointer info lists no GPU, no host
		 * address) */
		ck_status(hsa_amd_memory_fill(out, 0, 16), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	}

	float *ones = surf_host_alloc(&ag, HSIZE);
	for (uint32_t i = 0; i < N; i++) {
		in[i] = (float)i;
		ones[i] = 1.0f;
		out[i] = -1.0f;
	}
	hdp_flush(ag.gpu[0]);
	ck_assert(vadd(&d, in, ones, out, N));
	for (uint32_t i = 0; i < N; i++)
		ck_assert_msg(out[i] == (float)i + 1.0f, "out[%u] = %f, expected %f", i,
			      (double)out[i], (double)i + 1.0);

	/* retain keeps the handle past its release while it is mapped */
	hsa_amd_vmem_alloc_handle_t r = { 0 };
	ck_status(hsa_amd_vmem_retain_alloc_handle(&r, out), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(r.handle, h[1].handle);
	ck_status(hsa_amd_vmem_handle_release(h[1]), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_release(h[0]), HSA_STATUS_SUCCESS);
	/* released, still mapped: no more releases, the memory still there */
	ck_status(hsa_amd_vmem_handle_release(h[0]), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_assert(out[7] == 8.0f);

	/* both mappings in one call */
	ck_status(hsa_amd_vmem_unmap(va, 2 * HSIZE), HSA_STATUS_SUCCESS);
	hsa_amd_memory_pool_t pool;
	hsa_amd_memory_type_t type;
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(h[0], &pool, &type),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(r, &pool, &type),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_release(r), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_address_free(va, 2 * HSIZE), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(ones), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(d.queue), HSA_STATUS_SUCCESS);
}
END_TEST

/* The CPU's view follows its permission: given, taken away, given again
 * (the bytes stay in the handle meanwhile). */
START_TEST(vmem_cpu_access)
{
	struct mapping m = map_new(HSIZE);
	hsa_amd_memory_access_desc_t rw = desc(ag.cpu, HSA_ACCESS_PERMISSION_RW);
	hsa_amd_memory_access_desc_t none = desc(ag.cpu, HSA_ACCESS_PERMISSION_NONE);
	ck_status(hsa_amd_vmem_set_access(m.va, HSIZE, &rw, 1), HSA_STATUS_SUCCESS);
	memset(m.va, 0xa5, HSIZE);
	ck_status(hsa_amd_vmem_set_access(m.va, HSIZE, &none, 1), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_set_access(m.va, HSIZE, &rw, 1), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(((uint8_t *)m.va)[HSIZE - 1], 0xa5);
	map_free(&m);
}
END_TEST

/* hsa_amd_memory_async_copy into and out of a mapped range (HIP's
 * hipMemcpy to hipMemMap'd memory): the copy engines see it as the GPU
 * does. */
START_TEST(vmem_async_copy)
{
	struct mapping m = map_new(HSIZE);
	hsa_amd_memory_access_desc_t d = desc(ag.gpu[0], HSA_ACCESS_PERMISSION_RW);
	ck_status(hsa_amd_vmem_set_access(m.va, HSIZE, &d, 1), HSA_STATUS_SUCCESS);
	uint8_t *src = surf_host_alloc(&ag, HSIZE), *dst = surf_host_alloc(&ag, HSIZE);
	for (size_t i = 0; i < HSIZE; i++) {
		src[i] = (uint8_t)(i * 7 + 3);
		dst[i] = 0;
	}
	hsa_signal_t s;
	ck_status(hsa_signal_create(1, 0, NULL, &s), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_async_copy(m.va, ag.gpu[0], src, ag.cpu, HSIZE, 0, NULL, s),
		  HSA_STATUS_SUCCESS);
	surf_wait_zero(s);
	hsa_signal_store_relaxed(s, 1);
	ck_status(hsa_amd_memory_async_copy(dst, ag.cpu, m.va, ag.gpu[0], HSIZE, 0, NULL, s),
		  HSA_STATUS_SUCCESS);
	surf_wait_zero(s);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(memcmp(src, dst, HSIZE), 0);
	map_free(&m);
	hsa_amd_memory_pool_free(src);
	hsa_amd_memory_pool_free(dst);
}
END_TEST

/* GPU 1 given access to GPU 0's memory writes it; GPU 0 reads it back. */
START_TEST(vmem_second_gpu)
{
	if (ag.n_gpus < 2)
		return;
	enum { N = 4096 };
	struct dev d0 = load_dev(ag.gpu[0]), d1 = load_dev(ag.gpu[1]);
	struct mapping m = map_new(HSIZE);
	hsa_amd_memory_access_desc_t dd[2] = { desc(ag.gpu[1], HSA_ACCESS_PERMISSION_RW),
					       desc(ag.cpu, HSA_ACCESS_PERMISSION_RW) };
	ck_status(hsa_amd_vmem_set_access(m.va, HSIZE, dd, 2), HSA_STATUS_SUCCESS);
	hsa_access_permission_t p0 = HSA_ACCESS_PERMISSION_RW, p1 = HSA_ACCESS_PERMISSION_NONE;
	ck_status(hsa_amd_vmem_get_access(m.va, &p0, ag.gpu[0]), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_get_access(m.va, &p1, ag.gpu[1]), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(p0, HSA_ACCESS_PERMISSION_NONE);
	ck_assert_int_eq(p1, HSA_ACCESS_PERMISSION_RW);

	float *a = surf_host_alloc(&ag, N * sizeof(float));
	float *b = surf_host_alloc(&ag, N * sizeof(float));
	float *c = surf_host_alloc(&ag, N * sizeof(float));
	for (uint32_t i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = 2.0f;
	}
	float *v = m.va;
	ck_assert(vadd(&d1, a, b, v, N));
	ck_assert(v[10] == 12.0f);
	/* GPU 0 through hsa_amd_agents_allow_access, as ROCr 1.18 allows */
	ck_status(hsa_amd_agents_allow_access(1, &ag.gpu[0], NULL, v), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_get_access(m.va, &p0, ag.gpu[0]), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(p0, HSA_ACCESS_PERMISSION_RW);
	ck_assert(vadd(&d0, v, b, c, N));
	for (uint32_t i = 0; i < N; i++)
		ck_assert_msg(c[i] == (float)i + 4.0f, "c[%u] = %f", i, (double)c[i]);
	map_free(&m);
	hsa_amd_memory_pool_free(a);
	hsa_amd_memory_pool_free(b);
	hsa_amd_memory_pool_free(c);
	ck_status(hsa_queue_destroy(d0.queue), HSA_STATUS_SUCCESS);
	ck_status(hsa_queue_destroy(d1.queue), HSA_STATUS_SUCCESS);
}
END_TEST

/* ---- shareable handles ---- */

START_TEST(vmem_share_args)
{
	hsa_amd_vmem_alloc_handle_t h, unknown = { RT_BOGUS_HANDLE };
	int fd = 7;
	ck_status(hsa_amd_vmem_export_shareable_handle(NULL, unknown, 0),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_vmem_export_shareable_handle(&fd, unknown, 0),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_assert_int_eq(fd, -1);
	/* not a dma-buf */
	int pipefd[2];
	ck_assert_int_eq(pipe(pipefd), 0);
	ck_status(hsa_amd_vmem_import_shareable_handle(pipefd[0], &h),
		  HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
	close(pipefd[0]);
	close(pipefd[1]);
}
END_TEST

/* The child: imports fd (size bytes), maps it for the CPU and GPU 0,
 * checks the parent's pattern with a kernel, writes its own with the CPU. */
static int child_main(int fd, size_t size)
{
	if (hsa_init() != HSA_STATUS_SUCCESS)
		return 10;
	struct surf_agents a;
	memset(&a, 0, sizeof(a));
	if (hsa_iterate_agents(surf_agent_cb, &a) != HSA_STATUS_SUCCESS || !a.n_gpus)
		return 11;
	hsa_amd_vmem_alloc_handle_t h;
	if (hsa_amd_vmem_import_shareable_handle(fd, &h) != HSA_STATUS_SUCCESS)
		return 12;
	close(fd);
	void *va = NULL;
	if (hsa_amd_vmem_address_reserve(&va, size, 0, 0) != HSA_STATUS_SUCCESS)
		return 13;
	if (hsa_amd_vmem_map(va, size, 0, h, 0) != HSA_STATUS_SUCCESS)
		return 14;
	hsa_amd_memory_access_desc_t dd[2] = { desc(a.gpu[0], HSA_ACCESS_PERMISSION_RW),
					       desc(a.cpu, HSA_ACCESS_PERMISSION_RW) };
	if (hsa_amd_vmem_set_access(va, size, dd, 2) != HSA_STATUS_SUCCESS)
		return 15;
	uint32_t *w = va;
	for (size_t i = 0; i < size / 4; i++)
		if (w[i] != (uint32_t)i * 3u)
			return 16;
	for (size_t i = 0; i < size / 4; i++)
		w[i] = (uint32_t)i ^ 0xdeadbeefu;
	if (hsa_amd_vmem_unmap(va, size) != HSA_STATUS_SUCCESS ||
	    hsa_amd_vmem_handle_release(h) != HSA_STATUS_SUCCESS ||
	    hsa_amd_vmem_address_free(va, size) != HSA_STATUS_SUCCESS)
		return 17;
	return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : 18;
}

START_TEST(vmem_share_child)
{
	struct mapping m = map_new(HSIZE);
	hsa_amd_memory_access_desc_t rw = desc(ag.cpu, HSA_ACCESS_PERMISSION_RW);
	ck_status(hsa_amd_vmem_set_access(m.va, HSIZE, &rw, 1), HSA_STATUS_SUCCESS);
	uint32_t *w = m.va;
	for (size_t i = 0; i < HSIZE / 4; i++)
		w[i] = (uint32_t)i * 3u;

	int fd = -1, fd2 = -1;
	ck_status(hsa_amd_vmem_export_shareable_handle(&fd, m.h, 0), HSA_STATUS_SUCCESS);
	ck_assert_int_ge(fd, 0);
	/* each export is a new fd of the caller's */
	ck_status(hsa_amd_vmem_export_shareable_handle(&fd2, m.h, 0), HSA_STATUS_SUCCESS);
	ck_assert_int_ne(fd, fd2);
	ck_assert_int_eq(close(fd2), 0);

	/* imported back in this process: a new handle on the same memory */
	hsa_amd_vmem_alloc_handle_t back;
	ck_status(hsa_amd_vmem_import_shareable_handle(fd, &back), HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(back.handle, m.h.handle);
	hsa_amd_memory_pool_t pool;
	hsa_amd_memory_type_t type;
	ck_status(hsa_amd_vmem_get_alloc_properties_from_handle(back, &pool, &type),
		  HSA_STATUS_SUCCESS);
	/* a global pool (ROCr: the exporting GPU's last allocatable one) */
	hsa_amd_segment_t seg = HSA_AMD_SEGMENT_GROUP;
	ck_status(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(seg, HSA_AMD_SEGMENT_GLOBAL);
	ck_assert_int_eq(type, MEMORY_TYPE_NONE);
	ck_status(hsa_amd_vmem_handle_release(back), HSA_STATUS_SUCCESS);

	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char fds[16], sizes[32];
		fcntl(fd, F_SETFD, 0); /* inherited by the exec'd child */
		snprintf(fds, sizeof(fds), "%d", fd);
		snprintf(sizes, sizeof(sizes), "%u", HSIZE);
		const char *libs = getenv("HL_VMEM_CHILD_LIBS");
		if (libs)
			setenv("LD_LIBRARY_PATH", libs, 1);
		execl("/proc/self/exe", "test_vmem_child", "--child", fds, sizes, (char *)NULL);
		_exit(127);
	}
	close(fd);
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child ended with status %#x", (unsigned)status);
	for (size_t i = 0; i < HSIZE / 4; i++)
		ck_assert_msg(w[i] == ((uint32_t)i ^ 0xdeadbeefu), "w[%zu] = %#x", i, w[i]);
	map_free(&m);
}
END_TEST

/* With KFDEMU_FAIL=ioctl:EXPORT_DMABUF:1,ioctl:IMPORT_DMABUF:1 (the
 * driver refusing the map's export, then its import): a refused export is
 * OUT_OF_RESOURCES (ROCr 1.18's KfdDriver::ExportDMABuf,
 * core/driver/kfd/amd_kfd_driver.cpp line 411), a refused import ERROR
 * (its ImportDMABuf, line 427); each failed map changes nothing, the third
 * map works.  ROCr imports through libdrm's amdgpu_bo_import on the render
 * node, not KFD's IMPORT_DMABUF, so on another runtime the second map is
 * not refused: the import's checks run on hsalite only. */
START_TEST(vmem_map_driver_refuses)
{
	void *va = NULL;
	ck_status(hsa_amd_vmem_address_reserve(&va, HSIZE, 0, 0), HSA_STATUS_SUCCESS);
	hsa_amd_vmem_alloc_handle_t h;
	ck_status(hsa_amd_vmem_handle_create(vram0, HSIZE, MEMORY_TYPE_NONE, 0, &h),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_map(va, HSIZE, 0, h, 0), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
	ck_status(hsa_amd_vmem_unmap(va, HSIZE), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	hsa_amd_vmem_alloc_handle_t r;
	ck_status(hsa_amd_vmem_retain_alloc_handle(&r, va), HSA_STATUS_ERROR_INVALID_ALLOCATION);
	if (surf_is_hsalite()) {
		ck_status(hsa_amd_vmem_map(va, HSIZE, 0, h, 0), HSA_STATUS_ERROR);
		ck_status(hsa_amd_vmem_retain_alloc_handle(&r, va),
			  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	}
	ck_status(hsa_amd_vmem_map(va, HSIZE, 0, h, 0), HSA_STATUS_SUCCESS);
	hsa_amd_memory_access_desc_t rw = desc(ag.cpu, HSA_ACCESS_PERMISSION_RW);
	ck_status(hsa_amd_vmem_set_access(va, HSIZE, &rw, 1), HSA_STATUS_SUCCESS);
	memset(va, 0x3c, HSIZE);
	ck_assert_uint_eq(((uint8_t *)va)[HSIZE / 2], 0x3c);
	ck_status(hsa_amd_vmem_unmap(va, HSIZE), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_handle_release(h), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_address_free(va, HSIZE), HSA_STATUS_SUCCESS);
}
END_TEST

/* ---- threads (the TSan pass runs this case) ---- */

#define THREADS 3
#define ROUNDS 12
#define TSIZE (64u * 1024u)

/* One thread's rounds: a range of two handles mapped, given to the CPU and
 * GPU 0, written and read back, queried, shared in-process, unmapped and
 * freed; the first failing step's number, 0 when all went well. */
static bool newest; /* newest_ptr_info(), taken before the threads start */

/* A thread's failing call's status (0: a value was wrong), read after
 * the join. */
static hsa_status_t thread_status[THREADS];

#define THREAD_STEP(n, call)                                          \
	do {                                                          \
		hsa_status_t st_ = (call);                            \
		if (st_ != HSA_STATUS_SUCCESS) {                      \
			thread_status[id] = st_;                      \
			return (void *)(n);                           \
		}                                                     \
	} while (0)

static void *thread_rounds(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	for (int round = 0; round < ROUNDS; round++) {
		void *va = NULL;
		hsa_amd_vmem_alloc_handle_t h[2], back;
		THREAD_STEP(1, hsa_amd_vmem_address_reserve(&va, 2 * TSIZE, 0, 0));
		for (int i = 0; i < 2; i++) {
			THREAD_STEP(2, hsa_amd_vmem_handle_create(vram0, TSIZE, MEMORY_TYPE_NONE, 0,
								  &h[i]));
			THREAD_STEP(2, hsa_amd_vmem_map((char *)va + i * TSIZE, TSIZE, 0, h[i], 0));
		}
		hsa_amd_memory_access_desc_t dd[2] = { desc(ag.gpu[0], HSA_ACCESS_PERMISSION_RW),
						       desc(ag.cpu, HSA_ACCESS_PERMISSION_RW) };
		THREAD_STEP(3, hsa_amd_vmem_set_access(va, 2 * TSIZE, dd, 2));
		uint32_t *w = va;
		for (size_t i = 0; i < 2 * TSIZE / 4; i++)
			w[i] = (uint32_t)(id << 24 | (uintptr_t)round << 16 | i);
		for (size_t i = 0; i < 2 * TSIZE / 4; i++)
			if (w[i] != (uint32_t)(id << 24 | (uintptr_t)round << 16 | i))
				return (void *)4;
		hsa_access_permission_t perm;
		hsa_amd_pointer_info_t info = { .size = sizeof(info) };
		THREAD_STEP(5, hsa_amd_vmem_get_access(w + 5, &perm, ag.gpu[0]));
		THREAD_STEP(5, hsa_amd_pointer_info(w + 5, &info, NULL, NULL, NULL));
		if (perm != HSA_ACCESS_PERMISSION_RW ||
		    info.agentBaseAddress != (newest ? (void *)(w + 5) : va))
			return (void *)5;
		int fd = -1;
		THREAD_STEP(6, hsa_amd_vmem_export_shareable_handle(&fd, h[1], 0));
		THREAD_STEP(6, hsa_amd_vmem_import_shareable_handle(fd, &back));
		THREAD_STEP(6, hsa_amd_vmem_handle_release(back));
		close(fd);
		THREAD_STEP(7, hsa_amd_vmem_unmap(va, 2 * TSIZE));
		THREAD_STEP(7, hsa_amd_vmem_handle_release(h[0]));
		THREAD_STEP(7, hsa_amd_vmem_handle_release(h[1]));
		THREAD_STEP(7, hsa_amd_vmem_address_free(va, 2 * TSIZE));
	}
	return NULL;
}

/* ROCr 1.18 fails this case in about half its runs on kfdemu (status
 * RESOURCE_FREE or INVALID_ALLOCATION at step 7, INVALID_ARGUMENT at step
 * 2, now and then SIGSEGV), with KFDEMU_HDP=off too; not yet explained, so
 * it has no peer run (CMakeLists.txt). */
START_TEST(vmem_threads)
{
	pthread_t t[THREADS];
	newest = newest_ptr_info();
	for (uintptr_t i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, thread_rounds, (void *)i), 0);
	/* every thread joined before any verdict: a failed assertion must not
	 * leave threads running into the teardown's hsa_shut_down */
	void *failed[THREADS] = { NULL };
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], &failed[i]), 0);
	for (int i = 0; i < THREADS; i++)
		ck_assert_msg(!failed[i], "thread %d failed at step %lu (status %#x)", i,
			      (unsigned long)(uintptr_t)failed[i], (unsigned)thread_status[i]);
}
END_TEST

static Suite *vmem_suite(void)
{
	Suite *s = suite_create("vmem");
	if (getenv("HL_VMEM_THREAD")) {
		TCase *t = tcase_create("thread");
		tcase_add_checked_fixture(t, setup, teardown);
		tcase_set_timeout(t, 600);
		tcase_add_test(t, vmem_threads);
		suite_add_tcase(s, t);
		return s;
	}
	if (getenv("HL_VMEM_FAULT")) {
		TCase *f = tcase_create("fault");
		tcase_add_checked_fixture(f, setup, teardown);
		tcase_add_test(f, vmem_map_driver_refuses);
		suite_add_tcase(s, f);
		return s;
	}
	TCase *pre = tcase_create("before_init");
	tcase_add_test(pre, vmem_before_init);
	suite_add_tcase(s, pre);
	TCase *tc = tcase_create("vmem");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, vmem_supported);
	tcase_add_test(tc, vmem_reserve_free);
	tcase_add_test(tc, vmem_handle_args);
	tcase_add_test(tc, vmem_share_args);
	/* the rest map (ROCr 1.18 through kfdemu's render node: PRIME
	 * import, GEM_MMAP, GEM_VA) */
	tcase_add_test(tc, vmem_map_args);
	tcase_add_test(tc, vmem_kernel_through_mapping);
	tcase_add_test(tc, vmem_cpu_access);
	tcase_add_test(tc, vmem_async_copy);
	tcase_add_test(tc, vmem_second_gpu);
	tcase_add_test(tc, vmem_share_child);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--child"))
		return child_main(atoi(argv[2]), (size_t)strtoull(argv[3], NULL, 0));
	/* A runtime without the API (ROCr 5.2.3): nothing to test. */
	if (!dlsym(RTLD_DEFAULT, "hsa_amd_vmem_map")) {
		fprintf(stderr, "test_vmem: the runtime has no hsa_amd_vmem_*: skipped\n");
		return HL_SKIP;
	}
	return hl_check_run(vmem_suite());
}
