/*
 * ip_kernels.h — what the image suites (test_image_peer, test_image_mip)
 * share: the runtime initialised on its first GPU (the suite skipped
 * unless that is a gfx90a with the image extension), image.cl's code
 * object (IMAGE_PEER_CO) loaded there with a queue, and one kernel
 * dispatched on it and waited for.  Public HSA API only: the same binary
 * runs on hsalite and on ROCr.
 */
#ifndef IP_KERNELS_H
#define IP_KERNELS_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_image.h>

#include "hl_hsa.h"

struct ip_kernels {
	hsa_agent_t gpu;
	hsa_amd_memory_pool_t kernarg_pool;
	hsa_executable_t exe;
	hsa_code_object_reader_t reader;
	hsa_queue_t *queue;
	int co_fd;
};

/* Loads IMAGE_PEER_CO on gpu and creates a 64-packet queue there; kernel
 * arguments come from kernarg_pool. */
static inline void ip_load(struct ip_kernels *k, hsa_agent_t gpu,
			   hsa_amd_memory_pool_t kernarg_pool)
{
	ck_assert_ptr_nonnull(k);
	memset(k, 0, sizeof(*k));
	k->gpu = gpu;
	k->kernarg_pool = kernarg_pool;
	k->co_fd = open(IMAGE_PEER_CO, O_RDONLY | O_CLOEXEC);
	ck_assert_msg(k->co_fd >= 0, "cannot open %s", IMAGE_PEER_CO);
	ck_hsa(hsa_code_object_reader_create_from_file(k->co_fd, &k->reader));
	ck_hsa(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					 NULL, &k->exe));
	ck_hsa(hsa_executable_load_agent_code_object(k->exe, gpu, k->reader, NULL, NULL));
	ck_hsa(hsa_executable_freeze(k->exe, NULL));
	ck_hsa(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX,
				&k->queue));
}

/* A test's setup: hsa_init, then exit(HL_SKIP) with a line on stderr
 * naming suite unless the first GPU is a gfx90a and the runtime has the
 * image extension; *pools that GPU's and the first CPU's (hl_find_pools:
 * VRAM and kernarg found, or the test fails); the code object loaded on
 * the GPU (k->gpu) with a queue. */
static inline void ip_setup(struct ip_kernels *k, const char *suite, struct hl_pools *pools)
{
	hsa_agent_t gpu, cpu;
	bool have_gpu, have_cpu, images = false;
	char name[64] = "";

	ck_assert(k && suite && pools);
	ck_hsa(hsa_init());
	ck_hsa(hl_first_agents(&gpu, &have_gpu, &cpu, &have_cpu));
	if (!have_gpu) {
		fprintf(stderr, "%s: no GPU agent: skipped\n", suite);
		exit(HL_SKIP);
	}
	ck_hsa(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name));
	if (strcmp(name, "gfx90a")) {
		fprintf(stderr, "%s: %s is not gfx90a (the only target with images): skipped\n",
			suite, name);
		exit(HL_SKIP);
	}
	if (hsa_system_extension_supported(HSA_EXTENSION_IMAGES, 1, 0, &images) != HSA_STATUS_SUCCESS ||
	    !images) {
		fprintf(stderr, "%s: the runtime has no image extension: skipped\n", suite);
		exit(HL_SKIP);
	}
	ck_assert(have_cpu);
	ck_hsa(hl_find_pools(gpu, cpu, pools));
	ck_assert(pools->have_vram && pools->have_kernarg);
	ip_load(k, gpu, pools->kernarg);
}

/* A test's teardown: the queue and code object released, then
 * hsa_shut_down. */
static inline void ip_teardown(struct ip_kernels *k)
{
	ck_assert_ptr_nonnull(k);
	hsa_queue_destroy(k->queue);
	hsa_executable_destroy(k->exe);
	hsa_code_object_reader_destroy(k->reader);
	close(k->co_fd);
	k->co_fd = -1;
	hsa_shut_down();
}

/* Dispatches kernel `name` with np 8-byte arguments on a (gx, gy, gz) grid
 * (64-item workgroups, 8 x 8 on a 2-D or 3-D grid) and waits for it.
 * Code object v4: the implicit arguments (global offsets) stay 0, ockl
 * reads sizes from the dispatch packet. */
static inline void ip_run(const struct ip_kernels *k, const char *name, const uint64_t *args,
			  unsigned np, uint32_t gx, uint32_t gy, uint32_t gz)
{
	hsa_executable_symbol_t sym;
	uint64_t kobj = 0;
	uint32_t ksize = 0;
	char kd[64];
	uint8_t *ka = NULL;
	hsa_signal_t done;
	hsa_kernel_dispatch_packet_t p;
	hsa_agent_t gpu = k->gpu;

	ck_assert(name && (args || !np));
	snprintf(kd, sizeof(kd), "%s.kd", name);
	ck_hsa(hsa_executable_get_symbol_by_name(k->exe, kd, &gpu, &sym));
	ck_hsa(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kobj));
	ck_hsa(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
					      &ksize));
	ck_assert_uint_ge(ksize, 8 * np);
	ck_hsa(hsa_amd_memory_pool_allocate(k->kernarg_pool, ksize, 0, (void **)&ka));
	ck_hsa(hsa_amd_agents_allow_access(1, &gpu, NULL, ka));
	memset(ka, 0, ksize);
	if (np)
		memcpy(ka, args, 8 * np);
	ck_hsa(hsa_signal_create(1, 0, NULL, &done));
	memset(&p, 0, sizeof(p));
	p.setup = (uint16_t)((gz > 1 ? 3 : gy > 1 ? 2 : 1) << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
	p.workgroup_size_x = gy > 1 ? 8 : 64;
	p.workgroup_size_y = gy > 1 ? 8 : 1;
	p.workgroup_size_z = 1;
	p.grid_size_x = gx;
	p.grid_size_y = gy;
	p.grid_size_z = gz;
	p.kernel_object = kobj;
	p.kernarg_address = ka;
	p.completion_signal = done;
	hsa_queue_t *q = k->queue;
	uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
	uint8_t *slot = (uint8_t *)q->base_address + 64 * (idx % q->size);
	uint16_t hdr = (uint16_t)(HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
				  1 << HSA_PACKET_HEADER_BARRIER |
				  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE |
				  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE);
	uint32_t first = hdr | (uint32_t)p.setup << 16;
	memcpy(slot + 4, (uint8_t *)&p + 4, 60);
	/* the packet's body before its header: the release pairs with the
	 * packet processor's acquire of the header */
	__atomic_store_n((uint32_t *)slot, first, __ATOMIC_RELEASE);
	hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
	hsa_signal_value_t v = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1,
							 60000000000ull, HSA_WAIT_STATE_BLOCKED);
	ck_assert_msg(v == 0, "%s did not complete (signal %ld)", name, (long)v);
	ck_hsa(hsa_signal_destroy(done));
	hsa_amd_memory_pool_free(ka);
}

#endif
