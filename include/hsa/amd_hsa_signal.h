/*
 * amd_hsa_signal.h - amd_signal_t, the 64-byte object an hsa_signal_t
 * handle points at on AMD agents.
 *
 * The packet processor decrements value (offset 8) when a packet with this
 * completion signal retires, then, if event_mailbox_ptr is set, writes
 * event_id to that mailbox and raises an interrupt so that KFD wakes
 * sleeping waiters.  With profiling on it writes start_ts/end_ts.  A
 * doorbell signal (kind DOORBELL) instead holds the queue's doorbell
 * address and a back pointer to its amd_queue_t; device code that enqueues
 * work reads those two fields directly.  Layout: ROCr 5.2, pinned below.
 */
#ifndef AMD_HSA_SIGNAL_H
#define AMD_HSA_SIGNAL_H

#include "amd_hsa_common.h"
#include "amd_hsa_queue.h"

typedef int64_t amd_signal_kind64_t;
enum amd_signal_kind_t {
	AMD_SIGNAL_KIND_INVALID = 0,
	AMD_SIGNAL_KIND_USER = 1,
	AMD_SIGNAL_KIND_DOORBELL = -1,
	AMD_SIGNAL_KIND_LEGACY_DOORBELL = -2
};

#define AMD_SIGNAL_ALIGN_BYTES 64
#define AMD_SIGNAL_ALIGN __ALIGNED__(AMD_SIGNAL_ALIGN_BYTES)

typedef struct AMD_SIGNAL_ALIGN amd_signal_s {
	amd_signal_kind64_t kind;
	__extension__ union {
		volatile int64_t value;                          /* USER signals */
		volatile uint32_t *legacy_hardware_doorbell_ptr; /* LEGACY_DOORBELL */
		volatile uint64_t *hardware_doorbell_ptr;        /* DOORBELL */
	};
	uint64_t event_mailbox_ptr; /* 0: nobody sleeps on this signal */
	uint32_t event_id;
	uint32_t reserved1;
	uint64_t start_ts;
	uint64_t end_ts;
	__extension__ union {
		amd_queue_t *queue_ptr; /* DOORBELL: the queue it rings */
		uint64_t reserved2;
	};
	uint32_t reserved3[2];
} amd_signal_t;

#ifdef HSA_LARGE_MODEL
HSA_LAYOUT_ASSERT_(sizeof(amd_signal_t) == 64, "amd_signal_t is 64 bytes");
HSA_LAYOUT_ASSERT_(offsetof(amd_signal_t, kind) == 0, "amd_signal_t.kind");
HSA_LAYOUT_ASSERT_(offsetof(amd_signal_t, value) == 8, "amd_signal_t.value");
HSA_LAYOUT_ASSERT_(offsetof(amd_signal_t, hardware_doorbell_ptr) == 8,
		   "amd_signal_t.hardware_doorbell_ptr");
HSA_LAYOUT_ASSERT_(offsetof(amd_signal_t, event_mailbox_ptr) == 16, "amd_signal_t.event_mailbox_ptr");
HSA_LAYOUT_ASSERT_(offsetof(amd_signal_t, event_id) == 24, "amd_signal_t.event_id");
HSA_LAYOUT_ASSERT_(offsetof(amd_signal_t, start_ts) == 32, "amd_signal_t.start_ts");
HSA_LAYOUT_ASSERT_(offsetof(amd_signal_t, end_ts) == 40, "amd_signal_t.end_ts");
HSA_LAYOUT_ASSERT_(offsetof(amd_signal_t, queue_ptr) == 48, "amd_signal_t.queue_ptr");
#endif

#endif /* AMD_HSA_SIGNAL_H */
