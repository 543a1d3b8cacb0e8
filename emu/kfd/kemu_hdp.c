/*
 * The HDP (host data path) model: a CPU write through a BAR mapping of
 * VRAM is not guaranteed to reach memory, and so to be seen by a GPU read,
 * until the HDP is flushed.  On gfx9 the flush is a write to
 * HDP_MEM_FLUSH_CNTL, which amdgpu remaps into the 4 KiB MMIO-remap page
 * that KFD hands user space (KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP, mmap of
 * the kfd fd at KFD_MMAP_TYPE_MMIO: HDP_MEM_FLUSH_CNTL at byte 0,
 * HDP_REG_FLUSH_CNTL at byte 4, enum kfd_mmio_remap), or an SDMA
 * POLL_REGMEM flush form (emu/sdma/sdma_sync.c), which ROCr puts at the
 * head of every gfx9 SDMA copy.  kfdemu reports a GPU read of a VRAM page
 * the CPU wrote after the last flush of that device.
 *
 * KFDEMU_HDP picks the mode: strict (the default) reports and stops the
 * reader as a GPU fault (the engine stops the queue, the driver evicts and
 * raises a memory exception, kemu_vm_fault), warn reports and lets the read
 * go on (the page then counts as flushed), off tracks nothing.
 *
 * How CPU writes are seen, cheaply.  The CPU maps VRAM through the render
 * node (kemu_render_mmap); each such mapping with PROT_WRITE is recorded
 * here and write-protected page by page while its pages are clean.  The
 * first CPU store to a clean page faults; the SIGSEGV handler marks the
 * page dirty in its BO's bitmap, gives the page its write access back and
 * bumps the process's VM generation (every TLB entry and decoded program
 * made before then is stale, so the next GPU access translates again and
 * meets the check in kemu_vm.c's vm_resolve).  A flush write-protects the
 * dirty pages again and clears the bits.  The cost is one fault per page
 * written per flush interval, one mprotect per dirty run per flush, and a
 * test of the BO's dirty count at each translation (never at a TLB hit).
 * A program that never writes VRAM from the CPU pays nothing.
 *
 * How the flush register write is seen.  While a device has dirty pages,
 * every CPU mapping of its MMIO-remap page is write-protected ("armed");
 * a store to it faults, and the handler flushes the device, disarms the
 * page and lets the store go on.  With nothing dirty a store to the page
 * is a plain store, and needs no flush.
 *
 * The read-back (gfx90a and gfx94x only).  On MI200 and MI300 the HDP does
 * not cache the CPU's writes (PCIe relaxed ordering off) and keeps them in
 * order, so a CPU read through the BAR, which PCIe may not let pass the
 * posted writes before it, returns only once those writes are in memory:
 * it completes them as a flush would.  ROCr 1.18 relies on it after every
 * code object it copies with the CPU (PcieWcFlush: sfence, the last byte
 * written again, mfence, that byte read back) and so does CLR for kernel
 * arguments (DeviceKernelArgsReadback); docs/kfdemu.md has the sources.
 * An x86 page cannot let writes through and trap reads, so a read-back is
 * seen only on a page without access: when a bulk write (the shim's
 * memcpy, memmove and memset, kemu_hdp_bulk_written) returns after
 * dirtying pages of such a device, those pages lose all access
 * ("watched"); a read of a watched page is the read-back and flushes the
 * device; a store to one gives it its write access back.  A writer that is
 * not a bulk call (a loop of stores) leaves its pages writable, and a
 * read-back of them is not seen: stricter than silicon, never kinder.
 *
 * The round trip (gfx90a and gfx94x only, kemu_hdp_roundtrip_lands).  The
 * HDP of those chips holds none of the CPU's writes and keeps them in
 * order, and PCIe keeps them ahead of the (sfence'd) doorbell store that
 * follows them, so once the CP has fetched a packet after that store and
 * completed it, the writes have landed (a read by the packet behind that
 * very doorbell has not: CLR reads back before ringing for it).  While a
 * device has dirty pages written after its last seal, the CPU mappings of
 * its doorbell slices are write-protected ("armed"); the store that rings
 * faults and seals: those pages take the device's next seal number and
 * lose their write access again (a later store unseals the page), the
 * doorbell's slot keeps the number (kemu_pdd.hdp_db_seal), the doorbells
 * are disarmed.  The CP takes the slot's number as a packet's token at its
 * first fetch (ops->hdp_packet_fetched) and hands it back when the packet
 * completes (ops->hdp_packet_done), which raises the device's hdp_landed;
 * a GPU read of a page sealed at or below it counts the page as clean.
 * A packet the CP fetched before its producer rang for it (the
 * lost-doorbell fetch, which silicon never does) counts as fetched after
 * the ring that covers it (kemu_hdp_gpu_packet_done, seal_locked).
 *
 * The content rule.  Each page's content is copied aside when it turns
 * dirty (it is clean then: what the GPU would read from memory).  A GPU
 * read of a dirty page whose bytes are still those is not stale on any
 * chip (the writes in flight carry the same bytes), so it passes and the
 * page counts as clean: ROCr's read-back rewrites the last byte with its
 * own value after the read that flushed.
 *
 * Concurrency.  The table of recorded mappings is taken by the handler and
 * by the driver under one spin lock (hdp_lock): a signal handler may not
 * take a mutex, and no thread faults on a recorded page while it holds the
 * lock (the code under it never stores to user VRAM), so spinning only
 * ever waits for another thread.  The dirty bits are atomics: the handler
 * sets a bit, then bumps the VM generation with release; a translation
 * reads the generation with acquire before it tests the bits, so either it
 * sees the bit or its translation is made stale by the bump.
 *
 * Fork.  The lock is held across fork (pthread_atfork, registered when
 * the first machine is made: before emu/gpu's handlers, so its prepare
 * runs after theirs, and a GPU thread that flushes under a registry lock
 * never waits for a forking thread that holds hdp_lock): a parent thread
 * inside the handler or a flush at that moment would otherwise leave the
 * child, which has none of the parent's other threads, a lock held for
 * good and maybe a table half updated, and its first munmap through the
 * shim or store to an inherited VRAM page would spin for ever.  The code
 * under the lock waits for nothing the forking thread may hold (mprotect,
 * realloc before glibc takes malloc's locks for the fork, the trace's
 * write), so the prepare handler's wait ends.  test_emu_kfd_hdp_fork.
 *
 * Two threads may fault on the same protected page at once; the second to
 * take hdp_lock finds the page already dirty (VRAM) or the MMIO page
 * already disarmed, and gives the page the model's protection again so
 * that its store runs (a program's own mprotect of a recorded page is
 * overridden then).
 *
 * Known limits (docs/kfdemu.md): a store racing with a flush may be taken
 * as flushed; a write to HDP_REG_FLUSH_CNTL while armed counts as a flush;
 * a system call that writes into a write-protected page (read(2) into
 * VRAM) gets EFAULT where the kernel would write; a program that installs
 * its own SIGSEGV handler after the machine starts takes the faults (the
 * previous handler is chained to for every other fault); writes through a
 * dma-buf mapping of the BO's pages are not seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "kemu_priv.h"

/* Violations logged per machine before the log goes quiet (all are
 * counted). */
#define HDP_LOG_LIMIT 32

/* One recorded CPU mapping: of VRAM (bo set), of a doorbell slice (pdd
 * set) or of an MMIO-remap page (neither). */
struct hdp_map {
	uintptr_t start, end;          /* page aligned; start == end: unmapped */
	int prot;                      /* the mapping's own protection */
	struct kemu_bo *bo;            /* VRAM BO, or NULL */
	struct kemu_pdd *pdd;          /* doorbell slice of this process-device */
	uint64_t bo_off;               /* offset of start in the BO (slice) */
	struct kemu_device *dev;
	struct kemu_machine *m;
	_Atomic uint64_t *gen;         /* the owner's VM generation (VRAM) */
	bool armed;                    /* MMIO page, doorbells: write-protected */
};

static atomic_flag hdp_lock_flag = ATOMIC_FLAG_INIT;
static struct hdp_map *hdp_maps;       /* under hdp_lock */
static size_t hdp_n, hdp_cap;
static struct sigaction hdp_old_action;
static atomic_bool hdp_handler_installed;
static pthread_once_t hdp_atfork_once = PTHREAD_ONCE_INIT;
static atomic_int hdp_atfork_err; /* pthread_atfork's answer */
/* KFDEMU_HDP_TRACE=1: the handler prints where each first CPU write to a
 * clean page came from (to find the store a flush must follow) */
static bool hdp_trace;

static void hdp_lock(void)
{
	/* acquire: pairs with hdp_unlock's release (the table) */
	while (atomic_flag_test_and_set_explicit(&hdp_lock_flag, memory_order_acquire))
		sched_yield();
}

static void hdp_unlock(void)
{
	atomic_flag_clear_explicit(&hdp_lock_flag, memory_order_release);
}

__thread uint64_t kemu_hdp_thread_faults __attribute__((tls_model("initial-exec")));

static bool bit_test(const _Atomic uint64_t *bm, uint64_t i)
{
	return atomic_load_explicit(&bm[i / 64], memory_order_relaxed) >> (i % 64) & 1;
}

static void bit_set(_Atomic uint64_t *bm, uint64_t i)
{
	atomic_fetch_or_explicit(&bm[i / 64], 1ull << (i % 64), memory_order_relaxed);
}

/* Clears bit i; true when it was set. */
static bool bit_clear(_Atomic uint64_t *bm, uint64_t i)
{
	uint64_t bit = 1ull << (i % 64);
	return atomic_fetch_and_explicit(&bm[i / 64], ~bit, memory_order_relaxed) & bit;
}

bool kemu_hdp_readback_completes(const struct kemu_device *dev)
{
	/* CLR's list (rocsettings.cpp setKernelArgImpl: isGfx90a, isGfx94x
	 * steppings 0..2), where it uses the read-back without an HDP flush */
	uint32_t v = dev && dev->gpu ? dev->gpu->gfx_target_version : 0;
	return v == 90010 || (v >= 90400 && v <= 90402);
}

bool kemu_hdp_roundtrip_lands(const struct kemu_device *dev)
{
	/* the chips whose HDP holds no RO=0 write and keeps the CPU's stores
	 * in order (CLR 5c591b587, bf74ef402): the read-back's list */
	return kemu_hdp_readback_completes(dev);
}

/* ---- flush and arming (hdp_lock held) ---- */

/* Write-protects (arm) or unprotects the CPU mappings of dev's MMIO-remap
 * page (doorbells false) or of its doorbell slices (doorbells true). */
static void arm_pages(struct kemu_device *dev, bool doorbells, bool arm)
{
	for (size_t i = 0; i < hdp_n; i++) {
		struct hdp_map *r = &hdp_maps[i];
		if (r->bo || !r->pdd != !doorbells || r->dev != dev || r->start == r->end ||
		    r->armed == arm)
			continue;
		if (mprotect((void *)r->start, r->end - r->start,
			     arm ? (r->prot & ~PROT_WRITE) : r->prot) == 0)
			r->armed = arm;
	}
}

static void arm_mmio(struct kemu_device *dev, bool arm)
{
	arm_pages(dev, false, arm);
}

/* A page of dev was written after its last seal: the next doorbell store
 * must be seen (devices with the round trip only). */
static void unsealed_locked(struct kemu_device *dev)
{
	if (!dev->hdp_unsealed) {
		dev->hdp_unsealed = true;
		arm_pages(dev, true, true);
	}
}

/* Write-protects the dirty pages of r's mapping again (runs of pages). */
static void reprotect(const struct hdp_map *r)
{
	const _Atomic uint64_t *bm = r->bo->hdp_dirty;
	uint64_t first = r->bo_off / KEMU_PAGE_SIZE;
	uint64_t n = (r->end - r->start) / KEMU_PAGE_SIZE;
	for (uint64_t i = 0; i < n;) {
		if (!bit_test(bm, first + i)) {
			i++;
			continue;
		}
		uint64_t j = i + 1;
		while (j < n && bit_test(bm, first + j))
			j++;
		mprotect((void *)(r->start + i * KEMU_PAGE_SIZE), (j - i) * KEMU_PAGE_SIZE,
			 r->prot & ~PROT_WRITE);
		if (r->bo->hdp_snap)
			madvise(r->bo->hdp_snap + (first + i) * KEMU_PAGE_SIZE,
				(j - i) * KEMU_PAGE_SIZE, MADV_DONTNEED);
		i = j;
	}
}

static void clear_bo(struct kemu_bo *bo)
{
	uint64_t words = (bo->bo_size / KEMU_PAGE_SIZE + 63) / 64;
	for (uint64_t w = 0; w < words; w++) {
		atomic_store_explicit(&bo->hdp_dirty[w], 0, memory_order_relaxed);
		if (bo->hdp_watched)
			atomic_store_explicit(&bo->hdp_watched[w], 0, memory_order_relaxed);
	}
	/* release: a reader that sees the count 0 also sees the bits clear */
	atomic_store_explicit(&bo->hdp_ndirty, 0, memory_order_release);
}

/* The device's HDP flush: every page written so far is visible; clean
 * pages are write-protected again and the MMIO page disarmed. */
static void flush_locked(struct kemu_device *dev)
{
	/* first every mapping of a dirty BO (a BO may be mapped twice), then
	 * the bits; records kept only for their dirty bits go away */
	for (size_t i = 0; i < hdp_n; i++) {
		struct hdp_map *r = &hdp_maps[i];
		if (r->bo && r->dev == dev && r->start != r->end &&
		    atomic_load_explicit(&r->bo->hdp_ndirty, memory_order_relaxed))
			reprotect(r);
	}
	for (size_t i = 0; i < hdp_n;) {
		struct hdp_map *r = &hdp_maps[i];
		if (r->bo && r->dev == dev) {
			if (atomic_load_explicit(&r->bo->hdp_ndirty, memory_order_relaxed))
				clear_bo(r->bo);
			if (r->start == r->end) {
				hdp_maps[i] = hdp_maps[--hdp_n];
				continue;
			}
		}
		i++;
	}
	arm_mmio(dev, false);
	dev->hdp_unsealed = false;
	arm_pages(dev, true, false);
	atomic_fetch_add_explicit(&dev->hdp_flushes, 1, memory_order_relaxed);
}

/* A doorbell store of pdd's slot `slot` while dev had pages written after
 * the last seal (its doorbell mappings armed): the writes before it are
 * ordered before the doorbell on the link, so they have landed once the
 * CP completes a packet it fetched after this store.  The dirty pages
 * written since the last seal take a new seal number, and lose their
 * write access (a later store is seen and unseals the page); the slot
 * remembers the seal for the CP's fetches (kemu_hdp_gpu_packet_fetched).
 * A store that faulted while armed but finds dev sealed already (another
 * thread's ring came between) takes the current number: its writes came
 * before that seal. */
static void seal_locked(struct kemu_device *dev, struct kemu_pdd *pdd, uint32_t slot)
{
	uint32_t s = atomic_load_explicit(&dev->hdp_seal_seq, memory_order_relaxed);
	if (dev->hdp_unsealed) {
		s++;
		/* relaxed: only read under hdp_lock, and by the slot's reader
		 * through the slot's release store below */
		atomic_store_explicit(&dev->hdp_seal_seq, s, memory_order_relaxed);
		for (size_t i = 0; i < hdp_n; i++) {
			struct hdp_map *r = &hdp_maps[i];
			if (!r->bo || r->dev != dev || r->start == r->end || !r->bo->hdp_seal ||
			    !atomic_load_explicit(&r->bo->hdp_ndirty, memory_order_relaxed))
				continue;
			struct kemu_bo *bo = r->bo;
			uint64_t first = r->bo_off / KEMU_PAGE_SIZE;
			uint64_t n = (r->end - r->start) / KEMU_PAGE_SIZE;
			for (uint64_t k = 0; k < n;) {
				/* seal s already: the BO sealed through another
				 * mapping, to protect in this one as well */
				uint64_t idx = first + k;
				if (!bit_test(bo->hdp_dirty, idx) ||
				    (bo->hdp_seal[idx] && bo->hdp_seal[idx] != s)) {
					k++;
					continue;
				}
				bo->hdp_seal[idx] = s;
				if (bo->hdp_watched && bit_test(bo->hdp_watched, idx)) {
					k++; /* no access already */
					continue;
				}
				uint64_t j = k + 1;
				while (j < n && bit_test(bo->hdp_dirty, first + j) &&
				       (!bo->hdp_seal[first + j] || bo->hdp_seal[first + j] == s) &&
				       !(bo->hdp_watched && bit_test(bo->hdp_watched, first + j))) {
					bo->hdp_seal[first + j] = s;
					j++;
				}
				mprotect((void *)(r->start + k * KEMU_PAGE_SIZE), (j - k) * KEMU_PAGE_SIZE,
					 r->prot & ~PROT_WRITE);
				k = j;
			}
		}
		dev->hdp_unsealed = false;
		atomic_fetch_add_explicit(&pdd->proc->m->hdp_seals, 1, memory_order_relaxed);
		if (hdp_trace) {
			/* as trace_line, without the backtrace: the ring is
			 * the runtime's, the writes were traced */
			char line[128];
			int len = snprintf(line, sizeof(line),
					   "kfdemu[%d]: HDP: doorbell %u store seals the writes "
					   "before it (seal %u, gpu %#x)\n",
					   (int)getpid(), slot, s, dev->gpu->gpu_id);
			if (len > 0)
				(void)!write(STDERR_FILENO, line, (size_t)len);
		}
	}
	arm_pages(dev, true, false);
	if (slot >= KFD_DOORBELLS_PER_PROCESS)
		return;
	/* release: pairs with the acquire loads in kemu_hdp_gpu_packet_fetched
	 * and _done; the store precedes the doorbell store the CP's fetch
	 * follows */
	atomic_store_explicit(&pdd->hdp_db_seal[slot], s, memory_order_release);
	/* a packet of this queue completed before any ring covered it (the
	 * doorbell word, which this store has not written yet, still below
	 * it): this ring is the one its silicon fetch would follow, so its
	 * completion lands s, at the queue's next fetch (seq_cst: against
	 * kemu_hdp_gpu_packet_done's store of the flag and load of the word) */
	uint64_t early = atomic_exchange_explicit(&pdd->hdp_db_early[slot], 0, memory_order_seq_cst);
	if (early && pdd->db &&
	    atomic_load_explicit((_Atomic uint64_t *)&pdd->db[slot], memory_order_seq_cst) <
		    early - 1)
		atomic_store_explicit(&pdd->hdp_db_pending[slot], s, memory_order_release);
}

/* ---- the fault handler ---- */

static struct hdp_map *find_locked(uintptr_t a)
{
	for (size_t i = 0; i < hdp_n; i++) {
		if (a >= hdp_maps[i].start && a < hdp_maps[i].end)
			return &hdp_maps[i];
	}
	return NULL;
}

static void trace_line(const char *what, uintptr_t page, const struct hdp_map *r)
{
	/* snprintf and write(2) of a stack buffer; backtrace was primed at
	 * init so that it does not load libgcc here */
	char line[160];
	int n = snprintf(line, sizeof(line), "kfdemu[%d]: HDP: %s VRAM page %#lx (gpu %#x), from:\n",
			 (int)getpid(), what, (unsigned long)page, r->dev->gpu->gpu_id);
	if (n > 0)
		(void)!write(STDERR_FILENO, line, (size_t)n);
	void *frames[16];
	backtrace_symbols_fd(frames, backtrace(frames, 16), STDERR_FILENO);
}

/* A fault on a page of VRAM mapping r (hdp_lock held).  is_write: the
 * access was a store (always assumed where the fault does not say).
 *  - a watched page (dirty, no access): a read is a CPU read-back through
 *    the BAR, which completes every earlier write to the device (only
 *    read-back devices have watched pages); a store gives the page its
 *    write access back;
 *  - a clean page (read-only): a store makes it dirty and writable, its
 *    content copied aside first (the content rule);
 *  - a dirty writable page, or a clean one faulted on for a read: another
 *    thread changed it between our fault and hdp_lock; the access runs
 *    again with the model's protection (a program's own mprotect of the
 *    page is overridden). */
static bool vram_fault_locked(struct hdp_map *r, uintptr_t a, bool is_write)
{
	uintptr_t page = a & ~(uintptr_t)(KEMU_PAGE_SIZE - 1);
	uint64_t idx = (r->bo_off + (page - r->start)) / KEMU_PAGE_SIZE;
	struct kemu_bo *bo = r->bo;
	bool dirty = bit_test(bo->hdp_dirty, idx);
	if (bo->hdp_watched && bit_test(bo->hdp_watched, idx)) {
		if (!is_write) {
			atomic_fetch_add_explicit(&r->m->hdp_readbacks, 1, memory_order_relaxed);
			if (hdp_trace)
				trace_line("CPU read-back (completes the writes before it) of", page, r);
			flush_locked(r->dev);
			return true; /* the page is readable again */
		}
		if (mprotect((void *)page, KEMU_PAGE_SIZE, r->prot))
			return false;
		bit_clear(bo->hdp_watched, idx);
		if (bo->hdp_seal) {
			bo->hdp_seal[idx] = 0; /* written after its seal */
			unsealed_locked(r->dev);
		}
		kemu_hdp_thread_faults++;
		return true;
	}
	if (dirty) {
		if (bo->hdp_seal && bo->hdp_seal[idx]) {
			/* a sealed page (read-only): a store is a write after
			 * the seal's doorbell; a read found it changed by
			 * another thread, and it stays read-only */
			if (!is_write)
				return mprotect((void *)page, KEMU_PAGE_SIZE,
						r->prot & ~PROT_WRITE) == 0;
			bo->hdp_seal[idx] = 0;
			unsealed_locked(r->dev);
		}
		return mprotect((void *)page, KEMU_PAGE_SIZE, r->prot) == 0;
	}
	if (!is_write)
		return mprotect((void *)page, KEMU_PAGE_SIZE, r->prot & ~PROT_WRITE) == 0;
	if (bo->hdp_snap)
		(void)mempcpy(bo->hdp_snap + idx * KEMU_PAGE_SIZE, (const void *)page,
			      KEMU_PAGE_SIZE);
	if (mprotect((void *)page, KEMU_PAGE_SIZE, r->prot))
		return false;
	if (bo->hdp_seal) {
		bo->hdp_seal[idx] = 0;
		unsealed_locked(r->dev);
	}
	bit_set(bo->hdp_dirty, idx);
	atomic_fetch_add_explicit(&bo->hdp_ndirty, 1, memory_order_release);
	arm_mmio(r->dev, true);
	atomic_fetch_add_explicit(&r->m->hdp_cpu_faults, 1, memory_order_relaxed);
	if (bo->hdp_watched)
		kemu_hdp_thread_faults++;
	if (hdp_trace)
		trace_line("CPU write to", page, r);
	/* release: pairs with the acquire load of the generation in
	 * kemu_vm_translate_range and the TLBs: a translation made before
	 * the bit was set is stale from now on */
	atomic_fetch_add_explicit(r->gen, 1, memory_order_release);
	return true;
}

static void chain(int sig, siginfo_t *si, void *uc)
{
	if (hdp_old_action.sa_flags & SA_SIGINFO) {
		if (hdp_old_action.sa_sigaction) {
			hdp_old_action.sa_sigaction(sig, si, uc);
			return;
		}
	} else if (hdp_old_action.sa_handler != SIG_DFL &&
		   hdp_old_action.sa_handler != SIG_IGN) {
		hdp_old_action.sa_handler(sig);
		return;
	}
	/* default action: the faulting store runs again and kills us */
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
}

static void hdp_sigsegv(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	bool handled = false;
	if (si && si->si_code == SEGV_ACCERR) {
		uintptr_t a = (uintptr_t)si->si_addr;
		hdp_lock();
		struct hdp_map *r = find_locked(a);
		if (r && r->bo) {
			bool is_write = true;
#if defined(__x86_64__)
			/* the page-fault error code: bit 1 set for a write */
			if (uc)
				is_write = ((ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2;
#endif
			handled = vram_fault_locked(r, a, is_write);
		} else if (r && r->pdd) {
			/* a doorbell store while the device had writes not yet
			 * sealed (or just sealed by another thread's ring) */
			bool was_armed = r->armed;
			seal_locked(r->dev, r->pdd,
				    (uint32_t)((r->bo_off + (a - r->start)) / KFD_DOORBELL_SIZE));
			handled = was_armed ? !r->armed
					    : mprotect((void *)r->start, r->end - r->start,
						       r->prot) == 0;
		} else if (r && r->armed) {
			/* the store to the flush register: flush, then let it
			 * go on (disarmed) */
			flush_locked(r->dev);
			handled = !r->armed;
		} else if (r) {
			/* a store to the flush register that faulted while
			 * armed, but another thread's store flushed and
			 * disarmed it before we took hdp_lock: that flush
			 * covers every write before ours; the store runs
			 * again on the writable page */
			handled = mprotect((void *)r->start, r->end - r->start, r->prot) == 0;
		}
		hdp_unlock();
	}
	errno = saved;
	if (!handled)
		chain(sig, si, uc);
}

/* ---- the driver's side ---- */

int kemu_hdp_mode_parse(const char *s)
{
	/* strict by default, as silicon: a GPU read of VRAM the CPU wrote
	 * after the last HDP flush faults (docs/kfdemu.md, "HDP") */
	if (!s || !*s || !strcmp(s, "strict"))
		return KEMU_HDP_STRICT;
	if (!strcmp(s, "warn"))
		return KEMU_HDP_WARN;
	if (!strcmp(s, "off"))
		return KEMU_HDP_OFF;
	return -1;
}

static void hdp_atfork_register(void)
{
	/* prepare: hdp_lock's own acquire; parent and child: its release */
	int err = pthread_atfork(hdp_lock, hdp_unlock, hdp_unlock);
	atomic_store_explicit(&hdp_atfork_err, err, memory_order_relaxed);
}

int kemu_hdp_init(struct kemu_machine *m)
{
	/* whatever the mode: the first machine is made before any queue, so
	 * this comes before emu/gpu registers its fork handlers */
	pthread_once(&hdp_atfork_once, hdp_atfork_register);
	int aerr = atomic_load_explicit(&hdp_atfork_err, memory_order_relaxed);
	if (aerr) {
		kemu_err(m, "HDP: cannot register the fork handlers: %s", strerror(aerr));
		return -aerr;
	}
	if (m->hdp_mode == KEMU_HDP_OFF)
		return 0;
	hdp_lock();
	int err = 0;
	if (!atomic_load_explicit(&hdp_handler_installed, memory_order_relaxed)) {
		const char *trace = getenv("KFDEMU_HDP_TRACE");
		hdp_trace = trace && !strcmp(trace, "1");
		if (hdp_trace) {
			void *frames[2];
			(void)backtrace(frames, 2); /* loads the unwinder now */
		}
		/* once per process, kept for good: a later machine uses it too,
		 * and a handler over an empty table only chains */
		struct sigaction sa = { .sa_sigaction = hdp_sigsegv,
					.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER };
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGSEGV, &sa, &hdp_old_action))
			err = -errno;
		else
			atomic_store_explicit(&hdp_handler_installed, true, memory_order_relaxed);
	}
	hdp_unlock();
	if (err)
		kemu_err(m, "HDP: cannot install the SIGSEGV handler: %s", strerror(-err));
	return err;
}

/* Has dev a page written since its last flush?  Caller holds hdp_lock. */
static bool dirty_locked(const struct kemu_device *dev)
{
	for (size_t i = 0; i < hdp_n; i++) {
		const struct hdp_map *r = &hdp_maps[i];
		if (r->bo && r->dev == dev &&
		    atomic_load_explicit(&r->bo->hdp_ndirty, memory_order_relaxed))
			return true;
	}
	return false;
}

/* Caller holds hdp_lock.  -ENOMEM when the table cannot grow. */
static int add_locked(const struct hdp_map *r)
{
	if (hdp_n == hdp_cap) {
		size_t cap = hdp_cap ? 2 * hdp_cap : 64;
		struct hdp_map *t = realloc(hdp_maps, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		hdp_maps = t;
		hdp_cap = cap;
	}
	hdp_maps[hdp_n++] = *r;
	return 0;
}

/* Forgets the range [start, end) of the recorded mappings: a record inside
 * it goes (or, when its BO still has dirty pages, stays, unmapped, for its
 * bits), a record that reaches outside it shrinks to what stays mapped (two
 * records when the range was in its middle), which stays tracked with the
 * model's protection: a partial munmap leaves the rest of a VRAM mapping
 * as the kernel leaves it, and a thread that faulted on a page of the rest
 * just before finds its record when it takes the lock (a dropped record
 * would send its store to the previous SIGSEGV handler as a real fault).
 * Caller holds hdp_lock. */
static void drop_range_locked(uintptr_t start, uintptr_t end)
{
	for (size_t i = 0; i < hdp_n;) {
		struct hdp_map *r = &hdp_maps[i];
		if (r->start == r->end || r->end <= start || r->start >= end) {
			i++;
			continue;
		}
		if (r->start < start || r->end > end) {
			struct hdp_map right = *r;
			bool has_left = r->start < start, has_right = r->end > end;
			if (has_right) {
				right.bo_off += end - r->start;
				right.start = end;
			}
			if (!has_left) {
				*r = right;
			} else {
				r->end = start;
				/* r is not used after add_locked, which may move the table */
				if (has_right && add_locked(&right))
					/* no room for the right part: untracked, writable */
					mprotect((void *)right.start, right.end - right.start,
						 right.prot);
			}
			i++;
			continue;
		}
		if (r->bo && atomic_load_explicit(&r->bo->hdp_ndirty, memory_order_relaxed)) {
			r->start = r->end = 0; /* its dirty bits wait for a flush */
			i++;
			continue;
		}
		hdp_maps[i] = hdp_maps[--hdp_n];
	}
}

void kemu_hdp_cpu_mapped(struct kemu_machine *m, struct kemu_device *dev, struct kemu_bo *bo,
			 uint64_t bo_off, void *addr, size_t len, int prot, int flags)
{
	if (m->hdp_mode == KEMU_HDP_OFF || !len || !(prot & PROT_WRITE) ||
	    !(flags & MAP_SHARED) || (bo && !bo->hdp_dirty))
		return;
	struct hdp_map r = {
		.start = (uintptr_t)addr,
		.end = (uintptr_t)addr + KEMU_ALIGN(len, KEMU_PAGE_SIZE),
		.prot = prot, .bo = bo, .bo_off = bo_off, .dev = dev, .m = m,
		.gen = bo ? &bo->proc->vm_gen : NULL,
	};
	hdp_lock();
	drop_range_locked(r.start, r.end);
	int err = add_locked(&r);
	if (!err && bo) {
		/* clean pages are write-protected; pages already dirty (a second
		 * mapping of a written BO) stay writable */
		uint64_t first = bo_off / KEMU_PAGE_SIZE;
		uint64_t pages = (r.end - r.start) / KEMU_PAGE_SIZE;
		for (uint64_t i = 0; i < pages;) {
			uint64_t j = i;
			while (j < pages && !bit_test(bo->hdp_dirty, first + j))
				j++;
			if (j > i && mprotect((void *)(r.start + i * KEMU_PAGE_SIZE),
					      (j - i) * KEMU_PAGE_SIZE, prot & ~PROT_WRITE))
				err = -errno;
			while (j < pages && bit_test(bo->hdp_dirty, first + j))
				j++;
			i = j;
		}
	} else if (!err && dirty_locked(dev)) {
		arm_mmio(dev, true);
	}
	hdp_unlock();
	if (err)
		kemu_warn(m, "HDP: cannot track the CPU mapping %p+0x%zx: %s (writes there go "
			  "unseen)", addr, len, strerror(-err));
}

void kemu_hdp_doorbell_mapped(struct kemu_machine *m, struct kemu_pdd *pdd, uint64_t slice_off,
			      void *addr, size_t len, int prot, int flags)
{
	/* the round trip needs the doorbell stores only where it lands */
	if (m->hdp_mode == KEMU_HDP_OFF || !pdd || !len || !(prot & PROT_WRITE) ||
	    !(flags & MAP_SHARED) || !kemu_hdp_roundtrip_lands(pdd->dev))
		return;
	struct hdp_map r = {
		.start = (uintptr_t)addr,
		.end = (uintptr_t)addr + KEMU_ALIGN(len, KEMU_PAGE_SIZE),
		.prot = prot, .pdd = pdd, .bo_off = slice_off, .dev = pdd->dev, .m = m,
	};
	hdp_lock();
	drop_range_locked(r.start, r.end);
	int err = add_locked(&r);
	if (!err && pdd->dev->hdp_unsealed) {
		if (mprotect(addr, r.end - r.start, prot & ~PROT_WRITE) == 0)
			hdp_maps[hdp_n - 1].armed = true;
		else
			err = -errno;
	}
	hdp_unlock();
	if (err)
		kemu_warn(m, "HDP: cannot watch the doorbell mapping %p+0x%zx: %s (its rings seal "
			  "nothing: stricter)", addr, len, strerror(-err));
}

void kemu_hdp_pdd_fini(struct kemu_pdd *pdd)
{
	hdp_lock();
	for (size_t i = 0; i < hdp_n;) {
		struct hdp_map *r = &hdp_maps[i];
		if (r->pdd != pdd) {
			i++;
			continue;
		}
		if (r->armed && r->start != r->end)
			mprotect((void *)r->start, r->end - r->start, r->prot);
		hdp_maps[i] = hdp_maps[--hdp_n];
	}
	hdp_unlock();
}

/* Seal s of dev has landed: a max, as packets of several queues complete
 * in any order. */
static void land(struct kemu_device *dev, uint32_t s)
{
	uint32_t cur = atomic_load_explicit(&dev->hdp_landed, memory_order_relaxed);
	/* release: pairs with the acquire load in landed() */
	while (cur < s &&
	       !atomic_compare_exchange_weak_explicit(&dev->hdp_landed, &cur, s,
						      memory_order_release, memory_order_relaxed))
		;
}

/* The token's bit for a packet fetched before a doorbell store covering
 * it (the doorbell word below its index): the CP's lost-doorbell fetch
 * (emu/cp/cp_queue.c) ran ahead of the producer's ring, which silicon's CP
 * never does; kemu_hdp_gpu_packet_done settles it. */
#define HDP_TOKEN_UNCOVERED (1ull << 32)

static _Atomic uint64_t *db_word(struct kemu_pdd *pdd, uint32_t slot)
{
	/* the driver's own mapping of the slice (kemu_doorbell_slice) */
	return pdd->db ? (_Atomic uint64_t *)&pdd->db[slot] : NULL;
}

uint64_t kemu_hdp_gpu_packet_fetched(struct kemu_process *p, uint32_t gpu_id,
				     uint32_t doorbell_index, uint64_t index)
{
	struct kemu_pdd *pdd = p ? kemu_pdd_by_id(p, gpu_id) : NULL;
	_Atomic uint64_t *db = pdd && doorbell_index < KFD_DOORBELLS_PER_PROCESS
				       ? db_word(pdd, doorbell_index) : NULL;
	if (!db)
		return 0;
	/* a ring that covered a packet completed ahead of it: this packet of
	 * the queue comes after that one's completion on silicon, which
	 * follows the ring (seal_locked) */
	uint32_t pending = (uint32_t)atomic_exchange_explicit(&pdd->hdp_db_pending[doorbell_index],
							      0, memory_order_acq_rel);
	if (pending)
		land(pdd->dev, pending);
	/* acquire: pairs with the producer's release store of the doorbell */
	uint64_t v = atomic_load_explicit(db, memory_order_acquire);
	/* acquire: pairs with seal_locked's release store, made before the
	 * doorbell store that wrote v */
	uint64_t token = atomic_load_explicit(&pdd->hdp_db_seal[doorbell_index],
					      memory_order_acquire);
	return v < index ? token | HDP_TOKEN_UNCOVERED : token;
}

void kemu_hdp_gpu_packet_done(struct kemu_process *p, uint32_t gpu_id, uint32_t doorbell_index,
			      uint64_t index, uint64_t token)
{
	struct kemu_pdd *pdd = p ? kemu_pdd_by_id(p, gpu_id) : NULL;
	_Atomic uint64_t *db = pdd && doorbell_index < KFD_DOORBELLS_PER_PROCESS
				       ? db_word(pdd, doorbell_index) : NULL;
	if (!db)
		return;
	/* the seals rung before the fetch */
	if ((uint32_t)token)
		land(pdd->dev, (uint32_t)token);
	if (!(token & HDP_TOKEN_UNCOVERED))
		return;
	/* fetched ahead of its ring: on silicon the fetch follows the ring
	 * that covers it.  Rung since (the word names this packet: every
	 * store since carried this index, a producer rings in order): its
	 * seal lands now.  Not yet: the ring to come will land its seal at
	 * the queue's next fetch (seal_locked).  Rung past it: which ring
	 * covered it is not known, nothing more lands (stricter). */
	uint64_t v = atomic_load_explicit(db, memory_order_seq_cst);
	if (v < index) {
		atomic_store_explicit(&pdd->hdp_db_early[doorbell_index], index + 1,
				      memory_order_seq_cst);
		/* a ring between the load and the store saw no flag: look
		 * again, and take the flag back if the handler did not */
		v = atomic_load_explicit(db, memory_order_seq_cst);
		if (v < index || !atomic_exchange_explicit(&pdd->hdp_db_early[doorbell_index], 0,
							   memory_order_seq_cst))
			return;
	}
	if (v == index)
		/* acquire: pairs with seal_locked's release store */
		land(pdd->dev, atomic_load_explicit(&pdd->hdp_db_seal[doorbell_index],
						    memory_order_acquire));
}

void kemu_hdp_cpu_unmapped(uint64_t addr, uint64_t len)
{
	if (!atomic_load_explicit(&hdp_handler_installed, memory_order_relaxed) || !len)
		return;
	uintptr_t start = (uintptr_t)addr & ~(uintptr_t)(KEMU_PAGE_SIZE - 1);
	uintptr_t end = (uintptr_t)KEMU_ALIGN(addr + len, KEMU_PAGE_SIZE);
	hdp_lock();
	drop_range_locked(start, end);
	hdp_unlock();
}

/* Bytes of a VRAM BO's seal table: a uint32_t a page, whole pages. */
static size_t hdp_seal_len(const struct kemu_bo *bo)
{
	return KEMU_ALIGN(bo->bo_size / KEMU_PAGE_SIZE * sizeof(uint32_t), KEMU_PAGE_SIZE);
}

/* len bytes of address space for one of bo's HDP side tables (zero pages
 * only once written); NULL with a warning naming the table (what) and
 * what the BO goes without (cost) when there is no room: the model then
 * runs without that table. */
static void *hdp_reserve(struct kemu_machine *m, const struct kemu_bo *bo, size_t len,
			 const char *what, const char *cost)
{
	void *p = kemu_sys_mmap(NULL, len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p != MAP_FAILED)
		return p;
	kemu_warn(m, "HDP: no room for the %s of a VRAM BO of 0x%llx bytes: %s (%s)", what,
		  (unsigned long long)bo->bo_size, cost, strerror(errno));
	return NULL;
}

int kemu_hdp_bo_init(struct kemu_machine *m, struct kemu_bo *bo)
{
	if (m->hdp_mode == KEMU_HDP_OFF || bo->kind != KEMU_BO_VRAM)
		return 0;
	uint64_t words = (bo->bo_size / KEMU_PAGE_SIZE + 63) / 64;
	bo->hdp_dirty = calloc(words, sizeof(*bo->hdp_dirty));
	if (!bo->hdp_dirty)
		return -ENOMEM;
	if (kemu_hdp_readback_completes(bo->pdd->dev)) {
		bo->hdp_watched = calloc(words, sizeof(*bo->hdp_watched));
		if (!bo->hdp_watched) {
			free(bo->hdp_dirty);
			bo->hdp_dirty = NULL;
			return -ENOMEM;
		}
	}
	/* the seal of each page: zero pages, address space only until they
	 * are written */
	if (kemu_hdp_roundtrip_lands(bo->pdd->dev))
		bo->hdp_seal = hdp_reserve(m, bo, hdp_seal_len(bo), "seals",
					   "a round trip does not land its CPU writes");
	/* the content rule's copies: address space only until pages turn
	 * dirty, given back at each flush; without it every dirty page read
	 * by the GPU counts as stale (stricter) */
	bo->hdp_snap = hdp_reserve(m, bo, bo->bo_size, "content copies",
				   "its rewrites of unchanged bytes count as stale");
	return 0;
}

void kemu_hdp_bo_fini(struct kemu_bo *bo)
{
	if (!bo->hdp_dirty)
		return;
	hdp_lock();
	for (size_t i = 0; i < hdp_n;) {
		struct hdp_map *r = &hdp_maps[i];
		if (r->bo != bo) {
			i++;
			continue;
		}
		/* the CPU mapping outlives the BO (as a TTM mapping holds a
		 * reference): writable, untracked */
		if (r->start != r->end)
			mprotect((void *)r->start, r->end - r->start, r->prot);
		hdp_maps[i] = hdp_maps[--hdp_n];
	}
	hdp_unlock();
	free(bo->hdp_dirty);
	bo->hdp_dirty = NULL;
	free(bo->hdp_watched);
	bo->hdp_watched = NULL;
	if (bo->hdp_seal)
		kemu_sys_munmap(bo->hdp_seal, hdp_seal_len(bo));
	bo->hdp_seal = NULL;
	if (bo->hdp_snap)
		kemu_sys_munmap(bo->hdp_snap, bo->bo_size);
	bo->hdp_snap = NULL;
}

void kemu_hdp_device_fini(struct kemu_device *dev)
{
	hdp_lock();
	for (size_t i = 0; i < hdp_n;) {
		if (hdp_maps[i].dev == dev && !hdp_maps[i].bo) {
			struct hdp_map *r = &hdp_maps[i];
			if (r->armed)
				mprotect((void *)r->start, r->end - r->start, r->prot);
			hdp_maps[i] = hdp_maps[--hdp_n];
			continue;
		}
		i++;
	}
	hdp_unlock();
}

void kemu_hdp_flush(struct kemu_device *dev)
{
	hdp_lock();
	flush_locked(dev);
	hdp_unlock();
}

void kemu_hdp_gpu_flush(struct kemu_process *p, uint32_t gpu_id)
{
	struct kemu_device *dev = p ? kemu_device_by_id(p->m, gpu_id) : NULL;
	if (dev && p->m->hdp_mode != KEMU_HDP_OFF)
		kemu_hdp_flush(dev);
}

/* Page idx of bo counts as flushed: bit cleared, its CPU mappings
 * write-protected again (a store is seen anew).  hdp_lock held. */
static void clean_page_locked(struct kemu_bo *bo, uint64_t idx)
{
	if (!bit_clear(bo->hdp_dirty, idx))
		return;
	if (bo->hdp_watched)
		bit_clear(bo->hdp_watched, idx);
	if (bo->hdp_seal)
		bo->hdp_seal[idx] = 0;
	atomic_fetch_sub_explicit(&bo->hdp_ndirty, 1, memory_order_release);
	uint64_t off = idx * KEMU_PAGE_SIZE;
	for (size_t k = 0; k < hdp_n; k++) {
		struct hdp_map *r = &hdp_maps[k];
		if (r->bo == bo && r->start != r->end && off >= r->bo_off &&
		    off - r->bo_off < r->end - r->start)
			mprotect((void *)(r->start + off - r->bo_off), KEMU_PAGE_SIZE,
				 r->prot & ~PROT_WRITE);
	}
}

/* The content rule: a dirty page whose bytes are those it had when it
 * was clean reads the same from memory as from the CPU's writes. */
static bool unchanged(const struct kemu_bo *bo, uint64_t idx)
{
	return bo->hdp_snap && bo->host &&
	       !memcmp(bo->host + idx * KEMU_PAGE_SIZE, bo->hdp_snap + idx * KEMU_PAGE_SIZE,
		       KEMU_PAGE_SIZE);
}

/* The round trip: dirty page idx of bo was sealed by a doorbell store
 * whose round trip completed, so its writes have landed: it counts as
 * clean from now on. */
static bool landed(struct kemu_bo *bo, uint64_t idx)
{
	if (!bo->hdp_seal)
		return false;
	struct kemu_device *dev = bo->pdd->dev;
	/* acquire: pairs with the release of kemu_hdp_gpu_packet_done, which
	 * ran before the completion signal that let this read's packet go */
	uint32_t done = atomic_load_explicit(&dev->hdp_landed, memory_order_acquire);
	if (!done)
		return false;
	hdp_lock();
	uint32_t s = bo->hdp_seal[idx];
	bool ok = bit_test(bo->hdp_dirty, idx) && s && s <= done;
	if (ok) {
		clean_page_locked(bo, idx);
		atomic_fetch_add_explicit(&bo->proc->m->hdp_landed_pages, 1, memory_order_relaxed);
	}
	hdp_unlock();
	return ok;
}

bool kemu_hdp_gpu_read(struct kemu_process *p, struct kemu_bo *bo, uint64_t bo_off,
		       uint64_t va, size_t *avail, unsigned access,
		       struct kemu_vm_fault_info *fault)
{
	struct kemu_machine *m = p->m;
	uint64_t first = bo_off / KEMU_PAGE_SIZE;
	uint64_t last = (bo_off + *avail - 1) / KEMU_PAGE_SIZE;
	uint64_t i = first;
	for (; i <= last; i++) {
		if (!bit_test(bo->hdp_dirty, i))
			continue;
		if (landed(bo, i))
			continue;
		if (!unchanged(bo, i))
			break;
		hdp_lock();
		clean_page_locked(bo, i);
		hdp_unlock();
	}
	if (i > last)
		return true;
	if (i > first) {
		/* clean up to the first dirty page: a TLB keeps only that */
		*avail = (size_t)(i * KEMU_PAGE_SIZE - bo_off);
		return true;
	}
	uint64_t n = atomic_fetch_add_explicit(&m->hdp_violations, 1, memory_order_relaxed) + 1;
	const char *who = kemu_gpu_thread_name[0] ? kemu_gpu_thread_name : "host thread";
	if (n <= HDP_LOG_LIMIT)
		kemu_err(m, "HDP: %s %s of VRAM at 0x%llx (gpu 0x%x): the CPU wrote that page "
			 "through the BAR after the last HDP flush (no write to the MMIO-remap "
			 "page's HDP_MEM_FLUSH_CNTL, no SDMA HDP flush%s); %s (violation %llu%s)",
			 who, (access & KEMU_ACCESS_EXEC) ? "instruction fetch" : "read",
			 (unsigned long long)va, bo->pdd->dev->gpu->gpu_id,
			 bo->hdp_seal ? ", no CPU read-back through the BAR, no completed round "
					"trip (a doorbell store after the write, then a packet fetched "
					"after it completed)"
				      : bo->hdp_watched ? ", no CPU read-back through the BAR" : "",
			 m->hdp_mode == KEMU_HDP_STRICT ? "stopping the queue (KFDEMU_HDP=warn "
							  "lets it go on)"
							: "going on (KFDEMU_HDP=warn)",
			 (unsigned long long)n, n == HDP_LOG_LIMIT ? "; no more are logged" : "");
	if (m->hdp_mode == KEMU_HDP_STRICT) {
		if (fault)
			fault->hdp_stale = true;
		return false;
	}
	/* warn: reported once; the page counts as flushed from now on */
	hdp_lock();
	clean_page_locked(bo, first);
	hdp_unlock();
	*avail = (size_t)((first + 1) * KEMU_PAGE_SIZE - bo_off) < *avail
			 ? (size_t)((first + 1) * KEMU_PAGE_SIZE - bo_off)
			 : *avail;
	return true;
}

void kemu_hdp_bulk_written(const void *dst, size_t len)
{
	if (!dst || !len ||
	    !atomic_load_explicit(&hdp_handler_installed, memory_order_relaxed))
		return;
	uintptr_t start = (uintptr_t)dst & ~(uintptr_t)(KEMU_PAGE_SIZE - 1);
	uintptr_t end = (uintptr_t)dst + len;
	if (end < start)
		end = UINTPTR_MAX; /* wrapped: everything above */
	hdp_lock();
	for (size_t k = 0; k < hdp_n; k++) {
		struct hdp_map *r = &hdp_maps[k];
		if (!r->bo || !r->bo->hdp_watched || r->start == r->end || r->end <= start ||
		    r->start >= end)
			continue;
		uintptr_t lo = r->start > start ? r->start : start;
		uintptr_t hi = r->end < end ? r->end : KEMU_ALIGN(end, KEMU_PAGE_SIZE);
		/* the dirty pages the copy leaves writable lose all access
		 * (runs of pages, one mprotect each) */
		for (uintptr_t pg = lo; pg < hi;) {
			uint64_t idx = (r->bo_off + (pg - r->start)) / KEMU_PAGE_SIZE;
			if (!bit_test(r->bo->hdp_dirty, idx) || bit_test(r->bo->hdp_watched, idx)) {
				pg += KEMU_PAGE_SIZE;
				continue;
			}
			uintptr_t run = pg;
			while (pg < hi) {
				idx = (r->bo_off + (pg - r->start)) / KEMU_PAGE_SIZE;
				if (!bit_test(r->bo->hdp_dirty, idx) ||
				    bit_test(r->bo->hdp_watched, idx))
					break;
				bit_set(r->bo->hdp_watched, idx);
				pg += KEMU_PAGE_SIZE;
			}
			mprotect((void *)run, pg - run, PROT_NONE);
		}
	}
	hdp_unlock();
}

void kemu_hdp_stats(struct kemu_machine *m, struct kemu_hdp_stats *out)
{
	if (!out)
		return;
	memset(out, 0, sizeof(*out));
	if (!m)
		return;
	out->mode = m->hdp_mode;
	out->violations = atomic_load_explicit(&m->hdp_violations, memory_order_relaxed);
	out->cpu_faults = atomic_load_explicit(&m->hdp_cpu_faults, memory_order_relaxed);
	out->readbacks = atomic_load_explicit(&m->hdp_readbacks, memory_order_relaxed);
	out->seals = atomic_load_explicit(&m->hdp_seals, memory_order_relaxed);
	out->landed = atomic_load_explicit(&m->hdp_landed_pages, memory_order_relaxed);
	for (uint32_t i = 0; i < m->topo.n_gpus; i++)
		out->flushes += atomic_load_explicit(&m->devs[i].hdp_flushes, memory_order_relaxed);
}
