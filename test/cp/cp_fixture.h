/*
 * Fixture for the command-processor suites: a machine from the kfdemu core
 * API (test/emu/emu_fixture.h), AQL queues made with raw CREATE_QUEUE the
 * way a runtime makes them (ring of INVALID headers, a zeroed amd_queue_t
 * page whose read/write dispatch ids are KFD's pointers, EOP, CWSR),
 * signals in a GTT buffer, signal events on a user event page, and a
 * producer that publishes packets as the HSA spec says (reserve the write
 * index, write the body, release-store the header, ring the doorbell with
 * the last index).  The test process plays both the runtime and the GPU's
 * host: the CP threads run inside it.
 */
#ifndef CP_FIXTURE_H
#define CP_FIXTURE_H

#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "emu_fixture.h"
#include "hsa/amd_hsa_queue.h"
#include "hsa/amd_hsa_signal.h"
#include "hsa/hsa.h"

struct cpq {
	uint32_t id;
	uint32_t size;                 /* packets */
	uint64_t ring_va, aq_va;
	uint8_t *ring;
	amd_queue_t *aq;
	_Atomic uint64_t *db;
	uint64_t next;                 /* producer's next index */
	uint64_t cwsr_va;              /* its context-save area */
};

static inline void *cp_host(uint64_t va, uint64_t len)
{
	void *h = NULL;
	ck_assert_int_eq(kemu_vm_translate(E.p, E.gpu_id, va, len, KEMU_ACCESS_READ, &h, NULL), 0);
	return h;
}

static inline uint64_t cp_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline void cp_sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static uint64_t cp_sig_va, cp_event_page_va, cp_event_page_h;

/* A machine of the preset whose first GPU has hqd_slots slots (0: the
 * preset's), with /dev/kfd and its render node open and the VM acquired. */
static inline void cp_setup_preset(const char *preset, uint32_t slots)
{
	memset(&E, 0, sizeof(E));
	cp_sig_va = cp_event_page_va = cp_event_page_h = 0;
	ck_assert_int_eq(kemu_topology_create(preset, 1, false, &E.topo), 0);
	if (slots)
		E.topo.gpus[0].hqd_slots = slots;
	struct kemu_machine_options o = { .size = sizeof(o), .log_level = -1 };
	ck_assert_int_eq(kemu_machine_create(&E.topo, &o, &E.m), 0);
	E.gpu = &kemu_machine_topology(E.m)->gpus[0];
	E.gpu_id = E.gpu->gpu_id;
	E.kfd = kemu_open(E.m, "/dev/kfd", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(E.kfd, 0);
	char path[64];
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", E.gpu->drm_render_minor);
	E.drm = kemu_open(E.m, path, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(E.drm, 0);
	E.p = kemu_process_find(E.m, getpid());
	ck_assert_ptr_nonnull(E.p);
	struct kfd_args_acquire_vm a = { .drm_fd = (uint32_t)E.drm, .gpu_id = E.gpu_id };
	ck_assert_int_eq(kemu_ioctl(E.m, E.kfd, KFD_IOCTL_ACQUIRE_VM, &a), 0);
}

/* An mi210 machine whose first GPU has hqd_slots slots (0: the preset's). */
static inline void cp_setup_slots(uint32_t slots)
{
	cp_setup_preset("mi210", slots);
}

static inline void cp_setup(void)
{
	cp_setup_slots(0);
}

/* Signals: 64-byte amd_signal_t slots in one GTT buffer. */
static amd_signal_t *cp_sigs;
static unsigned cp_n_sigs;
#define CP_MAX_SIGS 256

static inline uint64_t cp_signal(int64_t value)
{
	if (!cp_sig_va) {
		cp_sig_va = emu_buffer(CP_MAX_SIGS * 64, KFD_ALLOC_GTT, NULL);
		cp_sigs = cp_host(cp_sig_va, CP_MAX_SIGS * 64);
		cp_n_sigs = 0;
	}
	ck_assert_uint_lt(cp_n_sigs, CP_MAX_SIGS);
	amd_signal_t *s = &cp_sigs[cp_n_sigs];
	memset(s, 0, sizeof(*s));
	s->kind = AMD_SIGNAL_KIND_USER;
	s->value = value;
	return cp_sig_va + 64ull * cp_n_sigs++;
}

static inline amd_signal_t *cp_sig(uint64_t handle)
{
	return &cp_sigs[(handle - cp_sig_va) / 64];
}

static inline int64_t cp_sig_load(uint64_t handle)
{
	return atomic_load_explicit((_Atomic int64_t *)&cp_sig(handle)->value,
				    memory_order_acquire);
}

static inline void cp_sig_store(uint64_t handle, int64_t v)
{
	atomic_store_explicit((_Atomic int64_t *)&cp_sig(handle)->value, v, memory_order_release);
}

/* Polls until the signal holds want or timeout_ms passes; returns the
 * last value seen. */
static inline int64_t cp_sig_wait(uint64_t handle, int64_t want, unsigned timeout_ms)
{
	uint64_t end = cp_now_ns() + timeout_ms * 1000000ull;
	int64_t v;
	while ((v = cp_sig_load(handle)) != want && cp_now_ns() < end)
		sched_yield();
	return v;
}

/* The event page (a GTT BO handed to the first CREATE_EVENT) and signal
 * events on it: returns the event id; *mailbox = its slot's VA. */
static inline uint32_t cp_event(uint64_t *mailbox)
{
	struct kfd_args_create_event a = { .event_type = KFD_EVENT_TYPE_SIGNAL, .auto_reset = 1 };
	if (!cp_event_page_va) {
		cp_event_page_va = emu_buffer(KFD_EVENT_PAGE_SIZE, KFD_ALLOC_GTT, &cp_event_page_h);
		a.event_page_offset = cp_event_page_h;
	}
	ck_assert_int_eq(kio(KFD_IOCTL_CREATE_EVENT, &a), 0);
	*mailbox = cp_event_page_va + 8ull * a.event_slot_index;
	return a.event_id;
}

/* A signal whose completion raises event `*event`. */
static inline uint64_t cp_signal_with_event(int64_t value, uint32_t *event)
{
	uint64_t mailbox;
	*event = cp_event(&mailbox);
	uint64_t h = cp_signal(value);
	cp_sig(h)->event_mailbox_ptr = mailbox;
	cp_sig(h)->event_id = *event;
	return h;
}

/* The CWSR area's size as CREATE_QUEUE checks it (kfd_queue_acquire_buffers). */
static inline uint64_t cp_cwsr_total(void)
{
	uint64_t total = ((uint64_t)E.gpu->cwsr_size + E.gpu->debug_memory_size) * E.gpu->num_xcc;
	return (total + 0xFFF) & ~0xFFFull;
}

/* A queue whose context-save area is allocated with cwsr_flags (the
 * memory type and its access: KFD_ALLOC_WRITABLE missing makes it
 * read-only for the GPU, which CREATE_QUEUE does not check). */
static inline long cp_queue_create_cwsr(struct cpq *q, uint32_t packets, uint32_t priority,
					uint32_t cwsr_flags);
/* A queue whose context-save area is at cwsr, mapped, cp_cwsr_total() bytes
 * (e.g. a USERPTR BO at its host address, as a runtime places it). */
static inline long cp_queue_create_at(struct cpq *q, uint32_t packets, uint32_t priority,
				      uint64_t cwsr);

static inline long cp_queue_create_prio(struct cpq *q, uint32_t packets, uint32_t priority)
{
	return cp_queue_create_cwsr(q, packets, priority, KFD_ALLOC_GTT | KFD_ALLOC_WRITABLE);
}

static inline long cp_queue_create_cwsr(struct cpq *q, uint32_t packets, uint32_t priority,
					uint32_t cwsr_flags)
{
	uint64_t total = cp_cwsr_total();
	uint64_t cwsr = emu_va(total), cwsr_h;
	ck_assert_int_eq(emu_alloc_at(cwsr, total, cwsr_flags, &cwsr_h), 0);
	ck_assert_int_eq(emu_map(cwsr_h), 0);
	return cp_queue_create_at(q, packets, priority, cwsr);
}

static inline long cp_queue_create_at(struct cpq *q, uint32_t packets, uint32_t priority,
				      uint64_t cwsr)
{
	memset(q, 0, sizeof(*q));
	q->size = packets;
	uint64_t ring_bytes = (uint64_t)packets * 64;
	q->ring_va = emu_buffer(ring_bytes < 4096 ? 4096 : ring_bytes, KFD_ALLOC_GTT, NULL);
	q->ring = cp_host(q->ring_va, ring_bytes);
	for (uint32_t i = 0; i < packets; i++)
		*(uint16_t *)(q->ring + 64ull * i) = HSA_PACKET_TYPE_INVALID;
	q->aq_va = emu_buffer(4096, KFD_ALLOC_GTT, NULL);
	q->aq = cp_host(q->aq_va, 4096);
	memset(q->aq, 0, sizeof(*q->aq));
	q->aq->hsa_queue.size = packets;
	q->aq->hsa_queue.base_address = (void *)(uintptr_t)q->ring_va;
	q->aq->read_dispatch_id_field_base_byte_offset = 128;
	q->aq->queue_properties = 1u << AMD_QUEUE_PROPERTIES_IS_PTR64_SHIFT;
	uint64_t eop = emu_buffer(E.gpu->eop_buffer_size, KFD_ALLOC_VRAM, NULL);
	q->cwsr_va = cwsr;
	struct kfd_args_create_queue a = {
		.ring_base_address = q->ring_va, .ring_size = (uint32_t)ring_bytes,
		.write_pointer_address = q->aq_va + 56, .read_pointer_address = q->aq_va + 128,
		.gpu_id = E.gpu_id, .queue_type = KFD_QUEUE_TYPE_COMPUTE_AQL,
		.queue_percentage = 100, .queue_priority = priority,
		.eop_buffer_address = eop, .eop_buffer_size = E.gpu->eop_buffer_size,
		.ctx_save_restore_address = cwsr, .ctx_save_restore_size = E.gpu->cwsr_size,
		.ctl_stack_size = E.gpu->ctl_stack_size,
	};
	long r = kio(KFD_IOCTL_CREATE_QUEUE, &a);
	if (r)
		return r;
	q->id = a.queue_id;
	_Atomic uint64_t *slice = kemu_doorbell_slice(E.p, E.gpu_id);
	ck_assert_ptr_nonnull(slice);
	q->db = slice + (a.doorbell_offset & (KFD_DOORBELL_SLICE_SIZE - 1)) / 8;
	return 0;
}

static inline void cp_queue_create(struct cpq *q, uint32_t packets)
{
	ck_assert_int_eq(cp_queue_create_prio(q, packets, 7), 0);
}

static inline long cp_queue_destroy(struct cpq *q)
{
	struct kfd_args_destroy_queue a = { .queue_id = q->id };
	return kio(KFD_IOCTL_DESTROY_QUEUE, &a);
}

static inline uint64_t cp_rptr(const struct cpq *q)
{
	return atomic_load_explicit((_Atomic uint64_t *)&q->aq->read_dispatch_id,
				    memory_order_acquire);
}

static inline uint16_t cp_header_at(const struct cpq *q, uint64_t index)
{
	return atomic_load_explicit((_Atomic uint16_t *)(q->ring + 64 * (index % q->size)),
				    memory_order_acquire);
}

/* Publishes one packet (its header from pkt[0..1]); rings the doorbell if
 * asked.  Waits for a free slot first (bounded). */
static inline uint64_t cp_put(struct cpq *q, const void *pkt, bool doorbell)
{
	uint64_t idx = q->next++;
	uint64_t end = cp_now_ns() + 5000000000ull;
	while (idx - cp_rptr(q) >= q->size) {
		ck_assert_msg(cp_now_ns() < end, "ring full: rptr %llu idx %llu",
			      (unsigned long long)cp_rptr(q), (unsigned long long)idx);
		sched_yield();
	}
	atomic_store_explicit((_Atomic uint64_t *)&q->aq->write_dispatch_id, idx + 1,
			      memory_order_release);
	uint8_t *slot = q->ring + 64 * (idx % q->size);
	memcpy(slot + 2, (const uint8_t *)pkt + 2, 62);
	uint16_t header;
	memcpy(&header, pkt, 2);
	atomic_store_explicit((_Atomic uint16_t *)slot, header, memory_order_release);
	if (doorbell)
		atomic_store_explicit(q->db, idx, memory_order_release);
	return idx;
}

static inline uint16_t cp_hdr(unsigned type, bool barrier)
{
	return (uint16_t)(type | (barrier ? 1u << HSA_PACKET_HEADER_BARRIER : 0) |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE);
}

static inline hsa_barrier_and_packet_t cp_barrier(unsigned type, uint64_t completion,
						  uint64_t d0, uint64_t d1)
{
	hsa_barrier_and_packet_t p;
	memset(&p, 0, sizeof(p));
	p.header = cp_hdr(type, true);
	p.dep_signal[0].handle = d0;
	p.dep_signal[1].handle = d1;
	p.completion_signal.handle = completion;
	return p;
}

/* The queue's inactive signal (as a runtime sets one up). */
/* Where a hand kernel's code starts in its buffer (cp_hand_kernel). */
#define CP_HAND_CODE_OFFSET 256u

/* A kernel descriptor at the start of a fresh executable buffer with n
 * dwords of code CP_HAND_CODE_OFFSET bytes after it
 * (kernel_code_entry_byte_offset), everything else 0: no user SGPRs, 8
 * VGPRs, no LDS or scratch.  Returns the descriptor's VA; *handle and *host
 * (each may be NULL) get the buffer's handle and host address. */
static inline uint64_t cp_hand_kernel(const uint32_t *code, unsigned n, uint64_t *handle,
				      uint8_t **host)
{
	uint64_t va = emu_buffer(4096, KFD_ALLOC_GTT, handle);
	uint8_t *h = cp_host(va, 4096);
	memset(h, 0, 4096);
	int64_t entry = CP_HAND_CODE_OFFSET;
	memcpy(h + 16, &entry, 8);
	memcpy(h + CP_HAND_CODE_OFFSET, code, n * 4);
	if (host)
		*host = h;
	return va;
}

/* A one-dimensional kernel dispatch packet, barrier bit set. */
static inline hsa_kernel_dispatch_packet_t cp_dispatch_packet(uint64_t kd, uint32_t grid,
							      uint16_t wg, uint64_t kernarg,
							      uint64_t completion)
{
	hsa_kernel_dispatch_packet_t p;
	memset(&p, 0, sizeof(p));
	p.header = cp_hdr(HSA_PACKET_TYPE_KERNEL_DISPATCH, true);
	p.setup = 1;
	p.workgroup_size_x = wg;
	p.workgroup_size_y = p.workgroup_size_z = 1;
	p.grid_size_x = grid;
	p.grid_size_y = p.grid_size_z = 1;
	p.kernel_object = kd;
	p.kernarg_address = (void *)(uintptr_t)kernarg;
	p.completion_signal.handle = completion;
	return p;
}

static inline uint64_t cp_inactive_signal(struct cpq *q, uint32_t *event)
{
	uint64_t h = event ? cp_signal_with_event(0, event) : cp_signal(0);
	q->aq->queue_inactive_signal.handle = h;
	return h;
}

#endif
