/*
 * The thunk on a device: run under kfdemu (preset mi210, one GPU) by ctest,
 * or on a machine with /dev/kfd.  Each test opens its own kfd_process and
 * closes it, which also exercises close/re-open in one OS process (the
 * kernel's process and VM binding outlive our fd).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
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
	ck_assert_uint_ge(proc->n_gpus, 1);
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
		.kind = kind,
		.gpu_id = gpu_id,
		.size = size,
		.host_access = host_access,
	};
	struct kfd_mem *mem = NULL;
	int ret = kfd_mem_alloc(proc, &a, &mem);
	ck_assert_msg(ret == 0, "kfd_mem_alloc kind %d size %llu: %d, expected 0", (int)kind,
		      (unsigned long long)size, ret);
	return mem;
}

static void map(struct kfd_mem *mem)
{
	int ret = kfd_mem_map(proc, mem, &gpu_id, 1);
	ck_assert_msg(ret == 0, "kfd_mem_map: %d, expected 0", ret);
}

static void fill_and_check(struct kfd_mem *mem)
{
	uint8_t *p = mem->addr;
	for (uint64_t i = 0; i < mem->size; i += 4096)
		p[i] = (uint8_t)(i >> 12) ^ 0x5A;
	for (uint64_t i = 0; i < mem->size; i += 4096)
		ck_assert_uint_eq(p[i], (uint8_t)((i >> 12) ^ 0x5A));
}

/* ---- process ---- */

START_TEST(open_finds_the_mi210)
{
	ck_assert_uint_eq(proc->version_major, 1);
	ck_assert_uint_ge(proc->version_minor, KFD_MIN_MINOR_VERSION);
	ck_assert_uint_eq(proc->gpus[0].node->props.gfx_target_version, 90010);
	ck_assert_int_ge(proc->gpus[0].render_fd, 0);
	ck_assert_ptr_nonnull(proc->gpus[0].amdgpu_dev);
	ck_assert_uint_eq(proc->gpus[0].doorbell_type, 2);
	ck_assert_ptr_eq(kfd_process_gpu_by_id(proc, gpu_id), &proc->gpus[0]);
	ck_assert_ptr_null(kfd_process_gpu_by_id(proc, 0));
	ck_assert(!kfd_process_forked(proc));
}
END_TEST

START_TEST(apertures_cover_a_47_bit_gpuvm)
{
	const struct kfd_process_device_apertures *ap = &proc->gpus[0].apertures;
	ck_assert_uint_eq(ap->gpu_id, gpu_id);
	ck_assert_uint_le(ap->gpuvm_base, 2u << 20);
	ck_assert_uint_ge(ap->gpuvm_limit, (1ull << 47) - 1);
}
END_TEST

START_TEST(clock_counters_report_a_1ghz_system_clock)
{
	struct kfd_args_get_clock_counters c;
	ck_assert_int_eq(kfd_clock_counters(proc, gpu_id, &c), 0);
	ck_assert_uint_eq(c.system_clock_freq, 1000000000ull);
	ck_assert_uint_ne(c.cpu_clock_counter, 0);
}
END_TEST

static uint64_t boottime_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The pair a runtime converts profiling ticks with is one instant: the GPU
 * counter is the raw CPU counter at 100 MHz (the preset's gpu_counter_freq,
 * the CP's timestamp clock) and the system counter lies between boottime
 * readings taken around the call. */
START_TEST(clock_counters_are_one_instant)
{
	struct kfd_args_get_clock_counters c;
	uint64_t b0 = boottime_ns();
	ck_assert_int_eq(kfd_clock_counters(proc, gpu_id, &c), 0);
	uint64_t b1 = boottime_ns();
	ck_assert_uint_eq(c.gpu_clock_counter, c.cpu_clock_counter / 10);
	ck_assert_uint_le(b0, c.system_clock_counter);
	ck_assert_uint_le(c.system_clock_counter, b1);
}
END_TEST

START_TEST(clock_counters_of_an_unknown_gpu_are_einval)
{
	struct kfd_args_get_clock_counters c;
	ck_assert_int_eq(kfd_clock_counters(proc, gpu_id ^ 0xFFFF, &c), -EINVAL);
}
END_TEST

START_TEST(available_memory_is_2mib_aligned)
{
	uint64_t bytes = 0;
	ck_assert_int_eq(kfd_available_memory(proc, gpu_id, &bytes), 0);
	ck_assert_uint_gt(bytes, 0);
	ck_assert_uint_eq(bytes & ((2u << 20) - 1), 0);
}
END_TEST

START_TEST(fork_child_sees_forked_and_leaves_the_parent_alone)
{
	struct kfd_mem *m = alloc(KFD_MEM_GTT, 4096, true);
	map(m);
	pid_t child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		/* The child must not touch the parent's BOs: close only drops
		 * its copies of our mappings and descriptors.  The fork step is
		 * what the runtime's module table runs in a child. */
		kfd_fork_child();
		bool forked = kfd_process_forked(proc);
		kfd_process_close(proc);
		_exit(forked ? 0 : 1);
	}
	int status = 0;
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);
	ck_assert_uint_eq(m->n_mapped, 1);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(fork_child_can_open_its_own_process)
{
	/* Open an event page first, so the child has a parked page and render
	 * fds of the parent to ignore. */
	struct kfd_event pev;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, true, &pev), 0);
	pid_t child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		struct kfd_process *mine = NULL;
		struct kfd_mem *m = NULL;
		struct kfd_event ev;
		struct kfd_mem_alloc_args a = {
			.kind = KFD_MEM_GTT, .gpu_id = 0, .size = 4096, .host_access = true,
		};
		kfd_fork_child(); /* the module table's step, as in a runtime */
		kfd_process_close(proc); /* the parent's, as a runtime would drop it */
		int step = 1;
		if (kfd_process_open(&mine))
			_exit(step);
		step++;
		if (kfd_mem_alloc(mine, &a, &m) || kfd_mem_map(mine, m, &mine->gpus[0].gpu_id, 1))
			_exit(step);
		step++;
		if (kfd_event_create(mine, KFD_EVENT_TYPE_SIGNAL, true, &ev) ||
		    *ev.mailbox != KFD_EVENT_SLOT_UNSIGNALED)
			_exit(step);
		step++;
		if (kfd_mem_free(mine, m) || kfd_event_destroy(mine, &ev))
			_exit(step);
		kfd_process_close(mine);
		_exit(0);
	}
	int status = 0;
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child failed at step %d (status 0x%x)", WEXITSTATUS(status), status);
	ck_assert_int_eq(kfd_event_destroy(proc, &pev), 0);
}
END_TEST

START_TEST(reopen_in_the_same_process_works)
{
	/* The kernel's process and the VM binding outlive the fd. */
	kfd_process_close(proc);
	proc = NULL;
	ck_assert_int_eq(kfd_process_open(&proc), 0);
	struct kfd_event ev;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, true, &ev), 0);
	ck_assert_uint_eq(*ev.mailbox, KFD_EVENT_SLOT_UNSIGNALED);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), 0);
}
END_TEST

/* ---- memory ---- */

START_TEST(gtt_is_cpu_visible_at_its_gpu_address)
{
	struct kfd_mem *m = alloc(KFD_MEM_GTT, 64 << 10, true);
	ck_assert_uint_eq((uintptr_t)m->addr & ((64 << 10) - 1), 0);
	ck_assert_uint_eq(m->flags & KFD_ALLOC_TYPE_MASK, KFD_ALLOC_GTT);
	ck_assert_uint_eq(KFD_HANDLE_GPU_ID(m->handle), gpu_id);
	fill_and_check(m);
	map(m);
	fill_and_check(m);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(vram_with_host_access_is_public)
{
	struct kfd_mem *m = alloc(KFD_MEM_VRAM, 8192, true);
	ck_assert_uint_ne(m->flags & KFD_ALLOC_PUBLIC, 0);
	ck_assert_uint_ne(m->flags & KFD_ALLOC_WRITABLE, 0);
	fill_and_check(m);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(vram_without_host_access_is_private)
{
	struct kfd_mem *m = alloc(KFD_MEM_VRAM, 4096, false);
	ck_assert_uint_eq(m->flags & KFD_ALLOC_PUBLIC, 0);
	ck_assert(!m->host_access);
	map(m);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(userptr_is_host_memory_registered_in_place)
{
	struct kfd_mem *m = alloc(KFD_MEM_USERPTR, 3 * 4096 + 5, true);
	ck_assert_uint_eq(m->size, 4 * 4096);
	ck_assert_uint_eq(m->flags & KFD_ALLOC_TYPE_MASK, KFD_ALLOC_USERPTR);
	fill_and_check(m);
	map(m);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(readonly_memory_is_not_writable)
{
	struct kfd_mem_alloc_args a = {
		.kind = KFD_MEM_GTT, .gpu_id = gpu_id, .size = 4096, .readonly = true,
	};
	struct kfd_mem *m;
	ck_assert_int_eq(kfd_mem_alloc(proc, &a, &m), 0);
	ck_assert_uint_eq(m->flags & KFD_ALLOC_WRITABLE, 0);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(register_keeps_the_callers_pages)
{
	uint8_t *buf = aligned_alloc(4096, 4 * 4096);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 0x11, 4 * 4096);
	struct kfd_mem *m = NULL;
	ck_assert_int_eq(kfd_mem_register(proc, buf + 100, 2 * 4096, gpu_id, &m), 0);
	ck_assert_ptr_eq(m->addr, buf);
	ck_assert_uint_eq(m->size, 3 * 4096);
	ck_assert(m->external);
	ck_assert_ptr_eq(kfd_mem_find(proc, buf + 5000), m);
	map(m);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
	ck_assert_uint_eq(buf[4 * 4096 - 1], 0x11);
	free(buf);
}
END_TEST

START_TEST(register_over_an_allocation_is_eexist)
{
	struct kfd_mem *m = alloc(KFD_MEM_GTT, 8192, true);
	struct kfd_mem *r = (struct kfd_mem *)1;
	ck_assert_int_eq(kfd_mem_register(proc, m->addr, 4096, gpu_id, &r), -EEXIST);
	ck_assert_ptr_null(r);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

/* The kernel lets USERPTR BOs pin the same pages (each ALLOC takes its own
 * page references); only their GPU VAs must differ.  Aliases overlapping
 * each other and a BO at the host VA all map. */
START_TEST(aliases_of_the_same_pages_coexist)
{
	uint8_t *buf = aligned_alloc(4096, 3 * 4096);
	ck_assert_ptr_nonnull(buf);
	struct kfd_mem *at = NULL, *a1 = NULL, *a2 = NULL;
	ck_assert_int_eq(kfd_mem_register(proc, buf, 2 * 4096, gpu_id, &at), 0);
	ck_assert_int_eq(kfd_mem_register_alias(proc, buf + 100, 1024, gpu_id, 0, &a1), 0);
	ck_assert_int_eq(kfd_mem_register_alias(proc, buf, 3 * 4096, gpu_id, KFD_ALLOC_COHERENT,
						 &a2), 0);
	ck_assert_ptr_ne(a1->addr, buf);
	ck_assert_ptr_eq(a1->user_addr, buf);
	ck_assert_uint_eq(a1->size, 4096);
	ck_assert(!a1->host_access && a1->external);
	ck_assert_uint_eq(a2->flags & KFD_ALLOC_COHERENT, KFD_ALLOC_COHERENT);
	map(at);
	map(a1);
	map(a2);
	ck_assert_ptr_eq(kfd_mem_find(proc, (char *)a2->addr + 8192), a2);
	ck_assert_ptr_eq(kfd_mem_first_in(proc, (uintptr_t)buf, (uintptr_t)buf + 4096), at);
	ck_assert_int_eq(kfd_mem_free(proc, a2), 0);
	ck_assert_int_eq(kfd_mem_free(proc, at), 0);
	ck_assert_int_eq(kfd_mem_free(proc, a1), 0);
	free(buf);
}
END_TEST

START_TEST(find_returns_the_containing_allocation)
{
	struct kfd_mem *a = alloc(KFD_MEM_GTT, 8192, true);
	struct kfd_mem *b = alloc(KFD_MEM_USERPTR, 4096, true);
	ck_assert_ptr_eq(kfd_mem_find(proc, (char *)a->addr + 8191), a);
	ck_assert_ptr_eq(kfd_mem_find(proc, b->addr), b);
	ck_assert_ptr_null(kfd_mem_find(proc, (char *)a->addr + 8192));
	void *a_addr = a->addr;
	ck_assert_int_eq(kfd_mem_free(proc, a), 0);
	ck_assert_ptr_null(kfd_mem_find(proc, a_addr));
	ck_assert_int_eq(kfd_mem_free(proc, b), 0);
}
END_TEST

START_TEST(map_twice_maps_once)
{
	struct kfd_mem *m = alloc(KFD_MEM_GTT, 4096, true);
	map(m);
	map(m);
	ck_assert_uint_eq(m->n_mapped, 1);
	ck_assert_uint_eq(m->mapped_gpus[0], gpu_id);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(unmap_forgets_the_gpu)
{
	struct kfd_mem *m = alloc(KFD_MEM_GTT, 4096, true);
	map(m);
	ck_assert_int_eq(kfd_mem_unmap(proc, m, &gpu_id, 1), 0);
	ck_assert_uint_eq(m->n_mapped, 0);
	/* Not mapped any more: nothing to do. */
	ck_assert_int_eq(kfd_mem_unmap(proc, m, &gpu_id, 1), 0);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(map_on_an_unknown_gpu_is_einval)
{
	struct kfd_mem *m = alloc(KFD_MEM_GTT, 4096, true);
	uint32_t bad = gpu_id ^ 0xFFFF;
	ck_assert_int_eq(kfd_mem_map(proc, m, &bad, 1), -EINVAL);
	ck_assert_uint_eq(m->n_mapped, 0);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(kernel_refuses_to_free_mapped_memory_with_ebusy)
{
	struct kfd_mem *m = alloc(KFD_MEM_GTT, 4096, true);
	map(m);
	struct kfd_args_free_memory_of_gpu f = { .handle = m->handle };
	ck_assert_int_eq(kfd_ioctl(proc->fd, KFD_IOCTL_FREE_MEMORY_OF_GPU, &f), -EBUSY);
	/* kfd_mem_free unmaps first. */
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(alloc_of_zero_bytes_is_einval)
{
	struct kfd_mem_alloc_args a = { .kind = KFD_MEM_GTT, .gpu_id = gpu_id, .size = 0 };
	struct kfd_mem *m = (struct kfd_mem *)1;
	ck_assert_int_eq(kfd_mem_alloc(proc, &a, &m), -EINVAL);
	ck_assert_ptr_null(m);
}
END_TEST

START_TEST(alloc_with_a_non_power_of_two_alignment_is_einval)
{
	struct kfd_mem_alloc_args a = {
		.kind = KFD_MEM_GTT, .gpu_id = gpu_id, .size = 4096, .align = 12288,
	};
	struct kfd_mem *m;
	ck_assert_int_eq(kfd_mem_alloc(proc, &a, &m), -EINVAL);
}
END_TEST

START_TEST(alloc_of_doorbell_kind_is_einval)
{
	struct kfd_mem_alloc_args a = {
		.kind = KFD_MEM_DOORBELL, .gpu_id = gpu_id, .size = 8192,
	};
	struct kfd_mem *m;
	ck_assert_int_eq(kfd_mem_alloc(proc, &a, &m), -EINVAL);
}
END_TEST

START_TEST(alloc_on_an_unknown_gpu_is_einval)
{
	struct kfd_mem_alloc_args a = {
		.kind = KFD_MEM_VRAM, .gpu_id = gpu_id ^ 0xFFFF, .size = 4096,
	};
	struct kfd_mem *m;
	ck_assert_int_eq(kfd_mem_alloc(proc, &a, &m), -EINVAL);
}
END_TEST

START_TEST(alloc_honours_a_large_alignment)
{
	struct kfd_mem_alloc_args a = {
		.kind = KFD_MEM_GTT, .gpu_id = gpu_id, .size = 4096, .align = 4u << 20,
	};
	struct kfd_mem *m;
	ck_assert_int_eq(kfd_mem_alloc(proc, &a, &m), 0);
	ck_assert_uint_eq((uintptr_t)m->addr & ((4u << 20) - 1), 0);
	ck_assert_int_eq(kfd_mem_free(proc, m), 0);
}
END_TEST

START_TEST(free_of_null_is_a_noop)
{
	ck_assert_int_eq(kfd_mem_free(proc, NULL), 0);
}
END_TEST

static void *alloc_map_free_loop(void *arg)
{
	intptr_t failures = 0;
	enum kfd_mem_kind kind = (enum kfd_mem_kind)(intptr_t)arg;
	for (int i = 0; i < 50; i++) {
		struct kfd_mem_alloc_args a = {
			.kind = kind, .gpu_id = gpu_id, .size = 4096u << (i % 4), .host_access = true,
		};
		struct kfd_mem *m;
		if (kfd_mem_alloc(proc, &a, &m)) {
			failures++;
			continue;
		}
		*(char *)m->addr = (char)i; /* the CPU mapping is live */
		if (kfd_mem_map(proc, m, &gpu_id, 1) || kfd_mem_find(proc, m->addr) != m)
			failures++;
		if (kfd_mem_free(proc, m))
			failures++;
	}
	return (void *)failures;
}

START_TEST(allocations_from_four_threads_are_independent)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, alloc_map_free_loop,
						(void *)(intptr_t)(i % 2 ? KFD_MEM_GTT
									 : KFD_MEM_USERPTR)), 0);
	intptr_t failures = 0;
	for (int i = 0; i < 4; i++) {
		void *r;
		pthread_join(t[i], &r);
		failures += (intptr_t)r;
	}
	ck_assert_int_eq(failures, 0);
}
END_TEST

/* ---- events ---- */

START_TEST(signal_event_has_an_unsignaled_mailbox)
{
	struct kfd_event ev;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, true, &ev), 0);
	ck_assert_uint_ge(ev.id, 1);
	ck_assert_ptr_nonnull(ev.mailbox);
	ck_assert_uint_eq(*ev.mailbox, KFD_EVENT_SLOT_UNSIGNALED);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), 0);
}
END_TEST

START_TEST(event_page_cannot_be_freed)
{
	struct kfd_event ev;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, true, &ev), 0);
	struct kfd_mem *page = kfd_mem_find(proc, ev.mailbox);
	ck_assert_ptr_nonnull(page);
	ck_assert_uint_eq(page->size, KFD_EVENT_PAGE_SIZE);
	ck_assert_int_eq(kfd_mem_free(proc, page), -EPERM);
	ck_assert_ptr_eq(kfd_mem_find(proc, ev.mailbox), page);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), 0);
}
END_TEST

START_TEST(set_event_completes_a_wait)
{
	struct kfd_event ev, *evs[1] = { &ev };
	uint32_t result = 99;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, true, &ev), 0);
	ck_assert_int_eq(kfd_event_set(proc, &ev), 0);
	ck_assert_int_eq(kfd_event_wait(proc, evs, 1, false, KFD_WAIT_TIMEOUT_INFINITE, &result,
					NULL), 0);
	ck_assert_uint_eq(result, KFD_WAIT_COMPLETE);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), 0);
}
END_TEST

START_TEST(wait_on_an_unsignaled_event_times_out)
{
	struct kfd_event ev, *evs[1] = { &ev };
	uint32_t result = 99;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, true, &ev), 0);
	ck_assert_int_eq(kfd_event_wait(proc, evs, 1, false, 10, &result, NULL), 0);
	ck_assert_uint_eq(result, KFD_WAIT_TIMEOUT);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), 0);
}
END_TEST

START_TEST(auto_reset_event_is_consumed_by_a_wait)
{
	struct kfd_event ev, *evs[1] = { &ev };
	uint32_t result = 99;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, true, &ev), 0);
	ck_assert_int_eq(kfd_event_set(proc, &ev), 0);
	ck_assert_int_eq(kfd_event_wait(proc, evs, 1, false, 0, &result, NULL), 0);
	ck_assert_uint_eq(result, KFD_WAIT_COMPLETE);
	ck_assert_int_eq(kfd_event_wait(proc, evs, 1, false, 0, &result, NULL), 0);
	ck_assert_uint_eq(result, KFD_WAIT_TIMEOUT);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), 0);
}
END_TEST

/* A thread asleep in WAIT_EVENTS on an auto-reset event; two sets back to
 * back.  The first wakes it and takes its waiter off the event's wait queue
 * (the kernel's autoremove wake-up), so the second finds no waiter and
 * leaves the event signaled for the next wait: two threads that wait on one
 * event (ROCr's queues share one, its async-event thread waits on it too)
 * must not lose the second set to the first waiter. */
struct sleeper {
	struct kfd_event *ev;
	_Atomic pid_t tid;
	uint32_t result;
	int ret;
};

static void *sleep_on_event(void *arg)
{
	struct sleeper *s = arg;
	struct kfd_event *evs[1] = { s->ev };
	/* release: the main thread reads the tid with acquire */
	atomic_store_explicit(&s->tid, gettid(), memory_order_release);
	s->ret = kfd_event_wait(proc, evs, 1, false, KFD_WAIT_TIMEOUT_INFINITE, &s->result, NULL);
	return NULL;
}

/* Whether thread tid of this process sleeps (state S in its stat). */
static bool thread_sleeps(pid_t tid)
{
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *end = strrchr(buf, ')'); /* the state follows the comm */
	return end && end[1] == ' ' && end[2] == 'S';
}

START_TEST(second_set_while_the_woken_waiter_leaves_stays_signaled)
{
	struct kfd_event ev, *evs[1] = { &ev };
	uint32_t result = 99;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, true, &ev), 0);
	struct sleeper s = { .ev = &ev };
	pthread_t t;
	ck_assert_int_eq(pthread_create(&t, NULL, sleep_on_event, &s), 0);
	pid_t tid;
	while (!(tid = atomic_load_explicit(&s.tid, memory_order_acquire)))
		sched_yield();
	/* asleep in the wait (its condvar), not on the way to it */
	for (int i = 0; i < 2; i++) {
		while (!thread_sleeps(tid))
			usleep(1000);
		usleep(20000); /* and still asleep: not a passing lock wait */
	}
	ck_assert_int_eq(kfd_event_set(proc, &ev), 0);
	ck_assert_int_eq(kfd_event_set(proc, &ev), 0);
	pthread_join(t, NULL);
	ck_assert_int_eq(s.ret, 0);
	ck_assert_uint_eq(s.result, KFD_WAIT_COMPLETE);
	ck_assert_int_eq(kfd_event_wait(proc, evs, 1, false, 0, &result, NULL), 0);
	ck_assert_msg(result == KFD_WAIT_COMPLETE, "the second set was lost (wait result %u)",
		      result);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), 0);
}
END_TEST

START_TEST(wait_advances_the_event_age)
{
	struct kfd_event ev, *evs[1] = { &ev };
	uint32_t result;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, false, &ev), 0);
	ck_assert_uint_eq(ev.age, 1);
	ck_assert_int_eq(kfd_event_set(proc, &ev), 0);
	ck_assert_int_eq(kfd_event_wait(proc, evs, 1, false, 0, &result, NULL), 0);
	ck_assert_uint_eq(result, KFD_WAIT_COMPLETE);
	if (proc->version_minor >= 14)
		ck_assert_uint_eq(ev.age, 2);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), 0);
}
END_TEST

START_TEST(reset_event_unsignals_a_manual_reset_event)
{
	struct kfd_event ev, *evs[1] = { &ev };
	uint32_t result;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, false, &ev), 0);
	ck_assert_int_eq(kfd_event_set(proc, &ev), 0);
	ck_assert_int_eq(kfd_event_wait(proc, evs, 1, false, 0, &result, NULL), 0);
	ck_assert_uint_eq(result, KFD_WAIT_COMPLETE);
	/* Still signaled: a manual-reset event is not consumed. */
	ck_assert_int_eq(kfd_event_wait(proc, evs, 1, false, 0, &result, NULL), 0);
	ck_assert_uint_eq(result, KFD_WAIT_COMPLETE);
	ck_assert_int_eq(kfd_event_reset(proc, &ev), 0);
	ck_assert_int_eq(kfd_event_wait(proc, evs, 1, false, 0, &result, NULL), 0);
	ck_assert_uint_eq(result, KFD_WAIT_TIMEOUT);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), 0);
}
END_TEST

START_TEST(wait_all_needs_every_event)
{
	struct kfd_event a, b, *evs[2] = { &a, &b };
	uint32_t result;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, false, &a), 0);
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, false, &b), 0);
	ck_assert_uint_ne(a.id, b.id);
	ck_assert_int_eq(kfd_event_set(proc, &a), 0);
	ck_assert_int_eq(kfd_event_wait(proc, evs, 2, true, 0, &result, NULL), 0);
	ck_assert_uint_eq(result, KFD_WAIT_TIMEOUT);
	ck_assert_int_eq(kfd_event_wait(proc, evs, 2, false, 0, &result, NULL), 0);
	ck_assert_uint_eq(result, KFD_WAIT_COMPLETE);
	ck_assert_int_eq(kfd_event_destroy(proc, &a), 0);
	ck_assert_int_eq(kfd_event_destroy(proc, &b), 0);
}
END_TEST

START_TEST(set_of_a_destroyed_event_is_einval)
{
	struct kfd_event ev;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_SIGNAL, true, &ev), 0);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), 0);
	ck_assert_int_eq(kfd_event_set(proc, &ev), -EINVAL);
}
END_TEST

START_TEST(memory_event_has_no_mailbox)
{
	struct kfd_event ev;
	ck_assert_int_eq(kfd_event_create(proc, KFD_EVENT_TYPE_MEMORY, false, &ev), 0);
	ck_assert_ptr_null(ev.mailbox);
	ck_assert_uint_ge(ev.id, KFD_EVENT_ID_OTHER_FIRST);
	ck_assert_int_eq(kfd_event_destroy(proc, &ev), 0);
}
END_TEST

START_TEST(unknown_event_type_is_einval)
{
	struct kfd_event ev;
	ck_assert_int_eq(kfd_event_create(proc, 42, false, &ev), -EINVAL);
}
END_TEST

/* ---- queues ---- */

struct queue_mem {
	struct kfd_mem *ring, *ptrs, *eop, *cwsr;
	struct kfd_queue_args args;
};

/* A minimal valid AQL queue for the GPU, as the queue layer will build it:
 * ring and the amd_queue_t page in GTT, EOP in VRAM, the CWSR area sized by
 * the node's formula, everything mapped to the GPU. */
static void queue_mem_create(struct queue_mem *q)
{
	struct kfd_cwsr_sizes cw;
	kfd_cwsr_sizes(proc->gpus[0].node, &cw);
	ck_assert_uint_ne(cw.cwsr_size, 0);

	q->ring = alloc(KFD_MEM_GTT, 64 << 10, true);
	q->ptrs = alloc(KFD_MEM_GTT, 4096, true);
	q->cwsr = alloc(KFD_MEM_GTT, cw.total_size, true);
	map(q->ring);
	map(q->ptrs);
	map(q->cwsr);
	q->eop = NULL;
	if (cw.eop_size) {
		q->eop = alloc(KFD_MEM_VRAM, cw.eop_size, false);
		map(q->eop);
	}
	/* Every packet INVALID (type 1), as ROCr leaves an empty ring. */
	for (uint32_t i = 0; i < (64u << 10) / 64; i++)
		*(uint16_t *)((char *)q->ring->addr + i * 64) = 1;
	uint32_t xcc = proc->gpus[0].node->props.num_xcc;
	for (uint32_t i = 0; i < xcc; i++) {
		struct kfd_context_save_area_header *h =
			(void *)((char *)q->cwsr->addr + (uint64_t)i * cw.cwsr_size);
		memset(h, 0, sizeof(*h));
		h->debug_offset = (xcc - i) * cw.cwsr_size;
		h->debug_size = cw.debug_size * xcc;
	}
	q->args = (struct kfd_queue_args){
		.gpu_id = gpu_id,
		.type = KFD_QUEUE_TYPE_COMPUTE_AQL,
		.percentage = 100,
		.priority = 7,
		.ring = q->ring->addr,
		.ring_size = 64 << 10,
		.write_ptr = (uint64_t *)((char *)q->ptrs->addr + 56),
		.read_ptr = (uint64_t *)((char *)q->ptrs->addr + 128),
		.eop = q->eop ? q->eop->addr : NULL,
		.eop_size = q->eop ? cw.eop_size : 0,
		.ctx_save = q->cwsr->addr,
		.ctx_save_size = cw.cwsr_size,
		.ctl_stack_size = cw.ctl_stack_size,
	};
}

static void queue_mem_free(struct queue_mem *q)
{
	ck_assert_int_eq(kfd_mem_free(proc, q->ring), 0);
	ck_assert_int_eq(kfd_mem_free(proc, q->ptrs), 0);
	ck_assert_int_eq(kfd_mem_free(proc, q->cwsr), 0);
	ck_assert_int_eq(kfd_mem_free(proc, q->eop), 0);
}

START_TEST(queue_create_maps_a_doorbell_in_the_slice)
{
	struct queue_mem q;
	uint32_t id;
	uint64_t *db = NULL;
	queue_mem_create(&q);
	ck_assert_int_eq(kfd_queue_create(proc, &q.args, &id, &db), 0);
	void *slice = proc->gpus[0].doorbell_slice;
	ck_assert_ptr_nonnull(slice);
	ck_assert_uint_ge((uintptr_t)db, (uintptr_t)slice);
	ck_assert_uint_lt((uintptr_t)db, (uintptr_t)slice + KFD_DOORBELL_SLICE_SIZE);
	ck_assert_uint_eq((uintptr_t)db & 7, 0);
	ck_assert_int_eq(kfd_queue_destroy(proc, id), 0);
	queue_mem_free(&q);
}
END_TEST

START_TEST(second_queue_shares_the_doorbell_slice)
{
	struct queue_mem q1, q2;
	uint32_t id1, id2;
	uint64_t *db1, *db2;
	queue_mem_create(&q1);
	queue_mem_create(&q2);
	ck_assert_int_eq(kfd_queue_create(proc, &q1.args, &id1, &db1), 0);
	ck_assert_int_eq(kfd_queue_create(proc, &q2.args, &id2, &db2), 0);
	ck_assert_uint_ne(id1, id2);
	ck_assert_ptr_ne(db1, db2);
	ck_assert_uint_lt((uintptr_t)db2 - (uintptr_t)proc->gpus[0].doorbell_slice,
			  KFD_DOORBELL_SLICE_SIZE);
	ck_assert_int_eq(kfd_queue_destroy(proc, id2), 0);
	ck_assert_int_eq(kfd_queue_destroy(proc, id1), 0);
	queue_mem_free(&q2);
	queue_mem_free(&q1);
}
END_TEST

START_TEST(queue_update_and_cu_mask_reach_the_kernel)
{
	struct queue_mem q;
	uint32_t id;
	uint64_t *db;
	uint32_t mask[4] = { 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFF };
	queue_mem_create(&q);
	ck_assert_int_eq(kfd_queue_create(proc, &q.args, &id, &db), 0);
	ck_assert_int_eq(kfd_queue_update(proc, id, 50, 9, q.args.ring, q.args.ring_size), 0);
	ck_assert_int_eq(kfd_queue_set_cu_mask(proc, id, mask, 128), 0);
	ck_assert_int_eq(kfd_queue_set_cu_mask(proc, id, mask, 100), -EINVAL);
	ck_assert_int_eq(kfd_queue_destroy(proc, id), 0);
	queue_mem_free(&q);
}
END_TEST

START_TEST(destroy_of_an_unknown_queue_is_einval)
{
	ck_assert_int_eq(kfd_queue_destroy(proc, 1000), -EINVAL);
}
END_TEST

START_TEST(queue_with_a_wrong_ctl_stack_size_is_einval)
{
	struct queue_mem q;
	uint32_t id;
	uint64_t *db = NULL;
	queue_mem_create(&q);
	q.args.ctl_stack_size += 4096;
	ck_assert_int_eq(kfd_queue_create(proc, &q.args, &id, &db), -EINVAL);
	ck_assert_ptr_null(db);
	queue_mem_free(&q);
}
END_TEST

START_TEST(queue_ring_size_not_a_power_of_two_is_einval)
{
	struct queue_mem q;
	uint32_t id;
	uint64_t *db = NULL;
	queue_mem_create(&q);
	q.args.ring_size = 3000;
	ck_assert_int_eq(kfd_queue_create(proc, &q.args, &id, &db), -EINVAL);
	queue_mem_free(&q);
}
END_TEST

static Suite *emu_suite(void)
{
	Suite *s = suite_create("kfd_emu");
	TCase *tc = tcase_create("device");
	tcase_add_unchecked_fixture(tc, skip_without_kfd, NULL);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, open_finds_the_mi210);
	tcase_add_test(tc, apertures_cover_a_47_bit_gpuvm);
	tcase_add_test(tc, clock_counters_report_a_1ghz_system_clock);
	tcase_add_test(tc, clock_counters_are_one_instant);
	tcase_add_test(tc, clock_counters_of_an_unknown_gpu_are_einval);
	tcase_add_test(tc, available_memory_is_2mib_aligned);
	tcase_add_test(tc, fork_child_sees_forked_and_leaves_the_parent_alone);
	tcase_add_test(tc, fork_child_can_open_its_own_process);
	tcase_add_test(tc, reopen_in_the_same_process_works);
	tcase_add_test(tc, gtt_is_cpu_visible_at_its_gpu_address);
	tcase_add_test(tc, vram_with_host_access_is_public);
	tcase_add_test(tc, vram_without_host_access_is_private);
	tcase_add_test(tc, userptr_is_host_memory_registered_in_place);
	tcase_add_test(tc, readonly_memory_is_not_writable);
	tcase_add_test(tc, register_keeps_the_callers_pages);
	tcase_add_test(tc, register_over_an_allocation_is_eexist);
	tcase_add_test(tc, aliases_of_the_same_pages_coexist);
	tcase_add_test(tc, find_returns_the_containing_allocation);
	tcase_add_test(tc, map_twice_maps_once);
	tcase_add_test(tc, unmap_forgets_the_gpu);
	tcase_add_test(tc, map_on_an_unknown_gpu_is_einval);
	tcase_add_test(tc, kernel_refuses_to_free_mapped_memory_with_ebusy);
	tcase_add_test(tc, alloc_of_zero_bytes_is_einval);
	tcase_add_test(tc, alloc_with_a_non_power_of_two_alignment_is_einval);
	tcase_add_test(tc, alloc_of_doorbell_kind_is_einval);
	tcase_add_test(tc, alloc_on_an_unknown_gpu_is_einval);
	tcase_add_test(tc, alloc_honours_a_large_alignment);
	tcase_add_test(tc, free_of_null_is_a_noop);
	tcase_add_test(tc, allocations_from_four_threads_are_independent);
	tcase_add_test(tc, signal_event_has_an_unsignaled_mailbox);
	tcase_add_test(tc, event_page_cannot_be_freed);
	tcase_add_test(tc, set_event_completes_a_wait);
	tcase_add_test(tc, wait_on_an_unsignaled_event_times_out);
	tcase_add_test(tc, auto_reset_event_is_consumed_by_a_wait);
	tcase_add_test(tc, second_set_while_the_woken_waiter_leaves_stays_signaled);
	tcase_add_test(tc, wait_advances_the_event_age);
	tcase_add_test(tc, reset_event_unsignals_a_manual_reset_event);
	tcase_add_test(tc, wait_all_needs_every_event);
	tcase_add_test(tc, set_of_a_destroyed_event_is_einval);
	tcase_add_test(tc, memory_event_has_no_mailbox);
	tcase_add_test(tc, unknown_event_type_is_einval);
	tcase_add_test(tc, queue_create_maps_a_doorbell_in_the_slice);
	tcase_add_test(tc, second_queue_shares_the_doorbell_slice);
	tcase_add_test(tc, queue_update_and_cu_mask_reach_the_kernel);
	tcase_add_test(tc, destroy_of_an_unknown_queue_is_einval);
	tcase_add_test(tc, queue_with_a_wrong_ctl_stack_size_is_einval);
	tcase_add_test(tc, queue_ring_size_not_a_power_of_two_is_einval);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(emu_suite)
