/*
 * The thunk on two GPUs: run under kfdemu with preset mi300x and two GPUs
 * (gfx942, 8 XCCs each).  Covers what one GPU cannot: mapping a buffer on
 * several devices, per-GPU doorbell slices, the event page mapped
 * everywhere, and AQL queues without an EOP buffer (gfx 9.4.x).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hl_check.h"
#include "kfd/kfd.h"

static struct kfd_process *proc;
static uint32_t ids[2];

static void skip_without_kfd(void)
{
	if (access(KFD_DEVICE_PATH, F_OK) != 0)
		exit(HL_SKIP);
}

static void setup(void)
{
	int ret = kfd_process_open(&proc);
	ck_assert_msg(ret == 0, "kfd_process_open: %d, expected 0", ret);
	ck_assert_uint_eq(proc->n_gpus, 2);
	ids[0] = proc->gpus[0].gpu_id;
	ids[1] = proc->gpus[1].gpu_id;
}

static void teardown(void)
{
	kfd_process_close(proc);
	proc = NULL;
}

static struct kfd_mem *alloc_on(enum kfd_mem_kind kind, uint32_t gpu, uint64_t size,
				bool host_access)
{
	struct kfd_mem_alloc_args a = {
		.kind = kind, .gpu_id = gpu, .size = size, .host_access = host_access,
	};
	struct kfd_mem *m = NULL;
	int ret = kfd_mem_alloc(proc, &a, &m);
	ck_assert_msg(ret == 0, "kfd_mem_alloc kind %d on 0x%x: %d, expected 0", (int)kind, gpu,
		      ret);
	return m;
}

START_TEST(both_gpus_are_gfx942_with_8_xccs)
{
	ck_assert_uint_ne(ids[0], ids[1]);
	for (int i = 0; i < 2; i++) {
		ck_assert_uint_eq(proc->gpus[i].node->props.gfx_target_version, 90402);
		ck_assert_uint_eq(proc->gpus[i].node->props.num_xcc, 8);
		ck_assert_uint_eq(proc->gpus[i].apertures.gpu_id, ids[i]);
	}
}
END_TEST

START_TEST(buffer_maps_on_both_gpus)
{
	struct kfd_mem *m = alloc_on(KFD_MEM_GTT, ids[0], 1 << 20, true);
	ck_assert_int_eq(kfd_mem_map(proc, m, ids, 2), 0);
	ck_assert_uint_eq(m->n_mapped, 2);
	ck_assert_int_eq(kfd_mem_unmap(proc, m, &ids[0], 1), 0);
	ck_assert_uint_eq(m->n_mapped, 1);
	ck_assert_uint_eq(m->mapped_gpus[0], ids[1]);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(vram_of_the_second_gpu_maps_on_the_first)
{
	struct kfd_mem *m = alloc_on(KFD_MEM_VRAM, ids[1], 2 << 20, true);
	ck_assert_uint_eq(KFD_HANDLE_GPU_ID(m->handle), ids[1]);
	ck_assert_int_eq(kfd_mem_map(proc, m, ids, 2), 0);
	memset(m->addr, 0x3C, 4096);
	ck_assert_uint_eq(((uint8_t *)m->addr)[4095], 0x3C);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(system_memory_on_gpu_0_goes_to_the_first_gpu)
{
	struct kfd_mem *m = alloc_on(KFD_MEM_USERPTR, 0, 4096, true);
	ck_assert_uint_eq(m->gpu_id, ids[0]);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(event_page_is_mapped_on_every_gpu)
{
	struct kfd_event ev;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, false, &ev), 0);
	struct kfd_mem *page = kfd_mem_find(proc, ev.mailbox);
	ck_assert_ptr_nonnull(page);
	ck_assert_uint_eq(page->n_mapped, 2);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), 0);
}
END_TEST

START_TEST(aql_queue_without_eop_gets_a_doorbell_on_its_gpu)
{
	const struct kfd_node *node = proc->gpus[1].node;
	struct kfd_cwsr_sizes cw;
	kfd_cwsr_sizes(node, &cw);
	ck_assert_uint_eq(cw.eop_size, 0);

	struct kfd_mem *ring = alloc_on(KFD_MEM_GTT, ids[1], 4096, true);
	struct kfd_mem *ptrs = alloc_on(KFD_MEM_GTT, ids[1], 4096, true);
	struct kfd_mem *cwsr = alloc_on(KFD_MEM_GTT, ids[1], cw.total_size, true);
	ck_assert_int_eq(kfd_mem_map(proc, ring, &ids[1], 1), 0);
	ck_assert_int_eq(kfd_mem_map(proc, ptrs, &ids[1], 1), 0);
	ck_assert_int_eq(kfd_mem_map(proc, cwsr, &ids[1], 1), 0);
	for (uint32_t i = 0; i < 4096 / 64; i++)
		*(uint16_t *)((char *)ring->addr + i * 64) = 1; /* INVALID packets */
	for (uint32_t i = 0; i < node->props.num_xcc; i++) {
		struct kfd_context_save_area_header *h =
			(void *)((char *)cwsr->addr + (uint64_t)i * cw.cwsr_size);
		h->debug_offset = (node->props.num_xcc - i) * cw.cwsr_size;
		h->debug_size = cw.debug_size * node->props.num_xcc;
	}
	struct kfd_queue_args a = {
		.gpu_id = ids[1], .type = KFD_QUEUE_TYPE_COMPUTE_AQL, .percentage = 100,
		.priority = 7, .ring = ring->addr, .ring_size = 4096,
		.write_ptr = (uint64_t *)((char *)ptrs->addr + 56),
		.read_ptr = (uint64_t *)((char *)ptrs->addr + 128),
		.ctx_save = cwsr->addr, .ctx_save_size = cw.cwsr_size,
		.ctl_stack_size = cw.ctl_stack_size,
	};
	uint32_t qid;
	uint64_t *db = NULL;
	ck_assert_int_eq(kfd_queue_create(proc, &a, &qid, &db), 0);
	ck_assert_ptr_nonnull(proc->gpus[1].doorbell_slice);
	ck_assert_ptr_null(proc->gpus[0].doorbell_slice);
	ck_assert_uint_lt((uintptr_t)db - (uintptr_t)proc->gpus[1].doorbell_slice,
			  KFD_DOORBELL_SLICE_SIZE);
	ck_assert_int_eq(kfd_queue_destroy(proc, qid), 0);
	ck_assert_int_eq(kfd_mem_free(proc, cwsr), 0);
	ck_assert_int_eq(kfd_mem_free(proc, ptrs), 0);
	ck_assert_int_eq(kfd_mem_free(proc, ring), 0);
}
END_TEST

static Suite *multi_suite(void)
{
	Suite *s = suite_create("kfd_emu_multi");
	TCase *tc = tcase_create("two_gpus");
	tcase_add_unchecked_fixture(tc, skip_without_kfd, NULL);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, both_gpus_are_gfx942_with_8_xccs);
	tcase_add_test(tc, buffer_maps_on_both_gpus);
	tcase_add_test(tc, vram_of_the_second_gpu_maps_on_the_first);
	tcase_add_test(tc, system_memory_on_gpu_0_goes_to_the_first_gpu);
	tcase_add_test(tc, event_page_is_mapped_on_every_gpu);
	tcase_add_test(tc, aql_queue_without_eop_gets_a_doorbell_on_its_gpu);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(multi_suite)
