/*
 * ISAs and wavefronts.  An ISA is an AMDGPU target ID,
 * "amdgcn-amd-amdhsa--<processor>[:sramecc±][:xnack±]": the processor from
 * the GPU's gfx version, then each target feature the processor supports,
 * in alphabetical order, when it is fixed (a feature left out means "any",
 * which only code objects use).  A GPU agent's ISA has every supported
 * feature fixed: sramecc from the SRAM EDC capability bit, xnack from the
 * kernel's XNACK mode; so an MI210 is gfx90a:sramecc+:xnack- as on ROCr.
 *
 * Handles are encodings, not pointers: HL_ISA_TAG | processor index << 8 |
 * sramecc << 2 | xnack.  Decoding validates every field, so a stale or
 * forged handle is rejected without any lookup table in memory.  The
 * attribute values are ROCr's (core/runtime/isa.cpp), identical for every
 * target: 1024-wide workgroups, UINT32_MAX grids, 32 fbarriers.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runtime/runtime.h"
#include "runtime/runtime_priv.h"

#define HL_ISA_TAG       0x4853414900000000ull /* "HSAI" */
#define HL_WAVEFRONT_TAG 0x4853415700000000ull /* "HSAW" */
#define HL_TAG_MASK      0xFFFFFFFF00000000ull
#define ISA_PREFIX "amdgcn-amd-amdhsa--"

struct isa_processor {
	const char *name;
	uint8_t major, minor, stepping;
	bool sramecc, xnack; /* target features the processor supports */
};

/* The processors ROCr's IsaRegistry knows, plus the gfx94x/gfx95x and RDNA
 * parts newer ROCr added (LLVM AMDGPUUsage "Processors" table). */
static const struct isa_processor processors[] = {
	{ "gfx700", 7, 0, 0, false, false },  { "gfx701", 7, 0, 1, false, false },
	{ "gfx702", 7, 0, 2, false, false },  { "gfx801", 8, 0, 1, false, true },
	{ "gfx802", 8, 0, 2, false, false },  { "gfx803", 8, 0, 3, false, false },
	{ "gfx805", 8, 0, 5, false, false },  { "gfx810", 8, 1, 0, false, true },
	{ "gfx900", 9, 0, 0, false, true },   { "gfx902", 9, 0, 2, false, true },
	{ "gfx904", 9, 0, 4, false, true },   { "gfx906", 9, 0, 6, true, true },
	{ "gfx908", 9, 0, 8, true, true },    { "gfx909", 9, 0, 9, false, true },
	{ "gfx90a", 9, 0, 10, true, true },   { "gfx90c", 9, 0, 12, false, true },
	{ "gfx940", 9, 4, 0, true, true },    { "gfx941", 9, 4, 1, true, true },
	{ "gfx942", 9, 4, 2, true, true },    { "gfx950", 9, 5, 0, true, true },
	{ "gfx1010", 10, 1, 0, false, true }, { "gfx1011", 10, 1, 1, false, true },
	{ "gfx1012", 10, 1, 2, false, true }, { "gfx1013", 10, 1, 3, false, true },
	{ "gfx1030", 10, 3, 0, false, false }, { "gfx1031", 10, 3, 1, false, false },
	{ "gfx1032", 10, 3, 2, false, false }, { "gfx1033", 10, 3, 3, false, false },
	{ "gfx1034", 10, 3, 4, false, false }, { "gfx1035", 10, 3, 5, false, false },
	{ "gfx1036", 10, 3, 6, false, false }, { "gfx1100", 11, 0, 0, false, false },
	{ "gfx1101", 11, 0, 1, false, false }, { "gfx1102", 11, 0, 2, false, false },
	{ "gfx1103", 11, 0, 3, false, false }, { "gfx1150", 11, 5, 0, false, false },
	{ "gfx1151", 11, 5, 1, false, false }, { "gfx1152", 11, 5, 2, false, false },
	{ "gfx1200", 12, 0, 0, false, false }, { "gfx1201", 12, 0, 1, false, false },
};
#define N_PROCESSORS (sizeof(processors) / sizeof(processors[0]))

struct isa_decoded {
	const struct isa_processor *proc;
	enum hl_feature sramecc, xnack;
};

static uint64_t isa_encode(uint32_t proc, enum hl_feature sramecc, enum hl_feature xnack)
{
	return HL_ISA_TAG | (uint64_t)(proc + 1) << 8 | (uint64_t)sramecc << 2 | (uint64_t)xnack;
}

/* Validates and decodes an ISA (or, with tag, a wavefront) handle. */
static bool isa_decode(uint64_t handle, uint64_t tag, struct isa_decoded *out)
{
	if ((handle & HL_TAG_MASK) != tag || (handle & 0xFFFF0000ull) != 0)
		return false;
	uint32_t proc = (uint32_t)(handle >> 8) & 0xFF;
	uint32_t sramecc = (handle >> 2) & 3, xnack = handle & 3, rest = (handle >> 4) & 0xF;
	if (proc == 0 || proc > N_PROCESSORS || sramecc > HL_FEATURE_ON || xnack > HL_FEATURE_ON ||
	    rest != 0)
		return false;
	out->proc = &processors[proc - 1];
	out->sramecc = (enum hl_feature)sramecc;
	out->xnack = (enum hl_feature)xnack;
	if ((!out->proc->sramecc && out->sramecc != HL_FEATURE_ANY) ||
	    (!out->proc->xnack && out->xnack != HL_FEATURE_ANY))
		return false;
	return true;
}

static size_t isa_name(const struct isa_decoded *d, char *buf, size_t len)
{
	int n = snprintf(buf, len, ISA_PREFIX "%s%s%s", d->proc->name,
			 d->sramecc == HL_FEATURE_ANY ? "" :
			 d->sramecc == HL_FEATURE_ON ? ":sramecc+" : ":sramecc-",
			 d->xnack == HL_FEATURE_ANY ? "" :
			 d->xnack == HL_FEATURE_ON ? ":xnack+" : ":xnack-");
	return (size_t)n;
}

int hl_isa_for_gpu(uint32_t major, uint32_t minor, uint32_t stepping,
		   enum hl_feature sramecc, enum hl_feature xnack, hsa_isa_t *out)
{
	for (uint32_t i = 0; i < N_PROCESSORS; i++) {
		const struct isa_processor *p = &processors[i];
		if (p->major != major || p->minor != minor || p->stepping != stepping)
			continue;
		out->handle = isa_encode(i, p->sramecc ? sramecc : HL_FEATURE_ANY,
					 p->xnack ? xnack : HL_FEATURE_ANY);
		return 0;
	}
	return -ENOENT;
}

const char *hl_isa_processor(hsa_isa_t isa)
{
	struct isa_decoded d;
	return isa_decode(isa.handle, HL_ISA_TAG, &d) ? d.proc->name : NULL;
}

bool hl_isa_supports_xnack(hsa_isa_t isa)
{
	struct isa_decoded d;
	return isa_decode(isa.handle, HL_ISA_TAG, &d) && d.proc->xnack;
}

bool hl_isa_supports_sramecc(hsa_isa_t isa)
{
	struct isa_decoded d;
	return isa_decode(isa.handle, HL_ISA_TAG, &d) && d.proc->sramecc;
}

/* ":sramecc+" etc. at *p; advances past it. */
static bool parse_feature(const char **p, const char *feature, enum hl_feature *out)
{
	size_t len = strlen(feature);
	if ((*p)[0] != ':' || strncmp(*p + 1, feature, len) != 0)
		return false;
	char sign = (*p)[1 + len];
	if (sign != '+' && sign != '-')
		return false;
	*out = sign == '+' ? HL_FEATURE_ON : HL_FEATURE_OFF;
	*p += 2 + len;
	return true;
}

hsa_status_t hsa_isa_from_name(const char *name, hsa_isa_t *isa)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!name || !isa)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	size_t plen = strlen(ISA_PREFIX);
	if (strncmp(name, ISA_PREFIX, plen) != 0)
		return HSA_STATUS_ERROR_INVALID_ISA_NAME;
	const char *p = name + plen;
	size_t proc_len = strcspn(p, ":");
	for (uint32_t i = 0; i < N_PROCESSORS; i++) {
		const struct isa_processor *proc = &processors[i];
		if (strlen(proc->name) != proc_len || strncmp(proc->name, p, proc_len) != 0)
			continue;
		const char *f = p + proc_len;
		enum hl_feature sramecc = HL_FEATURE_ANY, xnack = HL_FEATURE_ANY;
		/* Target ID features come in alphabetical order, each at most once. */
		if (proc->sramecc)
			parse_feature(&f, "sramecc", &sramecc);
		if (proc->xnack)
			parse_feature(&f, "xnack", &xnack);
		if (*f != '\0')
			return HSA_STATUS_ERROR_INVALID_ISA_NAME;
		isa->handle = isa_encode(i, sramecc, xnack);
		return HSA_STATUS_SUCCESS;
	}
	return HSA_STATUS_ERROR_INVALID_ISA_NAME;
}

hsa_status_t hsa_agent_iterate_isas(hsa_agent_t agent,
				    hsa_status_t (*callback)(hsa_isa_t isa, void *data), void *data)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!callback)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	/* A CPU agent has no ISA the runtime can load code for (ROCr's CPU
	 * agent lists none). */
	if (a->type != HSA_DEVICE_TYPE_GPU)
		return HSA_STATUS_SUCCESS;
	return callback(a->isa, data);
}

/* hsa_isa_get_info's answers, one getter each (info.c copies them out);
 * the values are ROCr 5.2.3's (isa.cpp) but for the grid dimensions
 * (ROCr 1.18's, HL_GRID_MAX_DIM). */
HL_INFO_GETTER(isa_name_length, struct isa_decoded, uint32_t,
	       (uint32_t)isa_name(q, NULL, 0) + 1)

/* Its own length (size 0): written to the caller's value. */
static hsa_status_t isa_name_string(const void *o, void *value)
{
	char name[96];
	size_t n = isa_name(o, name, sizeof(name));
	memcpy(value, name, n + 1);
	return HSA_STATUS_SUCCESS;
}

HL_INFO_GETTER(isa_one, struct isa_decoded, uint32_t, 1) /* one call convention */
HL_INFO_GETTER(isa_wave64, struct isa_decoded, uint32_t, 64)
HL_INFO_GETTER(isa_waves_per_cu, struct isa_decoded, uint32_t, 40)

static hsa_status_t isa_machine_models(const void *o, void *out)
{
	(void)o;
	const bool models[2] = { false, true }; /* small, large */
	memcpy(out, models, sizeof(models));
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t isa_profiles(const void *o, void *out)
{
	/* Full profile only on the APUs ROCr lists (Kaveri, Carrizo). */
	const struct isa_processor *p = ((const struct isa_decoded *)o)->proc;
	bool profiles[2] = { true, false };
	profiles[1] = (p->major == 7 && p->minor == 0 && p->stepping == 0) ||
		      (p->major == 8 && p->minor == 0 && p->stepping == 1);
	memcpy(out, profiles, sizeof(profiles));
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t isa_rounding_modes(const void *o, void *out)
{
	(void)o;
	const bool modes[3] = { false, false, true }; /* default, zero, near */
	memcpy(out, modes, sizeof(modes));
	return HSA_STATUS_SUCCESS;
}

HL_INFO_GETTER(isa_fast_f16, struct isa_decoded, bool, q->proc->major >= 8)

static hsa_status_t isa_workgroup_dim(const void *o, void *out)
{
	(void)o;
	const uint16_t dim[3] = { 1024, 1024, 1024 };
	memcpy(out, dim, sizeof(dim));
	return HSA_STATUS_SUCCESS;
}

HL_INFO_GETTER(isa_workgroup_size, struct isa_decoded, uint32_t, 1024)

HL_INFO_GETTER(isa_grid_dim, struct isa_decoded, hsa_dim3_t, HL_GRID_MAX_DIM)

HL_INFO_GETTER(isa_grid_size, struct isa_decoded, uint64_t, UINT64_MAX)
HL_INFO_GETTER(isa_fbarrier, struct isa_decoded, uint32_t, 32)

static const struct hl_info_attr isa_info_table[] = {
	{ HSA_ISA_INFO_NAME_LENGTH, sizeof(uint32_t), isa_name_length },
	{ HSA_ISA_INFO_NAME, 0, isa_name_string },
	{ HSA_ISA_INFO_CALL_CONVENTION_COUNT, sizeof(uint32_t), isa_one },
	{ HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE, sizeof(uint32_t), isa_wave64 },
	{ HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT, sizeof(uint32_t),
	  isa_waves_per_cu },
	{ HSA_ISA_INFO_MACHINE_MODELS, 2 * sizeof(bool), isa_machine_models },
	{ HSA_ISA_INFO_PROFILES, 2 * sizeof(bool), isa_profiles },
	{ HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES, 3 * sizeof(bool), isa_rounding_modes },
	{ HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES, 3 * sizeof(bool),
	  isa_rounding_modes },
	{ HSA_ISA_INFO_FAST_F16_OPERATION, sizeof(bool), isa_fast_f16 },
	{ HSA_ISA_INFO_WORKGROUP_MAX_DIM, 3 * sizeof(uint16_t), isa_workgroup_dim },
	{ HSA_ISA_INFO_WORKGROUP_MAX_SIZE, sizeof(uint32_t), isa_workgroup_size },
	{ HSA_ISA_INFO_GRID_MAX_DIM, sizeof(hsa_dim3_t), isa_grid_dim },
	{ HSA_ISA_INFO_GRID_MAX_SIZE, sizeof(uint64_t), isa_grid_size },
	{ HSA_ISA_INFO_FBARRIER_MAX_SIZE, sizeof(uint32_t), isa_fbarrier },
};

static hsa_status_t isa_info(const struct isa_decoded *d, hsa_isa_info_t attribute, void *value)
{
	bool found;
	return hl_info_answer(isa_info_table, HL_INFO_COUNT(isa_info_table), (uint32_t)attribute,
			      d, value, &found);
}

hsa_status_t hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void *value)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct isa_decoded d;
	if (!isa_decode(isa.handle, HL_ISA_TAG, &d))
		return HSA_STATUS_ERROR_INVALID_ISA;
	return isa_info(&d, attribute, value);
}

hsa_status_t hsa_isa_get_info(hsa_isa_t isa, hsa_isa_info_t attribute, uint32_t index,
			      void *value)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct isa_decoded d;
	if (!isa_decode(isa.handle, HL_ISA_TAG, &d))
		return HSA_STATUS_ERROR_INVALID_ISA;
	/* One call convention per ISA: index selects it. */
	if (index != 0)
		return HSA_STATUS_ERROR_INVALID_INDEX;
	return isa_info(&d, attribute, value);
}

static bool feature_compatible(enum hl_feature code_object, enum hl_feature agent)
{
	return code_object == HL_FEATURE_ANY || agent == HL_FEATURE_ANY || code_object == agent;
}

hsa_status_t hsa_isa_compatible(hsa_isa_t code_object_isa, hsa_isa_t agent_isa, bool *result)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!result)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct isa_decoded co, ag;
	if (!isa_decode(code_object_isa.handle, HL_ISA_TAG, &co) ||
	    !isa_decode(agent_isa.handle, HL_ISA_TAG, &ag))
		return HSA_STATUS_ERROR_INVALID_ISA;
	*result = co.proc == ag.proc && feature_compatible(co.sramecc, ag.sramecc) &&
		  feature_compatible(co.xnack, ag.xnack);
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_isa_iterate_wavefronts(hsa_isa_t isa,
					hsa_status_t (*callback)(hsa_wavefront_t wavefront, void *data),
					void *data)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!callback)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct isa_decoded d;
	if (!isa_decode(isa.handle, HL_ISA_TAG, &d))
		return HSA_STATUS_ERROR_INVALID_ISA;
	/* One wavefront per ISA, as ROCr: wave64, which every AMDGPU target
	 * runs (gfx10+ also runs wave32, chosen per kernel by the compiler). */
	hsa_wavefront_t w = { (isa.handle & ~HL_TAG_MASK) | HL_WAVEFRONT_TAG };
	return callback(w, data);
}

hsa_status_t hsa_wavefront_get_info(hsa_wavefront_t wavefront, hsa_wavefront_info_t attribute,
				    void *value)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct isa_decoded d;
	if (!isa_decode(wavefront.handle, HL_WAVEFRONT_TAG, &d))
		return HSA_STATUS_ERROR_INVALID_WAVEFRONT;
	if (attribute != HSA_WAVEFRONT_INFO_SIZE)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	*(uint32_t *)value = 64;
	return HSA_STATUS_SUCCESS;
}

static bool profile_valid(hsa_profile_t profile)
{
	return profile == HSA_PROFILE_BASE || profile == HSA_PROFILE_FULL;
}

hsa_status_t hsa_isa_get_exception_policies(hsa_isa_t isa, hsa_profile_t profile, uint16_t *mask)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!mask || !profile_valid(profile))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct isa_decoded d;
	if (!isa_decode(isa.handle, HL_ISA_TAG, &d))
		return HSA_STATUS_ERROR_INVALID_ISA;
	/* AMDGPU kernels neither break nor record on floating-point exceptions
	 * (the IEEE exception enables in COMPUTE_PGM_RSRC2 are left off by
	 * every compiler), so no policy is supported; ROCr reports 0 too. */
	*mask = 0;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_get_exception_policies(hsa_agent_t agent, hsa_profile_t profile,
					      uint16_t *mask)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!mask || !profile_valid(profile))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!hl_agent_lookup(rt, agent))
		return HSA_STATUS_ERROR_INVALID_AGENT;
	*mask = 0; /* see hsa_isa_get_exception_policies */
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_isa_get_round_method(hsa_isa_t isa, hsa_fp_type_t fp_type,
				      hsa_flush_mode_t flush_mode, hsa_round_method_t *round_method)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!round_method ||
	    (fp_type != HSA_FP_TYPE_16 && fp_type != HSA_FP_TYPE_32 && fp_type != HSA_FP_TYPE_64) ||
	    (flush_mode != HSA_FLUSH_MODE_FTZ && flush_mode != HSA_FLUSH_MODE_NON_FTZ))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct isa_decoded d;
	if (!isa_decode(isa.handle, HL_ISA_TAG, &d))
		return HSA_STATUS_ERROR_INVALID_ISA;
	/* Fused multiply-add rounds once on every AMDGPU target. */
	*round_method = HSA_ROUND_METHOD_SINGLE;
	return HSA_STATUS_SUCCESS;
}
