/*
 * /dev/kfd: the ioctl entry point, modelled on kfd_ioctl() in kfd_chardev.c.
 *
 * Dispatch uses only _IOC_NR(cmd).  The argument size is the caller's
 * _IOC_SIZE; the kernel buffer is max(user size, our struct size) with the
 * tail zero-filled, the direction bits come from our own table (never from
 * the caller), the argument is copied in if the table says IN and copied
 * back (user size bytes) if it says OUT, even when the handler failed, as
 * the kernel does.  So the 88-byte pre-1.17 CREATE_QUEUE works unchanged.
 *
 * Errors before dispatch, in the kernel's order:
 *   any nr outside [1, END)                -ENOTTY (since "drm/amdkfd: return
 *        -ENOTTY for unsupported IOCTLs", in 6.12.y and later stables; the
 *        ROCm-DKMS-only 0x80..0x85 of libhsakmt 5.2 -- IPC import/export,
 *        DBG_TRAP, cross-memory copy, SPM -- are logged as such; with
 *        KFDEMU_DKMS_IPC=1 the IPC pair 0x80/0x81 is answered as the DKMS
 *        kernel does, kemu_dmabuf.c)
 *   caller is not the opener's process     -EBADF
 *   deprecated DBG_* (0x0D..0x10)          -EPERM
 * Ioctls of the table that kfdemu does not model (CRIU, SMI events, the
 * debugger's DBG_TRAP; none is issued by ROCr/libhsakmt 5.2.3) are logged
 * and fail with -EOPNOTSUPP.  docs/kfdemu.md has the table of every ioctl.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kemu_priv.h"

static long ioctl_get_version(struct kemu_process *p, void *arg)
{
	struct kfd_args_get_version *a = arg;
	a->major_version = KEMU_KFD_MAJOR;
	a->minor_version = KEMU_KFD_MINOR;
	return 0;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* GET_CLOCK_COUNTERS: the GPU counter is the device's reference clock
 * (gpu_counter_freq, 100 MHz on gfx9) modelled from CLOCK_MONOTONIC_RAW, the
 * clock the CP's profiling timestamps use (kemu_gpu_ticks), 0 for an unknown
 * gpu_id; CPU = raw monotonic ns, system = boottime ns at 1 GHz.  KFD reads
 * the three one after the other (the GPU's over MMIO); here the raw reading
 * is bracketed by two boottime readings and the system counter is their
 * midpoint, so the pair a runtime converts profiling ticks with is one
 * instant to within half a clock read (about 10 ns here), not a read late. */
static long ioctl_get_clock_counters(struct kemu_process *p, void *arg)
{
	struct kfd_args_get_clock_counters *a = arg;
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, a->gpu_id);
	uint64_t boot0 = clock_ns(CLOCK_BOOTTIME);
	uint64_t raw = clock_ns(CLOCK_MONOTONIC_RAW);
	uint64_t boot1 = clock_ns(CLOCK_BOOTTIME);
	a->gpu_clock_counter = pdd ? kemu_gpu_ticks(raw, pdd->dev->gpu->gpu_counter_freq) : 0;
	a->cpu_clock_counter = raw;
	a->system_clock_counter = boot0 + (boot1 - boot0) / 2;
	a->system_clock_freq = 1000000000ull;
	return 0;
}

/* amdgpu_gfx_config's tile_mode_array[32] and macrotile_mode_array[16]:
 * gfx_v9_0 / gfx_v9_4_3 never fill them (GFX9 has no tiling tables), nor
 * num_banks / num_ranks, so every value the kernel copies out is 0. */
#define KEMU_TILE_MODES 32u
#define KEMU_MACROTILE_MODES 16u

/* GET_TILE_CONFIG, as kfd_ioctl_get_tile_config over
 * amdgpu_amdkfd_get_tile_config: an unknown gpu_id is -EINVAL; each count is
 * clamped to the table's size and that many dwords are copied out (a zero
 * count copies nothing, so a NULL pointer is fine); a failed copy zeroes
 * that count and is -EFAULT, the counts already written stay. */
static long ioctl_get_tile_config(struct kemu_process *p, void *arg)
{
	static const uint32_t tile_modes[KEMU_TILE_MODES];
	static const uint32_t macrotile_modes[KEMU_MACROTILE_MODES];
	struct kfd_args_get_tile_config *a = arg;
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, a->gpu_id);

	if (!pdd)
		return -EINVAL;
	a->gb_addr_config = pdd->dev->gpu->gb_addr_config;
	a->num_banks = 0;
	a->num_ranks = 0;

	if (a->num_tile_configs > KEMU_TILE_MODES)
		a->num_tile_configs = KEMU_TILE_MODES;
	if (kemu_copy_to_user(a->tile_config_ptr, tile_modes,
			      a->num_tile_configs * sizeof(uint32_t))) {
		a->num_tile_configs = 0;
		return -EFAULT;
	}
	if (a->num_macro_tile_configs > KEMU_MACROTILE_MODES)
		a->num_macro_tile_configs = KEMU_MACROTILE_MODES;
	if (kemu_copy_to_user(a->macro_tile_config_ptr, macrotile_modes,
			      a->num_macro_tile_configs * sizeof(uint32_t))) {
		a->num_macro_tile_configs = 0;
		return -EFAULT;
	}
	return 0;
}

static long ioctl_deprecated(struct kemu_process *p, void *arg)
{
	return -EPERM;
}

/* SVM needs the argument size (its attribute array rides in it): the
 * dispatcher calls kemu_ioctl_svm directly; this entry only marks it. */
static long ioctl_svm(struct kemu_process *p, void *arg)
{
	return kemu_ioctl_svm(p, arg, sizeof(struct kfd_args_svm));
}

#define IN  1u
#define OUT 2u
struct kemu_ioctl_desc {
	kemu_ioctl_fn fn;    /* NULL: in the table but not modelled */
	unsigned size;       /* our struct size */
	unsigned dir;
};

static const struct kemu_ioctl_desc kfd_ioctls[KFD_IOCTL_NR_END] = {
	[0x01] = { ioctl_get_version, 8, OUT },
	[0x02] = { kemu_ioctl_create_queue, 96, IN | OUT },
	[0x03] = { kemu_ioctl_destroy_queue, 8, IN | OUT },
	[0x04] = { kemu_ioctl_set_memory_policy, 32, IN },
	[0x05] = { ioctl_get_clock_counters, 40, IN | OUT },
	[0x06] = { kemu_ioctl_get_process_apertures, 400, OUT },
	[0x07] = { kemu_ioctl_update_queue, 24, IN },
	[0x08] = { kemu_ioctl_create_event, 32, IN | OUT },
	[0x09] = { kemu_ioctl_destroy_event, 8, IN },
	[0x0A] = { kemu_ioctl_set_event, 8, IN },
	[0x0B] = { kemu_ioctl_reset_event, 8, IN },
	[0x0C] = { kemu_ioctl_wait_events, 24, IN | OUT },
	[0x0D] = { ioctl_deprecated, 0, 0 },
	[0x0E] = { ioctl_deprecated, 0, 0 },
	[0x0F] = { ioctl_deprecated, 0, 0 },
	[0x10] = { ioctl_deprecated, 0, 0 },
	[0x11] = { kemu_ioctl_set_scratch_backing_va, 16, IN | OUT },
	[0x12] = { ioctl_get_tile_config, 40, IN | OUT },
	[0x13] = { kemu_ioctl_set_trap_handler, 24, IN },
	[0x14] = { kemu_ioctl_get_process_apertures_new, 16, IN | OUT },
	[0x15] = { kemu_ioctl_acquire_vm, 8, IN },
	[0x16] = { kemu_ioctl_alloc_memory, 40, IN | OUT },
	[0x17] = { kemu_ioctl_free_memory, 8, IN },
	[0x18] = { kemu_ioctl_map_memory, 24, IN | OUT },
	[0x19] = { kemu_ioctl_unmap_memory, 24, IN | OUT },
	[0x1A] = { kemu_ioctl_set_cu_mask, 16, IN },
	[0x1B] = { kemu_ioctl_get_queue_wave_state, 24, IN | OUT },
	[0x1C] = { kemu_ioctl_get_dmabuf_info, 32, IN | OUT },
	[0x1D] = { kemu_ioctl_import_dmabuf, 24, IN | OUT },
	[0x1E] = { kemu_ioctl_alloc_queue_gws, 16, IN | OUT },
	[0x1F] = { NULL, 8, IN | OUT },
	[0x20] = { ioctl_svm, 24, IN | OUT },
	[0x21] = { kemu_ioctl_set_xnack_mode, 4, IN | OUT },
	[0x22] = { NULL, 56, IN | OUT },
	[0x23] = { kemu_ioctl_available_memory, 16, IN | OUT },
	[0x24] = { kemu_ioctl_export_dmabuf, 16, IN | OUT },
	[0x25] = { kemu_ioctl_runtime_enable, 16, IN | OUT },
	[0x26] = { NULL, 32, IN | OUT },
};

/* The ROCm-DKMS IPC ioctls, answered only with KFDEMU_DKMS_IPC=1. */
static const struct kemu_ioctl_desc dkms_ipc_ioctls[] = {
	{ kemu_ioctl_ipc_import_handle, 48, IN | OUT },
	{ kemu_ioctl_ipc_export_handle, 32, IN | OUT },
};

long kemu_kfd_ioctl(struct kemu_file *f, unsigned long cmd, void *uarg)
{
	struct kemu_machine *m = f->m;
	unsigned nr = _IOC_NR(cmd);
	unsigned usize = _IOC_SIZE(cmd);
	long ret;

	const struct kemu_ioctl_desc *d;
	if (nr >= KFD_IOCTL_NR_ROCM_FIRST && nr <= KFD_IOCTL_NR_ROCM_LAST) {
		if (!m->dkms_ipc || nr > KFD_IOCTL_NR_ROCM_FIRST + 1) {
			kemu_info(m, "ioctl nr 0x%x (%s, size %u): ROCm-DKMS only: -ENOTTY", nr,
				  kemu_ioctl_name(nr), usize);
			kemu_record_kfd(m, nr, NULL, 0, -ENOTTY);
			return -ENOTTY;
		}
		d = &dkms_ipc_ioctls[nr - KFD_IOCTL_NR_ROCM_FIRST];
	} else if (nr < KFD_IOCTL_NR_FIRST || nr >= KFD_IOCTL_NR_END ||
		   (!kfd_ioctls[nr].dir && !kfd_ioctls[nr].fn)) {
		/* like kfd_ioctl, the type byte is not looked at */
		kemu_warn(m, "unknown ioctl 0x%lx (nr 0x%x): -ENOTTY", cmd, nr);
		kemu_record_kfd(m, nr, NULL, 0, -ENOTTY);
		return -ENOTTY;
	} else {
		d = &kfd_ioctls[nr];
	}
	if (f->owner != getpid() || !f->proc)
		return -EBADF;
	if (!d->dir) {
		/* deprecated DBG_* entries: no argument, -EPERM */
		kemu_info(m, "%s: deprecated: -EPERM", kemu_ioctl_name(nr));
		kemu_record_kfd(m, nr, NULL, 0, -EPERM);
		return -EPERM;
	}
	if (!d->fn) {
		kemu_warn(m, "%s: not emulated: -EOPNOTSUPP", kemu_ioctl_name(nr));
		kemu_record_kfd(m, nr, NULL, 0, -EOPNOTSUPP);
		return -EOPNOTSUPP;
	}
	size_t asize = usize > d->size ? usize : d->size;
	uint8_t stack_buf[128];
	uint8_t *kdata = asize <= sizeof(stack_buf) ? stack_buf : calloc(1, asize);
	if (!kdata)
		return -ENOMEM;
	memset(kdata, 0, asize);
	if ((d->dir & IN) && kemu_copy_from_user(kdata, (uintptr_t)uarg, usize)) {
		ret = -EFAULT;
		goto out_free;
	}
	kemu_log_ioctl(m, nr, "in", kdata, asize, 0);
	if (kemu_fail_check(m, KEMU_FAIL_IOCTL, nr)) {
		ret = -ENOMEM;
		kemu_info(m, "%s: injected failure -ENOMEM", kemu_ioctl_name(nr));
	} else if (nr == _IOC_NR(KFD_IOCTL_SVM(0))) {
		ret = kemu_ioctl_svm(f->proc, kdata, asize);
	} else {
		ret = d->fn(f->proc, kdata);
	}
	kemu_log_ioctl(m, nr, "out", kdata, asize, ret);
	if ((d->dir & OUT) && kemu_copy_to_user((uintptr_t)uarg, kdata, usize))
		ret = -EFAULT;
	kemu_record_kfd(m, nr, kdata, asize, ret);
out_free:
	if (kdata != stack_buf)
		free(kdata);
	return ret;
}
