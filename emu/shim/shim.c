/*
 * The shim's state and the fd-based interposers.
 *
 * Settings come from the launcher through the environment:
 *   KFDEMU_TOPOLOGY_DIR  the tree written by kemu_topology_create
 *   KFDEMU_PRESET        preset name (mi210, mi300x)
 *   KFDEMU_GPUS          number of GPUs
 *   KFDEMU_LOG, KFDEMU_FAIL  logging and fault injection (kfdemu.h)
 * Without KFDEMU_TOPOLOGY_DIR the shim is inert.  The machine is created
 * lazily on the first open of an emulated node, so that the many helper
 * processes a program may spawn (rocminfo's popen of lsmod) pay nothing.
 *
 * Emulated fds are real memfds; the driver model's fd table says which.
 * Calls on other fds pass straight through.  A call that fails in the model
 * returns -1 with errno set, as the system call would.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "shim.h"

char shim_tree_dir[PATH_MAX];
static char shim_preset[32];
static uint32_t shim_gpus = 1;

static pthread_once_t machine_once = PTHREAD_ONCE_INIT;
static struct kemu_machine *_Atomic machine; /* written once under machine_once */
static struct kemu_topology *machine_topo;

/*
 * Exit.  In the kernel a process's files, and the KFD process with them,
 * stay fully alive until exit_group: every atexit handler and library
 * destructor runs with the device working, other threads included (HIP and
 * hsalite shut their runtimes down from destructors, and hsa_shut_down
 * wakes and joins service threads blocked in WAIT_EVENTS).  Only exit_group
 * then kills the other threads, and a thread inside the driver (ROCr's
 * event thread, blocked in WAIT_EVENTS when the runtime was never shut
 * down) never returns to user space.
 *
 * A preloaded library is finalized before the libraries the program loaded
 * (nothing depends on it), so the shim's destructor does nothing but
 * register shim_exit, which glibc runs after every destructor (a handler
 * registered during exit runs after the running one: _dl_fini).  shim_exit
 * plays exit_group: from then on any thread other than the exiting one
 * that enters an interposer or leaves the machine parks for good (it would
 * have been killed at that system call), even after the machine is gone;
 * blocked waiters are woken (kemu_machine_shutdown: -EINTR) and park; once
 * no other thread is inside, the machine is torn down.  Every entry into
 * the machine is counted in shim_calls (not in the machine, which is
 * freed).  A fork child has none of its parent's threads: its count starts
 * at 0 (and see shim_fork_inherited_busy).
 */
#define SHIM_EXIT_WAIT_MS 2000
static atomic_uint shim_calls;
static atomic_bool shim_dying;
static _Atomic pid_t shim_exit_tid; /* the thread running shim_exit */
/* Set in a fork child when a parent thread was inside the machine at the
 * fork: its copy may hold a lock or waiters of threads the child does not
 * have, so the child never touches it again at exit (in the kernel the
 * child has no part of its parent's KFD process anyway). */
static bool shim_fork_inherited_busy;

static void shim_atfork_child(void)
{
	if (atomic_load_explicit(&shim_calls, memory_order_relaxed))
		shim_fork_inherited_busy = true;
	atomic_store_explicit(&shim_calls, 0, memory_order_relaxed);
}

/* The thread is being killed: it never returns to user code. */
__attribute__((noreturn)) static void shim_park(void)
{
	for (;;)
		pause();
}

/* Is the process exiting and this thread not the one tearing down? */
static bool shim_thread_killed(void)
{
	return atomic_load_explicit(&shim_dying, memory_order_seq_cst) &&
	       gettid() != atomic_load_explicit(&shim_exit_tid, memory_order_relaxed);
}

struct kemu_machine *shim_enter(bool create)
{
	/* a thread of an exiting process would be dead by now: it parks at
	 * its next interposed call, even after the machine is gone */
	if (shim_thread_killed())
		shim_park();
	struct kemu_machine *m = create ? shim_machine() : shim_machine_peek();
	if (!m)
		return NULL;
	/* seq_cst, with shim_exit's store of shim_dying and its load of
	 * shim_calls: either this thread sees shim_dying and never touches m,
	 * or shim_exit sees this count and waits for shim_leave */
	atomic_fetch_add_explicit(&shim_calls, 1, memory_order_seq_cst);
	if (shim_thread_killed()) { /* its seq_cst load of shim_dying */
		atomic_fetch_sub_explicit(&shim_calls, 1, memory_order_release);
		shim_park();
	}
	/* the exiting thread itself goes on using the machine: shim_exit
	 * runs in it, after the last destructor */
	return m;
}

void shim_leave(void)
{
	bool killed = shim_thread_killed();
	/* release pairs with shim_exit's seq_cst load of shim_calls: all
	 * this call did in the machine happens before its teardown */
	atomic_fetch_sub_explicit(&shim_calls, 1, memory_order_release);
	if (killed)
		shim_park();
}

/*
 * dlsym(RTLD_NEXT) walks the link map and takes the loader's lock: about a
 * microsecond, paid on every interposed call (a program reading a few
 * hundred sysfs files pays it twice per file, for open and close).  The
 * answer never changes (libc is loaded before us and RTLD_NEXT is fixed by
 * load order), so each name is looked up once and kept in a lock-free
 * open-addressing table.  Entries come from a static pool (no malloc inside
 * an interposer) and are published whole by the release CAS that the
 * acquire load in the lookup pairs with; names are string literals, so the
 * table may keep the pointers.  A full table only means uncached lookups.
 */
#define REAL_SLOTS 128 /* power of two, above the ~40 names we interpose */

struct real_entry {
	const char *name;
	void *fn;
};

static struct real_entry real_pool[REAL_SLOTS];
static atomic_uint real_pool_used;
static struct real_entry *_Atomic real_table[REAL_SLOTS];

static uint32_t real_hash(const char *name)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

void *shim_real(const char *name)
{
	uint32_t h = real_hash(name);
	for (uint32_t i = 0; i < REAL_SLOTS; i++) {
		struct real_entry *e = atomic_load_explicit(&real_table[(h + i) & (REAL_SLOTS - 1)],
							    memory_order_acquire);
		if (!e)
			break;
		if (!strcmp(e->name, name))
			return e->fn;
	}

	void *f = dlsym(RTLD_NEXT, name);
	if (!f) {
		fprintf(stderr, "kfdemu: cannot find the real %s\n", name);
		abort();
	}
	unsigned k = atomic_fetch_add_explicit(&real_pool_used, 1, memory_order_relaxed);
	if (k >= REAL_SLOTS)
		return f;
	struct real_entry *mine = &real_pool[k];
	mine->name = name;
	mine->fn = f;
	for (uint32_t i = 0; i < REAL_SLOTS; i++) {
		struct real_entry *expected = NULL;
		/* release: publishes *mine; pairs with the acquire load above */
		if (atomic_compare_exchange_strong_explicit(
			    &real_table[(h + i) & (REAL_SLOTS - 1)], &expected, mine,
			    memory_order_release, memory_order_acquire))
			break;
		if (!strcmp(expected->name, name))
			break; /* another thread cached it first */
	}
	return f;
}

__attribute__((constructor)) static void shim_init(void)
{
	const char *dir = getenv("KFDEMU_TOPOLOGY_DIR");
	if (!dir || !*dir || strlen(dir) >= sizeof(shim_tree_dir))
		return;
	snprintf(shim_tree_dir, sizeof(shim_tree_dir), "%s", dir);
	pthread_atfork(NULL, NULL, shim_atfork_child);
	const char *preset = getenv("KFDEMU_PRESET");
	snprintf(shim_preset, sizeof(shim_preset), "%s", preset && *preset ? preset : "mi210");
	const char *gpus = getenv("KFDEMU_GPUS");
	if (gpus && *gpus) {
		unsigned long n = strtoul(gpus, NULL, 10);
		shim_gpus = n >= 1 && n <= KEMU_MAX_GPUS ? (uint32_t)n : 1;
	}
}

static void machine_create(void)
{
	struct kemu_topology *t = calloc(1, sizeof(*t));
	if (!t)
		return;
	int err = kemu_topology_create(shim_preset, shim_gpus, false, t);
	if (err) {
		fprintf(stderr, "kfdemu: topology %s x%u: %s\n", shim_preset, shim_gpus,
			strerror(-err));
		free(t);
		return;
	}
	snprintf(t->dir, sizeof(t->dir), "%s", shim_tree_dir);
	struct kemu_machine_options opts = {
		.size = sizeof(opts), .fail = getenv("KFDEMU_FAIL"), .log_level = -1 };
	struct kemu_machine *m;
	err = kemu_machine_create(t, &opts, &m);
	if (err) {
		fprintf(stderr, "kfdemu: cannot create the machine: %s\n", strerror(-err));
		free(t);
		return;
	}
	machine_topo = t;
	/* release pairs with the acquire in shim_machine_peek (callers of
	 * shim_machine are ordered by pthread_once itself) */
	atomic_store_explicit(&machine, m, memory_order_release);
}

struct kemu_machine *shim_machine(void)
{
	if (!shim_tree_dir[0])
		return NULL;
	pthread_once(&machine_once, machine_create);
	return atomic_load_explicit(&machine, memory_order_relaxed);
}

struct kemu_machine *shim_machine_peek(void)
{
	if (!shim_tree_dir[0])
		return NULL;
	/* machine is set inside pthread_once; a thread that races with the
	 * first open sees NULL and treats its fd as a plain one, which is
	 * right: no emulated fd exists before the first open returns */
	return atomic_load_explicit(&machine, memory_order_acquire);
}

/* glibc; not declared by any header */
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

/* exit_group, after the last destructor: kills the other threads as far
 * as the machine is concerned, then frees it.  Runs in the exiting thread. */
static void shim_exit(void *unused)
{
	(void)unused;
	/* Everything the machine holds is process-local (memory, memfds), so
	 * a fork child tearing down its copy does not disturb the parent. */
	struct kemu_machine *m = atomic_load_explicit(&machine, memory_order_acquire);
	if (!m || shim_fork_inherited_busy)
		return;
	atomic_store_explicit(&shim_exit_tid, gettid(), memory_order_relaxed);
	atomic_store_explicit(&shim_dying, true, memory_order_seq_cst);
	kemu_machine_shutdown(m);
	unsigned busy;
	for (int ms = 0; (busy = atomic_load_explicit(&shim_calls, memory_order_seq_cst)) &&
			 ms < SHIM_EXIT_WAIT_MS; ms++) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	if (busy) {
		/* blocked elsewhere than in a wait (e.g. UPDATE_QUEUE waiting for
		 * a dispatch that never ends): freeing the machine under it would
		 * be a use-after-free, so leave it to the exit */
		fprintf(stderr, "kfdemu: %u calls still inside the emulator %d ms after exit began; "
			"not tearing it down\n", busy, SHIM_EXIT_WAIT_MS);
		return;
	}
	m = atomic_exchange_explicit(&machine, NULL, memory_order_acq_rel);
	kemu_machine_destroy(m);
	free(machine_topo);
	machine_topo = NULL;
}

__attribute__((destructor)) static void shim_fini(void)
{
	if (!atomic_load_explicit(&machine, memory_order_acquire))
		return;
	/* Libraries finalized after this one still use the device (HIP shuts
	 * HSA down from its destructor; ROCr asserts when FREE_MEMORY_OF_GPU
	 * fails): the device stays alive until shim_exit.  With no DSO handle
	 * __cxa_finalize of this library does not run it early; only if
	 * registration fails does exit begin here. */
	if (__cxa_atexit(shim_exit, NULL, NULL) != 0)
		shim_exit(NULL);
}

void shim_fill_node_stat(enum kemu_node node, uint32_t minor, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_mode = S_IFCHR | 0666;
	st->st_nlink = 1;
	st->st_blksize = 4096;
	st->st_dev = makedev(0, 5); /* devtmpfs */
	st->st_rdev = node == KEMU_NODE_KFD ? makedev(KEMU_KFD_CHR_MAJOR, 0)
					    : makedev(KEMU_DRM_CHR_MAJOR, minor);
	st->st_ino = node == KEMU_NODE_KFD ? 1000 : 2000 + minor;
}

/* ---- fd-based interposers ---- */

SHIM_EXPORT int close(int fd)
{
	struct kemu_machine *m = shim_enter(false);
	if (m) {
		kemu_fd_forget(m, fd);
		shim_leave();
	}
	return SHIM_REAL(int (*)(int), close)(fd);
}

static void shim_fd_dup(int oldfd, int newfd)
{
	struct kemu_machine *m = shim_enter(false);
	if (m) {
		kemu_fd_dup(m, oldfd, newfd);
		shim_leave();
	}
}

/* Is fd emulated?  Fills node and minor (may be NULL). */
static bool shim_fd_node(int fd, enum kemu_node *node, uint32_t *minor)
{
	struct kemu_machine *m = shim_enter(false);
	if (!m)
		return false;
	bool r = kemu_fd_node(m, fd, node, minor);
	shim_leave();
	return r;
}

SHIM_EXPORT int dup(int oldfd)
{
	int fd = SHIM_REAL(int (*)(int), dup)(oldfd);
	if (fd >= 0)
		shim_fd_dup(oldfd, fd);
	return fd;
}

SHIM_EXPORT int dup2(int oldfd, int newfd)
{
	int fd = SHIM_REAL(int (*)(int, int), dup2)(oldfd, newfd);
	if (fd >= 0)
		shim_fd_dup(oldfd, fd);
	return fd;
}

SHIM_EXPORT int dup3(int oldfd, int newfd, int flags)
{
	int fd = SHIM_REAL(int (*)(int, int, int), dup3)(oldfd, newfd, flags);
	if (fd >= 0)
		shim_fd_dup(oldfd, fd);
	return fd;
}

static int shim_fcntl(const char *name, int fd, int cmd, va_list ap)
{
	/* every fcntl argument is an int, a long or a pointer: pass a long */
	long arg = va_arg(ap, long);
	int r = ((int (*)(int, int, long))shim_real(name))(fd, cmd, arg);
	if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC))
		shim_fd_dup(fd, r);
	return r;
}

SHIM_EXPORT int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	int r = shim_fcntl("fcntl", fd, cmd, ap);
	va_end(ap);
	return r;
}

SHIM_EXPORT int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	int r = shim_fcntl("fcntl64", fd, cmd, ap);
	va_end(ap);
	return r;
}

SHIM_EXPORT int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	va_start(ap, request);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	struct kemu_machine *m = shim_enter(false);
	if (m) {
		if (kemu_fd_node(m, fd, NULL, NULL)) {
			long r = kemu_ioctl(m, fd, request, arg);
			shim_leave(); /* a thread of an exiting process parks here */
			if (r < 0) {
				errno = (int)-r;
				return -1;
			}
			return (int)r;
		}
		shim_leave();
	}
	return SHIM_REAL(int (*)(int, unsigned long, void *), ioctl)(fd, request, arg);
}

static void *shim_mmap(const char *name, void *addr, size_t len, int prot, int flags, int fd,
		       off_t off)
{
	struct kemu_machine *m = fd >= 0 && !(flags & MAP_ANONYMOUS) ? shim_enter(false) : NULL;
	if (m) {
		if (kemu_fd_node(m, fd, NULL, NULL)) {
			void *out = MAP_FAILED;
			int r = kemu_mmap(m, addr, len, prot, flags, fd, (uint64_t)off, &out);
			shim_leave();
			if (r < 0) {
				errno = -r;
				return MAP_FAILED;
			}
			return out;
		}
		shim_leave();
	}
	void *out = ((void *(*)(void *, size_t, int, int, int, off_t))shim_real(name))(
		addr, len, prot, flags, fd, off);
	/* MAP_FIXED over pages that were mapped unmaps them first: KFD's
	 * MMU notifier drops the SVM ranges there, as for munmap */
	if (out != MAP_FAILED && (flags & MAP_FIXED)) {
		m = shim_enter(false);
		if (m) {
			kemu_cpu_unmapped(m, getpid(), (uintptr_t)out, len);
			shim_leave();
		}
	}
	return out;
}

SHIM_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return shim_mmap("mmap", addr, len, prot, flags, fd, off);
}

SHIM_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return shim_mmap("mmap64", addr, len, prot, flags, fd, off);
}

/* Unmapping pages drops the SVM ranges over them, as KFD's MMU notifier
 * does, and forgets device mappings there (kemu_cpu_unmapped).
 *
 * Before the system call, not after it: the kernel runs the notifier
 * inside munmap under mmap_lock, so no other thread can map the range
 * until what was tracked there is gone.  Once the real munmap returns,
 * another thread's mmap may take the range at once (malloc, a BO mapping)
 * and the driver model record it (an SVM range, an HDP-tracked VRAM
 * mapping with its clean pages write-protected); a notifier run after
 * that would drop the new record, and the first CPU store to those pages
 * would die with SIGSEGV (test_emu_shim's
 * munmap_forgets_the_old_mapping_before_another_takes_the_range).
 * munmap fails with EINVAL for a misaligned address or a zero length,
 * tested here so that such a call drops nothing; a failure on a valid
 * range (ENOMEM splitting a mapping past vm.max_map_count) leaves the
 * pages mapped but untracked: GPU access through SVM there then faults,
 * as after a real unmap. */
SHIM_EXPORT int munmap(void *addr, size_t len)
{
	if (len && !((uintptr_t)addr & 4095u)) {
		struct kemu_machine *m = shim_enter(false);
		if (m) {
			kemu_cpu_unmapped(m, getpid(), (uintptr_t)addr, len);
			shim_leave();
		}
	}
	return SHIM_REAL(int (*)(void *, size_t), munmap)(addr, len);
}

static int shim_fstat_common(const char *name, int fd, struct stat *st)
{
	enum kemu_node node;
	uint32_t minor;
	if (shim_fd_node(fd, &node, &minor)) {
		shim_fill_node_stat(node, minor, st);
		return 0;
	}
	return ((int (*)(int, struct stat *))shim_real(name))(fd, st);
}

SHIM_EXPORT int fstat(int fd, struct stat *st)
{
	return shim_fstat_common("fstat", fd, st);
}

SHIM_EXPORT int fstat64(int fd, struct stat64 *st)
{
	return shim_fstat_common("fstat64", fd, (struct stat *)st);
}

/* Pre-2.33 glibc entry points (binaries linked against an old glibc, and
 * sanitizer runtimes, whose fstat interceptor calls __fxstat).  They must
 * not call fstat back (that recurses through the sanitizer), so the plain
 * case is the system call itself: on x86-64 struct stat is the kernel's. */
static int shim_fxstat(int fd, struct stat *st)
{
	enum kemu_node node;
	uint32_t minor;
	if (shim_fd_node(fd, &node, &minor)) {
		shim_fill_node_stat(node, minor, st);
		return 0;
	}
	return (int)syscall(SYS_fstat, fd, st);
}

SHIM_EXPORT int __fxstat(int ver, int fd, struct stat *st)
{
	(void)ver;
	return shim_fxstat(fd, st);
}

SHIM_EXPORT int __fxstat64(int ver, int fd, struct stat64 *st)
{
	(void)ver;
	return shim_fxstat(fd, (struct stat *)st);
}

/* The HDP model's counters for a test running under the launcher, which
 * finds this with dlsym(RTLD_DEFAULT, "kfdemu_hdp_counters"): out[0] the
 * mode (0 off, 1 warn, 2 strict), out[1] violations, out[2] flushes,
 * out[3] first CPU writes to clean VRAM pages.  -1 (ENODEV) before the
 * machine exists, -1 (EINVAL) for a NULL out. */
SHIM_EXPORT int kfdemu_hdp_counters(uint64_t out[4])
{
	if (!out) {
		errno = EINVAL;
		return -1;
	}
	struct kemu_machine *m = shim_machine_peek();
	if (!m) {
		errno = ENODEV;
		return -1;
	}
	struct kemu_hdp_stats st;
	kemu_hdp_stats(m, &st);
	out[0] = (uint64_t)st.mode;
	out[1] = st.violations;
	out[2] = st.flushes;
	out[3] = st.cpu_faults;
	return 0;
}
