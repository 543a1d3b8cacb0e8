/*
 * Kernel failures injected by kfdemu (KFDEMU_FAIL, set by ctest): each rule
 * fails the Nth call of one ioctl with ENOMEM, and each test checks that the
 * thunk returns that errno and that the failed call changed nothing, so the
 * same call succeeds when repeated.  Tests run in the order listed, and
 * each owns the failing call of its ioctl:
 *   ACQUIRE_VM:1         process open
 *   MAP_MEMORY_TO_GPU:3  kfd_mem_map (each successful open maps the GPU's
 *                        MMIO-remap page: the open test's second open and
 *                        the map test's setup come first)
 *   FREE_MEMORY_OF_GPU:4 kfd_mem_free (before it: the open test's close,
 *                        the map test's buffer and its close free one each)
 *   CREATE_EVENT:1       kfd_event_create (with a new event page)
 *   CREATE_QUEUE:1       kfd_queue_create
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hl_check.h"
#include "kfd/kfd.h"

static struct kfd_process *proc;
static uint32_t gpu_id;

static void skip_without_kfd(void)
{
	if (access(KFD_DEVICE_PATH, F_OK) != 0)
		exit(HL_SKIP);
}

static void setup(void)
{
	int ret = kfd_process_open(&proc);
	ck_assert_msg(ret == 0, "kfd_process_open: %d, expected 0", ret);
	gpu_id = proc->gpus[0].gpu_id;
}

static void teardown(void)
{
	kfd_process_close(proc);
	proc = NULL;
}

static struct kfd_mem *alloc(enum kfd_mem_kind kind, uint64_t size, bool host_access)
{
	struct kfd_mem_alloc_args a = {
		.kind = kind, .gpu_id = gpu_id, .size = size, .host_access = host_access,
	};
	struct kfd_mem *m = NULL;
	ck_assert_int_eq(kfd_mem_alloc(proc, &a, &m), 0);
	return m;
}

START_TEST(open_failure_keeps_the_errno_and_open_again_works)
{
	struct kfd_process *p = (struct kfd_process *)1;
	ck_assert_int_eq(kfd_process_open(&p), -ENOMEM);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(kfd_process_open(&p), 0);
	ck_assert_uint_ge(p->n_gpus, 1);
	kfd_process_close(p);
}
END_TEST

START_TEST(map_failure_leaves_the_buffer_unmapped_and_mappable)
{
	struct kfd_mem *m = alloc(KFD_MEM_GTT, 4096, true);
	ck_assert_int_eq(kfd_mem_map(proc, m, &gpu_id, 1), -ENOMEM);
	ck_assert_uint_eq(m->n_mapped, 0);
	ck_assert_int_eq(kfd_mem_map(proc, m, &gpu_id, 1), 0);
	ck_assert_uint_eq(m->n_mapped, 1);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(free_failure_keeps_the_buffer_mapped)
{
	struct kfd_mem *m = alloc(KFD_MEM_GTT, 8192, true);
	ck_assert_int_eq(kfd_mem_map(proc, m, &gpu_id, 1), 0);
	memset(m->addr, 0x77, 8192);
	ck_assert_int_eq(kfd_mem_free(proc, m), -ENOMEM);
	ck_assert_ptr_eq(kfd_mem_find(proc, m->addr), m);
	ck_assert_uint_eq(m->n_mapped, 1);
	ck_assert_uint_eq(((uint8_t *)m->addr)[8191], 0x77);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(create_event_failure_keeps_the_page_for_the_next_event)
{
	struct kfd_event ev;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, true, &ev), -ENOMEM);
	ck_assert_ptr_null(ev.mailbox);
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, true, &ev), 0);
	ck_assert_ptr_nonnull(ev.mailbox);
	ck_assert_uint_eq(*ev.mailbox, KFD_EVENT_SLOT_UNSIGNALED);
	ck_assert_int_eq(kfd_event_set(proc, &ev), 0);
	struct kfd_event *list[1] = { &ev };
	uint32_t result;
	ck_assert_int_eq(kfd_event_wait(proc, list, 1, false, 0, &result, NULL), 0);
	ck_assert_uint_eq(result, KFD_WAIT_COMPLETE);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), 0);
}
END_TEST

START_TEST(create_queue_failure_maps_no_doorbell)
{
	const struct kfd_node *node = proc->gpus[0].node;
	struct kfd_cwsr_sizes cw;
	kfd_cwsr_sizes(node, &cw);
	struct kfd_mem *ring = alloc(KFD_MEM_GTT, 4096, true);
	struct kfd_mem *ptrs = alloc(KFD_MEM_GTT, 4096, true);
	struct kfd_mem *cwsr = alloc(KFD_MEM_GTT, cw.total_size, true);
	struct kfd_mem *eop = cw.eop_size ? alloc(KFD_MEM_VRAM, cw.eop_size, false) : NULL;
	struct kfd_mem *all[4] = { ring, ptrs, cwsr, eop };
	for (int i = 0; i < 4; i++)
		if (all[i])
			ck_assert_int_eq(kfd_mem_map(proc, all[i], &gpu_id, 1), 0);
	struct kfd_queue_args a = {
		.gpu_id = gpu_id, .type = KFD_QUEUE_TYPE_COMPUTE_AQL, .percentage = 100,
		.priority = 7, .ring = ring->addr, .ring_size = 4096,
		.write_ptr = (uint64_t *)((char *)ptrs->addr + 56),
		.read_ptr = (uint64_t *)((char *)ptrs->addr + 128),
		.eop = eop ? eop->addr : NULL, .eop_size = cw.eop_size,
		.ctx_save = cwsr->addr, .ctx_save_size = cw.cwsr_size,
		.ctl_stack_size = cw.ctl_stack_size,
	};
	uint32_t qid;
	uint64_t *db = NULL;
	ck_assert_int_eq(kfd_queue_create(proc, &a, &qid, &db), -ENOMEM);
	ck_assert_ptr_null(db);
	ck_assert_ptr_null(proc->gpus[0].doorbell_slice);
	ck_assert_int_eq(kfd_queue_create(proc, &a, &qid, &db), 0);
	ck_assert_ptr_nonnull(db);
	ck_assert_int_eq(kfd_queue_destroy(proc, qid), 0);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(kfd_mem_free(proc, all[i]), 0);
}
END_TEST

static Suite *faults_suite(void)
{
	Suite *s = suite_create("kfd_emu_faults");
	TCase *open_tc = tcase_create("open");
	tcase_add_unchecked_fixture(open_tc, skip_without_kfd, NULL);
	tcase_add_test(open_tc, open_failure_keeps_the_errno_and_open_again_works);
	suite_add_tcase(s, open_tc);

	TCase *tc = tcase_create("calls");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, map_failure_leaves_the_buffer_unmapped_and_mappable);
	tcase_add_test(tc, free_failure_keeps_the_buffer_mapped);
	tcase_add_test(tc, create_event_failure_keeps_the_page_for_the_next_event);
	tcase_add_test(tc, create_queue_failure_maps_no_doorbell);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(faults_suite)
