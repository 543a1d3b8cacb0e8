/*
 * kfdemu: the emulated AMD GPU, as a C library (kfdemu_core).
 *
 * This is the emulator's own API, independent of the LD_PRELOAD shim, so
 * tests and tools can drive the model directly.  It models the kernel side
 * of the syscall boundary: a machine (the host with its GPUs, built from a
 * topology of emu/topology), the files user space opens on it (/dev/kfd and
 * the render nodes /dev/dri/renderD<minor>), and what those files answer to
 * ioctl() and mmap().  Every emulated file is backed by a real file
 * descriptor (a memfd), so dup/fcntl/poll/close work on it natively; the
 * machine keeps a table from fd numbers to files, like the kernel's file
 * table, so that ACQUIRE_VM can resolve its drm_fd argument.
 *
 * Conventions (as in the kernel): functions return 0 or a negative errno;
 * ioctl arguments are user pointers and are copied in and out with fault
 * checking (-EFAULT on a bad pointer, never a host crash).  One KFD process
 * exists per host process (pid) that opens /dev/kfd, shared by all its
 * opens, and lives until the machine is destroyed, as a kfd_process lives
 * until its mm goes away.
 *
 * The GPU side (the engines of emu/cp and emu/sdma) reaches the model only
 * through the struct kemu_gpu_ops of gpu/gpu.h, which the driver builds on
 * the VM and event functions at the bottom (kemu_vm_translate,
 * kemu_vm_read/write, kemu_event_interrupt; a fault goes to the driver's
 * interrupt handler, which evicts and then calls kemu_vm_fault).  Tests
 * call them directly.
 *
 * Thread safety: every function may be called from any thread, except that
 * kemu_machine_destroy must be the last call.
 */
#ifndef KFDEMU_H
#define KFDEMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "gpu/gpu.h"
#include "topology/topology.h"

/* The KFD ioctl interface version kfdemu reports (GET_VERSION).  See
 * docs/kfdemu.md: 1.17 is the layout of common/amd/kfd_uapi.h (96-byte
 * CREATE_QUEUE with sdma_engine_id) and includes event age (1.14). */
#define KEMU_KFD_MAJOR 1
#define KEMU_KFD_MINOR 17

/* Character device numbers reported by fstat/stat of the emulated nodes. */
#define KEMU_KFD_CHR_MAJOR 235 /* dynamic on a real system; a plausible value */
#define KEMU_DRM_CHR_MAJOR 226 /* DRM_MAJOR */

struct kemu_machine;
struct kemu_file;
struct kemu_process;

struct kemu_machine_options {
	size_t size;          /* sizeof(struct kemu_machine_options) */
	/* Fault injection, same syntax as $KFDEMU_FAIL ("ioctl:CREATE_QUEUE:1,
	 * alloc:3,mmap:2,open:1"); NULL for none. */
	const char *fail;
	/* Log level; KEMU_LOG_NONE..DEBUG.  -1 means "from $KFDEMU_LOG". */
	int log_level;
};

/* Creates a machine for *topo (copied).  opts may be NULL (no fault
 * injection, log level from $KFDEMU_LOG, $KFDEMU_FAIL ignored). */
int kemu_machine_create(const struct kemu_topology *topo,
			const struct kemu_machine_options *opts,
			struct kemu_machine **out);
/* Number of ioctl/mmap calls currently inside the model (e.g. threads
 * blocked in WAIT_EVENTS).  A machine must not be destroyed while it is
 * non-zero. */
uint32_t kemu_machine_calls_in_flight(struct kemu_machine *m);
/* Process exit, as exit_group kills the other threads of every process of
 * the machine: each thread blocked in WAIT_EVENTS wakes and returns -EINTR,
 * and any later WAIT_EVENTS returns -EINTR at once (a fatal signal is
 * pending).  Other calls are unaffected.  The caller keeps those threads
 * from returning to user code (the kernel never lets them), waits for
 * kemu_machine_calls_in_flight() to reach 0, then destroys the machine. */
void kemu_machine_shutdown(struct kemu_machine *m);
/* Destroys every process, file and buffer of the machine.  Does not close
 * fds that are still open (the caller owns them) nor remove the topology
 * tree (kemu_topology_destroy does). */
void kemu_machine_destroy(struct kemu_machine *m);
const struct kemu_topology *kemu_machine_topology(const struct kemu_machine *m);
/* Parses a fault-injection spec into the machine (replacing the old one).
 * -EINVAL for a malformed spec. */
int kemu_machine_set_fail(struct kemu_machine *m, const char *spec);

/* ---- the HDP model (docs/kfdemu.md, "HDP") ---- */

enum kemu_hdp_mode { KEMU_HDP_OFF, KEMU_HDP_WARN, KEMU_HDP_STRICT };
struct kemu_hdp_stats {
	int mode;             /* enum kemu_hdp_mode (KFDEMU_HDP) */
	uint64_t violations;  /* GPU reads of VRAM written by the CPU after the last flush */
	uint64_t flushes;     /* HDP flushes (MMIO-remap register, SDMA flush packets) */
	uint64_t cpu_faults;  /* first CPU writes to a clean VRAM page (one per page and flush) */
	uint64_t readbacks;   /* CPU read-backs through the BAR that completed earlier writes
	                       * (gfx90a/gfx94x only) */
	uint64_t seals;       /* doorbell stores that sealed dirty pages (gfx90a/gfx94x) */
	uint64_t landed;      /* dirty pages a GPU read found landed by a completed round trip
	                       * (a packet fetched after a doorbell store that followed the
	                       * writes; gfx90a/gfx94x) */
};
/* A bulk CPU write (memcpy, memmove, memset) into [dst, dst + len) has
 * returned: the VRAM pages of gfx90a/gfx94x devices it made dirty lose
 * their CPU access until the next flush, so that a CPU read-back of them
 * (ROCr's PcieWcFlush, CLR's kernel-argument read-back) is seen and counts
 * as the flush those chips give it.  The shim's interposers call it; a
 * C-API user writing VRAM with memcpy calls it after the copy. */
void kemu_hdp_bulk_written(const void *dst, size_t len);
/* First CPU writes to clean or watched VRAM pages of gfx90a/gfx94x
 * devices taken by the calling thread (the fault handler bumps it): a copy
 * that did not move it wrote no such page, and need not call
 * kemu_hdp_bulk_written (the shim's interposers read it before and after
 * each copy). */
extern __thread uint64_t kemu_hdp_thread_faults __attribute__((tls_model("initial-exec")));
/* The machine's HDP counters (all zero for a NULL machine). */
void kemu_hdp_stats(struct kemu_machine *m, struct kemu_hdp_stats *out);

/* ---- files ---- */

/* Is this path one of the machine's device nodes?  Returns 0 and the kind
 * for "/dev/kfd" and "/dev/dri/renderD<minor>" of an emulated GPU. */
enum kemu_node { KEMU_NODE_NONE, KEMU_NODE_KFD, KEMU_NODE_RENDER };
enum kemu_node kemu_path_node(const struct kemu_machine *m, const char *path,
			      uint32_t *minor);
/* Opens a device node as open(2) would (flags: O_RDWR, O_CLOEXEC, ...).
 * Returns the new fd (>= 0) or -errno (-ENOENT for a path that is not an
 * emulated node).  Like kfd_open, any access mode is accepted. */
int kemu_open(struct kemu_machine *m, const char *path, int flags);
/* Forgets fd (it must still be open); returns true if it was emulated.  The
 * caller then closes the real fd. */
bool kemu_fd_forget(struct kemu_machine *m, int fd);
/* kemu_fd_forget + close(2). */
int kemu_close(struct kemu_machine *m, int fd);
/* Records that newfd now refers to the same file as oldfd (after a
 * successful dup/dup2/dup3/F_DUPFD); replaces whatever newfd was. */
void kemu_fd_dup(struct kemu_machine *m, int oldfd, int newfd);
/* Is fd an emulated device node?  Fills the node kind and minor. */
bool kemu_fd_node(struct kemu_machine *m, int fd, enum kemu_node *node,
		  uint32_t *minor);

/* ioctl(fd, request, arg) on an emulated fd: returns >= 0 or -errno.
 * -EBADF if fd is not emulated or belongs to another host process. */
long kemu_ioctl(struct kemu_machine *m, int fd, unsigned long request, void *arg);
/* mmap(addr, len, prot, flags, fd, offset) on an emulated fd: on success
 * stores the address in *out and returns 0; else -errno. */
int kemu_mmap(struct kemu_machine *m, void *addr, size_t len, int prot,
	      int flags, int fd, uint64_t offset, void **out);

/* The process pid unmapped [addr, addr + len) from its address space
 * (munmap): KFD's MMU notifier drops the SVM ranges over those pages. */
void kemu_cpu_unmapped(struct kemu_machine *m, pid_t pid, uint64_t addr, uint64_t len);

/* ---- the GPU side: VM, faults and interrupts ---- */

/* The KFD process of a host pid, or NULL if it never opened /dev/kfd. */
struct kemu_process *kemu_process_find(struct kemu_machine *m, pid_t pid);

/* Translates [gpu_va, gpu_va + len) in the GPU VM of process p on device
 * gpu_id for the given access.  The range must lie inside one mapping made
 * with MAP_MEMORY_TO_GPU whose permissions allow the access.  On success
 * returns 0 and the host address; the pointer stays valid until that BO is
 * freed.  On failure returns -EFAULT and, if fault is non-NULL, fills it
 * with the page-fault facts (the caller decides whether to raise it with
 * kemu_vm_fault, as the CP does for a real access). */
int kemu_vm_translate(struct kemu_process *p, uint32_t gpu_id, uint64_t gpu_va,
		      size_t len, unsigned access, void **host,
		      struct kemu_vm_fault_info *fault);
/* The whole mapping from gpu_va on, to keep in a TLB (gpu/gpu.h). */
int kemu_vm_translate_range(struct kemu_process *p, uint32_t gpu_id, uint64_t gpu_va,
			    unsigned access, struct kemu_vm_range *out,
			    struct kemu_vm_fault_info *fault);
/* The process's VM generation (acquire): changes on every MAP/UNMAP/SVM
 * attribute change of any of its VMs. */
uint64_t kemu_vm_generation(struct kemu_process *p);
/* Copying accessors: translate and copy under the VM lock, so a concurrent
 * UNMAP/FREE cannot pull the memory away mid-copy.  -EFAULT on a fault
 * (filled into *fault if non-NULL). */
int kemu_vm_read(struct kemu_process *p, uint32_t gpu_id, uint64_t gpu_va,
		 void *dst, size_t len, struct kemu_vm_fault_info *fault);
int kemu_vm_write(struct kemu_process *p, uint32_t gpu_id, uint64_t gpu_va,
		  const void *src, size_t len, struct kemu_vm_fault_info *fault);
/* Raises a GPU VM fault, as the interrupt handler does for a retry-off
 * fault: every MEMORY event of the process gets memory_exception_data
 * {va page-aligned, gpu_id, NotPresent/ReadOnly/NoExecute, imprecise 0} and
 * is set. */
void kemu_vm_fault(struct kemu_process *p, const struct kemu_vm_fault_info *f);
/* Raises a GPU reset (kfd_signal_reset_event): every HW_EXCEPTION event gets
 * {reset_type whole GPU, cause, memory_lost 1, gpu_id}; MEMORY events get
 * ErrorType SRAM_ECC when the cause is ECC. */
void kemu_gpu_reset(struct kemu_process *p, uint32_t gpu_id, bool ecc);
/* An interrupt carrying an event id (CP end-of-pipe: valid_bits 32,
 * s_sendmsg: 24, SDMA trap: 28), as kfd_signal_event_interrupt. */
void kemu_event_interrupt(struct kemu_process *p, uint32_t partial_id,
			  uint32_t valid_bits);

/* Doorbells of a process on a device: the host address of the 8 KiB slice
 * (1024 64-bit slots), or NULL if none was allocated yet. */
_Atomic uint64_t *kemu_doorbell_slice(struct kemu_process *p, uint32_t gpu_id);

/* Fills *info (gpu/gpu.h) for queue_id of process p; -EINVAL if there is
 * none. */
int kemu_queue_info(struct kemu_process *p, uint32_t queue_id,
		    struct kemu_queue_info *info);

#endif /* KFDEMU_H */
