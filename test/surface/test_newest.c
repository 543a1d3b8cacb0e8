/*
 * The calls of AMD's newest public header (interface 1.14 to 1.21) that
 * ROCr 1.18 lacks: counted queues (packets from several handles through
 * one hardware ring), batched copies (data checked), agent preload, the
 * signal event id, SVM discard, AIS, the queue-info and pointer-info
 * additions and the shutdown system event.  Good and bad arguments for
 * each.  hsalite only (ROCr 1.18 exports none of these: the binary would
 * not load there).  Label surface_newest; runs under kfdemu.
 * HL_NEWEST_XNACK=1 (the run with HSA_XNACK=1) expects discards to run.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "surface.h"

SURF_FIXTURE(ag)
static hsa_agent_t none_agent = { 0 };

static hsa_signal_t make(hsa_signal_value_t v)
{
	hsa_signal_t s;
	ck_status(hsa_signal_create(v, 0, NULL, &s), HSA_STATUS_SUCCESS);
	return s;
}

START_TEST(newest_before_init)
{
	hsa_queue_t *q = NULL;
	uint32_t id;
	hsa_amd_memory_copy_op_t op;
	memset(&op, 0, sizeof(op));
	void *p = &id;
	size_t sz = 4;
	hsa_amd_ais_file_handle_t fh = { .fd = 0 };
	hsa_signal_t nosig = { 0 };
	ck_status(hsa_amd_counted_queue_acquire(none_agent, HSA_QUEUE_TYPE_MULTI,
						HSA_AMD_QUEUE_PRIORITY_NORMAL, NULL, NULL, 0, &q),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_counted_queue_release((hsa_queue_t *)&id), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_memory_async_batch_copy(&op, 1, 0, NULL), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_agent_preload(none_agent, 0), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_signal_get_event_id(nosig, &id), HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_svm_discard_batch_async(&p, &sz, 1, 0, NULL, nosig),
		  HSA_STATUS_ERROR_NOT_INITIALIZED);
	ck_status(hsa_amd_ais_file_read(fh, p, 4, 0, NULL, NULL), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

/* A barrier-AND packet with no dependency, completing done. */
static void put_barrier(hsa_queue_t *q, hsa_signal_t done)
{
	uint64_t i = hsa_queue_add_write_index_screlease(q, 1);
	hsa_barrier_and_packet_t *pkt =
		(hsa_barrier_and_packet_t *)q->base_address + (i % q->size);
	memset((char *)pkt + 2, 0, sizeof(*pkt) - 2);
	pkt->completion_signal = done;
	uint16_t header = HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
	__atomic_store_n(&pkt->header, header, __ATOMIC_RELEASE);
	hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)i);
}

START_TEST(newest_counted_queue_arguments)
{
	hsa_queue_t *q = NULL;
	hsa_agent_t gpu = ag.gpu[0];
	ck_status(hsa_amd_counted_queue_acquire(gpu, HSA_QUEUE_TYPE_MULTI,
						HSA_AMD_QUEUE_PRIORITY_NORMAL, NULL, NULL, 0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_counted_queue_acquire(gpu, HSA_QUEUE_TYPE_MULTI,
						(hsa_amd_queue_priority_t)3, NULL, NULL, 0, &q),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_counted_queue_acquire(gpu, HSA_QUEUE_TYPE_SINGLE,
						HSA_AMD_QUEUE_PRIORITY_NORMAL, NULL, NULL, 0, &q),
		  HSA_STATUS_ERROR_INVALID_QUEUE_CREATION);
	ck_status(hsa_amd_counted_queue_acquire(ag.cpu, HSA_QUEUE_TYPE_MULTI,
						HSA_AMD_QUEUE_PRIORITY_NORMAL, NULL, NULL, 0, &q),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_counted_queue_acquire(none_agent, HSA_QUEUE_TYPE_MULTI,
						HSA_AMD_QUEUE_PRIORITY_NORMAL, NULL, NULL, 0, &q),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_counted_queue_release(NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* an ordinary queue is not a counted one */
	hsa_queue_t *plain = NULL;
	ck_status(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
				   UINT32_MAX, &plain), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_counted_queue_release(plain), HSA_STATUS_ERROR);
	int32_t use = 0;
	ck_status(hsa_amd_queue_get_info(plain, HSA_QUEUE_INFO_USE_COUNT, &use), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(use, -1);
	uint32_t hw = 0;
	ck_status(hsa_amd_queue_get_info(plain, HSA_QUEUE_INFO_HW_ID, &hw), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(hw, (uint32_t)plain->id);
	uint8_t v = 0;
	ck_status(hsa_amd_queue_get_info(plain,
					 HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_DISPATCH_PKT_VERSION_MAJOR,
					 &v), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(v, 0xFF);
	uint8_t props[8] = { 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA };
	ck_status(hsa_amd_queue_get_info(plain, HSA_AMD_QUEUE_INFO_PROPERTIES, props),
		  HSA_STATUS_SUCCESS);
	for (int i = 0; i < 8; i++)
		ck_assert_uint_eq(props[i], 0);
	ck_status(hsa_amd_queue_get_info(plain, HSA_QUEUE_INFO_USE_COUNT, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_queue_destroy(plain), HSA_STATUS_SUCCESS);
}
END_TEST

/* GPU_MAX_HW_QUEUES=2 (the test's environment): four acquires share two
 * hardware queues, the least used first; packets from every handle run. */
START_TEST(newest_counted_queue_sharing)
{
	hsa_agent_t gpu = ag.gpu[0];
	hsa_queue_t *h[4];
	for (int i = 0; i < 4; i++)
		ck_status(hsa_amd_counted_queue_acquire(gpu, HSA_QUEUE_TYPE_MULTI,
							HSA_AMD_QUEUE_PRIORITY_NORMAL, NULL, NULL,
							0, &h[i]),
			  HSA_STATUS_SUCCESS);
	uint32_t hw[4], use[4];
	for (int i = 0; i < 4; i++) {
		for (int j = 0; j < i; j++)
			ck_assert_ptr_ne(h[i], h[j]);
		ck_status(hsa_amd_queue_get_info(h[i], HSA_QUEUE_INFO_HW_ID, &hw[i]),
			  HSA_STATUS_SUCCESS);
		ck_status(hsa_amd_queue_get_info(h[i], HSA_QUEUE_INFO_USE_COUNT, &use[i]),
			  HSA_STATUS_SUCCESS);
		ck_assert_uint_eq(use[i], 2);
	}
	/* 0 and 1 made the two queues; 2 and 3 took one each */
	ck_assert_uint_ne(hw[0], hw[1]);
	ck_assert_uint_eq(hw[2], hw[0]);
	ck_assert_uint_eq(hw[3], hw[1]);
	ck_assert_ptr_eq(h[0]->base_address, h[2]->base_address);
	ck_assert_uint_eq(h[0]->doorbell_signal.handle, h[2]->doorbell_signal.handle);
	hsa_agent_t owner = { 0 };
	ck_status(hsa_amd_queue_get_info(h[3], HSA_AMD_QUEUE_INFO_AGENT, &owner),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(owner.handle, gpu.handle);
	/* the counted handles are no queues of hsa_queue_destroy's */
	ck_status(hsa_queue_destroy(h[0]), HSA_STATUS_ERROR_INVALID_QUEUE);

	/* 16 packets through the four handles: one write index per
	 * hardware queue, every one retires */
	hsa_signal_t done = make(16);
	uint64_t before = hsa_queue_load_write_index_relaxed(h[0]);
	for (int k = 0; k < 16; k++)
		put_barrier(h[k % 4], done);
	surf_wait_zero(done);
	ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(h[2]), before + 8);
	ck_assert_uint_eq(hsa_queue_load_read_index_scacquire(h[0]), before + 8);
	ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(h[0]),
			  hsa_queue_load_write_index_relaxed(h[2]));
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);

	/* release: counts drop, a double release fails, a new acquire takes
	 * the least used hardware queue */
	ck_status(hsa_amd_counted_queue_release(h[1]), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_counted_queue_release(h[1]), HSA_STATUS_ERROR);
	uint32_t n = 0;
	ck_status(hsa_amd_queue_get_info(h[3], HSA_QUEUE_INFO_USE_COUNT, &n), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(n, 1);
	hsa_queue_t *again = NULL;
	ck_status(hsa_amd_counted_queue_acquire(gpu, HSA_QUEUE_TYPE_MULTI,
						HSA_AMD_QUEUE_PRIORITY_NORMAL, NULL, NULL, 0,
						&again),
		  HSA_STATUS_SUCCESS);
	uint32_t again_hw = 0;
	ck_status(hsa_amd_queue_get_info(again, HSA_QUEUE_INFO_HW_ID, &again_hw),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(again_hw, hw[1]);
	/* another priority is another pool */
	hsa_queue_t *high = NULL;
	ck_status(hsa_amd_counted_queue_acquire(gpu, HSA_QUEUE_TYPE_MULTI,
						HSA_AMD_QUEUE_PRIORITY_HIGH, NULL, NULL, 0, &high),
		  HSA_STATUS_SUCCESS);
	uint32_t high_hw = 0;
	ck_status(hsa_amd_queue_get_info(high, HSA_QUEUE_INFO_HW_ID, &high_hw), HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(high_hw, hw[0]);
	ck_assert_uint_ne(high_hw, hw[1]);
	ck_status(hsa_amd_counted_queue_release(high), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_counted_queue_release(again), HSA_STATUS_SUCCESS);
	for (int i = 0; i < 4; i++)
		if (i != 1)
			ck_status(hsa_amd_counted_queue_release(h[i]), HSA_STATUS_SUCCESS);
	/* hsa_shut_down (the fixture) destroys the hardware queues */
}
END_TEST

static void fill(uint32_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = seed * 0x01000193u + (uint32_t)i;
}

static void check(const uint32_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(p[i] == seed * 0x01000193u + (uint32_t)i,
			      "word %zu: %#x, wanted %#x", i, p[i], seed * 0x01000193u + (uint32_t)i);
}

START_TEST(newest_batch_copy)
{
	enum { N = 16384, WORDS = N / 4 };
	hsa_agent_t gpu = ag.gpu[0];
	uint32_t *host = surf_host_alloc(&ag, 4 * N);
	uint32_t *back = surf_host_alloc(&ag, 4 * N);
	uint32_t *vram[3];
	for (int i = 0; i < 3; i++)
		vram[i] = surf_vram_alloc(&ag, gpu, N);
	for (int i = 0; i < 4; i++)
		fill(host + i * WORDS, WORDS, (uint32_t)i + 1);

	/* op 0: host part 0 -> vram[0]; op 1: a list (parts 1, 2 -> vram 1, 2);
	 * then, after a dependency, op 2: broadcast vram[0] -> back parts 0, 3 */
	hsa_signal_t done = make(2);
	hsa_amd_memory_copy_op_t ops[2];
	memset(ops, 0, sizeof(ops));
	ops[0].version = HSA_AMD_MEMORY_COPY_OP_VERSION;
	ops[0].type = HSA_AMD_MEMORY_COPY_OP_LINEAR;
	ops[0].completion_signal = done;
	ops[0].src = host;
	ops[0].src_agent = ag.cpu;
	ops[0].dst = vram[0];
	ops[0].dst_agent = gpu;
	ops[0].size = N;
	void *srcs[2] = { host + WORDS, host + 2 * WORDS };
	void *dsts[2] = { vram[1], vram[2] };
	hsa_agent_t dagents[2] = { gpu, gpu };
	size_t sizes[2] = { N, N };
	ops[1] = ops[0];
	ops[1].num_entries = 2;
	ops[1].src_list = srcs;
	ops[1].dst_list = dsts;
	ops[1].dst_agent_list = dagents;
	ops[1].size_list = sizes;
	ck_status(hsa_amd_memory_async_batch_copy(ops, 2, 0, NULL), HSA_STATUS_SUCCESS);
	surf_wait_zero(done);

	hsa_signal_t gate = make(1), done2 = make(2);
	hsa_amd_memory_copy_op_t bc;
	memset(&bc, 0, sizeof(bc));
	bc.version = HSA_AMD_MEMORY_COPY_OP_VERSION;
	bc.type = HSA_AMD_MEMORY_COPY_OP_LINEAR_BROADCAST;
	bc.completion_signal = done2;
	bc.src = vram[0];
	bc.src_agent = gpu;
	void *bdst[2] = { back, back + 3 * WORDS };
	hsa_agent_t bag[2] = { ag.cpu, ag.cpu };
	bc.dst_list = bdst;
	bc.dst_agent_list = bag;
	bc.num_entries = 2;
	bc.size = N;
	hsa_amd_memory_copy_op_t list2 = ops[1];
	list2.completion_signal = done2;
	void *s2[2] = { vram[1], vram[2] };
	void *d2[2] = { back + WORDS, back + 2 * WORDS };
	hsa_agent_t a2[2] = { ag.cpu, ag.cpu };
	list2.src_list = s2;
	list2.dst_list = d2;
	list2.dst_agent_list = a2;
	list2.src_agent = gpu;
	hsa_amd_memory_copy_op_t batch2[2] = { bc, list2 };
	ck_status(hsa_amd_memory_async_batch_copy(batch2, 2, 1, &gate), HSA_STATUS_SUCCESS);
	/* nothing runs before the dependency: the signal still reads 2 */
	ck_assert_int_eq(hsa_signal_load_scacquire(done2), 2);
	hsa_signal_store_screlease(gate, 0);
	surf_wait_zero(done2);
	check(back, WORDS, 1);
	check(back + WORDS, WORDS, 2);
	check(back + 2 * WORDS, WORDS, 3);
	check(back + 3 * WORDS, WORDS, 1);
	ck_status(hsa_signal_destroy(gate), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(done2), HSA_STATUS_SUCCESS);

	/* bad arguments: nothing submitted, the signal untouched */
	ck_status(hsa_amd_memory_async_batch_copy(NULL, 1, 0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_async_batch_copy(ops, 0, 0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_async_batch_copy(ops, 1, 1, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_signal_store_relaxed(done, 5);
	hsa_amd_memory_copy_op_t bad = ops[0];
	bad.completion_signal = done;
	bad.version = 2;
	ck_status(hsa_amd_memory_async_batch_copy(&bad, 1, 0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	bad = ops[0];
	bad.completion_signal = done;
	bad.dst = NULL;
	ck_status(hsa_amd_memory_async_batch_copy(&bad, 1, 0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	bad = ops[0];
	bad.completion_signal = done;
	bad.reserved1[0] = 1;
	ck_status(hsa_amd_memory_async_batch_copy(&bad, 1, 0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	bad = ops[0];
	bad.completion_signal = done;
	bad.type = 9;
	ck_status(hsa_amd_memory_async_batch_copy(&bad, 1, 0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_amd_memory_copy_op_t two[2] = { ops[0], ops[0] };
	two[0].completion_signal = done;
	two[1].completion_signal = gate; /* destroyed: and not the same signal */
	ck_status(hsa_amd_memory_async_batch_copy(two, 2, 0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	bad = ops[1];
	bad.completion_signal = done;
	bad.num_entries = 1025;
	ck_status(hsa_amd_memory_async_batch_copy(&bad, 1, 0, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* what hsalite's engines cannot do */
	bad = ops[0];
	bad.completion_signal = done;
	bad.type = HSA_AMD_MEMORY_COPY_OP_LINEAR_SWAP;
	ck_status(hsa_amd_memory_async_batch_copy(&bad, 1, 0, NULL),
		  HSA_STATUS_ERROR_NOT_SUPPORTED);
	bad = ops[0];
	bad.completion_signal = done;
	bad.wait.function = HSA_AMD_MEMORY_COPY_WAIT_EQ;
	bad.wait.addr = host;
	ck_status(hsa_amd_memory_async_batch_copy(&bad, 1, 0, NULL),
		  HSA_STATUS_ERROR_NOT_SUPPORTED);
	ck_assert_int_eq(hsa_signal_load_scacquire(done), 5);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	for (int i = 0; i < 3; i++)
		ck_status(hsa_amd_memory_pool_free(vram[i]), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(host), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(back), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(newest_preload_and_event_id)
{
	hsa_agent_t gpu = ag.gpu[0];
	ck_status(hsa_amd_agent_preload(ag.cpu, 0), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_agent_preload(none_agent, 0), HSA_STATUS_ERROR_INVALID_AGENT);
	ck_status(hsa_amd_agent_preload(gpu, HSA_AMD_AGENT_PRELOAD_SKIP_BLITS |
					     HSA_AMD_AGENT_PRELOAD_SKIP_CLOCK_SYNC),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agent_preload(gpu, 0), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_agent_preload(gpu, 0), HSA_STATUS_SUCCESS); /* again: kept */
	/* the preloaded engine copies */
	uint32_t *src = surf_host_alloc(&ag, 4096), *dst = surf_vram_alloc(&ag, gpu, 4096);
	fill(src, 1024, 7);
	ck_status(hsa_memory_copy(dst, src, 4096), HSA_STATUS_SUCCESS);
	memset(src, 0, 4096);
	ck_status(hsa_memory_copy(src, dst, 4096), HSA_STATUS_SUCCESS);
	check(src, 1024, 7);
	ck_status(hsa_amd_memory_pool_free(src), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(dst), HSA_STATUS_SUCCESS);

	uint32_t id = 0xdead;
	hsa_signal_t s = make(1);
	ck_status(hsa_amd_signal_get_event_id(s, &id), HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(id, 0); /* a CPU may wait: an event backs it */
	ck_status(hsa_amd_signal_get_event_id(s, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_signal_t gpu_only;
	ck_status(hsa_amd_signal_create(1, 1, &gpu, 0, &gpu_only), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_signal_get_event_id(gpu_only, &id), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(id, 0);
	ck_status(hsa_signal_destroy(gpu_only), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_signal_get_event_id(s, &id), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(newest_pointer_info_alloc_flags)
{
	hsa_agent_t gpu = ag.gpu[0];
	void *v = surf_vram_alloc(&ag, gpu, 8192);
	void *h = surf_host_alloc(&ag, 8192);
	hsa_amd_pointer_info_t info;
	memset(&info, 0xff, sizeof(info));
	info.size = sizeof(info);
	ck_status(hsa_amd_pointer_info(v, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(info.size, 64);
	ck_assert(info.registered);
	ck_assert(info.alloc_flags & HSA_AMD_POINTER_INFO_ALLOC_FLAG_NONPAGED);
	ck_assert(info.alloc_flags & HSA_AMD_POINTER_INFO_ALLOC_FLAG_EXECUTABLE);
	ck_assert(!(info.alloc_flags & HSA_AMD_POINTER_INFO_ALLOC_FLAG_READONLY));
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	ck_status(hsa_amd_pointer_info(h, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert(info.alloc_flags & HSA_AMD_POINTER_INFO_ALLOC_FLAG_HOST_ACCESS);
	/* a 5.2.3 client's 56-byte struct: nothing written past it */
	unsigned char old[64];
	memset(old, 0x5a, sizeof(old));
	uint32_t old_size = 56;
	memcpy(old, &old_size, sizeof(old_size));
	ck_status(hsa_amd_pointer_info(v, (hsa_amd_pointer_info_t *)(void *)old, NULL, NULL, NULL),
		  HSA_STATUS_SUCCESS);
	memcpy(&old_size, old, sizeof(old_size));
	ck_assert_uint_eq(old_size, 56);
	for (int i = 56; i < 64; i++)
		ck_assert_uint_eq(old[i], 0x5a);
	ck_status(hsa_amd_memory_pool_free(v), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(h), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(newest_svm_discard)
{
	bool xnack = getenv("HL_NEWEST_XNACK") != NULL;
	void *va = NULL;
	ck_status(hsa_amd_vmem_address_reserve(&va, 1 << 20, 0, HSA_AMD_VMEM_ADDRESS_NO_REGISTER),
		  HSA_STATUS_SUCCESS);
	unsigned char *p = va;
	memset(p, 0x77, 1 << 20);
	void *ptrs[2] = { p, p + (512 << 10) };
	size_t sizes[2] = { 64 << 10, 64 << 10 };
	hsa_signal_t done = make(1), gate = make(1);
	hsa_signal_t nosig = { 0 };

	ck_status(hsa_amd_svm_discard_batch_async(NULL, sizes, 2, 0, NULL, done),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_svm_discard_batch_async(ptrs, NULL, 2, 0, NULL, done),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_svm_discard_batch_async(ptrs, sizes, 0, 0, NULL, done),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_svm_discard_batch_async(ptrs, sizes, 2, 1, NULL, done),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	int stack = 0;
	void *outside[1] = { &stack };
	ck_status(hsa_amd_svm_discard_batch_async(outside, sizes, 1, 0, NULL, done),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	size_t too_big[1] = { 2 << 20 };
	ck_status(hsa_amd_svm_discard_batch_async(ptrs, too_big, 1, 0, NULL, done),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	if (!xnack) {
		ck_status(hsa_amd_svm_discard_batch_async(ptrs, sizes, 2, 0, NULL, done),
			  HSA_STATUS_ERROR_XNACK_DISABLED);
		ck_assert_int_eq(hsa_signal_load_relaxed(done), 1);
	} else {
		ck_status(hsa_amd_svm_discard_batch_async(ptrs, sizes, 2, 1, &gate, done),
			  HSA_STATUS_SUCCESS);
		ck_assert_int_eq(hsa_signal_load_scacquire(done), 1); /* waits for gate */
		ck_assert_uint_eq(p[0], 0x77);
		hsa_signal_store_screlease(gate, 0);
		surf_wait_zero(done);
		/* the discarded pages come back as zeros, the rest is kept */
		ck_assert_uint_eq(p[0], 0);
		ck_assert_uint_eq(p[(64 << 10) - 1], 0);
		ck_assert_uint_eq(p[64 << 10], 0x77);
		ck_assert_uint_eq(p[512 << 10], 0);
		ck_assert_uint_eq(p[(1 << 20) - 1], 0x77);
		/* no completion signal is allowed */
		ck_status(hsa_amd_svm_discard_batch_async(ptrs, sizes, 1, 0, NULL, nosig),
			  HSA_STATUS_SUCCESS);
	}
	ck_status(hsa_signal_destroy(gate), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_vmem_address_free(va, 1 << 20), HSA_STATUS_SUCCESS);
}
END_TEST

/* The pending discards are the runtime's (rt->copy): a discard left waiting
 * on a signal that never opens is dropped by hsa_shut_down (LeakSanitizer
 * sees it otherwise), and the next runtime starts with none and runs its
 * own.  Three runtimes in a row. */
START_TEST(newest_svm_discard_cycles)
{
	bool xnack = getenv("HL_NEWEST_XNACK") != NULL;
	for (int cycle = 0; cycle < 3; cycle++) {
		if (cycle) {
			ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
			ck_status(hsa_init(), HSA_STATUS_SUCCESS);
		}
		void *va = NULL;
		ck_status(hsa_amd_vmem_address_reserve(&va, 1 << 20, 0,
						       HSA_AMD_VMEM_ADDRESS_NO_REGISTER),
			  HSA_STATUS_SUCCESS);
		unsigned char *p = va;
		memset(p, 0x55, 1 << 20);
		void *ptrs[1] = { p };
		size_t sizes[1] = { 64 << 10 };
		hsa_signal_t done = make(1), gate = make(1), stuck = make(1);
		if (!xnack) {
			ck_status(hsa_amd_svm_discard_batch_async(ptrs, sizes, 1, 0, NULL, done),
				  HSA_STATUS_ERROR_XNACK_DISABLED);
			ck_assert_int_eq(hsa_signal_load_relaxed(done), 1);
		} else {
			/* left pending at the shut-down */
			ck_status(hsa_amd_svm_discard_batch_async(ptrs, sizes, 1, 1, &stuck,
								  stuck),
				  HSA_STATUS_SUCCESS);
			/* run in this runtime */
			ck_status(hsa_amd_svm_discard_batch_async(ptrs, sizes, 1, 1, &gate, done),
				  HSA_STATUS_SUCCESS);
			ck_assert_uint_eq(p[0], 0x55);
			hsa_signal_store_screlease(gate, 0);
			surf_wait_zero(done);
			ck_assert_uint_eq(p[0], 0);
			ck_assert_uint_eq(p[64 << 10], 0x55);
			ck_assert_int_eq(hsa_signal_load_scacquire(stuck), 1);
		}
		ck_status(hsa_signal_destroy(gate), HSA_STATUS_SUCCESS);
		ck_status(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
		/* stuck stays: the shut-down drops it with its discard */
	}
}
END_TEST

START_TEST(newest_ais_without_kernel_support)
{
	void *v = surf_vram_alloc(&ag, ag.gpu[0], 4096);
	hsa_amd_ais_file_handle_t fh;
	memset(&fh, 0, sizeof(fh));
	fh.fd = 0;
	uint64_t copied = 77;
	int32_t status = 78;
	ck_status(hsa_amd_ais_file_read(fh, NULL, 4096, 0, &copied, &status),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ais_file_write(fh, v, 0, 0, &copied, &status),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* a device with no AIS (ROCr: the ioctl's ENODEV) */
	ck_status(hsa_amd_ais_file_read(fh, v, 4096, 0, &copied, &status), HSA_STATUS_ERROR);
	ck_status(hsa_amd_ais_file_write(fh, v, 4096, 0, &copied, &status), HSA_STATUS_ERROR);
	ck_assert_uint_eq(copied, 77);
	ck_assert_int_eq(status, 78);
	ck_status(hsa_amd_memory_pool_free(v), HSA_STATUS_SUCCESS);
}
END_TEST

/* The last hsa_shut_down calls every handler with the shutdown event. */
static int shutdown_seen;
static hsa_status_t on_event(const hsa_amd_event_t *ev, void *data)
{
	if (ev->event_type == HSA_AMD_SYSTEM_SHUTDOWN_EVENT && data == &shutdown_seen)
		shutdown_seen++;
	return HSA_STATUS_SUCCESS;
}

START_TEST(newest_shutdown_event)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_register_system_event_handler(on_event, &shutdown_seen),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_register_system_event_handler(on_event, &shutdown_seen),
		  HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(shutdown_seen, 0); /* not the last */
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(shutdown_seen, 2);
	/* the handlers went with the runtime */
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(shutdown_seen, 2);
}
END_TEST

static Suite *newest_suite(void)
{
	Suite *s = suite_create("surface-newest");
	TCase *pre = tcase_create("uninit");
	tcase_add_test(pre, newest_before_init);
	tcase_add_test(pre, newest_shutdown_event);
	suite_add_tcase(s, pre);
	TCase *tc = tcase_create("newest");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, newest_counted_queue_arguments);
	tcase_add_test(tc, newest_counted_queue_sharing);
	tcase_add_test(tc, newest_batch_copy);
	tcase_add_test(tc, newest_preload_and_event_id);
	tcase_add_test(tc, newest_pointer_info_alloc_flags);
	tcase_add_test(tc, newest_svm_discard);
	tcase_add_test(tc, newest_svm_discard_cycles);
	tcase_add_test(tc, newest_ais_without_kernel_support);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(newest_suite)
