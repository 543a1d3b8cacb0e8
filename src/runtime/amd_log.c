/*
 * hsa_amd_enable_logging (ROCr 1.18): the runtime's optional trace of
 * what it does on its own queues, switched per topic by bit in a uint8_t[8]
 * array (hsa_amd_log_flag_t) and written to the FILE * the client passes
 * (stderr for NULL).  Only HSA_AMD_LOG_FLAG_BLIT_KERNEL_PKTS exists: every
 * barrier and dispatch packet the blit queues publish, one line each,
 * with the fields ROCr's amd_blit_kernel.cpp prints.
 *
 * As ROCr (Runtime::EnableLogging) the call replaces the flags and the file
 * whether or not the runtime is open, and the file is the client's: never
 * closed here.  A NULL flags array, which ROCr reads through, is
 * INVALID_ARGUMENT.  The state is read without a lock by the submitters:
 * the flags are atomics, and the file pointer is published after them
 * (release) and read before printing (acquire); a client that switches
 * files while copies run may see a line or two go to the old file, which
 * it must keep open until the call returns.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "hsa/amd_hsa_queue.h"
#include "runtime/runtime.h"
#include "util/barrier.h"

static _Atomic uint8_t log_flags[8];
static _Atomic(FILE *) log_file;

hsa_status_t hsa_amd_enable_logging(uint8_t *flags, void *file)
{
	if (!flags)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	for (int i = 0; i < 8; i++)
		atomic_store_explicit(&log_flags[i], flags[i], memory_order_relaxed);
	/* release: pairs with the acquire in hl_amd_log_file */
	atomic_store_explicit(&log_file, file ? (FILE *)file : stderr, memory_order_release);
	return HSA_STATUS_SUCCESS;
}

bool hl_amd_log_on(hsa_amd_log_flag_t flag)
{
	uint32_t bit = (uint32_t)flag;
	return bit < 64 &&
	       (atomic_load_explicit(&log_flags[bit / 8], memory_order_relaxed) >> (bit % 8)) & 1u;
}

static FILE *hl_amd_log_file(void)
{
	FILE *f = atomic_load_explicit(&log_file, memory_order_acquire);
	return f ? f : stderr;
}

static unsigned field(uint32_t hdr, unsigned shift, unsigned width)
{
	return (hdr >> shift) & ((1u << width) - 1);
}

static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_line(const char *fmt, ...)
{
	FILE *f = hl_amd_log_file();
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	va_list ap;
	va_start(ap, fmt);
	flockfile(f);
	fprintf(f, "[%lld.%06ld] hsalite blit: ", (long long)ts.tv_sec, ts.tv_nsec / 1000);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	funlockfile(f);
	fflush(f);
	va_end(ap);
}

void hl_amd_log_blit_packets(const hsa_queue_t *q, const void *ring, uint64_t index,
			     uint32_t n_barriers, uint32_t barrier_hdr, uint32_t dispatch_hdr)
{
	const hsa_barrier_and_packet_t *base = ring;
	uint64_t wptr = index + n_barriers + 1;
	for (uint32_t i = 0; i <= n_barriers; i++) {
		uint64_t slot = (index + i) & (q->size - 1);
		if (i < n_barriers) {
			const hsa_barrier_and_packet_t *p = &base[slot];
			log_line("HWq=%p, id=%" PRIu64 ", Barrier Header = 0x%x (type=%u, "
				 "barrier=%u, acquire=%u, release=%u), dep_signal=[0x%" PRIx64
				 " 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64
				 "], completion_signal=0x%" PRIx64 " wptr=%" PRIu64,
				 q->base_address, q->id, barrier_hdr,
				 field(barrier_hdr, HSA_PACKET_HEADER_TYPE, HSA_PACKET_HEADER_WIDTH_TYPE),
				 field(barrier_hdr, HSA_PACKET_HEADER_BARRIER, 1),
				 field(barrier_hdr, HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE, 2),
				 field(barrier_hdr, HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE, 2),
				 p->dep_signal[0].handle, p->dep_signal[1].handle,
				 p->dep_signal[2].handle, p->dep_signal[3].handle,
				 p->dep_signal[4].handle, p->completion_signal.handle, wptr);
			continue;
		}
		const hsa_kernel_dispatch_packet_t *p = (const void *)&base[slot];
		log_line("HWq=%p, id=%" PRIu64 ", Dispatch Header = 0x%x (type=%u, barrier=%u, "
			 "acquire=%u, release=%u), setup=%u, grid=[%u, %u, %u], workgroup=[%u, %u, "
			 "%u], private_seg_size=%u, group_seg_size=%u, kernel_obj=0x%" PRIx64
			 ", kernarg_address=%p, completion_signal=0x%" PRIx64 " wptr=%" PRIu64,
			 q->base_address, q->id, dispatch_hdr & 0xffffu,
			 field(dispatch_hdr, HSA_PACKET_HEADER_TYPE, HSA_PACKET_HEADER_WIDTH_TYPE),
			 field(dispatch_hdr, HSA_PACKET_HEADER_BARRIER, 1),
			 field(dispatch_hdr, HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE, 2),
			 field(dispatch_hdr, HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE, 2),
			 dispatch_hdr >> 16, p->grid_size_x, p->grid_size_y, p->grid_size_z,
			 p->workgroup_size_x, p->workgroup_size_y, p->workgroup_size_z,
			 p->private_segment_size, p->group_segment_size, p->kernel_object,
			 p->kernarg_address, p->completion_signal.handle, wptr);
	}
}
