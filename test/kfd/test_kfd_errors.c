/*
 * Error paths of the thunk without a GPU.  The process is built by hand
 * around /dev/null (a "kernel" that answers ENOTTY to every KFD ioctl) with
 * one made-up GPU, so each test checks that bad input is refused with
 * -EINVAL before any ioctl, that a kernel error comes back with its errno,
 * and that a failed call loses nothing: no leaked memory (ASan) and no
 * leaked address-space reservation (no address mapped after the call that
 * was not mapped before it, /proc/self/maps).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_check.h"
#include "kfd/kfd_priv.h"

#define FAKE_GPU_ID 0x1234u

static struct kfd_process *proc;
static struct kfd_node fake_node;

static void setup(void)
{
	proc = calloc(1, sizeof(*proc));
	ck_assert_ptr_nonnull(proc);
	proc->fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(proc->fd, 0);
	proc->fork_gen = kfd_fork_gen(); /* opened in this process */
	proc->version_major = 1;
	proc->version_minor = 17;

	memset(&fake_node, 0, sizeof(fake_node));
	fake_node.gpu_id = FAKE_GPU_ID;
	proc->gpus = calloc(1, sizeof(*proc->gpus));
	ck_assert_ptr_nonnull(proc->gpus);
	proc->n_gpus = 1;
	proc->gpus[0].node = &fake_node;
	proc->gpus[0].gpu_id = FAKE_GPU_ID;
	proc->gpus[0].render_fd = -1; /* never opened: nothing to close */
	proc->gpus[0].apertures.gpuvm_base = 0x10000;
	proc->gpus[0].apertures.gpuvm_limit = (1ull << 47) - 1;

	struct kfd_process_private *priv = calloc(1, sizeof(*priv));
	ck_assert_ptr_nonnull(priv);
	pthread_mutex_init(&priv->mem_lock, NULL);
	pthread_mutex_init(&priv->doorbell_lock, NULL);
	pthread_mutex_init(&priv->queue_lock, NULL);
	pthread_mutex_init(&priv->event_lock, NULL);
	priv->locks_ready = true;
	priv->doorbell_mem = calloc(1, sizeof(*priv->doorbell_mem));
	priv->doorbell_page_offset = calloc(1, sizeof(*priv->doorbell_page_offset));
	proc->priv = priv;
}

static void teardown(void)
{
	kfd_process_close(proc);
	proc = NULL;
}

/*
 * Leak check on the address space.  A snapshot is the list of mapped ranges
 * of /proc/self/maps; a call leaked a reservation if some address is mapped
 * after it that was not mapped before (new_mapping).  This is stricter than
 * counting lines (a leaked PROT_NONE reservation that the kernel merges
 * with a neighbour adds no line) and does not count the splits the
 * sanitizers make inside their own existing mappings: TSan re-maps the
 * shadow and meta-shadow of a range the program unmaps, which splits its
 * one shadow mapping into three without mapping any new address.  The
 * [heap] and [stack] areas are left out: the kernel grows them (brk from
 * malloc, a deeper call) and no mmap reservation is ever placed in them.
 */
#define MAX_MAPS 4096

struct maps_snapshot {
	unsigned n;
	struct {
		uintptr_t start, end;
	} r[MAX_MAPS];
};

static struct maps_snapshot maps_before, maps_after;

static void maps_read(struct maps_snapshot *s)
{
	FILE *f = fopen("/proc/self/maps", "re");
	ck_assert_ptr_nonnull(f);
	char *line = NULL;
	size_t cap = 0;
	s->n = 0;
	while (getline(&line, &cap, f) > 0) {
		unsigned long start, end;
		if (strstr(line, " [heap]\n") || strstr(line, " [stack]\n"))
			continue;
		ck_assert_int_eq(sscanf(line, "%lx-%lx ", &start, &end), 2);
		ck_assert_uint_lt(s->n, MAX_MAPS);
		s->r[s->n].start = start;
		s->r[s->n].end = end;
		s->n++;
	}
	free(line);
	fclose(f);
}

/* The first address range mapped in after and not in before, as "start-end"
 * in buf; NULL if there is none.  Both lists are sorted and disjoint (the
 * kernel lists VMAs in address order). */
static const char *new_mapping(const struct maps_snapshot *before,
			       const struct maps_snapshot *after, char *buf, size_t len)
{
	unsigned j = 0;
	for (unsigned i = 0; i < after->n; i++) {
		uintptr_t at = after->r[i].start, end = after->r[i].end;
		while (at < end) {
			while (j < before->n && before->r[j].end <= at)
				j++;
			if (j == before->n || before->r[j].start > at) {
				uintptr_t gap_end = j < before->n && before->r[j].start < end
							    ? before->r[j].start : end;
				snprintf(buf, len, "%#lx-%#lx", (unsigned long)at,
					 (unsigned long)gap_end);
				return buf;
			}
			at = before->r[j].end;
		}
	}
	return NULL;
}

static void maps_snapshot_before(void)
{
	maps_read(&maps_before);
}

/* Fails the test if the address space grew since maps_snapshot_before. */
#define ck_assert_no_new_mapping()                                                     \
	do {                                                                           \
		char range_[64];                                                       \
		maps_read(&maps_after);                                                \
		const char *new_ = new_mapping(&maps_before, &maps_after, range_,      \
					       sizeof(range_));                        \
		ck_assert_msg(!new_, "address range %s was mapped by the failed call", \
			      new_);                                                   \
	} while (0)

static int alloc_kind(enum kfd_mem_kind kind, uint64_t size, uint64_t align, uint32_t gpu,
		      struct kfd_mem **out)
{
	struct kfd_mem_alloc_args a = {
		.kind = kind, .gpu_id = gpu, .size = size, .align = align, .host_access = true,
	};
	*out = (struct kfd_mem *)1;
	return kfd_mem_alloc(proc, &a, out);
}

START_TEST(alloc_keeps_the_kernel_errno_and_releases_the_va)
{
	struct kfd_mem *m;
	maps_snapshot_before();
	ck_assert_int_eq(alloc_kind(KFD_MEM_GTT, 1 << 20, 0, FAKE_GPU_ID, &m), -ENOTTY);
	ck_assert_ptr_null(m);
	ck_assert_no_new_mapping();
}
END_TEST

START_TEST(userptr_alloc_failure_releases_its_pages)
{
	struct kfd_mem *m;
	maps_snapshot_before();
	ck_assert_int_eq(alloc_kind(KFD_MEM_USERPTR, 3 << 20, 0, 0, &m), -ENOTTY);
	ck_assert_ptr_null(m);
	ck_assert_no_new_mapping();
}
END_TEST

START_TEST(alloc_of_zero_bytes_is_einval)
{
	struct kfd_mem *m;
	ck_assert_int_eq(alloc_kind(KFD_MEM_GTT, 0, 0, FAKE_GPU_ID, &m), -EINVAL);
	ck_assert_ptr_null(m);
}
END_TEST

START_TEST(alloc_alignment_below_a_page_is_einval)
{
	struct kfd_mem *m;
	ck_assert_int_eq(alloc_kind(KFD_MEM_GTT, 4096, 2048, FAKE_GPU_ID, &m), -EINVAL);
}
END_TEST

START_TEST(alloc_alignment_not_a_power_of_two_is_einval)
{
	struct kfd_mem *m;
	ck_assert_int_eq(alloc_kind(KFD_MEM_GTT, 4096, 3 * 4096, FAKE_GPU_ID, &m), -EINVAL);
}
END_TEST

START_TEST(alloc_on_an_unknown_gpu_is_einval)
{
	struct kfd_mem *m;
	ck_assert_int_eq(alloc_kind(KFD_MEM_VRAM, 4096, 0, 0x4321, &m), -EINVAL);
}
END_TEST

START_TEST(vram_needs_an_explicit_gpu)
{
	struct kfd_mem *m;
	ck_assert_int_eq(alloc_kind(KFD_MEM_VRAM, 4096, 0, 0, &m), -EINVAL);
}
END_TEST

START_TEST(alloc_of_doorbell_kind_is_einval)
{
	struct kfd_mem *m;
	ck_assert_int_eq(alloc_kind(KFD_MEM_DOORBELL, 8192, 0, FAKE_GPU_ID, &m), -EINVAL);
}
END_TEST

START_TEST(extra_flags_with_type_bits_are_einval)
{
	struct kfd_mem_alloc_args a = {
		.kind = KFD_MEM_GTT, .gpu_id = FAKE_GPU_ID, .size = 4096,
		.extra_flags = KFD_ALLOC_VRAM,
	};
	struct kfd_mem *m;
	ck_assert_int_eq(kfd_mem_alloc(proc, &a, &m), -EINVAL);
}
END_TEST

START_TEST(aql_queue_mem_flag_is_einval)
{
	struct kfd_mem_alloc_args a = {
		.kind = KFD_MEM_GTT, .gpu_id = FAKE_GPU_ID, .size = 8192,
		.extra_flags = KFD_ALLOC_AQL_QUEUE_MEM,
	};
	struct kfd_mem *m;
	ck_assert_int_eq(kfd_mem_alloc(proc, &a, &m), -EINVAL);
}
END_TEST

START_TEST(huge_alloc_is_einval)
{
	struct kfd_mem *m;
	ck_assert_int_eq(alloc_kind(KFD_MEM_GTT, ~0ull - 100, 0, FAKE_GPU_ID, &m), -EINVAL);
}
END_TEST

START_TEST(register_keeps_the_kernel_errno)
{
	char buf[8192];
	struct kfd_mem *m = (struct kfd_mem *)1;
	ck_assert_int_eq(kfd_mem_register(proc, buf, sizeof(buf), FAKE_GPU_ID, &m), -ENOTTY);
	ck_assert_ptr_null(m);
}
END_TEST

START_TEST(register_of_null_is_einval)
{
	struct kfd_mem *m;
	ck_assert_int_eq(kfd_mem_register(proc, NULL, 4096, FAKE_GPU_ID, &m), -EINVAL);
}
END_TEST

START_TEST(map_of_a_foreign_allocation_is_einval)
{
	struct kfd_mem stranger;
	uint32_t id = FAKE_GPU_ID;
	memset(&stranger, 0, sizeof(stranger));
	ck_assert_int_eq(kfd_mem_map(proc, &stranger, &id, 1), -EINVAL);
	ck_assert_int_eq(kfd_mem_unmap(proc, &stranger, &id, 1), -EINVAL);
}
END_TEST

START_TEST(map_of_null_is_einval)
{
	uint32_t id = FAKE_GPU_ID;
	ck_assert_int_eq(kfd_mem_map(proc, NULL, &id, 1), -EINVAL);
}
END_TEST

START_TEST(free_of_a_foreign_allocation_is_einval)
{
	struct kfd_mem stranger;
	memset(&stranger, 0, sizeof(stranger));
	ck_assert_int_eq(kfd_mem_free(proc, &stranger), -EINVAL);
}
END_TEST

START_TEST(find_in_an_empty_process_is_null)
{
	int x = 0;
	ck_assert_ptr_null(kfd_mem_find(proc, &x));
}
END_TEST

START_TEST(doorbell_offset_of_another_type_is_einval)
{
	uint64_t *db = NULL;
	uint64_t events_offset = KFD_MMAP_TYPE_EVENTS | KFD_MMAP_GPU_ID(FAKE_GPU_ID);
	ck_assert_int_eq(kfd_doorbell_map(proc, FAKE_GPU_ID, events_offset, &db), -EINVAL);
	ck_assert_ptr_null(db);
}
END_TEST

START_TEST(doorbell_offset_of_another_gpu_is_einval)
{
	uint64_t *db = NULL;
	uint64_t offset = KFD_MMAP_TYPE_DOORBELL | KFD_MMAP_GPU_ID(0x4321);
	ck_assert_int_eq(kfd_doorbell_map(proc, FAKE_GPU_ID, offset, &db), -EINVAL);
}
END_TEST

START_TEST(doorbell_alloc_failure_keeps_errno_and_maps_nothing)
{
	uint64_t *db = NULL;
	uint64_t offset = KFD_MMAP_TYPE_DOORBELL | KFD_MMAP_GPU_ID(FAKE_GPU_ID) | 8;
	maps_snapshot_before();
	ck_assert_int_eq(kfd_doorbell_map(proc, FAKE_GPU_ID, offset, &db), -ENOTTY);
	ck_assert_ptr_null(proc->gpus[0].doorbell_slice);
	ck_assert_no_new_mapping();
}
END_TEST

static struct kfd_queue_args valid_queue(void)
{
	static uint64_t ptrs[64] __attribute__((aligned(4096)));
	static char ring[4096] __attribute__((aligned(256)));
	return (struct kfd_queue_args){
		.gpu_id = FAKE_GPU_ID, .type = KFD_QUEUE_TYPE_COMPUTE_AQL, .percentage = 100,
		.priority = 7, .ring = ring, .ring_size = sizeof(ring),
		.write_ptr = &ptrs[7], .read_ptr = &ptrs[16],
	};
}

START_TEST(queue_create_keeps_the_kernel_errno)
{
	struct kfd_queue_args a = valid_queue();
	uint32_t id;
	uint64_t *db;
	ck_assert_int_eq(kfd_queue_create(proc, &a, &id, &db), -ENOTTY);
}
END_TEST

START_TEST(queue_ring_size_not_a_power_of_two_is_einval)
{
	struct kfd_queue_args a = valid_queue();
	uint32_t id;
	uint64_t *db;
	a.ring_size = 1000;
	ck_assert_int_eq(kfd_queue_create(proc, &a, &id, &db), -EINVAL);
}
END_TEST

START_TEST(queue_priority_above_15_is_einval)
{
	struct kfd_queue_args a = valid_queue();
	uint32_t id;
	uint64_t *db;
	a.priority = 16;
	ck_assert_int_eq(kfd_queue_create(proc, &a, &id, &db), -EINVAL);
}
END_TEST

START_TEST(queue_percentage_above_100_is_einval)
{
	struct kfd_queue_args a = valid_queue();
	uint32_t id;
	uint64_t *db;
	a.percentage = 101;
	ck_assert_int_eq(kfd_queue_create(proc, &a, &id, &db), -EINVAL);
}
END_TEST

START_TEST(queue_ring_not_256_byte_aligned_is_einval)
{
	struct kfd_queue_args a = valid_queue();
	uint32_t id;
	uint64_t *db;
	a.ring = (char *)a.ring + 64;
	ck_assert_int_eq(kfd_queue_create(proc, &a, &id, &db), -EINVAL);
}
END_TEST

START_TEST(queue_without_pointers_is_einval)
{
	struct kfd_queue_args a = valid_queue();
	uint32_t id;
	uint64_t *db;
	a.read_ptr = NULL;
	ck_assert_int_eq(kfd_queue_create(proc, &a, &id, &db), -EINVAL);
}
END_TEST

START_TEST(queue_eop_without_size_is_einval)
{
	struct kfd_queue_args a = valid_queue();
	uint32_t id;
	uint64_t *db;
	a.eop = a.ring;
	ck_assert_int_eq(kfd_queue_create(proc, &a, &id, &db), -EINVAL);
}
END_TEST

START_TEST(queue_on_an_unknown_gpu_is_einval)
{
	struct kfd_queue_args a = valid_queue();
	uint32_t id;
	uint64_t *db;
	a.gpu_id = 0x4321;
	ck_assert_int_eq(kfd_queue_create(proc, &a, &id, &db), -EINVAL);
}
END_TEST

START_TEST(cu_mask_not_a_multiple_of_32_bits_is_einval)
{
	uint32_t mask[2] = { ~0u, ~0u };
	ck_assert_int_eq(kfd_queue_set_cu_mask(proc, 0, mask, 48), -EINVAL);
	ck_assert_int_eq(kfd_queue_set_cu_mask(proc, 0, mask, 0), -EINVAL);
	ck_assert_int_eq(kfd_queue_set_cu_mask(proc, 0, NULL, 32), -EINVAL);
}
END_TEST

START_TEST(queue_update_with_a_bad_ring_size_is_einval)
{
	ck_assert_int_eq(kfd_queue_update(proc, 0, 100, 7, NULL, 3000), -EINVAL);
	ck_assert_int_eq(kfd_queue_update(proc, 0, 100, 16, NULL, 4096), -EINVAL);
}
END_TEST

START_TEST(signal_event_page_failure_keeps_errno_and_leaks_nothing)
{
	struct kfd_event ev;
	maps_snapshot_before();
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, true, &ev), -ENOTTY);
	ck_assert_ptr_null(ev.mailbox);
	ck_assert_ptr_null(proc->priv->event_page);
	ck_assert_no_new_mapping();
}
END_TEST

START_TEST(unknown_event_type_is_einval)
{
	struct kfd_event ev;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_MEMORY + 1, false, &ev), -EINVAL);
}
END_TEST

START_TEST(wait_on_no_events_is_einval)
{
	uint32_t result;
	struct kfd_event ev = { .id = 1 }, *list[2] = { &ev, NULL };
	ck_assert_int_eq(kfd_event_wait(proc, list, 0, false, 0, &result, NULL), -EINVAL);
	ck_assert_int_eq(kfd_event_wait(proc, NULL, 1, false, 0, &result, NULL), -EINVAL);
	ck_assert_int_eq(kfd_event_wait(proc, list, 2, false, 0, &result, NULL), -EINVAL);
	ck_assert_int_eq(kfd_event_wait(proc, list, 1, false, 0, NULL, NULL), -EINVAL);
}
END_TEST

START_TEST(wait_keeps_the_kernel_errno)
{
	uint32_t result = 77;
	struct kfd_event evs[20], *list[20];
	for (int i = 0; i < 20; i++) {
		evs[i] = (struct kfd_event){ .id = (uint32_t)i + 1, .age = 1 };
		list[i] = &evs[i];
	}
	/* 20 events: more than the on-stack array. */
	ck_assert_int_eq(kfd_event_wait(proc, list, 20, true, 0, &result, NULL), -ENOTTY);
	ck_assert_uint_eq(result, 77);
}
END_TEST

START_TEST(set_event_keeps_the_kernel_errno)
{
	struct kfd_event ev = { .id = 3 };
	ck_assert_int_eq(kfd_event_set(proc, &ev), -ENOTTY);
	ck_assert_int_eq(kfd_event_reset(proc, &ev), -ENOTTY);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), -ENOTTY);
	ck_assert_int_eq(kfd_event_set(proc, NULL), -EINVAL);
}
END_TEST

START_TEST(available_memory_enotty_means_not_supported)
{
	uint64_t bytes = 5;
	ck_assert_int_eq(kfd_available_memory(proc, FAKE_GPU_ID, &bytes), -EOPNOTSUPP);
	ck_assert_uint_eq(bytes, 5);
}
END_TEST

START_TEST(available_memory_before_1_9_is_not_supported)
{
	uint64_t bytes;
	proc->version_minor = 8;
	ck_assert_int_eq(kfd_available_memory(proc, FAKE_GPU_ID, &bytes), -EOPNOTSUPP);
}
END_TEST

START_TEST(clock_counters_keep_the_kernel_errno)
{
	struct kfd_args_get_clock_counters c;
	ck_assert_int_eq(kfd_clock_counters(proc, FAKE_GPU_ID, &c), -ENOTTY);
	ck_assert_int_eq(kfd_clock_counters(proc, 0x4321, &c), -EINVAL);
}
END_TEST

START_TEST(process_is_forked_only_after_the_fork_child_step)
{
	ck_assert(!kfd_process_forked(proc));
	pid_t child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		/* A fork alone tells the thunk nothing: the module table's step
		 * (kfd_fork_child) does. */
		int code = kfd_process_forked(proc) ? 1 : 0;
		kfd_fork_child();
		if (!code && !kfd_process_forked(proc))
			code = 2;
		_exit(code);
	}
	int status = 0;
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child: forked before the step (1) or not after it (2): status 0x%x", status);
	ck_assert(!kfd_process_forked(proc)); /* the parent's stays its own */
}
END_TEST

START_TEST(close_of_null_is_a_noop)
{
	kfd_process_close(NULL);
	ck_assert_ptr_nonnull(proc);
}
END_TEST

static Suite *errors_suite(void)
{
	Suite *s = suite_create("kfd_errors");
	TCase *tc = tcase_create("no_gpu");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, alloc_keeps_the_kernel_errno_and_releases_the_va);
	tcase_add_test(tc, userptr_alloc_failure_releases_its_pages);
	tcase_add_test(tc, alloc_of_zero_bytes_is_einval);
	tcase_add_test(tc, alloc_alignment_below_a_page_is_einval);
	tcase_add_test(tc, alloc_alignment_not_a_power_of_two_is_einval);
	tcase_add_test(tc, alloc_on_an_unknown_gpu_is_einval);
	tcase_add_test(tc, vram_needs_an_explicit_gpu);
	tcase_add_test(tc, alloc_of_doorbell_kind_is_einval);
	tcase_add_test(tc, extra_flags_with_type_bits_are_einval);
	tcase_add_test(tc, aql_queue_mem_flag_is_einval);
	tcase_add_test(tc, huge_alloc_is_einval);
	tcase_add_test(tc, register_keeps_the_kernel_errno);
	tcase_add_test(tc, register_of_null_is_einval);
	tcase_add_test(tc, map_of_a_foreign_allocation_is_einval);
	tcase_add_test(tc, map_of_null_is_einval);
	tcase_add_test(tc, free_of_a_foreign_allocation_is_einval);
	tcase_add_test(tc, find_in_an_empty_process_is_null);
	tcase_add_test(tc, doorbell_offset_of_another_type_is_einval);
	tcase_add_test(tc, doorbell_offset_of_another_gpu_is_einval);
	tcase_add_test(tc, doorbell_alloc_failure_keeps_errno_and_maps_nothing);
	tcase_add_test(tc, queue_create_keeps_the_kernel_errno);
	tcase_add_test(tc, queue_ring_size_not_a_power_of_two_is_einval);
	tcase_add_test(tc, queue_priority_above_15_is_einval);
	tcase_add_test(tc, queue_percentage_above_100_is_einval);
	tcase_add_test(tc, queue_ring_not_256_byte_aligned_is_einval);
	tcase_add_test(tc, queue_without_pointers_is_einval);
	tcase_add_test(tc, queue_eop_without_size_is_einval);
	tcase_add_test(tc, queue_on_an_unknown_gpu_is_einval);
	tcase_add_test(tc, cu_mask_not_a_multiple_of_32_bits_is_einval);
	tcase_add_test(tc, queue_update_with_a_bad_ring_size_is_einval);
	tcase_add_test(tc, signal_event_page_failure_keeps_errno_and_leaks_nothing);
	tcase_add_test(tc, unknown_event_type_is_einval);
	tcase_add_test(tc, wait_on_no_events_is_einval);
	tcase_add_test(tc, wait_keeps_the_kernel_errno);
	tcase_add_test(tc, set_event_keeps_the_kernel_errno);
	tcase_add_test(tc, available_memory_enotty_means_not_supported);
	tcase_add_test(tc, available_memory_before_1_9_is_not_supported);
	tcase_add_test(tc, clock_counters_keep_the_kernel_errno);
	tcase_add_test(tc, process_is_forked_only_after_the_fork_child_step);
	tcase_add_test(tc, close_of_null_is_a_noop);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(errors_suite)
