/*
 * The HDP model (emu/kfd/kemu_hdp.c) through kfdemu's C API: a CPU write
 * through a render-node mapping of VRAM is caught when the GPU reads it
 * before an HDP flush (strict: the read faults; warn: it is counted once
 * and goes on), and a flush through the MMIO-remap page's
 * HDP_MEM_FLUSH_CNTL or the SDMA flush op makes it visible.  System memory
 * (GTT) does not pass the HDP.  On gfx90a (the fixture's mi210) a CPU
 * read-back through the BAR after a bulk write completes it (ROCr 1.18's
 * PcieWcFlush), a dirty page whose bytes did not change is not stale, and
 * writes followed by a doorbell store have landed once a packet the CP
 * fetched after that store completed (the round trip, driven here through
 * the CP's ops) -- not for a read behind that same doorbell, nor on a chip
 * whose HDP may hold them (gfx908).
 */
#include "emu_fixture.h"

#include <immintrin.h>
#include <pthread.h>

#include "gpu/gpu.h"

extern const struct kemu_gpu_ops kemu_ih_gpu_ops;

struct vram {
	uint64_t va, handle;
	uint8_t *cpu;
};

static struct vram vram_buffer(uint32_t type)
{
	struct vram v = { .va = emu_va(0x3000) };
	struct kfd_args_alloc_memory_of_gpu a = {
		.va_addr = v.va, .size = 0x3000, .gpu_id = E.gpu_id,
		.flags = type | KFD_ALLOC_WRITABLE | KFD_ALLOC_PUBLIC };
	ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	ck_assert_int_eq(emu_map(a.handle), 0);
	v.handle = a.handle;
	void *cpu = NULL;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, 0x3000, PROT_READ | PROT_WRITE, MAP_SHARED, E.drm,
				   a.mmap_offset, &cpu), 0);
	v.cpu = cpu;
	return v;
}

static uint32_t *mmio_page(void)
{
	struct kfd_args_alloc_memory_of_gpu a = {
		.va_addr = emu_va(0x1000), .size = KFD_MMIO_REMAP_SIZE, .gpu_id = E.gpu_id,
		.flags = KFD_ALLOC_MMIO_REMAP | KFD_ALLOC_WRITABLE | KFD_ALLOC_COHERENT };
	ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	void *p = NULL;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, KFD_MMIO_REMAP_SIZE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, E.kfd, a.mmap_offset, &p), 0);
	return p;
}

static struct kemu_hdp_stats stats(void)
{
	struct kemu_hdp_stats st;
	kemu_hdp_stats(E.m, &st);
	return st;
}

static void setup_mode(const char *mode)
{
	setenv("KFDEMU_HDP", mode, 1);
	emu_setup();
	unsetenv("KFDEMU_HDP");
}

static void setup_strict(void) { setup_mode("strict"); }
static void setup_default(void)
{
	unsetenv("KFDEMU_HDP");
	emu_setup();
}
static void setup_unknown(void) { setup_mode("lenient"); }
static void setup_warn(void) { setup_mode("warn"); }
static void setup_off(void) { setup_mode("off"); }

START_TEST(unflushed_cpu_write_faults_the_gpu_read)
{
	ck_assert_int_eq(stats().mode, KEMU_HDP_STRICT);
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	v.cpu[0x1010] = 0x5a;
	ck_assert_uint_eq(stats().cpu_faults, 1);
	uint8_t b = 0;
	struct kemu_vm_fault_info f;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x1010, &b, 1, &f), -EFAULT);
	ck_assert(f.hdp_stale);
	ck_assert_uint_eq(f.va, v.va + 0x1010);
	ck_assert_uint_eq(stats().violations, 1);
	/* the pages the CPU did not write read fine */
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va, &b, 1, NULL), 0);
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x2000, &b, 1, NULL), 0);
	/* a GPU write there is not a read */
	ck_assert_int_eq(kemu_vm_write(E.p, E.gpu_id, v.va + 0x1020, &b, 1, NULL), 0);
	munmap(v.cpu, 0x3000);
}
END_TEST

START_TEST(mmio_flush_register_makes_the_write_visible)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	_Atomic uint32_t *hdp = (_Atomic uint32_t *)mmio_page();
	v.cpu[0x10] = 0x77;
	atomic_store(&hdp[0], 1); /* HDP_MEM_FLUSH_CNTL */
	ck_assert_uint_eq(stats().flushes, 1);
	uint8_t b = 0;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x10, &b, 1, NULL), 0);
	ck_assert_uint_eq(b, 0x77);
	ck_assert_uint_eq(stats().violations, 0);
	/* written again after the flush: caught again, and flushed again */
	v.cpu[0x11] = 0x78;
	ck_assert_uint_eq(stats().cpu_faults, 2);
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x11, &b, 1, NULL), -EFAULT);
	atomic_store(&hdp[0], 1);
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x11, &b, 1, NULL), 0);
	ck_assert_uint_eq(b, 0x78);
	/* a store to the page with nothing dirty is a plain store */
	atomic_store(&hdp[0], 1);
	ck_assert_uint_eq(stats().flushes, 2);
	munmap(v.cpu, 0x3000);
	munmap((void *)hdp, KFD_MMIO_REMAP_SIZE);
}
END_TEST

START_TEST(sdma_flush_op_makes_the_write_visible)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	v.cpu[0x2000] = 0x42;
	void *h = NULL;
	ck_assert_int_eq(kemu_ih_gpu_ops.translate(E.p, E.gpu_id, v.va + 0x2000, 4,
						   KEMU_ACCESS_READ, &h, NULL), -EFAULT);
	kemu_ih_gpu_ops.hdp_flush(E.p, E.gpu_id);
	ck_assert_int_eq(kemu_ih_gpu_ops.translate(E.p, E.gpu_id, v.va + 0x2000, 4,
						   KEMU_ACCESS_READ, &h, NULL), 0);
	ck_assert_uint_eq(*(uint8_t *)h, 0x42);
	munmap(v.cpu, 0x3000);
}
END_TEST

START_TEST(translation_kept_before_the_write_goes_stale)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	struct kemu_vm_range r;
	ck_assert_int_eq(kemu_ih_gpu_ops.translate_range(E.p, E.gpu_id, v.va, KEMU_ACCESS_READ,
							 &r, NULL), 0);
	ck_assert_uint_eq(r.len, 0x3000);
	uint64_t gen = r.gen;
	v.cpu[0x1000] = 1;
	/* a TLB holding r must translate again: the generation moved */
	ck_assert_int_eq(kemu_ih_gpu_ops.translate_range(E.p, E.gpu_id, v.va, KEMU_ACCESS_READ,
							 &r, NULL), 0);
	ck_assert_uint_ne(r.gen, gen);
	ck_assert_uint_eq(r.len, 0x1000); /* up to the dirty page */
	munmap(v.cpu, 0x3000);
}
END_TEST

START_TEST(system_memory_does_not_pass_the_hdp)
{
	struct vram g = vram_buffer(KFD_ALLOC_GTT);
	g.cpu[0] = 3;
	uint8_t b = 0;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, g.va, &b, 1, NULL), 0);
	ck_assert_uint_eq(b, 3);
	ck_assert_uint_eq(stats().cpu_faults, 0);
	munmap(g.cpu, 0x3000);
}
END_TEST

START_TEST(freed_bo_leaves_its_mapping_writable)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	ck_assert_int_eq(emu_unmap(v.handle), 0);
	struct kfd_args_free_memory_of_gpu fr = { .handle = v.handle };
	ck_assert_int_eq(kio(KFD_IOCTL_FREE_MEMORY_OF_GPU, &fr), 0);
	v.cpu[0] = 9; /* no fault left behind: the pages are the user's */
	ck_assert_uint_eq(v.cpu[0], 9);
	munmap(v.cpu, 0x3000);
}
END_TEST

/* A munmap of part of a VRAM mapping (as the shim reports it, before the
 * system call) leaves the rest tracked, as the kernel leaves the rest of
 * the mapping: a first store there is seen and an unflushed GPU read of it
 * faults.  (Dropping the whole record left those pages writable and
 * unseen, and a store that had faulted on them just before found no
 * record and went to the previous SIGSEGV handler as a real fault.) */
START_TEST(partial_unmap_keeps_the_rest_tracked)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	kemu_cpu_unmapped(E.m, getpid(), (uintptr_t)v.cpu + 0x1000, 0x1000);
	ck_assert_int_eq(munmap(v.cpu + 0x1000, 0x1000), 0);
	v.cpu[0x10] = 1;
	v.cpu[0x2010] = 2;
	ck_assert_uint_eq(stats().cpu_faults, 2);
	uint8_t b = 0;
	struct kemu_vm_fault_info f;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x10, &b, 1, &f), -EFAULT);
	ck_assert(f.hdp_stale);
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x2010, &b, 1, &f), -EFAULT);
	ck_assert(f.hdp_stale);
	ck_assert_uint_eq(f.va, v.va + 0x2010);
	/* the right part kept its offset in the BO: a flush, then the GPU
	 * reads what the CPU wrote there */
	_Atomic uint32_t *hdp = (_Atomic uint32_t *)mmio_page();
	atomic_store(&hdp[0], 1); /* HDP_MEM_FLUSH_CNTL */
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x2010, &b, 1, NULL), 0);
	ck_assert_uint_eq(b, 2);
	munmap(v.cpu, 0x1000);
	munmap(v.cpu + 0x2000, 0x1000);
	munmap((void *)hdp, KFD_MMIO_REMAP_SIZE);
}
END_TEST

/* KFDEMU_HDP unset, and a value kfdemu does not know, are strict: the
 * model fails where silicon fails unless a run asks otherwise */
START_TEST(default_mode_is_strict)
{
	ck_assert_int_eq(stats().mode, KEMU_HDP_STRICT);
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	v.cpu[0x10] = 0x66;
	uint8_t b = 0;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x10, &b, 1, NULL), -EFAULT);
	ck_assert_uint_eq(stats().violations, 1);
	munmap(v.cpu, 0x3000);
}
END_TEST

START_TEST(warn_mode_counts_once_and_goes_on)
{
	ck_assert_int_eq(stats().mode, KEMU_HDP_WARN);
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	v.cpu[0x10] = 0x66;
	uint8_t b = 0;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x10, &b, 1, NULL), 0);
	ck_assert_uint_eq(b, 0x66);
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x10, &b, 1, NULL), 0);
	ck_assert_uint_eq(stats().violations, 1);
	/* reported pages count as flushed: the next write is caught again */
	v.cpu[0x10] = 0x67;
	ck_assert_uint_eq(stats().cpu_faults, 2);
	munmap(v.cpu, 0x3000);
}
END_TEST

START_TEST(off_mode_tracks_nothing)
{
	ck_assert_int_eq(stats().mode, KEMU_HDP_OFF);
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	v.cpu[0x10] = 0x66;
	uint8_t b = 0;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x10, &b, 1, NULL), 0);
	ck_assert_uint_eq(b, 0x66);
	ck_assert_uint_eq(stats().cpu_faults, 0);
	ck_assert_uint_eq(stats().violations, 0);
	munmap(v.cpu, 0x3000);
}
END_TEST

/* Threads writing VRAM through the CPU and storing to the flush register
 * at once: each store faults on a page another thread may be making
 * writable at the same moment (the same clean VRAM page, the armed flush
 * page); every store must go through, and after a last flush the GPU sees
 * every thread's last write. */
#define RACE_THREADS 4
#define RACE_ROUNDS 4000
struct race {
	uint8_t *cpu;
	_Atomic uint32_t *hdp;
	unsigned id;
};

static void *race_run(void *p)
{
	struct race *r = p;
	/* threads 0 and 2 share page 0, 1 and 3 page 1 */
	volatile uint8_t *b = r->cpu + (r->id % 2) * 0x1000 + r->id * 8;
	for (unsigned i = 0; i < RACE_ROUNDS; i++) {
		*b = (uint8_t)(i + r->id);
		atomic_store(&r->hdp[0], 1); /* HDP_MEM_FLUSH_CNTL */
	}
	return NULL;
}

START_TEST(concurrent_writes_and_flushes_all_go_through)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	_Atomic uint32_t *hdp = (_Atomic uint32_t *)mmio_page();
	struct race r[RACE_THREADS];
	pthread_t t[RACE_THREADS];
	for (unsigned i = 0; i < RACE_THREADS; i++) {
		r[i] = (struct race){ .cpu = v.cpu, .hdp = hdp, .id = i };
		ck_assert_int_eq(pthread_create(&t[i], NULL, race_run, &r[i]), 0);
	}
	for (unsigned i = 0; i < RACE_THREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	atomic_store(&hdp[0], 1);
	for (unsigned i = 0; i < RACE_THREADS; i++) {
		uint8_t b = 0;
		ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + (i % 2) * 0x1000 + i * 8,
					      &b, 1, NULL), 0);
		ck_assert_uint_eq(b, (uint8_t)(RACE_ROUNDS - 1 + i));
	}
	ck_assert_uint_eq(stats().violations, 0);
	ck_assert_uint_ge(stats().flushes, RACE_ROUNDS);
	munmap(v.cpu, 0x3000);
	munmap((void *)hdp, KFD_MMIO_REMAP_SIZE);
}
END_TEST

/* ROCr 1.18's RegionMemory::Freeze on a large-BAR gfx90a: memcpy of the
 * code into VRAM, then PcieWcFlush (sfence, the last byte rewritten,
 * mfence, the last byte read back); the read completes the copy. */
START_TEST(readback_after_a_bulk_write_completes_it)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	uint8_t code[0x1800];
	for (size_t i = 0; i < sizeof(code); i++)
		code[i] = (uint8_t)(i * 7 + 1);
	memcpy(v.cpu + 0x400, code, sizeof(code));
	kemu_hdp_bulk_written(v.cpu + 0x400, sizeof(code)); /* the shim's memcpy does this */
	ck_assert_uint_eq(stats().cpu_faults, 2);
	uint8_t *last = v.cpu + 0x400 + sizeof(code) - 1;
	_mm_sfence();
	*last = *(volatile uint8_t *)last; /* the read-back: a flush */
	_mm_mfence();
	ck_assert_uint_eq(*(volatile uint8_t *)last, code[sizeof(code) - 1]);
	ck_assert_uint_eq(stats().readbacks, 1);
	uint8_t out[sizeof(code)];
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x400, out, sizeof(out), NULL), 0);
	ck_assert_mem_eq(out, code, sizeof(code));
	ck_assert_uint_eq(stats().violations, 0);
	ck_assert_uint_eq(stats().flushes, 1);
	munmap(v.cpu, 0x3000);
}
END_TEST

/* HIP 5.2.3's small hipMemcpy: the same copy with no read-back after it. */
START_TEST(bulk_write_without_readback_faults_the_gpu_read)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	uint8_t data[0x100];
	memset(data, 0x3c, sizeof(data));
	memcpy(v.cpu + 0x1000, data, sizeof(data));
	kemu_hdp_bulk_written(v.cpu + 0x1000, sizeof(data));
	uint8_t b = 0;
	struct kemu_vm_fault_info f;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x1000, &b, 1, &f), -EFAULT);
	ck_assert(f.hdp_stale);
	ck_assert_uint_eq(stats().readbacks, 0);
	/* a read of another, clean page is no read-back of this one's
	 * writes as far as the model sees (that page is readable) */
	ck_assert_uint_eq(*(volatile uint8_t *)(v.cpu + 0x2000), 0);
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x1000, &b, 1, &f), -EFAULT);
	/* a store to the watched page gives it its write access back */
	v.cpu[0x1001] = 0x3d;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x1001, &b, 1, &f), -EFAULT);
	ck_assert_uint_eq(stats().violations, 3);
	munmap(v.cpu, 0x3000);
}
END_TEST

/* A loop of stores is no bulk call: its page stays writable, and a
 * read-back of it is not seen (stricter than silicon, docs/kfdemu.md). */
START_TEST(readback_of_a_page_written_by_plain_stores_is_not_seen)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	for (int i = 0; i < 64; i++)
		((volatile uint8_t *)v.cpu)[0x800 + i] = (uint8_t)(i + 1);
	_mm_mfence();
	ck_assert_uint_eq(*(volatile uint8_t *)(v.cpu + 0x83f), 64);
	ck_assert_uint_eq(stats().readbacks, 0);
	uint8_t b = 0;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x800, &b, 1, NULL), -EFAULT);
	munmap(v.cpu, 0x3000);
}
END_TEST

/* The content rule: a write of the bytes already there is not stale on
 * any chip; a write of other bytes is. */
START_TEST(rewriting_unchanged_bytes_is_not_stale)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	v.cpu[0x10] = 0; /* VRAM starts zeroed */
	ck_assert_uint_eq(stats().cpu_faults, 1);
	uint8_t b = 1;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x10, &b, 1, NULL), 0);
	ck_assert_uint_eq(b, 0);
	ck_assert_uint_eq(stats().violations, 0);
	/* the page counts as clean again: the next store faults anew */
	v.cpu[0x10] = 5;
	ck_assert_uint_eq(stats().cpu_faults, 2);
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x10, &b, 1, NULL), -EFAULT);
	ck_assert_uint_eq(stats().violations, 1);
	munmap(v.cpu, 0x3000);
}
END_TEST

/* ---- the round trip (gfx90a/gfx94x): a doorbell store after the writes,
 * then a packet the CP fetched after that store completes ---- */

/* The process's doorbell slice on the fixture's GPU, mapped as ROCr and
 * hsalite map it (the kfd fd, one 8 KiB slice). */
static _Atomic uint64_t *doorbells(void)
{
	void *p = NULL;
	ck_assert_int_eq(kemu_mmap(E.m, NULL, KFD_DOORBELL_SLICE_SIZE, PROT_READ | PROT_WRITE,
				   MAP_SHARED, E.kfd,
				   KFD_MMAP_TYPE_DOORBELL | KFD_MMAP_GPU_ID(E.gpu_id), &p), 0);
	return p;
}

/* The CP's two reports for the packet at index of the queue at slot. */
static uint64_t fetched(uint32_t slot, uint64_t index)
{
	return kemu_ih_gpu_ops.hdp_packet_fetched(E.p, E.gpu_id, slot, index);
}

static void done(uint32_t slot, uint64_t index, uint64_t token)
{
	kemu_ih_gpu_ops.hdp_packet_done(E.p, E.gpu_id, slot, index, token);
}

static int gpu_read(uint64_t va, uint8_t *b)
{
	return kemu_vm_read(E.p, E.gpu_id, va, b, 1, NULL);
}

/* CLR's kernel-argument case: the packet that reads the data was fetched
 * after the doorbell that followed the writes, but nothing completed in
 * between: stale, strict (CLR reads back before that doorbell). */
START_TEST(read_behind_the_same_doorbell_faults)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	_Atomic uint64_t *db = doorbells();
	v.cpu[0x1000] = 0x11;
	atomic_store(&db[3], 7); /* the ring: seals the write */
	ck_assert_uint_eq(stats().seals, 1);
	uint64_t t = fetched(3, 7);
	ck_assert_uint_ne(t, 0);
	uint8_t b = 0;
	struct kemu_vm_fault_info f;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, v.va + 0x1000, &b, 1, &f), -EFAULT);
	ck_assert(f.hdp_stale);
	ck_assert_uint_eq(stats().violations, 1);
	munmap((void *)db, KFD_DOORBELL_SLICE_SIZE);
	munmap(v.cpu, 0x3000);
}
END_TEST

/* HIP 5.2.3's small hipMemcpy: the writes, a barrier packet whose doorbell
 * followed them completes, then the kernel reads: landed. */
START_TEST(completed_round_trip_lands_the_writes)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	_Atomic uint64_t *db = doorbells();
	v.cpu[0x10] = 0x21;
	v.cpu[0x2010] = 0x22;
	atomic_store(&db[0], 1); /* the barrier packet's ring */
	done(0, 1, fetched(0, 1)); /* its fetch, its completion */
	/* the dispatch: another doorbell, nothing left to seal: plain store */
	atomic_store(&db[0], 2);
	ck_assert_uint_eq(stats().seals, 1);
	uint8_t b = 0;
	ck_assert_int_eq(gpu_read(v.va + 0x10, &b), 0);
	ck_assert_uint_eq(b, 0x21);
	ck_assert_int_eq(gpu_read(v.va + 0x2010, &b), 0);
	ck_assert_uint_eq(b, 0x22);
	ck_assert_uint_eq(stats().violations, 0);
	ck_assert_uint_eq(stats().landed, 2);
	/* landed pages are clean: the next store is seen anew */
	v.cpu[0x10] = 0x23;
	ck_assert_uint_eq(stats().cpu_faults, 3);
	ck_assert_int_eq(gpu_read(v.va + 0x10, &b), -EFAULT);
	munmap((void *)db, KFD_DOORBELL_SLICE_SIZE);
	munmap(v.cpu, 0x3000);
}
END_TEST

/* A packet fetched before the ring (a kernel already running, a barrier
 * that was waiting) proves nothing about writes before the ring. */
START_TEST(packet_fetched_before_the_ring_lands_nothing)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	_Atomic uint64_t *db = doorbells();
	uint64_t running = fetched(0, 0);
	v.cpu[0x10] = 0x31; /* the running kernel polls this page */
	uint8_t b = 0;
	ck_assert_int_eq(gpu_read(v.va + 0x10, &b), -EFAULT);
	atomic_store(&db[0], 1);
	done(0, 0, running);
	ck_assert_int_eq(gpu_read(v.va + 0x10, &b), -EFAULT);
	/* a packet of another queue, whose doorbell was not rung after the
	 * write, lands nothing either */
	done(1, 0, fetched(1, 0));
	ck_assert_int_eq(gpu_read(v.va + 0x10, &b), -EFAULT);
	done(0, 1, fetched(0, 1));
	ck_assert_int_eq(gpu_read(v.va + 0x10, &b), 0);
	ck_assert_uint_eq(b, 0x31);
	munmap((void *)db, KFD_DOORBELL_SLICE_SIZE);
	munmap(v.cpu, 0x3000);
}
END_TEST

/* A store to a sealed page after its doorbell is not covered by that
 * doorbell: the page waits for the next ring and round trip. */
START_TEST(write_after_the_ring_waits_for_the_next_round_trip)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	_Atomic uint64_t *db = doorbells();
	v.cpu[0x10] = 0x41;
	atomic_store(&db[0], 1);
	uint64_t t = fetched(0, 1);
	v.cpu[0x11] = 0x42; /* after the ring, before the completion */
	done(0, 1, t);
	uint8_t b = 0;
	ck_assert_int_eq(gpu_read(v.va + 0x10, &b), -EFAULT);
	atomic_store(&db[0], 2);
	ck_assert_uint_eq(stats().seals, 2);
	done(0, 2, fetched(0, 2));
	ck_assert_int_eq(gpu_read(v.va + 0x11, &b), 0);
	ck_assert_uint_eq(b, 0x42);
	ck_assert_uint_eq(stats().violations, 1);
	munmap((void *)db, KFD_DOORBELL_SLICE_SIZE);
	munmap(v.cpu, 0x3000);
}
END_TEST

/* kfdemu's CP may fetch a published packet before its producer rings for
 * it (the lost-doorbell fetch, emu/cp/cp_queue.c), which silicon's CP
 * never does: the packet's fetch counts as following the ring that covers
 * it.  Completed after that ring: the ring's seal lands then. */
START_TEST(packet_fetched_ahead_and_completed_after_its_ring_lands_it)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	_Atomic uint64_t *db = doorbells();
	atomic_store(&db[0], 4); /* packet 4's ring, nothing written yet */
	v.cpu[0x10] = 0x61;
	uint64_t t = fetched(0, 5); /* packet 5, published, not rung for */
	atomic_store(&db[0], 5);    /* its ring seals the write */
	done(0, 5, t);
	uint8_t b = 0;
	ck_assert_int_eq(gpu_read(v.va + 0x10, &b), 0);
	ck_assert_uint_eq(b, 0x61);
	munmap((void *)db, KFD_DOORBELL_SLICE_SIZE);
	munmap(v.cpu, 0x3000);
}
END_TEST

/* Completed before its ring: the ring's seal lands at the queue's next
 * fetch (on silicon that packet completes after the ring, and the next
 * one comes after it); a ring past it (which ring covered it is unknown)
 * lands nothing more. */
START_TEST(packet_completed_ahead_of_its_ring_lands_it_at_the_next_fetch)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	_Atomic uint64_t *db = doorbells();
	atomic_store(&db[0], 4);
	v.cpu[0x10] = 0x71;
	done(0, 5, fetched(0, 5)); /* the barrier, run ahead of its ring */
	atomic_store(&db[0], 5);
	uint8_t b = 0;
	ck_assert_int_eq(gpu_read(v.va + 0x10, &b), -EFAULT);
	uint64_t t = fetched(0, 6); /* the dispatch behind it */
	ck_assert_int_eq(gpu_read(v.va + 0x10, &b), 0);
	ck_assert_uint_eq(b, 0x71);
	done(0, 6, t);
	/* fetched ahead, rung past: nothing */
	v.cpu[0x20] = 0x72;
	t = fetched(0, 7);
	atomic_store(&db[0], 8);
	done(0, 7, t);
	ck_assert_int_eq(gpu_read(v.va + 0x20, &b), -EFAULT);
	munmap((void *)db, KFD_DOORBELL_SLICE_SIZE);
	munmap(v.cpu, 0x3000);
}
END_TEST

/* A chip whose HDP may hold the CPU's writes (gfx908, no kfdemu preset:
 * the fixture's mi210 relabelled): doorbells seal nothing, and only a
 * flush makes the write visible. */
static void setup_gfx908(void)
{
	setenv("KFDEMU_HDP", "strict", 1); /* read at kemu_machine_create */
	memset(&E, 0, sizeof(E));
	ck_assert_int_eq(kemu_topology_create("mi210", 1, false, &E.topo), 0);
	E.topo.gpus[0].gfx_target_version = 90008;
	emu_setup_machine(true);
	unsetenv("KFDEMU_HDP");
}

START_TEST(round_trip_does_not_land_where_the_hdp_holds_writes)
{
	struct vram v = vram_buffer(KFD_ALLOC_VRAM);
	_Atomic uint64_t *db = doorbells();
	v.cpu[0x10] = 0x51;
	atomic_store(&db[0], 1);
	done(0, 1, fetched(0, 1));
	ck_assert_uint_eq(stats().seals, 0);
	uint8_t b = 0;
	ck_assert_int_eq(gpu_read(v.va + 0x10, &b), -EFAULT);
	kemu_ih_gpu_ops.hdp_flush(E.p, E.gpu_id);
	ck_assert_int_eq(gpu_read(v.va + 0x10, &b), 0);
	ck_assert_uint_eq(b, 0x51);
	munmap((void *)db, KFD_DOORBELL_SLICE_SIZE);
	munmap(v.cpu, 0x3000);
}
END_TEST

static Suite *hdp_suite(void)
{
	Suite *s = suite_create("kfdemu_hdp");
	TCase *strict = tcase_create("strict");
	tcase_add_checked_fixture(strict, setup_strict, emu_teardown);
	tcase_add_test(strict, unflushed_cpu_write_faults_the_gpu_read);
	tcase_add_test(strict, mmio_flush_register_makes_the_write_visible);
	tcase_add_test(strict, sdma_flush_op_makes_the_write_visible);
	tcase_add_test(strict, translation_kept_before_the_write_goes_stale);
	tcase_add_test(strict, system_memory_does_not_pass_the_hdp);
	tcase_add_test(strict, freed_bo_leaves_its_mapping_writable);
	tcase_add_test(strict, partial_unmap_keeps_the_rest_tracked);
	tcase_add_test(strict, concurrent_writes_and_flushes_all_go_through);
	tcase_add_test(strict, readback_after_a_bulk_write_completes_it);
	tcase_add_test(strict, bulk_write_without_readback_faults_the_gpu_read);
	tcase_add_test(strict, readback_of_a_page_written_by_plain_stores_is_not_seen);
	tcase_add_test(strict, rewriting_unchanged_bytes_is_not_stale);
	tcase_add_test(strict, read_behind_the_same_doorbell_faults);
	tcase_add_test(strict, completed_round_trip_lands_the_writes);
	tcase_add_test(strict, packet_fetched_before_the_ring_lands_nothing);
	tcase_add_test(strict, write_after_the_ring_waits_for_the_next_round_trip);
	tcase_add_test(strict, packet_fetched_ahead_and_completed_after_its_ring_lands_it);
	tcase_add_test(strict, packet_completed_ahead_of_its_ring_lands_it_at_the_next_fetch);
	suite_add_tcase(s, strict);
	TCase *def = tcase_create("default");
	tcase_add_checked_fixture(def, setup_default, emu_teardown);
	tcase_add_test(def, default_mode_is_strict);
	suite_add_tcase(s, def);
	TCase *unknown = tcase_create("unknown");
	tcase_add_checked_fixture(unknown, setup_unknown, emu_teardown);
	tcase_add_test(unknown, default_mode_is_strict);
	suite_add_tcase(s, unknown);
	TCase *warn = tcase_create("warn");
	tcase_add_checked_fixture(warn, setup_warn, emu_teardown);
	tcase_add_test(warn, warn_mode_counts_once_and_goes_on);
	suite_add_tcase(s, warn);
	TCase *gfx908 = tcase_create("gfx908");
	tcase_add_checked_fixture(gfx908, setup_gfx908, emu_teardown);
	tcase_add_test(gfx908, round_trip_does_not_land_where_the_hdp_holds_writes);
	suite_add_tcase(s, gfx908);
	TCase *off = tcase_create("off");
	tcase_add_checked_fixture(off, setup_off, emu_teardown);
	tcase_add_test(off, off_mode_tracks_nothing);
	suite_add_tcase(s, off);
	return s;
}

HL_CHECK_MAIN(hdp_suite)
