/*
 * KFD processes and their per-device data (kfd_process.c, parts of
 * kfd_chardev.c): process lookup by pid, the apertures queries, ACQUIRE_VM
 * and the per-device settings ioctls (memory policy, scratch, trap handler,
 * XNACK, runtime enable).
 *
 * As in the kernel, opening /dev/kfd creates one pdd per GPU with its
 * apertures set (kfd_init_apertures), so apertures can be read before
 * ACQUIRE_VM; anything that binds the process to a device needs the VM.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kemu_priv.h"

struct kemu_pdd *kemu_pdd_by_id(struct kemu_process *p, uint32_t gpu_id)
{
	for (uint32_t i = 0; i < p->n_pdds; i++) {
		if (gpu_id && p->pdds[i].dev->gpu->gpu_id == gpu_id)
			return &p->pdds[i];
	}
	return NULL;
}

int kemu_pdd_bind(struct kemu_pdd *pdd)
{
	return pdd->drm_file ? 0 : -ENODEV;
}

static void process_init_apertures(struct kemu_pdd *pdd)
{
	const struct kemu_gpu *g = pdd->dev->gpu;
	struct kfd_process_device_apertures *a = &pdd->apertures;
	a->lds_base = g->lds_base;
	a->lds_limit = g->lds_limit;
	a->scratch_base = g->scratch_base;
	a->scratch_limit = g->scratch_limit;
	a->gpuvm_base = g->gpuvm_base;
	a->gpuvm_limit = g->gpuvm_limit;
	a->gpu_id = g->gpu_id;
	a->pad = 0;
}

/* Finds or creates the process of pid; NULL on allocation failure. */
struct kemu_process *kemu_process_get(struct kemu_machine *m, pid_t pid)
{
	pthread_mutex_lock(&m->lock);
	struct kemu_process *p;
	for (p = m->procs; p; p = p->next) {
		if (p->pid == pid)
			goto out_unlock;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		goto out_unlock;
	p->m = m;
	p->pid = pid;
	pthread_mutex_init(&p->lock, NULL);
	pthread_rwlock_init(&p->vm_lock, NULL);
	pthread_mutex_init(&p->event_lock, NULL);
	pthread_mutex_init(&p->dev_vma_lock, NULL);
	p->signal_fd = -1;
	/* event id 0 is reserved at process creation (kfd_event_init_process) */
	p->signal_event_count = 1;
	p->n_pdds = m->topo.n_gpus;
	for (uint32_t i = 0; i < p->n_pdds; i++) {
		struct kemu_pdd *pdd = &p->pdds[i];
		pdd->proc = p;
		pdd->dev = &m->devs[i];
		pdd->db_fd = -1;
		pdd->cwsr_fd = -1;
		process_init_apertures(pdd);
	}
	p->next = m->procs;
	m->procs = p;
	kemu_dbg(m, "created KFD process for pid %d", (int)pid);
out_unlock:
	pthread_mutex_unlock(&m->lock);
	return p;
}

struct kemu_process *kemu_process_find(struct kemu_machine *m, pid_t pid)
{
	pthread_mutex_lock(&m->lock);
	struct kemu_process *p = m->procs;
	while (p && p->pid != pid)
		p = p->next;
	pthread_mutex_unlock(&m->lock);
	return p;
}

/* Tears down everything the process owns.  The caller has unlinked it. */
void kemu_process_destroy(struct kemu_process *p)
{
	kemu_queues_fini(p);
	kemu_events_fini(p);
	kemu_bo_free_all(p);
	kemu_svm_fini(p);
	for (uint32_t i = 0; i < p->n_pdds; i++) {
		struct kemu_pdd *pdd = &p->pdds[i];
		kemu_vm_fini(&pdd->vm);
		kemu_hdp_pdd_fini(pdd);
		kemu_doorbell_fini(pdd);
		if (pdd->cwsr_fd >= 0)
			kemu_sys_close(pdd->cwsr_fd);
		free(pdd->bos);
		if (pdd->drm_file)
			kemu_file_put(pdd->drm_file);
	}
	pthread_mutex_destroy(&p->dev_vma_lock);
	pthread_mutex_destroy(&p->event_lock);
	pthread_rwlock_destroy(&p->vm_lock);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

long kemu_ioctl_get_process_apertures(struct kemu_process *p, void *arg)
{
	struct kfd_args_get_process_apertures *a = arg;
	a->num_of_nodes = 0;
	pthread_mutex_lock(&p->lock);
	for (uint32_t i = 0; i < p->n_pdds && a->num_of_nodes < KFD_APERTURES_OLD_MAX; i++)
		a->process_apertures[a->num_of_nodes++] = p->pdds[i].apertures;
	pthread_mutex_unlock(&p->lock);
	return 0;
}

long kemu_ioctl_get_process_apertures_new(struct kemu_process *p, void *arg)
{
	struct kfd_args_get_process_apertures_new *a = arg;
	pthread_mutex_lock(&p->lock);
	if (a->num_of_nodes == 0) {
		a->num_of_nodes = p->n_pdds;
		pthread_mutex_unlock(&p->lock);
		return 0;
	}
	uint32_t n = a->num_of_nodes < p->n_pdds ? a->num_of_nodes : p->n_pdds;
	struct kfd_process_device_apertures pa[KEMU_MAX_GPUS];
	for (uint32_t i = 0; i < n; i++)
		pa[i] = p->pdds[i].apertures;
	pthread_mutex_unlock(&p->lock);
	a->num_of_nodes = n;
	if (kemu_copy_to_user(a->kfd_process_device_apertures_ptr, pa, n * sizeof(pa[0])))
		return -EFAULT;
	return 0;
}

/* ACQUIRE_VM: binds the render file's VM to the process on one device.  A
 * second call with the same file is a no-op; with another file -EBUSY.  The
 * drm_fd must be a render node of that GPU not already used by another
 * process (amdgpu: -EINVAL). */
long kemu_ioctl_acquire_vm(struct kemu_process *p, void *arg)
{
	struct kfd_args_acquire_vm *a = arg;
	struct kemu_file *drm = kemu_file_get_fd(p->m, (int)a->drm_fd);
	if (!drm)
		return -EINVAL;
	long ret;
	pthread_mutex_lock(&p->lock);
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, a->gpu_id);
	if (!pdd) {
		ret = -EINVAL;
		goto out_put;
	}
	if (pdd->drm_file) {
		ret = pdd->drm_file == drm ? 0 : -EBUSY;
		goto out_put;
	}
	if (drm->node != KEMU_NODE_RENDER || drm->dev != pdd->dev) {
		kemu_info(p->m, "ACQUIRE_VM: fd %u is not the render node of gpu 0x%x",
			  a->drm_fd, a->gpu_id);
		ret = -EINVAL;
		goto out_put;
	}
	/* a render file's VM serves one process (amdgpu_vm process_info) */
	struct kemu_machine *m = p->m;
	pthread_mutex_lock(&m->lock);
	bool taken = false;
	for (struct kemu_process *q = m->procs; q; q = q->next) {
		if (q != p && q->pdds[pdd->dev->index].drm_file == drm)
			taken = true;
	}
	pthread_mutex_unlock(&m->lock);
	if (taken) {
		ret = -EINVAL;
		goto out_put;
	}
	pdd->drm_file = drm; /* the pdd keeps the reference */
	pthread_mutex_unlock(&p->lock);
	return 0;

out_put:
	pthread_mutex_unlock(&p->lock);
	kemu_file_put(drm);
	return ret;
}

long kemu_ioctl_set_memory_policy(struct kemu_process *p, void *arg)
{
	struct kfd_args_set_memory_policy *a = arg;
	if (a->default_policy > KFD_CACHE_POLICY_NONCOHERENT ||
	    a->alternate_policy > KFD_CACHE_POLICY_NONCOHERENT)
		return -EINVAL;
	long ret = 0;
	pthread_mutex_lock(&p->lock);
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, a->gpu_id);
	if (!pdd)
		ret = -EINVAL;
	else if (kemu_pdd_bind(pdd))
		ret = -ESRCH;
	if (!ret) {
		/* gfx9 (set_cache_memory_policy_v9) accepts any aperture */
		pdd->default_policy = a->default_policy;
		pdd->alternate_policy = a->alternate_policy;
		pdd->alt_base = a->alternate_aperture_base;
		pdd->alt_size = a->alternate_aperture_size;
		pdd->misc_process_flag = a->misc_process_flag;
	}
	pthread_mutex_unlock(&p->lock);
	return ret;
}

long kemu_ioctl_set_scratch_backing_va(struct kemu_process *p, void *arg)
{
	struct kfd_args_set_scratch_backing_va *a = arg;
	long ret;
	pthread_mutex_lock(&p->lock);
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, a->gpu_id);
	if (!pdd)
		ret = -EINVAL;
	else
		ret = kemu_pdd_bind(pdd); /* PTR_ERR of the bind: -ENODEV */
	if (!ret)
		pdd->scratch_va = a->va_addr; /* qpd.sh_hidden_private_base */
	pthread_mutex_unlock(&p->lock);
	return ret;
}

long kemu_ioctl_set_trap_handler(struct kemu_process *p, void *arg)
{
	struct kfd_args_set_trap_handler *a = arg;
	long ret = 0;
	pthread_mutex_lock(&p->lock);
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, a->gpu_id);
	if (!pdd)
		ret = -EINVAL;
	else if (kemu_pdd_bind(pdd))
		ret = -ESRCH;
	if (!ret) {
		/* release: pairs with the engines' acquire load of tba
		 * (kemu_ih.c), so a new tba is never seen with the old tma */
		atomic_store_explicit(&pdd->tma, a->tma_addr, memory_order_relaxed);
		atomic_store_explicit(&pdd->tba, a->tba_addr, memory_order_release);
	}
	pthread_mutex_unlock(&p->lock);
	return ret;
}

/* kfd_process_xnack_mode(p, true): every GPU must be able to run with
 * retry faults on.  GC 9.4.2 (gfx90a) and 9.4.3 (gfx942) switch per
 * process; gfx10+ cannot; other gfx9 parts follow amdgpu.noretry, which
 * defaults to on (no XNACK). */
static bool process_xnack_supported(const struct kemu_process *p)
{
	for (uint32_t i = 0; i < p->n_pdds; i++) {
		uint32_t v = p->pdds[i].dev->gpu->gfx_target_version;
		if (v >= 100000)
			return false;
		if (v == 90010 || (v >= 90402 && v < 90500))
			continue;
		return false;
	}
	return true;
}

long kemu_ioctl_set_xnack_mode(struct kemu_process *p, void *arg)
{
	struct kfd_args_set_xnack_mode *a = arg;
	long ret = 0;
	pthread_mutex_lock(&p->lock);
	if (a->xnack_enabled >= 0) {
		if (p->queues)
			ret = -EBUSY;
		else if (a->xnack_enabled && !process_xnack_supported(p))
			ret = -EPERM;
		else
			p->xnack_enabled = a->xnack_enabled != 0;
	} else {
		a->xnack_enabled = p->xnack_enabled;
	}
	pthread_mutex_unlock(&p->lock);
	return ret;
}

/* RUNTIME_ENABLE: -EBUSY unless disabled, -EEXIST once a queue exists.  No
 * debugger is ever attached, so the call never blocks; core dump is not
 * offered (capabilities_mask 0). */
long kemu_ioctl_runtime_enable(struct kemu_process *p, void *arg)
{
	struct kfd_args_runtime_enable *a = arg;
	long ret = 0;
	pthread_mutex_lock(&p->lock);
	if (a->mode_mask & KFD_RUNTIME_ENABLE_MODE_ENABLE) {
		if (p->runtime_state != KEMU_RUNTIME_DISABLED) {
			ret = -EBUSY;
		} else {
			for (uint32_t i = 0; i < p->n_pdds; i++) {
				if (p->pdds[i].queue_count)
					ret = -EEXIST;
			}
			if (!ret) {
				p->runtime_state = KEMU_RUNTIME_ENABLED;
				p->r_debug = a->r_debug;
			}
		}
	} else {
		p->runtime_state = KEMU_RUNTIME_DISABLED;
	}
	/* release: pairs with the acquire in ih_trap_exception (kemu_ih.c) */
	atomic_store_explicit(&p->runtime_enabled, p->runtime_state == KEMU_RUNTIME_ENABLED,
			      memory_order_release);
	a->capabilities_mask = 0;
	pthread_mutex_unlock(&p->lock);
	return ret;
}
