/*
 * amd_hsa_queue.h - amd_queue_t, the AQL queue descriptor shared by the
 * runtime, the packet processor (CP firmware) and device code.
 *
 * hsa_queue_t* handed to clients points at the first member, so the
 * runtime recovers the amd_queue_t by a plain cast.  The CP is given the
 * addresses of write_dispatch_id and read_dispatch_id as the queue's write
 * and read pointers (KFD CREATE_QUEUE write_pointer_address/
 * read_pointer_address) and finds the struct base from the read pointer
 * through read_dispatch_id_field_base_byte_offset.  Device code (ockl)
 * reads the aperture and scratch fields.  Layout: ROCr 5.2, 256 bytes,
 * 64-byte aligned; the offsets are pinned below.
 */
#ifndef AMD_HSA_QUEUE_H
#define AMD_HSA_QUEUE_H

#include "amd_hsa_common.h"
#include "hsa.h"

/* Bits of amd_queue_t.queue_properties. */
typedef uint32_t amd_queue_properties32_t;
enum amd_queue_properties_t {
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER, 0, 1),
	/* 64-bit pointers in the queue and packets; always set on x86-64 */
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_IS_PTR64, 1, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS, 2, 1),
	/* the CP records start/end timestamps in completion signals */
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, 3, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE, 4, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_RESERVED1, 5, 27)
};

#define AMD_QUEUE_ALIGN_BYTES 64
#define AMD_QUEUE_ALIGN __ALIGNED__(AMD_QUEUE_ALIGN_BYTES)

typedef struct AMD_QUEUE_ALIGN amd_queue_s {
	hsa_queue_t hsa_queue;
	uint32_t reserved1[4];
	/* Producer index, also the KFD write pointer (the doorbell carries it too). */
	volatile uint64_t write_dispatch_id;
	uint32_t group_segment_aperture_base_hi;   /* LDS aperture, high 32 bits */
	uint32_t private_segment_aperture_base_hi; /* scratch aperture, high 32 bits */
	uint32_t max_cu_id;
	uint32_t max_wave_id;
	/* gfx7/8 legacy doorbell emulation only. */
	volatile uint64_t max_legacy_doorbell_dispatch_id_plus_1;
	volatile uint32_t legacy_doorbell_lock;
	uint32_t reserved2[9];
	/* Consumer index: written by the CP as packets retire. */
	volatile uint64_t read_dispatch_id;
	/* offsetof(amd_queue_t, read_dispatch_id), i.e. 128. */
	uint32_t read_dispatch_id_field_base_byte_offset;
	uint32_t compute_tmpring_size; /* COMPUTE_TMPRING_SIZE register image */
	uint32_t scratch_resource_descriptor[4];
	uint64_t scratch_backing_memory_location;
	uint64_t scratch_backing_memory_byte_size;
	uint32_t scratch_wave64_lane_byte_size;
	amd_queue_properties32_t queue_properties;
	uint32_t reserved3[2];
	/* The CP stores an error code here when it stops the queue. */
	hsa_signal_t queue_inactive_signal;
	uint32_t reserved4[14];
} amd_queue_t;

#ifdef HSA_LARGE_MODEL
HSA_LAYOUT_ASSERT_(sizeof(amd_queue_t) == 256, "amd_queue_t is 256 bytes");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, hsa_queue) == 0, "amd_queue_t.hsa_queue");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, write_dispatch_id) == 56, "amd_queue_t.write_dispatch_id");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, group_segment_aperture_base_hi) == 64,
		   "amd_queue_t.group_segment_aperture_base_hi");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, private_segment_aperture_base_hi) == 68,
		   "amd_queue_t.private_segment_aperture_base_hi");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, max_cu_id) == 72, "amd_queue_t.max_cu_id");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, max_wave_id) == 76, "amd_queue_t.max_wave_id");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, max_legacy_doorbell_dispatch_id_plus_1) == 80,
		   "amd_queue_t.max_legacy_doorbell_dispatch_id_plus_1");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, legacy_doorbell_lock) == 88,
		   "amd_queue_t.legacy_doorbell_lock");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, read_dispatch_id) == 128, "amd_queue_t.read_dispatch_id");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, read_dispatch_id_field_base_byte_offset) == 136,
		   "amd_queue_t.read_dispatch_id_field_base_byte_offset");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, compute_tmpring_size) == 140,
		   "amd_queue_t.compute_tmpring_size");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, scratch_resource_descriptor) == 144,
		   "amd_queue_t.scratch_resource_descriptor");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, scratch_backing_memory_location) == 160,
		   "amd_queue_t.scratch_backing_memory_location");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, scratch_backing_memory_byte_size) == 168,
		   "amd_queue_t.scratch_backing_memory_byte_size");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, scratch_wave64_lane_byte_size) == 176,
		   "amd_queue_t.scratch_wave64_lane_byte_size");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, queue_properties) == 180, "amd_queue_t.queue_properties");
HSA_LAYOUT_ASSERT_(offsetof(amd_queue_t, queue_inactive_signal) == 192,
		   "amd_queue_t.queue_inactive_signal");
#endif

#endif /* AMD_HSA_QUEUE_H */
