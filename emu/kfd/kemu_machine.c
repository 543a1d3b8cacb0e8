/*
 * The machine: the host with its emulated GPUs, the table of open emulated
 * files (fd -> file, the model of the kernel's file table for our nodes),
 * device-wide state (MMIO remap page, VRAM accounting, the DRM fake-offset
 * allocator) and fault injection.
 *
 * Every emulated file is a memfd so that the fd is real: dup, fcntl, poll and
 * close work without us.  The table records which fds stand for which file;
 * a file is released when its last fd is forgotten and no VM holds it
 * (ACQUIRE_VM takes a reference on the render file, as the kernel fget()s the
 * drm file); its GEM handles are released then, outside machine->lock
 * (kemu_machine_reap: they take process locks, which nest outside it).
 * KFD processes belong to the machine, one per host pid, and are
 * destroyed with it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kemu_priv.h"

/* ---- raw system calls ---- */

void *kemu_sys_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	long r = syscall(SYS_mmap, addr, len, prot, flags, fd, off);
	return (void *)r;
}

int kemu_sys_munmap(void *addr, size_t len)
{
	return (int)syscall(SYS_munmap, addr, len);
}

int kemu_sys_close(int fd)
{
	return (int)syscall(SYS_close, fd);
}

/* A sparse shared-memory object of size bytes; returns the fd or -errno. */
int kemu_sys_memfd(const char *name, uint64_t size, bool cloexec)
{
	int fd = (int)syscall(SYS_memfd_create, name, cloexec ? MFD_CLOEXEC : 0u);
	if (fd < 0)
		return -errno;
	if (size && ftruncate(fd, (off_t)size) < 0) {
		int err = -errno;
		kemu_sys_close(fd);
		return err;
	}
	return fd;
}

/* ---- fault injection ---- */

static int fail_parse_one(struct kemu_machine *m, char *tok)
{
	char *parts[3] = { NULL, NULL, NULL };
	unsigned n = 0;
	for (char *save = NULL, *s = strtok_r(tok, ":", &save); s;
	     s = strtok_r(NULL, ":", &save)) {
		if (n == 3)
			return -EINVAL;
		parts[n++] = s;
	}
	if (m->n_fail == KEMU_FAIL_RULES || n < 2)
		return -EINVAL;
	struct kemu_fail_rule *r = &m->fail[m->n_fail];
	const char *count;
	if (!strcasecmp(parts[0], "ioctl")) {
		if (n != 3)
			return -EINVAL;
		unsigned nr = 0;
		for (unsigned i = 1; i < 0x100; i++) {
			if (!strcasecmp(kemu_ioctl_name(i), parts[1]))
				nr = i;
		}
		if (!nr) {
			char *end;
			unsigned long v = strtoul(parts[1], &end, 0);
			if (*end || !v || v > 0xFF)
				return -EINVAL;
			nr = (unsigned)v;
		}
		r->site = KEMU_FAIL_IOCTL;
		r->ioctl_nr = nr;
		count = parts[2];
	} else {
		if (n != 2)
			return -EINVAL;
		if (!strcasecmp(parts[0], "alloc"))
			r->site = KEMU_FAIL_ALLOC;
		else if (!strcasecmp(parts[0], "mmap"))
			r->site = KEMU_FAIL_MMAP;
		else if (!strcasecmp(parts[0], "open"))
			r->site = KEMU_FAIL_OPEN;
		else
			return -EINVAL;
		count = parts[1];
	}
	char *end;
	unsigned long long nth = strtoull(count, &end, 0);
	if (*end || !nth)
		return -EINVAL;
	r->nth = nth;
	atomic_store_explicit(&r->count, 0, memory_order_relaxed);
	m->n_fail++;
	return 0;
}

int kemu_machine_set_fail(struct kemu_machine *m, const char *spec)
{
	m->n_fail = 0;
	if (!spec || !*spec)
		return 0;
	char *copy = strdup(spec);
	if (!copy)
		return -ENOMEM;
	int err = 0;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		err = fail_parse_one(m, tok);
		if (err)
			break;
	}
	free(copy);
	if (err) {
		m->n_fail = 0;
		kemu_err(m, "KFDEMU_FAIL: cannot parse \"%s\"", spec);
	}
	return err;
}

bool kemu_fail_check(struct kemu_machine *m, enum kemu_fail_site site, unsigned nr)
{
	bool fail = false;
	for (unsigned i = 0; i < m->n_fail; i++) {
		struct kemu_fail_rule *r = &m->fail[i];
		if (r->site != site || (site == KEMU_FAIL_IOCTL && r->ioctl_nr != nr))
			continue;
		/* relaxed: a counter, no data is published through it */
		uint64_t c = atomic_fetch_add_explicit(&r->count, 1, memory_order_relaxed) + 1;
		if (c == r->nth)
			fail = true;
	}
	return fail;
}

/* ---- devices ---- */

struct kemu_device *kemu_device_by_id(struct kemu_machine *m, uint32_t gpu_id)
{
	for (uint32_t i = 0; i < m->topo.n_gpus; i++) {
		if (gpu_id && m->devs[i].gpu->gpu_id == gpu_id)
			return &m->devs[i];
	}
	return NULL;
}

static void devices_fini(struct kemu_machine *m)
{
	for (uint32_t i = 0; i < m->topo.n_gpus; i++) {
		struct kemu_device *d = &m->devs[i];
		kemu_hdp_device_fini(d);
		if (d->mmio)
			kemu_sys_munmap(d->mmio, KFD_MMIO_REMAP_SIZE);
		if (d->mmio_fd >= 0)
			kemu_sys_close(d->mmio_fd);
		free(d->bos);
	}
}

static int devices_init(struct kemu_machine *m)
{
	for (uint32_t i = 0; i < m->topo.n_gpus; i++) {
		struct kemu_device *d = &m->devs[i];
		d->gpu = &m->topo.gpus[i];
		d->index = i;
		d->mmio = NULL;
		d->next_fake_offset = KEMU_DRM_FAKE_OFFSET_BASE;
		d->mmio_fd = kemu_sys_memfd("kfdemu-mmio", KFD_MMIO_REMAP_SIZE, true);
		if (d->mmio_fd < 0)
			return d->mmio_fd;
		void *p = kemu_sys_mmap(NULL, KFD_MMIO_REMAP_SIZE, PROT_READ | PROT_WRITE,
					MAP_SHARED, d->mmio_fd, 0);
		if (p == MAP_FAILED)
			return -errno;
		d->mmio = p;
	}
	return 0;
}

/* ---- machine ---- */

int kemu_machine_create(const struct kemu_topology *topo,
			const struct kemu_machine_options *opts,
			struct kemu_machine **out)
{
	if (!topo || !out || topo->n_gpus == 0 || topo->n_gpus > KEMU_MAX_GPUS)
		return -EINVAL;
	struct kemu_machine *m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->topo = *topo;
	for (uint32_t i = 0; i < KEMU_MAX_GPUS; i++)
		m->devs[i].mmio_fd = -1;
	m->log_level = kemu_log_level_parse(getenv("KFDEMU_LOG"));
	m->record_fd = -1;
	const char *dkms = getenv("KFDEMU_DKMS_IPC");
	m->dkms_ipc = dkms && !strcmp(dkms, "1");
	const char *hdp = getenv("KFDEMU_HDP");
	m->hdp_mode = kemu_hdp_mode_parse(hdp);
	if (m->hdp_mode < 0) {
		kemu_warn(m, "KFDEMU_HDP=%s is not strict, warn or off: strict", hdp);
		m->hdp_mode = KEMU_HDP_STRICT;
	}
	/* traps: strict (silicon's) unless KFDEMU_TRAPS=lenient */
	const char *traps = getenv("KFDEMU_TRAPS");
	m->trap_lenient = traps && !strcmp(traps, "lenient");
	if (opts && opts->size >= sizeof(*opts) && opts->log_level >= 0)
		m->log_level = opts->log_level;
	/* The kernel limits system memory for KFD to about 15/16 of RAM
	 * (kfd_mem_limit.max_system_mem_limit). */
	m->sys_limit = topo->system_memory - (topo->system_memory >> 4);
	pthread_mutex_init(&m->lock, NULL);
	pthread_mutex_init(&m->gem_lock, NULL);
	pthread_mutex_init(&m->record_lock, NULL);
	int err = devices_init(m);
	if (err)
		goto err_devices;
	err = kemu_hdp_init(m);
	if (err)
		goto err_devices;
	if (opts && opts->size >= sizeof(*opts) && opts->fail) {
		err = kemu_machine_set_fail(m, opts->fail);
		if (err)
			goto err_devices;
	}
	kemu_record_init(m);
	*out = m;
	return 0;

err_devices:
	devices_fini(m);
	pthread_mutex_destroy(&m->record_lock);
	pthread_mutex_destroy(&m->gem_lock);
	pthread_mutex_destroy(&m->lock);
	free(m);
	return err;
}

void kemu_machine_destroy(struct kemu_machine *m)
{
	if (!m)
		return;
	kemu_dbg(m, "machine torn down (%u calls inside)", kemu_machine_calls_in_flight(m));
	/* GEM handles first, while the processes owning their BOs live */
	for (struct kemu_file *f = m->files; f; f = f->next)
		kemu_gem_release_file(f);
	kemu_machine_reap(m);
	while (m->procs) {
		struct kemu_process *p = m->procs;
		m->procs = p->next;
		kemu_process_destroy(p);
	}
	kemu_machine_reap(m); /* files the VMs held */
	while (m->files) {
		struct kemu_file *f = m->files;
		m->files = f->next;
		free(f->gem);
		free(f);
	}
	free(m->fds);
	kemu_record_fini(m);
	devices_fini(m);
	pthread_mutex_destroy(&m->record_lock);
	pthread_mutex_destroy(&m->gem_lock);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

const struct kemu_topology *kemu_machine_topology(const struct kemu_machine *m)
{
	return &m->topo;
}

/* ---- files and the fd table ---- */

enum kemu_node kemu_path_node(const struct kemu_machine *m, const char *path,
			      uint32_t *minor)
{
	if (!path)
		return KEMU_NODE_NONE;
	if (!strcmp(path, "/dev/kfd"))
		return KEMU_NODE_KFD;
	static const char prefix[] = "/dev/dri/renderD";
	if (strncmp(path, prefix, sizeof(prefix) - 1))
		return KEMU_NODE_NONE;
	const char *num = path + sizeof(prefix) - 1;
	if (*num < '0' || *num > '9')
		return KEMU_NODE_NONE;
	char *end;
	unsigned long v = strtoul(num, &end, 10);
	if (*end || v > 0xFFFF || !kemu_topology_gpu_by_minor(&m->topo, (uint32_t)v))
		return KEMU_NODE_NONE;
	if (minor)
		*minor = (uint32_t)v;
	return KEMU_NODE_RENDER;
}

/* Caller holds m->lock. */
static struct kemu_fd_entry *fd_entry(struct kemu_machine *m, int fd)
{
	for (size_t i = 0; i < m->n_fds; i++) {
		if (m->fds[i].fd == fd)
			return &m->fds[i];
	}
	return NULL;
}

/* Drops a user of f; the last one moves it to the dead list, for
 * kemu_machine_reap.  Caller holds m->lock. */
static void file_unref_locked(struct kemu_file *f)
{
	struct kemu_machine *m = f->m;
	if (--f->users)
		return;
	for (struct kemu_file **pp = &m->files; *pp; pp = &(*pp)->next) {
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	}
	f->next = m->dead_files;
	m->dead_files = f;
}

void kemu_machine_reap(struct kemu_machine *m)
{
	pthread_mutex_lock(&m->lock);
	struct kemu_file *dead = m->dead_files;
	m->dead_files = NULL;
	pthread_mutex_unlock(&m->lock);
	while (dead) {
		struct kemu_file *f = dead;
		dead = f->next;
		kemu_gem_release_file(f); /* drm_gem_release at the last fput */
		free(f->gem);
		free(f);
	}
}

/* Caller holds m->lock. */
static int fd_add_locked(struct kemu_machine *m, int fd, struct kemu_file *f)
{
	struct kemu_fd_entry *e = fd_entry(m, fd);
	if (e) {
		/* newfd of dup2 replaced an emulated fd: the old file loses it */
		struct kemu_file *old = e->file;
		e->file = f;
		f->fd_refs++;
		f->users++;
		old->fd_refs--;
		file_unref_locked(old);
		return 0;
	}
	struct kemu_fd_entry *n = kemu_array_room(m->fds, m->n_fds, &m->cap_fds, sizeof(*n), 16);
	if (!n)
		return -ENOMEM;
	m->fds = n;
	m->fds[m->n_fds++] = (struct kemu_fd_entry){ fd, f };
	f->fd_refs++;
	f->users++;
	return 0;
}

static int open_node(struct kemu_machine *m, const char *path, enum kemu_node node,
		     uint32_t minor, int flags)
{
	if (kemu_fail_check(m, KEMU_FAIL_OPEN, 0)) {
		kemu_info(m, "open %s: injected failure -ENOMEM", path);
		return -ENOMEM;
	}
	struct kemu_file *f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->m = m;
	f->node = node;
	f->owner = getpid();
	int fd = kemu_sys_memfd(node == KEMU_NODE_KFD ? "kfdemu-kfd" : "kfdemu-render", 0,
				(flags & O_CLOEXEC) != 0);
	if (fd < 0) {
		free(f);
		return fd;
	}
	if (flags & O_NONBLOCK)
		fcntl(fd, F_SETFL, O_NONBLOCK);
	if (node == KEMU_NODE_RENDER) {
		const struct kemu_gpu *g = kemu_topology_gpu_by_minor(&m->topo, minor);
		f->dev = kemu_device_by_id(m, g->gpu_id);
	} else {
		f->proc = kemu_process_get(m, f->owner);
		if (!f->proc) {
			kemu_sys_close(fd);
			free(f);
			return -ENOMEM;
		}
	}
	pthread_mutex_lock(&m->lock);
	f->next = m->files;
	m->files = f;
	int err = fd_add_locked(m, fd, f);
	if (err) {
		m->files = f->next;
		pthread_mutex_unlock(&m->lock);
		kemu_sys_close(fd);
		free(f);
		return err;
	}
	pthread_mutex_unlock(&m->lock);
	kemu_machine_reap(m); /* a dup2 target this fd number replaced */
	kemu_dbg(m, "open %s -> fd %d", path, fd);
	return fd;
}

int kemu_open(struct kemu_machine *m, const char *path, int flags)
{
	uint32_t minor = 0;
	enum kemu_node node = kemu_path_node(m, path, &minor);
	if (node == KEMU_NODE_NONE)
		return -ENOENT;
	int ret = open_node(m, path, node, minor, flags);
	int gpu = -1;
	if (node == KEMU_NODE_RENDER) {
		const struct kemu_gpu *g = kemu_topology_gpu_by_minor(&m->topo, minor);
		struct kemu_device *d = g ? kemu_device_by_id(m, g->gpu_id) : NULL;
		gpu = d ? (int)d->index : -1;
	}
	kemu_record_open(m, gpu, ret);
	return ret;
}

bool kemu_fd_forget(struct kemu_machine *m, int fd)
{
	pthread_mutex_lock(&m->lock);
	struct kemu_fd_entry *e = fd_entry(m, fd);
	if (!e) {
		pthread_mutex_unlock(&m->lock);
		return false;
	}
	struct kemu_file *f = e->file;
	*e = m->fds[--m->n_fds];
	f->fd_refs--;
	file_unref_locked(f);
	pthread_mutex_unlock(&m->lock);
	kemu_machine_reap(m);
	kemu_dbg(m, "close fd %d", fd);
	return true;
}

int kemu_close(struct kemu_machine *m, int fd)
{
	if (!kemu_fd_forget(m, fd))
		return -EBADF;
	return kemu_sys_close(fd) < 0 ? -errno : 0;
}

void kemu_fd_dup(struct kemu_machine *m, int oldfd, int newfd)
{
	if (oldfd == newfd)
		return;
	pthread_mutex_lock(&m->lock);
	struct kemu_fd_entry *e = fd_entry(m, oldfd);
	if (e) {
		if (fd_add_locked(m, newfd, e->file))
			kemu_err(m, "dup fd %d -> %d: out of memory, fd not tracked",
				 oldfd, newfd);
	} else if ((e = fd_entry(m, newfd))) {
		/* dup2 over an emulated fd with a plain one */
		struct kemu_file *f = e->file;
		*e = m->fds[--m->n_fds];
		f->fd_refs--;
		file_unref_locked(f);
	}
	pthread_mutex_unlock(&m->lock);
	kemu_machine_reap(m);
}

bool kemu_fd_node(struct kemu_machine *m, int fd, enum kemu_node *node, uint32_t *minor)
{
	pthread_mutex_lock(&m->lock);
	struct kemu_fd_entry *e = fd_entry(m, fd);
	if (e) {
		if (node)
			*node = e->file->node;
		if (minor)
			*minor = e->file->dev ? e->file->dev->gpu->drm_render_minor : 0;
	}
	pthread_mutex_unlock(&m->lock);
	return e != NULL;
}

struct kemu_file *kemu_file_get_fd(struct kemu_machine *m, int fd)
{
	pthread_mutex_lock(&m->lock);
	struct kemu_fd_entry *e = fd_entry(m, fd);
	struct kemu_file *f = e ? e->file : NULL;
	if (f)
		f->users++;
	pthread_mutex_unlock(&m->lock);
	return f;
}

void kemu_file_put(struct kemu_file *f)
{
	struct kemu_machine *m = f->m;
	pthread_mutex_lock(&m->lock);
	file_unref_locked(f);
	pthread_mutex_unlock(&m->lock);
}

void kemu_machine_shutdown(struct kemu_machine *m)
{
	/* processes are only ever prepended and live until the machine is
	 * destroyed, so the list can be walked from a snapshot of its head
	 * without holding m->lock across each process's event_lock */
	pthread_mutex_lock(&m->lock);
	struct kemu_process *head = m->procs;
	pthread_mutex_unlock(&m->lock);
	for (struct kemu_process *p = head; p; p = p->next)
		kemu_events_kill(p);
}

uint32_t kemu_machine_calls_in_flight(struct kemu_machine *m)
{
	/* acquire pairs with the release decrement at the end of each call,
	 * so a zero here means every call's effects are visible */
	return atomic_load_explicit(&m->calls_in_flight, memory_order_acquire);
}

long kemu_ioctl(struct kemu_machine *m, int fd, unsigned long request, void *arg)
{
	struct kemu_file *f = kemu_file_get_fd(m, fd);
	if (!f)
		return -EBADF;
	/* relaxed: only the decrement publishes (see kemu_machine_calls_in_flight) */
	atomic_fetch_add_explicit(&m->calls_in_flight, 1, memory_order_relaxed);
	long ret;
	if (f->node == KEMU_NODE_KFD)
		ret = kemu_kfd_ioctl(f, request, arg);
	else
		ret = kemu_render_ioctl(f, request, arg);
	kemu_file_put(f);
	kemu_machine_reap(m);
	atomic_fetch_sub_explicit(&m->calls_in_flight, 1, memory_order_release);
	return ret;
}

int kemu_mmap(struct kemu_machine *m, void *addr, size_t len, int prot, int flags,
	      int fd, uint64_t offset, void **out)
{
	struct kemu_file *f = kemu_file_get_fd(m, fd);
	if (!f)
		return -EBADF;
	/* relaxed: only the decrement publishes (see kemu_machine_calls_in_flight) */
	atomic_fetch_add_explicit(&m->calls_in_flight, 1, memory_order_relaxed);
	int ret;
	if (kemu_fail_check(m, KEMU_FAIL_MMAP, 0)) {
		kemu_info(m, "mmap fd %d offset 0x%llx: injected failure -ENOMEM", fd,
			  (unsigned long long)offset);
		ret = -ENOMEM;
	} else if (f->node == KEMU_NODE_KFD) {
		ret = kemu_kfd_mmap(f, addr, len, prot, flags, offset, out);
	} else {
		ret = kemu_render_mmap(f, addr, len, prot, flags, offset, out);
	}
	if (ret == 0) {
		/* MAP_FIXED replaced what was there: the kernel unmaps it first */
		if (flags & MAP_FIXED)
			kemu_cpu_unmapped(m, getpid(), (uintptr_t)*out, len);
		kemu_svm_device_mapped(m, (uintptr_t)*out, len);
		if (f->node == KEMU_NODE_KFD)
			kemu_kfd_mmap_hdp(f, *out, len, prot, flags, offset);
		else
			kemu_render_mmap_hdp(f, *out, len, prot, flags, offset);
	}
	kemu_dbg(m, "mmap(%p, 0x%zx, prot %d, flags 0x%x, fd %d, 0x%llx) = %d", addr, len,
		 prot, flags, fd, (unsigned long long)offset, ret);
	kemu_record_mmap(f, len, prot, flags, offset, ret);
	kemu_file_put(f);
	kemu_machine_reap(m);
	atomic_fetch_sub_explicit(&m->calls_in_flight, 1, memory_order_release);
	return ret;
}
