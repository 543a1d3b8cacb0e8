/*
 * The KFD process: /dev/kfd, the topology snapshot and the GPUs we can use.
 *
 * Opening follows libhsakmt's hsaKmtOpenKFD + fmm_init_process_apertures
 * order, because the kernel needs it: GET_VERSION; the sysfs topology; one
 * render node per GPU node (libdrm_amdgpu initialised on it, as ROCr does
 * for the marketing name); GET_PROCESS_APERTURES_NEW; ACQUIRE_VM with that
 * GPU's render fd (until then every ALLOC/MAP fails with ENODEV and
 * CREATE_QUEUE with ESRCH); SET_MEMORY_POLICY.
 *
 * The kernel's KFD process belongs to our mm, not to the fd: it survives a
 * close of /dev/kfd, and ACQUIRE_VM binds each GPU's VM to the first DRM
 * file it is given (another file gets EBUSY).  So, as libhsakmt does, render
 * nodes are opened once per OS process and kept open across close/re-open
 * (render_fd cache below); a fork child drops the inherited ones.
 *
 * A kfd_process is torn down by kfd_process_close from any partial state, so
 * open has a single error path that calls it.  The kfd fd belongs to the
 * opener: in a fork child the kernel answers EBADF, so close only releases
 * the child's copies of our mappings and descriptors there.
 */
#include "kfd/kfd_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <amdgpu.h>

#include "util/barrier.h"
#include "util/log.h"

#define SVM_ALIGN (2ull << 20)

static int open_kfd(struct kfd_process *proc)
{
	proc->fd = open(KFD_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	if (proc->fd < 0) {
		int err = -errno;
		if (err == -ENOENT)
			hl_error(KFD_LOG, "open %s: ENOENT: no KFD device (amdgpu not loaded, or "
				 "no AMD GPU)", KFD_DEVICE_PATH);
		else if (err == -EACCES || err == -EPERM)
			hl_error(KFD_LOG, "open %s: %s: no permission (add the user to the "
				 "'render' group)", KFD_DEVICE_PATH, hl_errno_name(err));
		else
			hl_error(KFD_LOG, "open %s: %s", KFD_DEVICE_PATH, hl_errno_name(err));
		return err;
	}

	struct kfd_args_get_version ver = { 0 };
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_GET_VERSION, &ver);
	if (ret) {
		hl_error(KFD_LOG, "GET_VERSION: %s: %s is not a usable KFD device",
			 hl_errno_name(ret), KFD_DEVICE_PATH);
		return ret;
	}
	proc->version_major = ver.major_version;
	proc->version_minor = ver.minor_version;
	if (ver.major_version != KFD_UAPI_MAJOR || ver.minor_version < KFD_MIN_MINOR_VERSION) {
		hl_error(KFD_LOG, "GET_VERSION: EPROTONOSUPPORT: KFD ioctl API %u.%u, need %u.%u "
			 "or a later 1.x", ver.major_version, ver.minor_version, KFD_UAPI_MAJOR,
			 KFD_MIN_MINOR_VERSION);
		return -EPROTONOSUPPORT;
	}
	hl_info(KFD_LOG, "KFD ioctl API %u.%u", ver.major_version, ver.minor_version);
	return 0;
}

/*
 * Fork.  A fork child cannot use what its parent opened (the kernel's KFD
 * process is the parent's), and learns it from kfd_fork_child, the module
 * table's step, not from a pid of its own: the step bumps kfd_forks, and
 * each thing the thunk keeps across opens (a process, the render-node
 * cache, the parked event page) records the generation it was made in.  A
 * count rather than a flag, so a process the child opens afterwards is its
 * own, and a grandchild's step makes the child's processes inherited too.
 * Written only in a fork child's only thread; relaxed loads suffice, as
 * nothing else is published with it.
 */
static _Atomic uint32_t kfd_forks;

uint32_t kfd_fork_gen(void)
{
	return hl_load_relaxed(&kfd_forks);
}

/* minor -> fd of every render node this OS process opened, for its life:
 * process-wide on purpose, as the event page is (event.c).  The kernel's
 * KFD process outlives our close of /dev/kfd (it lives with the mm), and
 * its GPU VMs stay bound to the file ACQUIRE_VM was given: a later runtime
 * must present that same file (another one is -EBUSY).  A fork child
 * starts its own (render_gen). */
struct render_node {
	uint32_t minor;
	int fd;
};
static pthread_mutex_t render_lock = PTHREAD_MUTEX_INITIALIZER;
static struct render_node *render_nodes; /* under render_lock */
static uint32_t n_render_nodes;
static uint32_t render_gen; /* kfd_forks when the cache was (re)started */

void kfd_fork_child(void)
{
	hl_store_relaxed(&kfd_forks, hl_load_relaxed(&kfd_forks) + 1);
	/* A parent thread may have held it at the fork (an open in flight). */
	pthread_mutex_init(&render_lock, NULL);
	kfd_event_fork_child();
}

/* The cached fd of /dev/dri/renderD<minor>, opened on first use. */
static int render_fd_get(uint32_t minor, const char *path)
{
	int fd = -1;

	pthread_mutex_lock(&render_lock);
	if (render_gen != kfd_fork_gen()) {
		/* A fork child: the inherited files are bound to the parent's
		 * VMs, so start over with our own. */
		for (uint32_t i = 0; i < n_render_nodes; i++)
			close(render_nodes[i].fd);
		n_render_nodes = 0;
		render_gen = kfd_fork_gen();
	}
	for (uint32_t i = 0; i < n_render_nodes; i++) {
		if (render_nodes[i].minor == minor) {
			fd = render_nodes[i].fd;
			goto out_unlock;
		}
	}
	struct render_node *grown =
		realloc(render_nodes, (n_render_nodes + 1) * sizeof(*render_nodes));
	if (!grown) {
		fd = -ENOMEM;
		goto out_unlock;
	}
	render_nodes = grown;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		goto out_unlock;
	}
	render_nodes[n_render_nodes++] = (struct render_node){ .minor = minor, .fd = fd };
out_unlock:
	pthread_mutex_unlock(&render_lock);
	return fd;
}

static void gpu_release(struct kfd_gpu *gpu)
{
	if (gpu->amdgpu_dev)
		amdgpu_device_deinitialize(gpu->amdgpu_dev);
	gpu->amdgpu_dev = NULL;
	gpu->render_fd = -1; /* stays open in the render_fd cache */
}

/* Removes proc->gpus[i] (before any memory exists on it). */
static void gpu_drop(struct kfd_process *proc, uint32_t i)
{
	gpu_release(&proc->gpus[i]);
	memmove(&proc->gpus[i], &proc->gpus[i + 1],
		sizeof(proc->gpus[0]) * (proc->n_gpus - i - 1));
	proc->n_gpus--;
}

static int open_gpus(struct kfd_process *proc)
{
	const struct kfd_topology *topo = &proc->topology;
	uint32_t n_gpu_nodes = 0;

	for (uint32_t i = 0; i < topo->n_nodes; i++)
		n_gpu_nodes += kfd_node_is_gpu(&topo->nodes[i]);
	if (!n_gpu_nodes)
		return 0;
	proc->gpus = calloc(n_gpu_nodes, sizeof(*proc->gpus));
	if (!proc->gpus)
		return -ENOMEM;

	for (uint32_t i = 0; i < topo->n_nodes; i++) {
		const struct kfd_node *node = &topo->nodes[i];
		char path[64];

		if (!kfd_node_is_gpu(node))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/renderD%u", node->props.drm_render_minor);
		int fd = render_fd_get(node->props.drm_render_minor, path);
		if (fd == -ENOMEM)
			return fd;
		if (fd < 0) {
			hl_warn(KFD_LOG, "GPU 0x%x (node %u) skipped: open %s: %s", node->gpu_id,
				node->index, path, hl_errno_name(fd));
			continue;
		}
		struct kfd_gpu *gpu = &proc->gpus[proc->n_gpus++];
		gpu->node = node;
		gpu->gpu_id = node->gpu_id;
		gpu->render_fd = fd;
		gpu->doorbell_type = (node->props.capability & KFD_CAP_DOORBELL_TYPE_MASK) >>
				     KFD_CAP_DOORBELL_TYPE_SHIFT;

		uint32_t drm_major, drm_minor;
		amdgpu_device_handle dev;
		int ret = amdgpu_device_initialize(fd, &drm_major, &drm_minor, &dev);
		if (ret) {
			hl_error(KFD_LOG, "amdgpu_device_initialize(%s): %s: libdrm cannot use "
				 "GPU 0x%x", path, hl_errno_name(ret), node->gpu_id);
			return ret < 0 ? ret : -EIO;
		}
		gpu->amdgpu_dev = dev;
		const char *name = amdgpu_get_marketing_name(dev);
		if (name)
			snprintf(gpu->marketing_name, sizeof(gpu->marketing_name), "%s", name);
		hl_info(KFD_LOG, "GPU 0x%x: %s, DRM %u.%u, '%s'", gpu->gpu_id, path, drm_major,
			drm_minor, gpu->marketing_name);
	}
	return 0;
}

static int read_apertures(struct kfd_process *proc)
{
	struct kfd_args_get_process_apertures_new args = { 0 };
	struct kfd_process_device_apertures *ap = NULL;
	int ret;

	if (!proc->n_gpus)
		return 0;
	/* One call with room for every GPU node of the topology (also those
	 * we skipped): the kernel fills min(its process devices,
	 * num_of_nodes) entries and says how many
	 * (kfd_ioctl_get_process_apertures_new), and a process has no device
	 * the topology lacks, so libhsakmt's counting call first
	 * (num_of_nodes 0) would tell us nothing new. */
	uint32_t count = 0;
	for (uint32_t i = 0; i < proc->topology.n_nodes; i++)
		count += kfd_node_is_gpu(&proc->topology.nodes[i]);
	ap = calloc(count, sizeof(*ap));
	if (!ap)
		return -ENOMEM;
	args.kfd_process_device_apertures_ptr = (uintptr_t)ap;
	args.num_of_nodes = count;
	ret = kfd_ioctl(proc->fd, KFD_IOCTL_GET_PROCESS_APERTURES_NEW, &args);
	if (ret) {
		hl_error(KFD_LOG, "GET_PROCESS_APERTURES_NEW: %s: reading up to %u apertures",
			 hl_errno_name(ret), count);
		goto out_free;
	}
	count = args.num_of_nodes < count ? args.num_of_nodes : count;

	for (uint32_t i = 0; i < proc->n_gpus;) {
		struct kfd_gpu *gpu = &proc->gpus[i];
		uint32_t j;
		for (j = 0; j < count && ap[j].gpu_id != gpu->gpu_id; j++)
			;
		if (j == count) {
			/* The kernel made no process device for it (cgroup). */
			hl_warn(KFD_LOG, "GPU 0x%x skipped: the kernel reports no apertures for it",
				gpu->gpu_id);
			gpu_drop(proc, i);
			continue;
		}
		gpu->apertures = ap[j];
		i++;
	}
	ret = 0;
out_free:
	free(ap);
	return ret;
}

static int acquire_vms(struct kfd_process *proc)
{
	bool disable_cache = getenv("HSA_DISABLE_CACHE") &&
			     !strcmp(getenv("HSA_DISABLE_CACHE"), "1");

	for (uint32_t i = 0; i < proc->n_gpus; i++) {
		struct kfd_gpu *gpu = &proc->gpus[i];
		struct kfd_args_acquire_vm vm = {
			.drm_fd = (uint32_t)gpu->render_fd,
			.gpu_id = gpu->gpu_id,
		};
		int ret = kfd_ioctl(proc->fd, KFD_IOCTL_ACQUIRE_VM, &vm);
		if (ret) {
			hl_error(KFD_LOG, "ACQUIRE_VM: %s: GPU 0x%x with render fd %d%s",
				 hl_errno_name(ret), gpu->gpu_id, gpu->render_fd,
				 ret == -EBUSY ? " (the VM is already bound to another fd)" : "");
			return ret;
		}

		/* Like libhsakmt's mmap aperture on gfx9+: the whole GPUVM range
		 * is the (coherent) alternate aperture, non-coherent by default. */
		uint64_t base = KFD_ALIGN_UP(gpu->apertures.gpuvm_base, SVM_ALIGN);
		uint64_t limit = ((gpu->apertures.gpuvm_limit + 1) & ~(SVM_ALIGN - 1));
		struct kfd_args_set_memory_policy pol = {
			.alternate_aperture_base = base,
			.alternate_aperture_size = limit > base ? limit - base : 0,
			.gpu_id = gpu->gpu_id,
			.default_policy = disable_cache ? KFD_CACHE_POLICY_COHERENT
							: KFD_CACHE_POLICY_NONCOHERENT,
			.alternate_policy = KFD_CACHE_POLICY_COHERENT,
		};
		ret = kfd_ioctl(proc->fd, KFD_IOCTL_SET_MEMORY_POLICY, &pol);
		if (ret) {
			hl_error(KFD_LOG, "SET_MEMORY_POLICY: %s: GPU 0x%x, alternate aperture "
				 "0x%llx+0x%llx", hl_errno_name(ret), gpu->gpu_id,
				 (unsigned long long)pol.alternate_aperture_base,
				 (unsigned long long)pol.alternate_aperture_size);
			return ret;
		}
	}
	return 0;
}

/* libhsakmt's map_mmio, for every GPU after its VM: the MMIO-remap page
 * (HDP flush registers) allocated, mapped through the kfd fd and mapped to
 * the GPU.  Optional, as in libhsakmt: a kernel without the page (PAGE_SIZE
 * above 4 KiB) leaves gpu->mmio_remap NULL, and hsalite then cannot flush
 * the HDP (logged). */
static void map_mmio(struct kfd_process *proc)
{
	for (uint32_t i = 0; i < proc->n_gpus; i++) {
		struct kfd_gpu *gpu = &proc->gpus[i];
		int ret = 0;
		struct kfd_mem *mem = kfd_mem_new_tracked_mmio(proc, gpu, &ret);
		if (mem) {
			ret = kfd_mem_map(proc, mem, &gpu->gpu_id, 1);
			if (ret) {
				kfd_mem_destroy(proc, mem);
				mem = NULL;
			}
		}
		if (!mem) {
			hl_warn(KFD_LOG, "GPU 0x%x: no MMIO-remap page (%s): CPU writes to its VRAM "
				"cannot be flushed through the HDP", gpu->gpu_id, hl_errno_name(ret));
			continue;
		}
		gpu->mmio_remap = mem->addr;
		hl_debug(KFD_LOG, "MMIO-remap page of GPU 0x%x at %p", gpu->gpu_id, mem->addr);
	}
}

void kfd_hdp_flush(const struct kfd_gpu *gpu)
{
	if (!gpu || !gpu->mmio_remap)
		return;
	/* HDP_MEM_FLUSH_CNTL (word 0): any value requests the flush; the read
	 * back waits for the posted write to reach the device, as CLR does */
	_Atomic uint32_t *reg = (_Atomic uint32_t *)gpu->mmio_remap;
	hl_mmio_store32(reg, 1);
	(void)hl_load_acquire(reg); /* pairs with nothing: completes the MMIO write */
}

static int init_private(struct kfd_process *proc)
{
	struct kfd_process_private *priv = calloc(1, sizeof(*priv));
	if (!priv)
		return -ENOMEM;
	proc->priv = priv;
	pthread_mutex_init(&priv->mem_lock, NULL);
	pthread_mutex_init(&priv->doorbell_lock, NULL);
	pthread_mutex_init(&priv->queue_lock, NULL);
	pthread_mutex_init(&priv->event_lock, NULL);
	priv->locks_ready = true;
	return 0;
}

static int init_doorbell_tables(struct kfd_process *proc)
{
	struct kfd_process_private *priv = proc->priv;
	if (!proc->n_gpus)
		return 0;
	priv->doorbell_mem = calloc(proc->n_gpus, sizeof(*priv->doorbell_mem));
	priv->doorbell_page_offset = calloc(proc->n_gpus, sizeof(*priv->doorbell_page_offset));
	return priv->doorbell_mem && priv->doorbell_page_offset ? 0 : -ENOMEM;
}

int kfd_process_open(struct kfd_process **out)
{
	struct kfd_process *proc = calloc(1, sizeof(*proc));
	int ret;

	*out = NULL;
	if (!proc)
		return -ENOMEM;
	proc->fd = -1;
	proc->fork_gen = kfd_fork_gen();

	ret = init_private(proc);
	if (ret)
		goto err_close;
	ret = open_kfd(proc);
	if (ret)
		goto err_close;
	ret = kfd_topology_read(KFD_TOPOLOGY_PATH, &proc->topology);
	if (ret)
		goto err_close;
	ret = open_gpus(proc);
	if (ret)
		goto err_close;
	ret = read_apertures(proc);
	if (ret)
		goto err_close;
	ret = acquire_vms(proc);
	if (ret)
		goto err_close;
	ret = init_doorbell_tables(proc);
	if (ret)
		goto err_close;
	map_mmio(proc);
	*out = proc;
	return 0;

err_close:
	kfd_process_close(proc);
	return ret;
}

void kfd_process_close(struct kfd_process *proc)
{
	if (!proc)
		return;
	struct kfd_process_private *priv = proc->priv;

	if (priv && priv->locks_ready) {
		/* Queues reference memory and events: they go first. */
		kfd_queue_release_all(proc);
		kfd_event_release_all(proc);
		kfd_mem_release_all(proc);
	}
	for (uint32_t i = 0; i < proc->n_gpus; i++)
		gpu_release(&proc->gpus[i]);
	free(proc->gpus);
	if (proc->fd >= 0)
		close(proc->fd);
	kfd_topology_free(&proc->topology);
	if (priv) {
		free(priv->doorbell_mem);
		free(priv->doorbell_page_offset);
		free(priv->event_ids);
		free(priv->queue_ids);
		if (priv->locks_ready) {
			pthread_mutex_destroy(&priv->mem_lock);
			pthread_mutex_destroy(&priv->doorbell_lock);
			pthread_mutex_destroy(&priv->queue_lock);
			pthread_mutex_destroy(&priv->event_lock);
		}
		free(priv);
	}
	free(proc);
}

void kfd_process_leave_to_exit(struct kfd_process *proc)
{
	if (!proc)
		return;
	/* relaxed: set by the thread that tears the process down, before the
	 * teardown it runs itself; threads it joins see it through the join */
	hl_store_relaxed(&proc->leave_to_exit, true);
	hl_debug(KFD_LOG, "exit: buffers and events are left to the kernel");
}

bool kfd_process_forked(const struct kfd_process *proc)
{
	return proc->fork_gen != kfd_fork_gen();
}

struct kfd_gpu *kfd_process_gpu_by_id(struct kfd_process *proc, uint32_t gpu_id)
{
	int i = kfd_gpu_index(proc, gpu_id);
	return i < 0 ? NULL : &proc->gpus[i];
}

int kfd_gpu_index(const struct kfd_process *proc, uint32_t gpu_id)
{
	for (uint32_t i = 0; i < proc->n_gpus; i++)
		if (proc->gpus[i].gpu_id == gpu_id)
			return (int)i;
	return -1;
}

int kfd_clock_counters(struct kfd_process *proc, uint32_t gpu_id,
		       struct kfd_args_get_clock_counters *out)
{
	if (!kfd_process_gpu_by_id(proc, gpu_id)) {
		hl_error(KFD_LOG, "GET_CLOCK_COUNTERS: EINVAL: unknown GPU 0x%x", gpu_id);
		return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	out->gpu_id = gpu_id;
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_GET_CLOCK_COUNTERS, out);
	if (ret)
		hl_error(KFD_LOG, "GET_CLOCK_COUNTERS: %s: GPU 0x%x", hl_errno_name(ret), gpu_id);
	return ret;
}

int kfd_available_memory(struct kfd_process *proc, uint32_t gpu_id, uint64_t *bytes)
{
	if (!kfd_process_gpu_by_id(proc, gpu_id)) {
		hl_error(KFD_LOG, "AVAILABLE_MEMORY: EINVAL: unknown GPU 0x%x", gpu_id);
		return -EINVAL;
	}
	/* The ioctl arrived in 1.9. */
	if (proc->version_minor < 9) {
		hl_debug(KFD_LOG, "AVAILABLE_MEMORY: EOPNOTSUPP: KFD API 1.%u < 1.9",
			 proc->version_minor);
		return -EOPNOTSUPP;
	}
	struct kfd_args_available_memory args = { .gpu_id = gpu_id };
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_AVAILABLE_MEMORY, &args);
	if (ret == -EINVAL || ret == -ENOTTY) {
		hl_debug(KFD_LOG, "AVAILABLE_MEMORY: %s: taken as not supported by this kernel",
			 hl_errno_name(ret));
		return -EOPNOTSUPP;
	}
	if (ret) {
		hl_error(KFD_LOG, "AVAILABLE_MEMORY: %s: GPU 0x%x", hl_errno_name(ret), gpu_id);
		return ret;
	}
	*bytes = args.available;
	return 0;
}

int kfd_gb_addr_config(struct kfd_process *proc, uint32_t gpu_id, uint32_t *value)
{
	/* Zero counts: the kernel copies no table and fills gb_addr_config,
	 * num_banks and num_ranks. */
	struct kfd_args_get_tile_config args = { .gpu_id = gpu_id };
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_GET_TILE_CONFIG, &args);
	if (ret) {
		hl_error(KFD_LOG, "GET_TILE_CONFIG: %s: GPU 0x%x", hl_errno_name(ret), gpu_id);
		return ret;
	}
	*value = args.gb_addr_config;
	return 0;
}

int kfd_set_trap_handler(struct kfd_process *proc, uint32_t gpu_id, uint64_t tba, uint64_t tma)
{
	if (!kfd_process_gpu_by_id(proc, gpu_id)) {
		hl_error(KFD_LOG, "SET_TRAP_HANDLER: EINVAL: unknown GPU 0x%x", gpu_id);
		return -EINVAL;
	}
	struct kfd_args_set_trap_handler args = { .tba_addr = tba, .tma_addr = tma,
						   .gpu_id = gpu_id };
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_SET_TRAP_HANDLER, &args);
	if (ret)
		hl_error(KFD_LOG, "SET_TRAP_HANDLER: %s: GPU 0x%x tba 0x%llx tma 0x%llx%s",
			 hl_errno_name(ret), gpu_id, (unsigned long long)tba,
			 (unsigned long long)tma,
			 ret == -ESRCH ? " (no VM acquired for this GPU)" : "");
	return ret;
}
