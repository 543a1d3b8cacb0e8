/*
 * kfdemu DRM answers: what the amdgpu render node (/dev/dri/renderD<minor>)
 * returns for the ioctls libdrm's amdgpu_device_initialize and
 * libhsakmt/ROCr 5.2.3 issue, built from struct kemu_gpu so they agree with
 * the sysfs tree.
 *
 * Dispatch follows drm_ioctl: only _IOC_NR is decoded; the argument is
 * copied in up to _IOC_SIZE bytes and zero-extended to the kernel struct.
 *   - Core ioctls: VERSION and GET_CAP are render-allowed and answered;
 *     GEM_CLOSE and PRIME are -ENOSYS (buffer objects: the driver model's),
 *     as are SET_CLIENT_CAP and SYNCOBJ_* (render-allowed, not modelled);
 *     GET_UNIQUE, GET_MAGIC, GET_CLIENT, AUTH_MAGIC and the rest of the core
 *     table lack DRM_RENDER_ALLOW, so a render node answers -EACCES
 *     (drm_ioctl_permit); numbers past the core table are -EINVAL.
 *   - amdgpu driver ioctls (DRM_COMMAND_BASE + 0x00..0x15, the 6.12 table):
 *     INFO is answered here; buffer-object and submission ioctls belong to
 *     the driver model and return -ENOSYS so the caller can route them;
 *     holes in the table and numbers past it are -EINVAL.
 *   - AMDGPU_INFO: return_size 0 or a NULL return_pointer is -EINVAL, every
 *     answer is truncated to return_size (copy_to_user(min(size, sizeof))),
 *     and an unknown query is -EINVAL, as amdgpu_info_ioctl does.
 */
#define _GNU_SOURCE
#include "topology.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <libdrm/drm.h>
#include <libdrm/amdgpu_drm.h>

/* DRM_IOCTL_VERSION of amdgpu: KMS_DRIVER_MAJOR 3; KMS_DRIVER_MINOR 59 is
 * what the 6.12 LTS kernel reports (the kernel modelled by the KFD side). */
#define KEMU_DRM_NAME "amdgpu"
#define KEMU_DRM_DATE "20150101"
#define KEMU_DRM_DESC "AMD GPU"
#define KEMU_DRM_MAJOR 3
#define KEMU_DRM_MINOR 59
#define KEMU_DRM_PATCHLEVEL 0

/* amdgpu ioctl numbers relative to DRM_COMMAND_BASE (amdgpu_drm.h). */
enum {
	KEMU_AMDGPU_GEM_CREATE = 0x00, KEMU_AMDGPU_GEM_MMAP = 0x01,
	KEMU_AMDGPU_CTX = 0x02, KEMU_AMDGPU_BO_LIST = 0x03, KEMU_AMDGPU_CS = 0x04,
	KEMU_AMDGPU_INFO = 0x05, KEMU_AMDGPU_GEM_METADATA = 0x06,
	KEMU_AMDGPU_GEM_WAIT_IDLE = 0x07, KEMU_AMDGPU_GEM_VA = 0x08,
	KEMU_AMDGPU_WAIT_CS = 0x09, KEMU_AMDGPU_GEM_OP = 0x10,
	KEMU_AMDGPU_GEM_USERPTR = 0x11, KEMU_AMDGPU_WAIT_FENCES = 0x12,
	KEMU_AMDGPU_VM = 0x13, KEMU_AMDGPU_FENCE_TO_HANDLE = 0x14,
	KEMU_AMDGPU_SCHED = 0x15,
};

/* Core ioctl numbers handled specially (drm.h). */
enum {
	KEMU_DRM_NR_VERSION = 0x00, KEMU_DRM_NR_GET_CAP = 0x0c,
	KEMU_DRM_NR_GEM_CLOSE = 0x09, KEMU_DRM_NR_PRIME_HANDLE_TO_FD = 0x2d,
	KEMU_DRM_NR_PRIME_FD_TO_HANDLE = 0x2e, KEMU_DRM_NR_SET_CLIENT_CAP = 0x0d,
	/* SYNCOBJ_CREATE .. SYNCOBJ_EVENTFD: render-allowed, not modelled */
	KEMU_DRM_NR_SYNCOBJ_FIRST = 0xbf, KEMU_DRM_NR_SYNCOBJ_LAST = 0xcf,
	/* one past the 6.12 core table (drm_ioctls[]) */
	KEMU_DRM_CORE_IOCTL_COUNT = 0xd1,
};

/* gfx9 register dword offsets (GC base 0x2000): mmGB_ADDR_CONFIG. */
#define KEMU_MM_GB_ADDR_CONFIG 0x263e
/* AMDGPU_GFX_MAX_SE / AMDGPU_GFX_MAX_SH_PER_SE */
#define KEMU_GFX_MAX_SE 8
#define KEMU_GFX_MAX_SH_PER_SE 2
/* AMDGPU_VA_RESERVED_BOTTOM / top of the 48-bit VM, the GMC hole. */
#define KEMU_GMC_HOLE_START 0x0000800000000000ull
#define KEMU_GMC_HOLE_END 0xFFFF800000000000ull
/* AMDGPU_VM_RESERVED_VRAM: VRAM kept back for page tables, subtracted
 * from the usable heap in VRAM_GTT/MEMORY answers. */
#define KEMU_VM_RESERVED_VRAM (8ull << 20)
/* CSA + SEQ64 reserved at the top of the high VA range (2 MiB each). */
#define KEMU_VA_RESERVED_TOP (4ull << 20)

/* copy_to_user(out, src, min(size, n)) */
static int put_out(const struct drm_amdgpu_info *req, const void *src, size_t n)
{
	size_t len = req->return_size < n ? req->return_size : n;
	memcpy((void *)(uintptr_t)req->return_pointer, src, len);
	return 0;
}

static int put_u32(const struct drm_amdgpu_info *req, uint32_t v)
{
	return put_out(req, &v, sizeof(v));
}

static int put_u64(const struct drm_amdgpu_info *req, uint64_t v)
{
	return put_out(req, &v, sizeof(v));
}

static uint64_t host_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	return pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 0;
}

/* GTT is limited by TTM to half of system memory (ttm_tt_pages_limit). */
static uint64_t gtt_size(void)
{
	return host_memory() / 2;
}

/* The SDMA instances behind num_sdma_engines + num_sdma_xgmi_engines. */
static uint32_t sdma_instances(const struct kemu_gpu *g)
{
	return g->num_sdma_engines + g->num_sdma_xgmi_engines;
}

static int info_dev_info(const struct kemu_gpu *g, const struct drm_amdgpu_info *req)
{
	struct drm_amdgpu_info_device d;

	memset(&d, 0, sizeof(d));
	d.device_id = g->device_id;
	d.chip_rev = g->chip_rev;
	d.external_rev = g->chip_external_rev;
	d.pci_rev = g->revision_id;
	d.family = AMDGPU_FAMILY_AI; /* gfx9 dGPUs, gfx90a and gfx942 included */
	d.num_shader_engines = g->num_shader_engines;
	d.num_shader_arrays_per_engine = g->simd_arrays_per_engine;
	d.gpu_counter_freq = g->gpu_counter_freq;
	d.max_engine_clock = (uint64_t)g->max_engine_clk_fcompute * 1000; /* kHz */
	d.max_memory_clock = (uint64_t)g->vram_clk_max * 1000;
	d.cu_active_number = g->cu_count;
	/* gfx_v9_0_get_cu_info: SE i, SH j lands in bitmap[i % 4][j + i / 4];
	 * the always-on mask packs the first two SEs' arrays, 8 bits apart per
	 * SH and 16 per SE, with every active CU always on for a dGPU. */
	for (uint32_t se = 0; se < g->num_shader_engines && se < 8; se++)
		for (uint32_t sh = 0; sh < g->simd_arrays_per_engine && sh + se / 4 < 4; sh++) {
			uint32_t m = kemu_gpu_cu_mask(g, 0, se, sh);
			d.cu_bitmap[se % 4][sh + se / 4] = m;
			d.cu_ao_bitmap[se % 4][sh + se / 4] = m;
			if (se < 2 && sh < 2)
				d.cu_ao_mask |= (m & 0xFFFF) << (se * 16 + sh * 8);
		}
	/* CDNA has no render backends and one hardware context set of 8. */
	d.enabled_rb_pipes_mask = 0;
	d.num_rb_pipes = 0;
	d.num_hw_gfx_contexts = 8;
	d.ids_flags = 0; /* not an APU */
	d.virtual_address_offset = g->gpuvm_base;
	d.virtual_address_max = KEMU_GMC_HOLE_START;
	d.virtual_address_alignment = 4096;
	d.pte_fragment_size = (1u << 9) * 4096; /* fragment_size 9: 2 MiB */
	d.gart_page_size = 4096;
	d.ce_ram_size = 0x8000;
	d.vram_type = g->vram_type;
	d.vram_bit_width = g->vram_width;
	d.vce_harvest_config = 0;
	d.gc_double_offchip_lds_buf = 1;
	d.wave_front_size = g->wave_front_size;
	d.num_shader_visible_vgprs = 256;
	d.num_cu_per_sh = g->cu_per_simd_array;
	d.num_tcc_blocks = 16;
	d.gs_vgt_table_depth = 32;
	d.gs_prim_buffer_depth = 1792;
	d.max_gs_waves_per_vgt = 32;
	d.high_va_offset = KEMU_GMC_HOLE_END;
	d.high_va_max = KEMU_GMC_HOLE_END | ((1ull << 48) - KEMU_VA_RESERVED_TOP);
	d.tcc_disabled_mask = 0;
	return put_out(req, &d, sizeof(d));
}

static int info_hw_ip(const struct kemu_gpu *g, const struct drm_amdgpu_info *req, bool count)
{
	uint32_t type = req->query_hw_ip.type;
	uint32_t n = 0;

	if (type >= AMDGPU_HW_IP_NUM)
		return -EINVAL;
	switch (type) {
	case AMDGPU_HW_IP_GFX:
	case AMDGPU_HW_IP_COMPUTE:
		n = 1;
		break;
	case AMDGPU_HW_IP_DMA:
		n = sdma_instances(g);
		break;
	default: /* multimedia blocks are not modelled: no IP block found */
		n = 0;
		break;
	}
	if (count)
		return put_u32(req, n);
	if (req->query_hw_ip.ip_instance >= AMDGPU_HW_IP_INSTANCE_MAX_COUNT)
		return -EINVAL;

	struct drm_amdgpu_info_hw_ip ip;
	memset(&ip, 0, sizeof(ip));
	switch (type) {
	case AMDGPU_HW_IP_GFX: /* CDNA: the GFX block has no graphics rings */
	case AMDGPU_HW_IP_COMPUTE:
		ip.hw_ip_version_major = 9;
		ip.hw_ip_version_minor = g->gfx_target_version >= 90400 ? 4 : 0;
		ip.ib_start_alignment = 32;
		ip.ib_size_alignment = 32;
		ip.available_rings = type == AMDGPU_HW_IP_COMPUTE ? 0xFF : 0; /* 8 KCQs */
		break;
	case AMDGPU_HW_IP_DMA:
		ip.hw_ip_version_major = 4;
		ip.hw_ip_version_minor = 4; /* SDMA 4.4.0 (Aldebaran), 4.4.2 (GC 9.4.3) */
		ip.ib_start_alignment = 256;
		ip.ib_size_alignment = 4;
		ip.available_rings = (1u << sdma_instances(g)) - 1;
		break;
	default:
		break;
	}
	return put_out(req, &ip, sizeof(ip));
}

static int info_fw(const struct kemu_gpu *g, const struct drm_amdgpu_info *req)
{
	struct drm_amdgpu_info_firmware fw = { 0, 0 };

	switch (req->query_fw.fw_type) {
	case AMDGPU_INFO_FW_GFX_MEC:
		fw.ver = g->fw_version;
		break;
	case AMDGPU_INFO_FW_SDMA:
		if (req->query_fw.index >= sdma_instances(g))
			return -EINVAL;
		fw.ver = g->sdma_fw_version;
		break;
	default:
		/* the other firmware of amdgpu_firmware_info: not modelled, 0 */
		if (req->query_fw.fw_type < AMDGPU_INFO_FW_VCE ||
		    req->query_fw.fw_type > AMDGPU_INFO_FW_TOC)
			return -EINVAL;
		break;
	}
	return put_out(req, &fw, sizeof(fw));
}

/* soc15_read_register: only the allowed list; GB_ADDR_CONFIG comes from the
 * cached gfx config.  Anything else is "unallowed offset" -> -EFAULT. */
static int info_read_mmr(const struct kemu_gpu *g, const struct drm_amdgpu_info *req)
{
	uint32_t se = (req->read_mmr_reg.instance >> AMDGPU_INFO_MMR_SE_INDEX_SHIFT) &
		      AMDGPU_INFO_MMR_SE_INDEX_MASK;
	uint32_t sh = (req->read_mmr_reg.instance >> AMDGPU_INFO_MMR_SH_INDEX_SHIFT) &
		      AMDGPU_INFO_MMR_SH_INDEX_MASK;
	uint32_t regs[128];
	uint32_t n = req->read_mmr_reg.count;

	if (se != AMDGPU_INFO_MMR_SE_INDEX_MASK && se >= KEMU_GFX_MAX_SE)
		return -EINVAL;
	if (sh != AMDGPU_INFO_MMR_SH_INDEX_MASK && sh >= KEMU_GFX_MAX_SH_PER_SE)
		return -EINVAL;
	if (n > 128)
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++) {
		if (req->read_mmr_reg.dword_offset + i != KEMU_MM_GB_ADDR_CONFIG)
			return -EFAULT;
		regs[i] = g->gb_addr_config;
	}
	return put_out(req, regs, (size_t)n * sizeof(uint32_t));
}

static int amdgpu_info(const struct kemu_gpu *g, const struct drm_amdgpu_info *req)
{
	if (!req->return_size || !req->return_pointer)
		return -EINVAL;

	switch (req->query) {
	case AMDGPU_INFO_ACCEL_WORKING:
		return put_u32(req, 1);
	case AMDGPU_INFO_CRTC_FROM_ID: /* no display engine: drm_crtc_find fails */
		return -ENOENT;
	case AMDGPU_INFO_HW_IP_INFO:
		return info_hw_ip(g, req, false);
	case AMDGPU_INFO_HW_IP_COUNT:
		return info_hw_ip(g, req, true);
	case AMDGPU_INFO_TIMESTAMP: {
		/* the GPU clock counter at gpu_counter_freq (100 MHz): the
		 * ticks GET_CLOCK_COUNTERS and the CP's timestamps give */
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
		uint64_t ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		return put_u64(req, kemu_gpu_ticks(ns, g->gpu_counter_freq));
	}
	case AMDGPU_INFO_FW_VERSION:
		return info_fw(g, req);
	case AMDGPU_INFO_NUM_BYTES_MOVED:
	case AMDGPU_INFO_NUM_EVICTIONS:
	case AMDGPU_INFO_NUM_VRAM_CPU_PAGE_FAULTS:
	case AMDGPU_INFO_VRAM_USAGE:
	case AMDGPU_INFO_VIS_VRAM_USAGE:
	case AMDGPU_INFO_GTT_USAGE:
		/* BO accounting lives in the driver model; nothing is placed by
		 * this interface */
		return put_u64(req, 0);
	case AMDGPU_INFO_GDS_CONFIG: {
		struct drm_amdgpu_info_gds gds;
		memset(&gds, 0, sizeof(gds));
		gds.gds_gfx_partition_size = 0x10000;
		gds.compute_partition_size = 0x10000;
		gds.gds_total_size = 0x10000;
		gds.gws_per_gfx_partition = g->num_gws;
		gds.gws_per_compute_partition = g->num_gws;
		gds.oa_per_gfx_partition = 16;
		gds.oa_per_compute_partition = 16;
		return put_out(req, &gds, sizeof(gds));
	}
	case AMDGPU_INFO_VRAM_GTT: {
		/* real_vram_size - pinned (none here) - AMDGPU_VM_RESERVED_VRAM;
		 * all of it CPU-visible with a large BAR */
		struct drm_amdgpu_info_vram_gtt vg;
		vg.vram_size = g->vram_size - KEMU_VM_RESERVED_VRAM;
		vg.vram_cpu_accessible_size = vg.vram_size;
		vg.gtt_size = gtt_size();
		return put_out(req, &vg, sizeof(vg));
	}
	case AMDGPU_INFO_READ_MMR_REG:
		return info_read_mmr(g, req);
	case AMDGPU_INFO_DEV_INFO:
		return info_dev_info(g, req);
	case AMDGPU_INFO_MEMORY: {
		/* max_allocation is 3/4 of the usable heap */
		struct drm_amdgpu_memory_info mem;
		memset(&mem, 0, sizeof(mem));
		mem.vram.total_heap_size = g->vram_size;
		mem.vram.usable_heap_size = g->vram_size - KEMU_VM_RESERVED_VRAM;
		mem.vram.max_allocation = mem.vram.usable_heap_size * 3 / 4;
		mem.cpu_accessible_vram = mem.vram;
		mem.gtt.total_heap_size = gtt_size();
		mem.gtt.usable_heap_size = gtt_size();
		mem.gtt.max_allocation = gtt_size() * 3 / 4;
		return put_out(req, &mem, sizeof(mem));
	}
	case AMDGPU_INFO_NUM_HANDLES: /* UVD only; these parts have none */
		return -EINVAL;
	case AMDGPU_INFO_SENSOR: /* power management is not emulated: !dpm_enabled */
		return -ENOENT;
	case AMDGPU_INFO_VRAM_LOST_COUNTER:
		return put_u32(req, 0);
	case AMDGPU_INFO_RAS_ENABLED_FEATURES:
		return put_u64(req, (g->capability & 0x04000000u) /* SRAM EDC */
					    ? AMDGPU_INFO_RAS_ENABLED_UMC | AMDGPU_INFO_RAS_ENABLED_SDMA |
						      AMDGPU_INFO_RAS_ENABLED_GFX |
						      AMDGPU_INFO_RAS_ENABLED_MMHUB
					    : 0);
	default:
		/* VBIOS, VCE clock table, video caps: not modelled */
		return -EINVAL;
	}
}

/* drm_copy_field: report the full length, copy at most the user's length,
 * no terminating NUL. */
static void copy_field(char *buf, __kernel_size_t *len, const char *value)
{
	size_t n = strlen(value);
	size_t copy = n > *len ? *len : n;

	*len = n;
	if (copy && buf)
		memcpy(buf, value, copy);
}

static int drm_version_ioctl(struct drm_version *v)
{
	v->version_major = KEMU_DRM_MAJOR;
	v->version_minor = KEMU_DRM_MINOR;
	v->version_patchlevel = KEMU_DRM_PATCHLEVEL;
	copy_field(v->name, &v->name_len, KEMU_DRM_NAME);
	copy_field(v->date, &v->date_len, KEMU_DRM_DATE);
	copy_field(v->desc, &v->desc_len, KEMU_DRM_DESC);
	return 0;
}

static int drm_get_cap_ioctl(struct drm_get_cap *c)
{
	switch (c->capability) {
	case DRM_CAP_DUMB_BUFFER:
	case DRM_CAP_TIMESTAMP_MONOTONIC:
	case DRM_CAP_SYNCOBJ:
	case DRM_CAP_SYNCOBJ_TIMELINE:
		c->value = 1;
		return 0;
	case DRM_CAP_PRIME:
		c->value = DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT;
		return 0;
	default:
		return -EINVAL;
	}
}

/* Copies the caller's argument in (zero-extended to the kernel size), runs
 * fn, and copies IOC_OUT bytes back, as drm_ioctl does. */
#define KEMU_DRM_CALL(type, fn, request, arg)                                        \
	({                                                                           \
		type k_;                                                             \
		size_t u_ = _IOC_SIZE(request) < sizeof(k_) ? _IOC_SIZE(request) : sizeof(k_); \
		int r_;                                                              \
		memset(&k_, 0, sizeof(k_));                                          \
		if (_IOC_DIR(request) & _IOC_WRITE)                                  \
			memcpy(&k_, (arg), u_);                                      \
		r_ = fn(&k_);                                                        \
		if (r_ == 0 && (_IOC_DIR(request) & _IOC_READ))                      \
			memcpy((arg), &k_, u_);                                      \
		r_;                                                                  \
	})

int kemu_drm_info_ioctl(const struct kemu_gpu *gpu, unsigned long request, void *arg)
{
	unsigned int nr = _IOC_NR(request);

	if (!gpu)
		return -ENODEV;
	if (_IOC_SIZE(request) && !arg)
		return -EFAULT;

	if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END) {
		switch (nr - DRM_COMMAND_BASE) {
		case KEMU_AMDGPU_INFO: {
			struct drm_amdgpu_info req;
			size_t u = _IOC_SIZE(request) < sizeof(req) ? _IOC_SIZE(request) : sizeof(req);
			memset(&req, 0, sizeof(req));
			if (_IOC_DIR(request) & _IOC_WRITE)
				memcpy(&req, arg, u);
			return amdgpu_info(gpu, &req);
		}
		case KEMU_AMDGPU_GEM_CREATE:
		case KEMU_AMDGPU_GEM_MMAP:
		case KEMU_AMDGPU_GEM_METADATA:
		case KEMU_AMDGPU_GEM_WAIT_IDLE:
		case KEMU_AMDGPU_GEM_VA:
		case KEMU_AMDGPU_GEM_OP:
		case KEMU_AMDGPU_GEM_USERPTR:
		case KEMU_AMDGPU_CTX:
		case KEMU_AMDGPU_BO_LIST:
		case KEMU_AMDGPU_CS:
		case KEMU_AMDGPU_WAIT_CS:
		case KEMU_AMDGPU_WAIT_FENCES:
		case KEMU_AMDGPU_VM:
		case KEMU_AMDGPU_FENCE_TO_HANDLE:
		case KEMU_AMDGPU_SCHED:
			return -ENOSYS; /* the driver model's, not this table's */
		default:
			return -EINVAL; /* hole in amdgpu_ioctls_kms or past its end */
		}
	}

	switch (nr) {
	case KEMU_DRM_NR_VERSION:
		return KEMU_DRM_CALL(struct drm_version, drm_version_ioctl, request, arg);
	case KEMU_DRM_NR_GET_CAP:
		return KEMU_DRM_CALL(struct drm_get_cap, drm_get_cap_ioctl, request, arg);
	case KEMU_DRM_NR_GEM_CLOSE:
	case KEMU_DRM_NR_PRIME_HANDLE_TO_FD:
	case KEMU_DRM_NR_PRIME_FD_TO_HANDLE:
		return -ENOSYS; /* buffer objects: the driver model's */
	case KEMU_DRM_NR_SET_CLIENT_CAP:
		return -ENOSYS; /* render-allowed, not modelled */
	default:
		if (nr >= KEMU_DRM_NR_SYNCOBJ_FIRST && nr <= KEMU_DRM_NR_SYNCOBJ_LAST)
			return -ENOSYS; /* render-allowed, not modelled */
		if (nr >= KEMU_DRM_CORE_IOCTL_COUNT)
			return -EINVAL; /* past the core table */
		/* GET_UNIQUE, GET_MAGIC, GET_CLIENT, AUTH_MAGIC, SET_VERSION, ...:
		 * no DRM_RENDER_ALLOW, so drm_ioctl_permit refuses them on a
		 * render node */
		return -EACCES;
	}
}
