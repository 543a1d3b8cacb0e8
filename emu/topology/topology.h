/*
 * kfdemu topology: the emulated machine as data.  A preset (mi210, mi300x)
 * describes one GPU model; kemu_topology_create() instantiates n GPUs of it
 * beside CPU node 0, computes every derived value the kernel computes
 * (CWSR/control-stack sizes, simd counts, gpu_id hashes), and writes the
 * sysfs tree that amdkfd and amdgpu would expose into a private temporary
 * directory that mirrors absolute paths:
 *
 *   <dir>/sys/devices/virtual/kfd/kfd/topology/{generation_id,system_properties,nodes/N/...}
 *   <dir>/sys/class/kfd/kfd/topology/...      (same tree)
 *   <dir>/sys/module/amdgpu/initstate (no "version": in-tree amdgpu has no
 *   MODULE_VERSION), <dir>/sys/class/drm/{card<i>,renderD<minor>} and
 *   <dir>/sys/dev/char/226:<minor> (links to the PCI device
 *   <dir>/sys/devices/pci0000:00/0000:<bus>:00.0 with vendor, device,
 *   subsystem_*, revision, class, config, uevent, subsystem -> bus/pci,
 *   drm/{card<i>,renderD<minor>}), <dir>/sys/bus/pci/{devices,drivers/amdgpu}
 *   -- what stock libdrm/libhsakmt/rocminfo read about the GPU.
 *   libdrm also fstat()s the render fd (it must be S_IFCHR 226:<minor>) and
 *   stat()s/opendir()s /sys/dev/char/226:<minor>/device/drm.
 *
 * The shim (emu/shim) redirects an intercepted path P to <dir>/P when that
 * file exists.  The KFD model (emu/kfd) takes its per-GPU facts from
 * struct kemu_gpu, never from the files.
 *
 * This header is the contract between emu/topology (owner: topology presets,
 * sysfs writer, DRM answers) and emu/kfd + emu/shim.
 */
#ifndef KFDEMU_TOPOLOGY_H
#define KFDEMU_TOPOLOGY_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#define KEMU_MAX_GPUS 8

struct kemu_gpu {
	/* identity */
	uint32_t node_index;       /* sysfs node number (CPU is 0, GPUs 1..n) */
	uint32_t gpu_id;           /* non-zero 16-bit hash, as the kernel makes */
	uint32_t drm_render_minor; /* 128 + i: /dev/dri/renderD<minor> */
	char name[32];             /* gfx name, e.g. "gfx90a" */
	char asic_name[32];        /* nodes/N/name, e.g. "aldebaran" */
	char marketing_name[64];   /* "AMD Instinct MI210" */
	uint32_t gfx_target_version; /* decimal, 90010 or 90402 */
	uint32_t vendor_id, device_id, revision_id;
	uint32_t location_id, domain;
	uint64_t unique_id;
	/* compute */
	uint32_t num_xcc;
	uint32_t cu_count;         /* total over all XCCs */
	uint32_t simd_per_cu;
	uint32_t simd_count;       /* cu_count * simd_per_cu */
	uint32_t array_count;      /* shader arrays, total over XCCs */
	uint32_t simd_arrays_per_engine;
	uint32_t cu_per_simd_array;
	uint32_t max_waves_per_simd;
	uint32_t wave_front_size;
	uint32_t lds_size_in_kb;
	uint32_t max_slots_scratch_cu;
	uint32_t max_engine_clk_fcompute; /* MHz */
	uint32_t num_cp_queues;
	uint32_t num_sdma_engines, num_sdma_xgmi_engines, num_sdma_queues_per_engine;
	uint32_t fw_version, sdma_fw_version;
	uint32_t capability;
	uint32_t capability2;      /* HSA_CAP2_*: 0 on both presets (topology.c) */
	uint64_t debug_prop;
	/* memory */
	uint64_t vram_size;        /* bytes (the FB_PUBLIC mem bank) */
	uint32_t vram_width;       /* bits */
	uint32_t vram_clk_max;     /* MHz */
	/* queue resources, by the kernel's formulas (kfd_queue.c) */
	uint32_t ctl_stack_size;
	uint32_t cwsr_size;        /* ctl stack + workgroup data, per XCC */
	uint32_t debug_memory_size;/* per XCC */
	uint32_t eop_buffer_size;  /* 4096 */
	uint32_t max_queues;       /* per process and device (127, or 255 on 9.4.3+) */
	uint32_t hqd_slots;        /* hardware queue slots the CP schedules onto */
	/* apertures (GET_PROCESS_APERTURES_NEW) */
	uint64_t lds_base, lds_limit, scratch_base, scratch_limit, gpuvm_base, gpuvm_limit;

	/* Added by emu/topology (additive; see topology.c for the sources).
	 * capability carries what the kernel sets for GC 9.4.x: doorbell type 2,
	 * 4 watch points, trap-debug bits, SVM API, RAS/EDC and
	 * HSA_CAP_TRAP_DEBUG_FIRMWARE_SUPPORTED (0x20000000).  Because of that
	 * last bit libhsakmt/ROCr issue AMDKFD_IOC_RUNTIME_ENABLE before the
	 * first queue (KFD minor >= 13): the KFD model must answer it as the
	 * kernel does. */
	uint32_t simd_id_base;     /* processor id of CU 0 (0x80001000 + ...) */
	uint64_t hive_id;          /* XGMI hive id, 0 when not in a hive */
	uint32_t subsystem_vendor_id, subsystem_device_id;
	uint32_t pci_bus;          /* location_id = pci_bus << 8 (devfn 0) */
	uint32_t chip_rev, chip_external_rev; /* adev->rev_id / external_rev_id */
	uint32_t num_shader_engines;          /* per XCC (gfx.config.max_shader_engines) */
	uint32_t gb_addr_config;   /* GB_ADDR_CONFIG, read by libdrm */
	uint32_t vram_type;        /* AMDGPU_VRAM_TYPE_* */
	uint32_t gpu_counter_freq; /* kHz: the 100 MHz reference clock */
	uint32_t num_gws;
};

/* The GPU clock counter (GET_CLOCK_COUNTERS gpu_clock_counter, the CP's
 * profiling timestamps, AMDGPU_INFO_TIMESTAMP): CLOCK_MONOTONIC_RAW
 * nanoseconds raw_ns at khz (gpu_counter_freq), one function so the three
 * agree tick for tick. */
static inline uint64_t kemu_gpu_ticks(uint64_t raw_ns, uint32_t khz)
{
	uint64_t k = khz ? khz : 100000;
	return raw_ns / 1000000ull * k + raw_ns % 1000000ull * k / 1000000ull;
}

struct kemu_topology {
	char preset[16];
	uint32_t n_gpus;
	struct kemu_gpu gpus[KEMU_MAX_GPUS];
	uint32_t cpu_cores;        /* CPU node 0: from the host */
	uint64_t system_memory;    /* bytes: from the host */
	char dir[PATH_MAX];        /* private temp dir holding the tree ("" if none) */
};

/* Names of the built-in presets, NULL-terminated. */
extern const char *const kemu_preset_names[];

/* Fills *out for n_gpus GPUs of the preset (1..KEMU_MAX_GPUS).  When write_tree
 * is true, also creates a private directory (mkdtemp under $TMPDIR or /tmp)
 * and writes the sysfs tree into it.  -EINVAL for an unknown preset or count. */
int kemu_topology_create(const char *preset, uint32_t n_gpus, bool write_tree,
			 struct kemu_topology *out);
/* Removes the tree written by kemu_topology_create (if any). */
void kemu_topology_destroy(struct kemu_topology *topo);
/* The GPU whose render minor / gpu_id this is, or NULL. */
const struct kemu_gpu *kemu_topology_gpu_by_minor(const struct kemu_topology *t, uint32_t minor);
const struct kemu_gpu *kemu_topology_gpu_by_id(const struct kemu_topology *t, uint32_t gpu_id);

/* Active-CU bitmap of shader array sh of shader engine se on XCC xcc (bit
 * n = CU n of the array), as amdgpu's cu_info.bitmap holds it; 0 when the
 * indices are out of range. */
uint32_t kemu_gpu_cu_mask(const struct kemu_gpu *gpu, uint32_t xcc, uint32_t se, uint32_t sh);

/* Answers one DRM ioctl on the render node of gpu the way amdgpu does for
 * the queries libdrm's amdgpu_device_initialize and ROCr/libhsakmt make
 * (DRM_IOCTL_VERSION, DRM_IOCTL_GET_UNIQUE if used, DRM_IOCTL_AMDGPU_INFO:
 * ACCEL_WORKING, DEV_INFO, READ_MMR_REG, FW_VERSION, VRAM_GTT, MEMORY,
 * HW_IP_INFO, ...), returning 0 or -errno with the kernel's errno for
 * unknown requests.  Buffer-object ioctls (GEM create/mmap) belong to the
 * KFD model, not here: this returns -ENOSYS for them so the caller can route
 * them. */
int kemu_drm_info_ioctl(const struct kemu_gpu *gpu, unsigned long request, void *arg);

#endif /* KFDEMU_TOPOLOGY_H */
