/*
 * kfdemu topology: instantiates a preset (presets/instinct.inc) as n GPUs
 * beside CPU node 0, derives every value the kernel derives, and writes the
 * sysfs tree amdkfd and amdgpu would expose into a private directory.
 *
 * What is computed here and after which kernel code (facts, not code, carry
 * over; see kfd-uapi-facts.md §4, §7):
 *   - simd_count = active CUs x simd_per_cu; array_count (sysfs) = shader
 *     arrays per XCC x NUM_XCC (node_show).
 *   - CWSR: ctl_stack_size, cwsr_size, debug_memory_size per
 *     kfd_queue_ctx_save_restore_size, from the same sysfs inputs.
 *   - gpu_id: crc16 of the same 8 words kfd_generate_gpu_id hashes (devfn,
 *     subsystem ids, domain, device id, bus, VRAM size, XCC mask), low 16
 *     bits, bumped past 0 and duplicates exactly as the kernel does.
 *   - simd_id_base: the VCRAT processor id counter, 0x80001000 advanced by
 *     array_count x cu_per_sh per GPU (get_and_inc_gpu_processor_id).
 *   - caches: kfd_fill_cache_non_crat_info's walk over XCC/SE/SH/CU blocks,
 *     so the first L1 cache has processor_id_low == simd_id_base (ROCr
 *     asserts "GPU cache info missing" otherwise).
 *   - io_links/p2p_links: the VCRAT direct links (GPU->CPU PCIe weight 20,
 *     GPU<->GPU xGMI weight 15 in a hive), their reverse links, the flags
 *     of kfd_fill_iolink_non_crat_info and the recommended SDMA masks;
 *     PCIe peers outside a hive get p2p_links (CONFIG_HSA_AMD_P2P).
 *   - capability/debug_prop: kfd_topology_set_capabilities for GC 9.4.x;
 *     capability2 as node_show prints it (0 here).  No family_id: proposed
 *     in 2022 ("drm/amdkfd: add family_id property for kfd_node") but
 *     printed neither upstream nor in ROCm's amdgpu tree; ROCr 1.18's
 *     libhsakmt reads one if present and takes FamilyID from AMDGPU_INFO
 *     DEV_INFO anyway (drm_info.c: AMDGPU_FAMILY_AI).
 * The tree is written once; nothing here reads it back.
 */
#define _GNU_SOURCE
#include "topology.h"

#include "cpu_cache.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <linux/kfd_sysfs.h>

#define KEMU_IP(maj, min, rev) (((maj) << 16) | ((min) << 8) | (rev))
#define KEMU_ALIGN(x, a) (((x) + (a) - 1) / (a) * (a))
#define KEMU_PAGE 4096u

/* kfd_sysfs.h bits newer than the 6.1 uapi header installed here. */
#define KEMU_CAP_TRAP_DEBUG_SUPPORT 0x00008000u
#define KEMU_CAP_WAVE_LAUNCH_TRAP_OVERRIDE 0x00010000u
#define KEMU_CAP_WAVE_LAUNCH_MODE 0x00020000u
#define KEMU_CAP_PRECISE_MEMORY_OPERATIONS 0x00040000u
#define KEMU_CAP_DEBUG_FIRMWARE_SUPPORTED 0x20000000u
#define KEMU_CAP_PER_QUEUE_RESET 0x80000000u
#define KEMU_DBG_DISPATCH_INFO_ALWAYS_VALID 0x400u
#define KEMU_DBG_WATCH_HI_SHIFT 4

#define KEMU_MAX_CACHE_TYPES 6
#define KEMU_PCI_VENDOR_AMD 0x1002u
/* The VCRAT's first GPU processor id ("Bit[31]=1 ... + 0x1000"). */
#define KEMU_GPU_PROCESSOR_ID_BASE 0x80001000u
/* AMDGPU_VA_RESERVED_BOTTOM in current trees (fact sheet §5: 64 KiB). */
#define KEMU_VA_RESERVED_BOTTOM 0x10000ull

struct kemu_cache_info {
	uint32_t size_kb, level, line_size, type, num_cu_shared;
};

/* One GPU model: facts only.  Derived values live in struct kemu_gpu. */
struct kemu_preset {
	const char *name, *gfx_name, *asic_name, *marketing_name;
	uint32_t gfx_target_version, gc_ip;
	uint32_t device_id, revision_id, subsystem_device_id, pci_class;
	uint8_t pci_bus[KEMU_MAX_GPUS];
	uint32_t num_xcc, shader_engines, sh_per_se, cu_per_sh, active_cu;
	uint32_t simd_per_cu, max_waves_per_simd, wave_front_size, lds_size_in_kb;
	uint32_t max_slots_scratch_cu, num_gws, max_engine_clk_mhz;
	uint32_t mec_fw_version, sdma_fw_version, num_watch_points;
	uint32_t sdma_instances, sdma_queues_per_engine, kfd_cp_queues, max_queues;
	uint64_t vram_size;
	uint32_t vram_width, vram_clk_mhz, vram_type;
	uint32_t pcie_gen, pcie_lanes;
	bool xgmi_hive;
	uint32_t xgmi_mbytes, external_rev_offset, gb_addr_config;
	bool ras;
	struct kemu_cache_info caches[KEMU_MAX_CACHE_TYPES];
	uint32_t n_caches;
};

#include "presets/instinct.inc"

const char *const kemu_preset_names[] = { "mi210", "mi300x", NULL };
_Static_assert(sizeof(kemu_presets) / sizeof(kemu_presets[0]) ==
		       sizeof(kemu_preset_names) / sizeof(kemu_preset_names[0]) - 1,
	       "every preset has a name in kemu_preset_names");

static const struct kemu_preset *preset_find(const char *name)
{
	for (size_t i = 0; i < sizeof(kemu_presets) / sizeof(kemu_presets[0]); i++)
		if (strcmp(kemu_presets[i].name, name) == 0)
			return &kemu_presets[i];
	return NULL;
}

/* ---- derived values --------------------------------------------------- */

/* kfd_queue_ctx_save_restore_size, with the per-XCC array_count the kernel
 * uses (sysfs prints it multiplied by NUM_XCC). */
static void cwsr_sizes(struct kemu_gpu *g)
{
	uint32_t gfxv = g->gfx_target_version;
	uint32_t array_per_xcc = g->array_count / g->num_xcc;
	uint32_t cu_num = g->simd_count / g->simd_per_cu / g->num_xcc;
	uint32_t wave_num, vgpr, lds, wg_data, ctl;

	g->eop_buffer_size = KEMU_PAGE; /* gfx >= 8, not Tonga */
	if (gfxv < 100100) {
		uint32_t cap = array_per_xcc / g->simd_arrays_per_engine * 512;
		wave_num = cu_num * 40 < cap ? cu_num * 40 : cap;
	} else {
		wave_num = cu_num * 32;
	}
	if ((gfxv >= 90400 && gfxv < 90500) || gfxv == 90010 || gfxv == 90008 || gfxv == 90500)
		vgpr = 0x80000;
	else if (gfxv == 110000 || gfxv == 110001 || gfxv == 120000 || gfxv == 120001)
		vgpr = 0x60000;
	else
		vgpr = 0x40000;
	lds = gfxv == 90500 ? g->lds_size_in_kb << 10 : 0x10000;
	/* per CU: VGPRs + SGPRs 0x4000 + LDS + HW registers 0x1000 */
	wg_data = KEMU_ALIGN(cu_num * (vgpr + 0x4000 + lds + 0x1000), KEMU_PAGE);
	/* 40-byte save-area header + 8 (12 on gfx10.1+) bytes per wave + 8 */
	ctl = wave_num * (gfxv >= 100100 ? 12 : 8) + 8;
	ctl = KEMU_ALIGN(40 + ctl, KEMU_PAGE);
	if (gfxv >= 100000 && gfxv < 110000 && ctl > 0x7000)
		ctl = 0x7000;
	g->ctl_stack_size = ctl;
	g->cwsr_size = ctl + wg_data;
	g->debug_memory_size = KEMU_ALIGN(wave_num * 32, 64);
}

/* lib/crc16.c: CRC-16 (polynomial 0x8005, reflected), as crc16(0, buf, n). */
static uint16_t crc16(uint16_t crc, const uint8_t *p, size_t n)
{
	while (n--) {
		crc ^= *p++;
		for (int b = 0; b < 8; b++)
			crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0xA001) : (uint16_t)(crc >> 1);
	}
	return crc;
}

/* kfd_generate_gpu_id over the emulated PCI identity (devfn 0, domain 0). */
static uint32_t gpu_id_hash(const struct kemu_topology *t, uint32_t idx)
{
	const struct kemu_gpu *g = &t->gpus[idx];
	uint32_t buf[8];
	uint8_t bytes[sizeof(buf)];
	uint32_t xcc_mask = (1u << g->num_xcc) - 1;

	buf[0] = 0; /* devfn */
	buf[1] = g->subsystem_vendor_id | (g->subsystem_device_id << 16);
	buf[2] = g->domain;
	buf[3] = g->device_id;
	buf[4] = g->pci_bus;
	buf[5] = (uint32_t)g->vram_size;
	buf[6] = (uint32_t)(g->vram_size >> 32);
	buf[7] = (uint32_t)(__builtin_ffs((int)xcc_mask) - 1) | (g->num_xcc << 16);
	for (size_t i = 0; i < 8; i++) /* the kernel hashes the words as stored (LE) */
		for (size_t b = 0; b < 4; b++)
			bytes[i * 4 + b] = (uint8_t)(buf[i] >> (8 * b));

	uint32_t id = crc16(0, bytes, sizeof(bytes)) & 0xFFFF;
	for (;;) {
		bool unique = true;
		if (!id)
			id = 1;
		for (uint32_t j = 0; j < idx; j++)
			if (t->gpus[j].gpu_id == id)
				unique = false;
		if (unique)
			return id;
		id = (id + 1) & 0xFFFF;
	}
}

/* kfd_topology_set_capabilities + kfd_topology_add_device for GC 9.x. */
static void capabilities(const struct kemu_preset *p, struct kemu_gpu *g)
{
	uint32_t cap = 0, log_wp = 0;
	uint64_t dbg = 0;

	while ((1u << (log_wp + 1)) <= p->num_watch_points)
		log_wp++;
	if (log_wp)
		cap |= HSA_CAP_WATCH_POINTS_SUPPORTED |
		       ((log_wp << HSA_CAP_WATCH_POINTS_TOTALBITS_SHIFT) &
			HSA_CAP_WATCH_POINTS_TOTALBITS_MASK);
	cap |= (HSA_CAP_DOORBELL_TYPE_2_0 << HSA_CAP_DOORBELL_TYPE_TOTALBITS_SHIFT) &
	       HSA_CAP_DOORBELL_TYPE_TOTALBITS_MASK;
	cap |= KEMU_CAP_TRAP_DEBUG_SUPPORT | KEMU_CAP_WAVE_LAUNCH_TRAP_OVERRIDE |
	       KEMU_CAP_WAVE_LAUNCH_MODE;
	/* kfd_dbg_has_ttmps_always_setup: GC < 11 except 9.4.2 */
	if (p->gc_ip != KEMU_IP(9, 4, 2))
		dbg |= KEMU_DBG_DISPATCH_INFO_ALWAYS_VALID;
	if (p->gc_ip == KEMU_IP(9, 4, 3) || p->gc_ip == KEMU_IP(9, 4, 4))
		dbg |= 7 | (30u << KEMU_DBG_WATCH_HI_SHIFT);
	else
		dbg |= 6 | (29u << KEMU_DBG_WATCH_HI_SHIFT);
	if (p->gc_ip >= KEMU_IP(9, 4, 2))
		cap |= KEMU_CAP_PRECISE_MEMORY_OPERATIONS;
	cap |= KEMU_CAP_PER_QUEUE_RESET; /* not an SR-IOV VF */
	/* kfd_topology_set_dbg_firmware_support: 9.4.2 needs MEC >= 51,
	 * unlisted GC versions are assumed to support it. */
	if (p->gc_ip != KEMU_IP(9, 4, 2) || p->mec_fw_version >= 51)
		cap |= KEMU_CAP_DEBUG_FIRMWARE_SUPPORTED;
	cap |= (g->chip_rev << HSA_CAP_ASIC_REVISION_SHIFT) & HSA_CAP_ASIC_REVISION_MASK;
	if (p->ras) /* GFX and UMC RAS enabled, as on ECC-enabled Instinct parts */
		cap |= HSA_CAP_SRAM_EDCSUPPORTED | HSA_CAP_MEM_EDCSUPPORTED |
		       HSA_CAP_RASEVENTNOTIFY;
	cap |= HSA_CAP_SVMAPI_SUPPORTED;
	g->capability = cap;
	/* node_show: HSA_CAP2_PER_SDMA_QUEUE_RESET_SUPPORTED (bit 0) for GC < 10
	 * only when sdma.supported_reset has PER_QUEUE: never on SDMA 4.4.0
	 * (MI210); on SDMA 4.4.2 (MI300X) only with MEC firmware >= 0xb0 and
	 * PMFW support, and the preset's MEC 151 (0x97) is below.  kfdemu
	 * resets no SDMA queue either. */
	g->capability2 = 0;
	g->debug_prop = dbg;
}

uint32_t kemu_gpu_cu_mask(const struct kemu_gpu *gpu, uint32_t xcc, uint32_t se, uint32_t sh)
{
	if (!gpu || !gpu->num_xcc || xcc >= gpu->num_xcc || se >= gpu->num_shader_engines ||
	    sh >= gpu->simd_arrays_per_engine)
		return 0;
	/* The active CUs of an XCC are spread evenly over its shader arrays,
	 * the first arrays taking the remainder; each array's active CUs are
	 * its lowest slots. */
	uint32_t arrays = gpu->num_shader_engines * gpu->simd_arrays_per_engine;
	uint32_t per_xcc = gpu->cu_count / gpu->num_xcc;
	uint32_t idx = se * gpu->simd_arrays_per_engine + sh;
	uint32_t n = per_xcc / arrays + (idx < per_xcc % arrays ? 1 : 0);

	if (n > gpu->cu_per_simd_array)
		n = gpu->cu_per_simd_array;
	return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1;
}

static void gpu_fill(const struct kemu_preset *p, struct kemu_topology *t, uint32_t i,
		     uint32_t *processor_id)
{
	struct kemu_gpu *g = &t->gpus[i];

	g->node_index = i + 1;
	g->drm_render_minor = 128 + i;
	snprintf(g->name, sizeof(g->name), "%s", p->gfx_name);
	snprintf(g->asic_name, sizeof(g->asic_name), "%s", p->asic_name);
	snprintf(g->marketing_name, sizeof(g->marketing_name), "%s", p->marketing_name);
	g->gfx_target_version = p->gfx_target_version;
	g->vendor_id = KEMU_PCI_VENDOR_AMD;
	g->device_id = p->device_id;
	g->revision_id = p->revision_id;
	g->subsystem_vendor_id = KEMU_PCI_VENDOR_AMD;
	g->subsystem_device_id = p->subsystem_device_id;
	g->pci_bus = p->pci_bus[i];
	g->location_id = g->pci_bus << 8; /* pci_dev_id: bus << 8 | devfn 0 */
	g->domain = 0;

	g->num_xcc = p->num_xcc;
	g->cu_count = p->active_cu;
	g->simd_per_cu = p->simd_per_cu;
	g->simd_count = p->active_cu * p->simd_per_cu;
	g->num_shader_engines = p->shader_engines;
	g->simd_arrays_per_engine = p->sh_per_se;
	g->array_count = p->sh_per_se * p->shader_engines * p->num_xcc;
	g->cu_per_simd_array = p->cu_per_sh;
	g->max_waves_per_simd = p->max_waves_per_simd;
	g->wave_front_size = p->wave_front_size;
	g->lds_size_in_kb = p->lds_size_in_kb;
	g->max_slots_scratch_cu = p->max_slots_scratch_cu;
	g->num_gws = p->num_gws;
	g->max_engine_clk_fcompute = p->max_engine_clk_mhz;
	g->num_cp_queues = p->kfd_cp_queues;
	/* kfd_get_num_sdma_engines with xGMI supported: min(instances, 2);
	 * the rest are xGMI engines. */
	g->num_sdma_engines = p->sdma_instances < 2 ? p->sdma_instances : 2;
	g->num_sdma_xgmi_engines = p->sdma_instances - g->num_sdma_engines;
	g->num_sdma_queues_per_engine = p->sdma_queues_per_engine;
	g->fw_version = p->mec_fw_version;
	g->sdma_fw_version = p->sdma_fw_version;
	g->chip_rev = 0;
	g->chip_external_rev = g->chip_rev + p->external_rev_offset;
	g->gb_addr_config = p->gb_addr_config;
	g->vram_type = p->vram_type;
	g->gpu_counter_freq = 100000; /* amdgpu_asic_get_xclk (100 MHz) * 10, in kHz */

	g->vram_size = p->vram_size;
	g->vram_width = p->vram_width;
	g->vram_clk_max = p->vram_clk_mhz;

	g->simd_id_base = *processor_id;
	*processor_id += p->sh_per_se * p->shader_engines * p->cu_per_sh;

	capabilities(p, g);
	cwsr_sizes(g);
	g->max_queues = p->max_queues;
	/* In SPX mode every queue is mapped on all XCCs (one HQD on each), so
	 * the resident-queue limit is the KFD HQD count of one XCC. */
	g->hqd_slots = p->kfd_cp_queues;

	/* kfd_init_apertures_v9 (fact sheet §5) */
	g->lds_base = 1ull << 48;
	g->lds_limit = g->lds_base + 0xFFFFFFFFull;
	g->scratch_base = 2ull << 48;
	g->scratch_limit = g->scratch_base + 0xFFFFFFFFull;
	g->gpuvm_base = KEMU_VA_RESERVED_BOTTOM;
	g->gpuvm_limit = (1ull << 47) - 1;

	g->gpu_id = gpu_id_hash(t, i);
	/* The SMU serial number: synthetic, stable and distinct per GPU. */
	g->unique_id = ((uint64_t)g->device_id << 48) | ((uint64_t)g->pci_bus << 32) |
		       ((uint64_t)g->gpu_id << 16) | 0x1EAF;
	/* The xGMI hive id comes from the PSP; one value for the whole hive. */
	g->hive_id = p->xgmi_hive ? 0x4B454D5548495645ull /* "KEMUHIVE" */ : 0;
}

const struct kemu_gpu *kemu_topology_gpu_by_minor(const struct kemu_topology *t, uint32_t minor)
{
	if (!t)
		return NULL;
	for (uint32_t i = 0; i < t->n_gpus; i++)
		if (t->gpus[i].drm_render_minor == minor)
			return &t->gpus[i];
	return NULL;
}

const struct kemu_gpu *kemu_topology_gpu_by_id(const struct kemu_topology *t, uint32_t gpu_id)
{
	if (!t || !gpu_id)
		return NULL;
	for (uint32_t i = 0; i < t->n_gpus; i++)
		if (t->gpus[i].gpu_id == gpu_id)
			return &t->gpus[i];
	return NULL;
}

/* ---- links ------------------------------------------------------------- */

struct kemu_link {
	uint32_t type, from, to, weight, min_bw, max_bw, sdma_mask, flags;
};

#define KEMU_MAX_LINKS (KEMU_MAX_GPUS + 1)

/* kfd_topology.c rec_sdma_eng_map: xGMI SDMA engine per (src, dst) socket
 * in an 8-GPU MI300 hive. */
static const int rec_sdma_eng_map[8][8] = {
	{ -1, 14, 12, 2, 4, 8, 10, 6 }, { 14, -1, 2, 10, 8, 4, 6, 12 },
	{ 10, 2, -1, 12, 14, 6, 4, 8 }, { 2, 12, 10, -1, 6, 14, 8, 4 },
	{ 4, 8, 14, 6, -1, 10, 12, 2 }, { 8, 4, 6, 14, 12, -1, 2, 10 },
	{ 10, 6, 4, 8, 12, 2, -1, 14 }, { 6, 12, 8, 4, 2, 10, 14, -1 },
};

/* amdgpu_amdkfd_get_pcie_bandwidth_mbytes: lanes x Gen speed (Mb/s) / 8;
 * the minimum is x1 at Gen1. */
static uint32_t pcie_mbytes(const struct kemu_preset *p, bool is_min)
{
	static const uint32_t gen_mbits[] = { 0, 2500, 5000, 8000, 16000, 32000 };
	if (is_min)
		return gen_mbits[1] / 8;
	return p->pcie_lanes * gen_mbits[p->pcie_gen] / 8;
}

static uint32_t sdma_mask_bits(uint32_t first, uint32_t n)
{
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		m |= 1u << (first + i);
	return m;
}

/* The GPU->CPU PCIe link of kfd_fill_gpu_direct_io_link_to_cpu, weight 20
 * (kfd_parse_subtype_iolink), recommended engines = the PCIe SDMA engines. */
static struct kemu_link cpu_link(const struct kemu_preset *p, const struct kemu_gpu *g)
{
	struct kemu_link l = {
		.type = HSA_IOLINK_TYPE_PCIEXPRESS, .from = g->node_index, .to = 0,
		.weight = 20, .min_bw = pcie_mbytes(p, true), .max_bw = pcie_mbytes(p, false),
		.sdma_mask = sdma_mask_bits(0, g->num_sdma_engines),
		.flags = HSA_IOLINK_FLAGS_ENABLED,
	};
	return l;
}

/* io_links of GPU i in kernel list order: the CPU link, then xGMI links
 * to the other hive members in node order. */
static uint32_t gpu_io_links(const struct kemu_preset *p, const struct kemu_topology *t,
			     uint32_t i, struct kemu_link *out)
{
	const struct kemu_gpu *g = &t->gpus[i];
	uint32_t n = 0;

	out[n++] = cpu_link(p, g);
	if (!p->xgmi_hive)
		return n;
	for (uint32_t j = 0; j < t->n_gpus; j++) {
		if (j == i)
			continue;
		struct kemu_link l = {
			.type = HSA_IOLINK_TYPE_XGMI, .from = g->node_index,
			.to = t->gpus[j].node_index, .weight = 15, /* KFD_CRAT_XGMI_WEIGHT x 1 hop */
			.min_bw = p->xgmi_mbytes, .max_bw = p->xgmi_mbytes,
			.flags = HSA_IOLINK_FLAGS_ENABLED, /* xGMI: coherent, atomics */
		};
		if (t->n_gpus == 8 && g->num_sdma_xgmi_engines >= 14)
			l.sdma_mask = 1u << rec_sdma_eng_map[i][j];
		else
			l.sdma_mask = sdma_mask_bits(g->num_sdma_engines, g->num_sdma_xgmi_engines);
		out[n++] = l;
	}
	return n;
}

/* p2p_links of GPU i (kfd_add_peer_prop, PCIe peers outside a hive):
 * GPU->CPU->GPU, weights and latencies summed, the min bandwidth of both
 * hops; GPU<->GPU over PCIe is marked non-coherent. */
static uint32_t gpu_p2p_links(const struct kemu_preset *p, const struct kemu_topology *t,
			      uint32_t i, struct kemu_link *out)
{
	uint32_t n = 0;

	if (p->xgmi_hive)
		return 0;
	for (uint32_t j = 0; j < t->n_gpus; j++) {
		if (j == i)
			continue;
		struct kemu_link a = cpu_link(p, &t->gpus[i]);
		a.to = t->gpus[j].node_index;
		a.weight = 40;
		/* The link is a copy of the peer GPU's CPU link: for an older
		 * peer that link already carries its SDMA mask, for a newer one
		 * it is copied before kfd_fill_iolink_non_crat_info fills it. */
		a.sdma_mask = j < i ? sdma_mask_bits(0, t->gpus[j].num_sdma_engines) : 0;
		a.flags = HSA_IOLINK_FLAGS_ENABLED | HSA_IOLINK_FLAGS_NON_COHERENT;
		out[n++] = a;
	}
	return n;
}

/* ---- caches ------------------------------------------------------------ */

struct kemu_cache {
	uint32_t processor_id_low, level, size_kb, line_size, type;
	uint32_t sibling_bytes;
	uint8_t sibling[4 * 8 * 8 * 2]; /* XCCs x SEs x SHs x 4 bytes, L2/L3 */
};

static int cache_emit(struct kemu_cache **v, uint32_t *n, uint32_t *cap,
		      const struct kemu_cache *c)
{
	if (*n == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 64;
		struct kemu_cache *nv = realloc(*v, ncap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = ncap;
	}
	(*v)[(*n)++] = *c;
	return 0;
}

static void sibling_put(struct kemu_cache *c, uint32_t mask)
{
	for (int b = 0; b < 4 && c->sibling_bytes < sizeof(c->sibling); b++)
		c->sibling[c->sibling_bytes++] = (uint8_t)(mask >> (8 * b));
}

/* A cache entry of kind ci whose first CU is processor_id_low, with an
 * empty sibling map (both fill_in_l1_pcache and fill_in_l2_l3_pcache
 * start an entry so). */
static void cache_start(struct kemu_cache *c, const struct kemu_cache_info *ci,
			uint32_t processor_id_low)
{
	memset(c, 0, sizeof(*c));
	c->processor_id_low = processor_id_low;
	c->level = ci->level;
	c->size_kb = ci->size_kb;
	c->line_size = ci->line_size;
	c->type = ci->type;
}

/* kfd_fill_cache_non_crat_info: L1 caches per CU block of every array,
 * then one L2 (and L3) entry for the whole GPU.  Returns the count or
 * -ENOMEM; *out is malloc'd. */
static int gpu_caches(const struct kemu_preset *p, const struct kemu_gpu *g,
		      struct kemu_cache **out)
{
	uint32_t n = 0, cap = 0;
	struct kemu_cache *v = NULL;

	for (uint32_t ct = 0; ct < p->n_caches; ct++) {
		const struct kemu_cache_info *ci = &p->caches[ct];
		uint32_t share = ci->num_cu_shared;
		uint32_t share_mask = share >= 32 ? 0xFFFFFFFFu : (1u << share) - 1;
		uint32_t cu_pid = g->simd_id_base;
		struct kemu_cache c;

		if (ci->level == 1) {
			for (uint32_t x = 0; x < g->num_xcc; x++)
			for (uint32_t se = 0; se < g->num_shader_engines; se++)
			for (uint32_t sh = 0; sh < g->simd_arrays_per_engine; sh++)
			for (uint32_t k = 0; k < g->cu_per_simd_array; k += share) {
				uint32_t m = (kemu_gpu_cu_mask(g, x, se, sh) >> k) & share_mask;
				int first = __builtin_ffs((int)m);

				if (first) {
					cache_start(&c, ci, cu_pid + (uint32_t)first - 1);
					sibling_put(&c, m >> (first - 1));
					if (cache_emit(&v, &n, &cap, &c) < 0)
						goto err_free;
				}
				cu_pid += k + share <= g->cu_per_simd_array ? share
									     : g->cu_per_simd_array - k;
			}
			continue;
		}
		/* fill_in_l2_l3_pcache: one entry; the sibling map starts
		 * with the first array's mask and then walks every array. */
		uint32_t m = kemu_gpu_cu_mask(g, 0, 0, 0) & share_mask;
		int first = __builtin_ffs((int)m);
		if (!first)
			continue;
		cache_start(&c, ci, cu_pid + (uint32_t)first - 1);
		m >>= first - 1;
		for (uint32_t x = 0; x < g->num_xcc; x++)
			for (uint32_t se = 0; se < g->num_shader_engines; se++)
				for (uint32_t sh = 0; sh < g->simd_arrays_per_engine; sh++) {
					sibling_put(&c, m);
					m = kemu_gpu_cu_mask(g, x, se, sh) & share_mask;
				}
		if (cache_emit(&v, &n, &cap, &c) < 0)
			goto err_free;
	}
	*out = v;
	return (int)n;

err_free:
	free(v);
	return -ENOMEM;
}

/* ---- the sysfs writer --------------------------------------------------- */

struct kemu_text {
	char b[16384];
	size_t off;
	bool overflow;
};

__attribute__((format(printf, 2, 3)))
static void text_put(struct kemu_text *t, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (t->overflow)
		return;
	va_start(ap, fmt);
	r = vsnprintf(t->b + t->off, sizeof(t->b) - t->off, fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= sizeof(t->b) - t->off)
		t->overflow = true;
	else
		t->off += (size_t)r;
}

/* sysfs_show_32bit_prop / sysfs_show_64bit_prop: "%s %u\n", "%s %llu\n" */
static void prop32(struct kemu_text *t, const char *key, uint32_t v)
{
	text_put(t, "%s %u\n", key, v);
}

static void prop64(struct kemu_text *t, const char *key, uint64_t v)
{
	text_put(t, "%s %llu\n", key, (unsigned long long)v);
}

static int path_join(char *dst, size_t n, const char *dir, const char *rel)
{
	int r = snprintf(dst, n, "%s/%s", dir, rel);
	return r < 0 || (size_t)r >= n ? -ENAMETOOLONG : 0;
}

/* mkdir -p of path, whose first base_len bytes name an existing directory:
 * tries the deepest directory first and walks up only on ENOENT, so an
 * existing parent costs one call. */
static int mkdir_p(char *path, size_t base_len)
{
	if (mkdir(path, 0755) == 0 || errno == EEXIST)
		return 0;
	if (errno != ENOENT)
		return -errno;
	char *slash = strrchr(path, '/');
	if (!slash || (size_t)(slash - path) <= base_len)
		return -ENOENT;
	*slash = '\0';
	int r = mkdir_p(path, base_len);
	*slash = '/';
	if (r < 0)
		return r;
	return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -errno;
}

/* mkdir -p of dir/rel (dir itself exists). */
static int tree_mkdir(const char *dir, const char *rel)
{
	char path[PATH_MAX];
	int r = path_join(path, sizeof(path), dir, rel);
	return r < 0 ? r : mkdir_p(path, strlen(dir));
}

/* Writes dir/<rel> (rel from fmt), creating missing parents. */
__attribute__((format(printf, 4, 5)))
static int tree_write(const char *dir, const void *data, size_t len, const char *fmt, ...)
{
	char rel[PATH_MAX], path[PATH_MAX];
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= sizeof(rel))
		return -ENAMETOOLONG;
	if ((r = path_join(path, sizeof(path), dir, rel)) < 0)
		return r;
	FILE *f = fopen(path, "we");
	if (!f && errno == ENOENT) {
		char *slash = strrchr(path, '/');
		*slash = '\0';
		r = mkdir_p(path, strlen(dir));
		*slash = '/';
		if (r < 0)
			return r;
		f = fopen(path, "we");
	}
	if (!f)
		return -errno;
	size_t w = fwrite(data, 1, len, f);
	int err = ferror(f) || w != len ? -EIO : 0;
	if (fclose(f) != 0 && !err)
		err = -errno;
	return err;
}

static int tree_text(const char *dir, const struct kemu_text *t, const char *rel)
{
	if (t->overflow)
		return -EOVERFLOW;
	return tree_write(dir, t->b, t->off, "%s", rel);
}

/* A relative symlink dir/rel -> target, parents created. */
static int tree_symlink(const char *dir, const char *rel, const char *target)
{
	char path[PATH_MAX], parent[PATH_MAX];
	int r;

	snprintf(parent, sizeof(parent), "%s", rel);
	char *slash = strrchr(parent, '/');
	if (slash) {
		*slash = '\0';
		if ((r = tree_mkdir(dir, parent)) < 0)
			return r;
	}
	if ((r = path_join(path, sizeof(path), dir, rel)) < 0)
		return r;
	return symlink(target, path) < 0 ? -errno : 0;
}

static void write_link_props(struct kemu_text *t, const struct kemu_link *l)
{
	/* iolink_show order */
	prop32(t, "type", l->type);
	prop32(t, "version_major", 0);
	prop32(t, "version_minor", 0);
	prop32(t, "node_from", l->from);
	prop32(t, "node_to", l->to);
	prop32(t, "weight", l->weight);
	prop32(t, "min_latency", 0);
	prop32(t, "max_latency", 0);
	prop32(t, "min_bandwidth", l->min_bw);
	prop32(t, "max_bandwidth", l->max_bw);
	prop32(t, "recommended_transfer_size", 0);
	prop32(t, "recommended_sdma_engine_id_mask", l->sdma_mask);
	prop32(t, "flags", l->flags);
}

static int write_links(const char *dir, const char *node, const char *kind,
		       const struct kemu_link *l, uint32_t n)
{
	struct kemu_text *t = malloc(sizeof(*t));
	char rel[PATH_MAX];
	int r;

	if (!t)
		return -ENOMEM;
	snprintf(rel, sizeof(rel), "%s/%s", node, kind);
	r = tree_mkdir(dir, rel);
	for (uint32_t i = 0; i < n && r >= 0; i++) {
		t->off = 0;
		t->overflow = false;
		write_link_props(t, &l[i]);
		snprintf(rel, sizeof(rel), "%s/%s/%u/properties", node, kind, i);
		r = tree_text(dir, t, rel);
	}
	free(t);
	return r;
}

static int write_mem_bank(const char *dir, const char *node, uint32_t heap, uint64_t size,
			  uint32_t width, uint32_t clk)
{
	struct kemu_text t = { .off = 0 };
	char rel[PATH_MAX];

	/* mem_show order */
	prop32(&t, "heap_type", heap);
	prop64(&t, "size_in_bytes", size);
	prop32(&t, "flags", 0);
	prop32(&t, "width", width);
	prop32(&t, "mem_clk_max", clk);
	snprintf(rel, sizeof(rel), "%s/mem_banks/0/properties", node);
	return tree_text(dir, &t, rel);
}

/* cpufreq_quick_get_max(0) / 1000: the host's CPU max MHz, 0 without cpufreq. */
static uint32_t host_cpu_max_mhz(void)
{
	unsigned long khz = 0;
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "re");
	if (f) {
		if (fscanf(f, "%lu", &khz) != 1)
			khz = 0;
		fclose(f);
	}
	return (uint32_t)(khz / 1000);
}

/* kfd_numa_node_to_apic_id(0): the APIC id of the node's first CPU, from
 * /proc/cpuinfo; 0 where the host does not report one. */
static uint32_t host_first_apic_id(void)
{
	char line[256];
	unsigned int id = 0;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "apicid : %u", &id) == 1)
			break;
	fclose(f);
	return id;
}

/* node_show for both kinds of node; g == NULL for the CPU node. */
static void node_properties(struct kemu_text *t, const struct kemu_topology *topo,
			    const struct kemu_gpu *g, uint32_t caches, uint32_t io_links,
			    uint32_t p2p_links)
{
	prop32(t, "cpu_cores_count", g ? 0 : topo->cpu_cores);
	prop32(t, "simd_count", g ? g->simd_count : 0);
	prop32(t, "mem_banks_count", 1);
	prop32(t, "caches_count", caches);
	prop32(t, "io_links_count", io_links);
	prop32(t, "p2p_links_count", p2p_links);
	prop32(t, "cpu_core_id_base", g ? 0 : host_first_apic_id());
	prop32(t, "simd_id_base", g ? g->simd_id_base : 0);
	prop32(t, "max_waves_per_simd", g ? g->max_waves_per_simd : 0);
	prop32(t, "lds_size_in_kb", g ? g->lds_size_in_kb : 0);
	prop32(t, "gds_size_in_kb", 0);
	prop32(t, "num_gws", g ? g->num_gws : 0);
	prop32(t, "wave_front_size", g ? g->wave_front_size : 0);
	prop32(t, "array_count", g ? g->array_count : 0);
	prop32(t, "simd_arrays_per_engine", g ? g->simd_arrays_per_engine : 0);
	prop32(t, "cu_per_simd_array", g ? g->cu_per_simd_array : 0);
	prop32(t, "simd_per_cu", g ? g->simd_per_cu : 0);
	prop32(t, "max_slots_scratch_cu", g ? g->max_slots_scratch_cu : 0);
	prop32(t, "gfx_target_version", g ? g->gfx_target_version : 0);
	prop32(t, "vendor_id", g ? g->vendor_id : 0);
	prop32(t, "device_id", g ? g->device_id : 0);
	prop32(t, "location_id", g ? g->location_id : 0);
	prop32(t, "domain", g ? g->domain : 0);
	prop32(t, "drm_render_minor", g ? g->drm_render_minor : 0);
	prop64(t, "hive_id", g ? g->hive_id : 0);
	prop32(t, "num_sdma_engines", g ? g->num_sdma_engines : 0);
	prop32(t, "num_sdma_xgmi_engines", g ? g->num_sdma_xgmi_engines : 0);
	prop32(t, "num_sdma_queues_per_engine", g ? g->num_sdma_queues_per_engine : 0);
	prop32(t, "num_cp_queues", g ? g->num_cp_queues : 0);
	/* "Export the cwsr_size and ctl_stack_size to userspace" (Nov 2025,
	 * stable 6.12+): printed for every node, 0 on CPU nodes. */
	prop32(t, "cwsr_size", g ? g->cwsr_size : 0);
	prop32(t, "ctl_stack_size", g ? g->ctl_stack_size : 0);
	if (g) {
		prop32(t, "max_engine_clk_fcompute", g->max_engine_clk_fcompute);
		/* the kernel prints local_mem_size as 0; use mem_banks */
		prop64(t, "local_mem_size", 0);
		prop32(t, "fw_version", g->fw_version);
		prop32(t, "capability", g->capability);
		/* newer kernels (with per-SDMA-queue reset); ROCr 1.18's libhsakmt
		 * reads it, older ones skip unknown keys */
		prop32(t, "capability2", g->capability2);
		prop64(t, "debug_prop", g->debug_prop);
		prop32(t, "sdma_fw_version", g->sdma_fw_version);
		prop64(t, "unique_id", g->unique_id);
		prop32(t, "num_xcc", g->num_xcc);
	}
	prop32(t, "max_engine_clk_ccompute", host_cpu_max_mhz());
}

static int write_cpu_node(const char *dir, const struct kemu_topology *topo,
			  const struct kemu_preset *p)
{
	const char *node = "sys/devices/virtual/kfd/kfd/topology/nodes/0";
	struct kemu_link links[KEMU_MAX_LINKS];
	struct kemu_text *t = malloc(sizeof(*t));
	char rel[PATH_MAX];
	int r;

	if (!t)
		return -ENOMEM;
	/* The reverse of each large-BAR GPU's PCIe link (kfd_parse_subtype_iolink,
	 * BI_DIRECTIONAL); CPU->GPU over PCIe is non-coherent. */
	for (uint32_t i = 0; i < topo->n_gpus; i++) {
		struct kemu_link l = cpu_link(p, &topo->gpus[i]);
		links[i] = l;
		links[i].from = 0;
		links[i].to = topo->gpus[i].node_index;
		links[i].flags = HSA_IOLINK_FLAGS_ENABLED | HSA_IOLINK_FLAGS_NON_COHERENT;
	}
	t->off = 0;
	t->overflow = false;
	node_properties(t, topo, NULL, 0, topo->n_gpus, 0);
	snprintf(rel, sizeof(rel), "%s/properties", node);
	if ((r = tree_text(dir, t, rel)) < 0)
		goto out;
	snprintf(rel, sizeof(rel), "%s/gpu_id", node);
	if ((r = tree_write(dir, "0\n", 2, "%s", rel)) < 0)
		goto out;
	snprintf(rel, sizeof(rel), "%s/name", node);
	if ((r = tree_write(dir, "\n", 1, "%s", rel)) < 0) /* empty name, "%s\n" */
		goto out;
	/* kfd_fill_mem_info_for_cpu: the node's managed pages; width and
	 * clock come from DMI, which the emulated machine does not have. */
	if ((r = write_mem_bank(dir, node, HSA_MEM_HEAP_TYPE_SYSTEM, topo->system_memory, 0, 0)) < 0)
		goto out;
	snprintf(rel, sizeof(rel), "%s/caches", node); /* the VCRAT has no CPU caches */
	if ((r = tree_mkdir(dir, rel)) < 0)
		goto out;
	if ((r = write_links(dir, node, "io_links", links, topo->n_gpus)) < 0)
		goto out;
	if ((r = write_links(dir, node, "p2p_links", NULL, 0)) < 0)
		goto out;
	snprintf(rel, sizeof(rel), "%s/perf", node);
	r = tree_mkdir(dir, rel);
out:
	free(t);
	return r;
}

static int write_gpu_node(const char *dir, const struct kemu_topology *topo,
			  const struct kemu_preset *p, uint32_t i)
{
	const struct kemu_gpu *g = &topo->gpus[i];
	struct kemu_link io[KEMU_MAX_LINKS], p2p[KEMU_MAX_LINKS];
	uint32_t n_io = gpu_io_links(p, topo, i, io);
	uint32_t n_p2p = gpu_p2p_links(p, topo, i, p2p);
	struct kemu_cache *caches = NULL;
	struct kemu_text *t = malloc(sizeof(*t));
	char node[128], rel[PATH_MAX], idtext[16];
	int n_caches, r;

	if (!t)
		return -ENOMEM;
	n_caches = gpu_caches(p, g, &caches);
	if (n_caches < 0) {
		r = n_caches;
		goto out;
	}
	snprintf(node, sizeof(node), "sys/devices/virtual/kfd/kfd/topology/nodes/%u",
		 g->node_index);
	t->off = 0;
	t->overflow = false;
	node_properties(t, topo, g, (uint32_t)n_caches, n_io, n_p2p);
	snprintf(rel, sizeof(rel), "%s/properties", node);
	if ((r = tree_text(dir, t, rel)) < 0)
		goto out;
	int len = snprintf(idtext, sizeof(idtext), "%u\n", g->gpu_id);
	snprintf(rel, sizeof(rel), "%s/gpu_id", node);
	if ((r = tree_write(dir, idtext, (size_t)len, "%s", rel)) < 0)
		goto out;
	t->off = 0;
	text_put(t, "%s\n", g->asic_name);
	snprintf(rel, sizeof(rel), "%s/name", node);
	if ((r = tree_text(dir, t, rel)) < 0)
		goto out;
	/* Large BAR (all VRAM visible): one FB_PUBLIC bank. */
	if ((r = write_mem_bank(dir, node, HSA_MEM_HEAP_TYPE_FB_PUBLIC, g->vram_size,
				g->vram_width, g->vram_clk_max)) < 0)
		goto out;
	snprintf(rel, sizeof(rel), "%s/caches", node);
	if ((r = tree_mkdir(dir, rel)) < 0)
		goto out;
	for (int c = 0; c < n_caches; c++) {
		const struct kemu_cache *k = &caches[c];
		t->off = 0;
		t->overflow = false;
		/* kfd_cache_show order; sibling_map bits LSB first, comma separated */
		prop32(t, "processor_id_low", k->processor_id_low);
		prop32(t, "level", k->level);
		prop32(t, "size", k->size_kb);
		prop32(t, "cache_line_size", k->line_size);
		prop32(t, "cache_lines_per_tag", 0);
		prop32(t, "association", 0);
		prop32(t, "latency", 0);
		prop32(t, "type", k->type);
		text_put(t, "sibling_map ");
		for (uint32_t b = 0; b < k->sibling_bytes; b++)
			for (int bit = 0; bit < 8; bit++)
				text_put(t, "%d%s", (k->sibling[b] >> bit) & 1,
					 b + 1 == k->sibling_bytes && bit == 7 ? "\n" : ",");
		snprintf(rel, sizeof(rel), "%s/caches/%d/properties", node, c);
		if ((r = tree_text(dir, t, rel)) < 0)
			goto out;
	}
	if ((r = write_links(dir, node, "io_links", io, n_io)) < 0)
		goto out;
	if ((r = write_links(dir, node, "p2p_links", p2p, n_p2p)) < 0)
		goto out;
	snprintf(rel, sizeof(rel), "%s/perf", node);
	r = tree_mkdir(dir, rel);
out:
	free(caches);
	free(t);
	return r;
}

/* The amdgpu/PCI/DRM side: what libdrm's drmGetDevice and
 * amdgpu_device_initialize paths read for /dev/dri/renderD<minor>
 * (/sys/dev/char/226:<minor>/device/{uevent,subsystem,config,vendor,device,
 * subsystem_vendor,subsystem_device,revision,drm/}).  The PCI device sits
 * directly under pci0000:00 (root ports are not modelled). */
static int write_pci_device(const char *dir, const struct kemu_preset *p, const struct kemu_gpu *g)
{
	char pci[128], slot[32], rel[PATH_MAX], target[PATH_MAX], text[512];
	uint8_t config[256];
	int r, n;

	snprintf(slot, sizeof(slot), "%04x:%02x:00.0", g->domain, g->pci_bus);
	snprintf(pci, sizeof(pci), "sys/devices/pci%04x:00/%s", g->domain, slot);

	const struct { const char *file; uint32_t v; const char *fmt; } hex[] = {
		{ "vendor", g->vendor_id, "0x%04x\n" },
		{ "device", g->device_id, "0x%04x\n" },
		{ "subsystem_vendor", g->subsystem_vendor_id, "0x%04x\n" },
		{ "subsystem_device", g->subsystem_device_id, "0x%04x\n" },
		{ "revision", g->revision_id, "0x%02x\n" },
		{ "class", p->pci_class, "0x%06x\n" },
	};
	for (size_t i = 0; i < sizeof(hex) / sizeof(hex[0]); i++) {
		n = snprintf(text, sizeof(text), hex[i].fmt, hex[i].v);
		if ((r = tree_write(dir, text, (size_t)n, "%s/%s", pci, hex[i].file)) < 0)
			return r;
	}
	if ((r = tree_write(dir, "-1\n", 3, "%s/numa_node", pci)) < 0)
		return r;
	n = snprintf(text, sizeof(text),
		     "DRIVER=amdgpu\nPCI_CLASS=%X\nPCI_ID=%04X:%04X\nPCI_SUBSYS_ID=%04X:%04X\n"
		     "PCI_SLOT_NAME=%s\nMODALIAS=pci:v%08Xd%08Xsv%08Xsd%08Xbc%02Xsc%02Xi%02X\n",
		     p->pci_class, g->vendor_id, g->device_id, g->subsystem_vendor_id,
		     g->subsystem_device_id, slot, g->vendor_id, g->device_id,
		     g->subsystem_vendor_id, g->subsystem_device_id, (p->pci_class >> 16) & 0xFF,
		     (p->pci_class >> 8) & 0xFF, p->pci_class & 0xFF);
	if ((r = tree_write(dir, text, (size_t)n, "%s/uevent", pci)) < 0)
		return r;
	/* Type 0 configuration header (libdrm falls back to it for the ids). */
	memset(config, 0, sizeof(config));
	config[0x00] = (uint8_t)g->vendor_id;
	config[0x01] = (uint8_t)(g->vendor_id >> 8);
	config[0x02] = (uint8_t)g->device_id;
	config[0x03] = (uint8_t)(g->device_id >> 8);
	config[0x04] = 0x07; /* I/O, memory, bus master */
	config[0x08] = (uint8_t)g->revision_id;
	config[0x09] = (uint8_t)p->pci_class;
	config[0x0A] = (uint8_t)(p->pci_class >> 8);
	config[0x0B] = (uint8_t)(p->pci_class >> 16);
	config[0x2C] = (uint8_t)g->subsystem_vendor_id;
	config[0x2D] = (uint8_t)(g->subsystem_vendor_id >> 8);
	config[0x2E] = (uint8_t)g->subsystem_device_id;
	config[0x2F] = (uint8_t)(g->subsystem_device_id >> 8);
	if ((r = tree_write(dir, config, sizeof(config), "%s/config", pci)) < 0)
		return r;
	snprintf(rel, sizeof(rel), "%s/subsystem", pci);
	if ((r = tree_symlink(dir, rel, "../../../bus/pci")) < 0)
		return r;
	snprintf(rel, sizeof(rel), "%s/driver", pci);
	if ((r = tree_symlink(dir, rel, "../../../bus/pci/drivers/amdgpu")) < 0)
		return r;
	snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s", slot);
	snprintf(target, sizeof(target), "../../../%s", pci + 4);
	if ((r = tree_symlink(dir, rel, target)) < 0)
		return r;
	snprintf(rel, sizeof(rel), "sys/bus/pci/drivers/amdgpu/%s", slot);
	snprintf(target, sizeof(target), "../../../../%s", pci + 4);
	if ((r = tree_symlink(dir, rel, target)) < 0)
		return r;

	/* DRM minors: card<i> (primary, minor i) and renderD<128+i>. */
	const struct { const char *prefix; uint32_t minor; } minors[] = {
		{ "card", g->drm_render_minor - 128 },
		{ "renderD", g->drm_render_minor },
	};
	for (size_t m = 0; m < 2; m++) {
		char name[32];
		snprintf(name, sizeof(name), "%s%u", minors[m].prefix, minors[m].minor);
		n = snprintf(text, sizeof(text), "226:%u\n", minors[m].minor);
		if ((r = tree_write(dir, text, (size_t)n, "%s/drm/%s/dev", pci, name)) < 0)
			return r;
		n = snprintf(text, sizeof(text), "MAJOR=226\nMINOR=%u\nDEVNAME=dri/%s\nDEVTYPE=drm_minor\n",
			     minors[m].minor, name);
		if ((r = tree_write(dir, text, (size_t)n, "%s/drm/%s/uevent", pci, name)) < 0)
			return r;
		snprintf(rel, sizeof(rel), "%s/drm/%s/device", pci, name);
		snprintf(target, sizeof(target), "../../../%s", slot);
		if ((r = tree_symlink(dir, rel, target)) < 0)
			return r;
		snprintf(rel, sizeof(rel), "%s/drm/%s/subsystem", pci, name);
		if ((r = tree_symlink(dir, rel, "../../../../../class/drm")) < 0)
			return r;
		snprintf(rel, sizeof(rel), "sys/class/drm/%s", name);
		snprintf(target, sizeof(target), "../../%s/drm/%s", pci + 4, name);
		if ((r = tree_symlink(dir, rel, target)) < 0)
			return r;
		snprintf(rel, sizeof(rel), "sys/dev/char/226:%u", minors[m].minor);
		if ((r = tree_symlink(dir, rel, target)) < 0)
			return r;
	}
	return 0;
}

/* ---- the host CPU's cacheinfo (see cpu_cache.h) ------------------------ */

/* The n of a "<prefix>n" directory entry name, or -1. */
static long numbered_entry(const char *name, const char *prefix)
{
	size_t len = strlen(prefix);
	if (strncmp(name, prefix, len) || !isdigit((unsigned char)name[len]))
		return -1;
	char *end;
	long v = strtol(name + len, &end, 10);
	return *end ? -1 : v;
}

/* cpumap_print_to_pagebuf(false, ...): nbits bits as hex, most significant
 * first, a comma between 32-bit groups. */
static void cpu_map_text(char *buf, size_t len, uint32_t nbits, uint32_t first, uint32_t last)
{
	uint32_t digits = (nbits + 3) / 4;
	size_t o = 0;
	for (uint32_t d = digits; d-- > 0 && o + 2 < len;) {
		uint32_t nib = 0;
		for (uint32_t b = 0; b < 4; b++) {
			uint32_t cpu = d * 4 + b;
			if (cpu >= first && cpu <= last)
				nib |= 1u << b;
		}
		buf[o++] = "0123456789abcdef"[nib];
		if (d && d % 8 == 0)
			buf[o++] = ',';
	}
	buf[o++] = '\n';
	buf[o] = '\0';
}

static int write_cache_index(const char *dir, long cpu, uint32_t idx,
			     const struct kemu_cpu_cache *c, uint32_t nbits)
{
	char base[64], text[320];
	int r, n;
	snprintf(base, sizeof(base), "sys/devices/system/cpu/cpu%ld/cache/index%u", cpu, idx);
	uint32_t first = (uint32_t)cpu - (uint32_t)cpu % c->sharing;
	uint32_t last = first + c->sharing - 1 < nbits - 1 ? first + c->sharing - 1 : nbits - 1;
	const struct {
		const char *name;
		uint32_t value;
	} nums[] = {
		{ "level", c->level },
		{ "coherency_line_size", c->line_size },
		{ "ways_of_associativity", c->ways },
		{ "physical_line_partition", c->partitions },
		{ "number_of_sets", c->sets },
	};
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		n = snprintf(text, sizeof(text), "%u\n", nums[i].value);
		if ((r = tree_write(dir, text, (size_t)n, "%s/%s", base, nums[i].name)) < 0)
			return r;
	}
	n = snprintf(text, sizeof(text), "%s\n", kemu_cpu_cache_type_name(c->type));
	if ((r = tree_write(dir, text, (size_t)n, "%s/type", base)) < 0)
		return r;
	n = snprintf(text, sizeof(text), "%uK\n", c->size_kib);
	if ((r = tree_write(dir, text, (size_t)n, "%s/size", base)) < 0)
		return r;
	n = first == last ? snprintf(text, sizeof(text), "%u\n", first)
			  : snprintf(text, sizeof(text), "%u-%u\n", first, last);
	if ((r = tree_write(dir, text, (size_t)n, "%s/shared_cpu_list", base)) < 0)
		return r;
	cpu_map_text(text, sizeof(text), nbits, first, last);
	return tree_write(dir, text, strlen(text), "%s/shared_cpu_map", base);
}

/* /sys/devices/system/cpu/cpuN/cache for each CPU the host lists, and the
 * node/nodeX/cpuN links to them, when the host kernel shows no cacheinfo
 * at all (a machine with an AMD GPU has one; libhsakmt needs it).  The
 * shim serves a path from the tree only where the tree has it, so these
 * files add to the host's sysfs; a directory listing of
 * /sys/devices/system/{cpu,node/nodeX} shows the tree's entries (the CPUs)
 * only.  Sharing is counted on logical CPU numbers. */
static int write_cpu_cacheinfo(const char *dir)
{
	long cpus[1024];
	uint32_t n_cpus = 0, nbits = 0;
	DIR *d = opendir("/sys/devices/system/cpu");
	if (!d)
		return 0;
	struct dirent *e;
	bool host_has_cache = false;
	while ((e = readdir(d)) != NULL) {
		long cpu = numbered_entry(e->d_name, "cpu");
		if (cpu < 0 || n_cpus == sizeof(cpus) / sizeof(cpus[0]))
			continue;
		char path[PATH_MAX];
		struct stat st;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s/cache", e->d_name);
		if (stat(path, &st) == 0)
			host_has_cache = true;
		cpus[n_cpus++] = cpu;
		if ((uint32_t)cpu + 1 > nbits)
			nbits = (uint32_t)cpu + 1;
	}
	closedir(d);
	if (host_has_cache || n_cpus == 0)
		return 0;

	struct kemu_cpu_cache caches[KEMU_CPU_CACHES_MAX];
	uint32_t n = kemu_cpu_caches(kemu_host_cpuid, nbits, caches, KEMU_CPU_CACHES_MAX);
	for (uint32_t i = 0; i < n_cpus; i++)
		for (uint32_t c = 0; c < n; c++) {
			int r = write_cache_index(dir, cpus[i], c, &caches[c], nbits);
			if (r < 0)
				return r;
		}
	if (n == 0 || !(d = opendir("/sys/devices/system/node")))
		return 0;
	int r = 0;
	while (r == 0 && (e = readdir(d)) != NULL) {
		long node = numbered_entry(e->d_name, "node");
		if (node < 0)
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%ld", node);
		DIR *nd = opendir(path);
		if (!nd)
			continue;
		struct dirent *ne;
		while (r == 0 && (ne = readdir(nd)) != NULL) {
			long cpu = numbered_entry(ne->d_name, "cpu");
			if (cpu < 0)
				continue;
			char rel[96], target[64];
			snprintf(rel, sizeof(rel), "sys/devices/system/node/node%ld/cpu%ld", node, cpu);
			snprintf(target, sizeof(target), "../../cpu/cpu%ld", cpu);
			r = tree_symlink(dir, rel, target);
		}
		closedir(nd);
	}
	closedir(d);
	return r;
}

static int write_tree(struct kemu_topology *t, const struct kemu_preset *p)
{
	const char *dir = t->dir;
	char text[256];
	int r, n;

	/* generation_count: once for the CPU VCRAT, once per GPU added. */
	n = snprintf(text, sizeof(text), "%u\n", t->n_gpus + 1);
	if ((r = tree_write(dir, text, (size_t)n, "sys/devices/virtual/kfd/kfd/topology/generation_id")) < 0)
		return r;
	/* sysprops_show: OEM ids of the last CPU node's CRAT header, taken
	 * from the DSDT; the emulated platform's OEM is "KFDEMU"/"KEMUTOPO". */
	uint64_t oem_id = 0, oem_table = 0;
	memcpy(&oem_id, "KFDEMU", 6);
	memcpy(&oem_table, "KEMUTOPO", 8);
	n = snprintf(text, sizeof(text), "platform_oem %llu\nplatform_id %llu\nplatform_rev %u\n",
		     (unsigned long long)oem_table, (unsigned long long)oem_id, 1u);
	if ((r = tree_write(dir, text, (size_t)n, "sys/devices/virtual/kfd/kfd/topology/system_properties")) < 0)
		return r;
	if ((r = write_cpu_node(dir, t, p)) < 0)
		return r;
	for (uint32_t i = 0; i < t->n_gpus; i++) {
		if ((r = write_gpu_node(dir, t, p, i)) < 0)
			return r;
		if ((r = write_pci_device(dir, p, &t->gpus[i])) < 0)
			return r;
	}
	/* /sys/class/kfd/kfd is a link to the virtual device, as on Linux. */
	if ((r = tree_symlink(dir, "sys/class/kfd/kfd", "../../devices/virtual/kfd/kfd")) < 0)
		return r;
	if ((r = write_cpu_cacheinfo(dir)) < 0)
		return r;
	/* amdgpu is built in-tree without MODULE_VERSION: no "version" file. */
	return tree_write(dir, "live\n", 5, "sys/module/amdgpu/initstate");
}

int kemu_topology_create(const char *preset, uint32_t n_gpus, bool write_tree_flag,
			 struct kemu_topology *out)
{
	const struct kemu_preset *p;
	uint32_t processor_id = KEMU_GPU_PROCESSOR_ID_BASE;
	int r;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!preset || !(p = preset_find(preset)) || n_gpus < 1 || n_gpus > KEMU_MAX_GPUS)
		return -EINVAL;
	snprintf(out->preset, sizeof(out->preset), "%s", p->name);
	out->n_gpus = n_gpus;
	out->cpu_cores = (uint32_t)get_nprocs();
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	out->system_memory = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 0;
	for (uint32_t i = 0; i < n_gpus; i++)
		gpu_fill(p, out, i, &processor_id);
	if (!write_tree_flag)
		return 0;

	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (snprintf(out->dir, sizeof(out->dir), "%s/kfdemu-topo-XXXXXX", tmp) >= (int)sizeof(out->dir)) {
		out->dir[0] = '\0';
		return -ENAMETOOLONG;
	}
	if (!mkdtemp(out->dir)) { /* mode 0700 */
		r = -errno;
		out->dir[0] = '\0';
		return r;
	}
	r = write_tree(out, p);
	if (r < 0)
		kemu_topology_destroy(out);
	return r;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

void kemu_topology_destroy(struct kemu_topology *topo)
{
	if (!topo || !topo->dir[0])
		return;
	/* depth first, without following the tree's own symlinks */
	nftw(topo->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	topo->dir[0] = '\0';
}
