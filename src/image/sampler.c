/*
 * Sampler objects: an S# in GPU-visible memory, the handle its address
 * (ROCr 5.2.3's Sampler::Create and ImageManagerAi::PopulateSamplerSrd),
 * from hsa_ext_sampler_create and ROCr 1.18's hsa_ext_sampler_create_v2.
 *
 * Statuses as ROCr's (image/hsa_ext_image.cpp, CreateSamplerHandle): agent
 * handle 0 INVALID_AGENT, NULL pointers INVALID_ARGUMENT, an agent that is
 * not a GPU with images INVALID_AGENT.  One difference: ROCr ignores
 * PopulateSamplerSrd's verdict, so a descriptor with an addressing or
 * filter mode out of range gives SUCCESS and an all-zero S# (a sampler
 * that silently wraps with point filtering); we refuse it with
 * HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED (docs/differences.md).
 */
#include "image/image_priv.h"

/* Both create calls: exactly one of v1 and v2 is the caller's descriptor
 * (NULL when the caller passed NULL, told apart by v2_call). */
static hsa_status_t sampler_create(hsa_agent_t agent, const hsa_ext_sampler_descriptor_t *v1,
				   const hsa_ext_sampler_descriptor_v2_t *v2, bool v2_call,
				   hsa_ext_sampler_t *sampler)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!agent.handle)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	if ((v2_call ? (const void *)v2 : (const void *)v1) == NULL || !sampler)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	sampler->handle = 0;
	struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!a || !hl_image_gpu_supported(a))
		return HSA_STATUS_ERROR_INVALID_AGENT;
	uint32_t srd[8];
	if (v2_call ? hl_sampler_write_srd_v2(srd, v2) : hl_sampler_write_srd(srd, v1))
		return (hsa_status_t)HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED;
	struct hl_sampler *s;
	if (hl_image_object_alloc(rt, sizeof(*s), (void **)&s))
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	for (int i = 0; i < 8; i++)
		s->srd[i] = srd[i];
	s->agent = a;
	if (v2_call) {
		/* the v1 view of it: the x axis' mode */
		s->desc.coordinate_mode = v2->coordinate_mode;
		s->desc.filter_mode = v2->filter_mode;
		s->desc.address_mode = v2->address_modes[0];
	} else {
		s->desc = *v1;
	}
	s->magic = HL_SAMPLER_MAGIC;
	sampler->handle = (uint64_t)(uintptr_t)s;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_ext_sampler_create(hsa_agent_t agent, const hsa_ext_sampler_descriptor_t *desc,
				    hsa_ext_sampler_t *sampler)
{
	return sampler_create(agent, desc, NULL, false, sampler);
}

/* hsa_ext_sampler_create_v2 (ROCr 1.18): one addressing mode per axis
 * (hsa_ext_sampler_descriptor_v2_t), the S# CLAMP_X/Y/Z fields set one by
 * one; the same statuses, and the same refusal of a mode out of range. */
hsa_status_t hsa_ext_sampler_create_v2(hsa_agent_t agent,
				       const hsa_ext_sampler_descriptor_v2_t *desc,
				       hsa_ext_sampler_t *sampler)
{
	return sampler_create(agent, NULL, desc, true, sampler);
}

hsa_status_t hsa_ext_sampler_destroy(hsa_agent_t agent, hsa_ext_sampler_t sampler)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!agent.handle)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	struct hl_sampler *s = hl_sampler_lookup(rt, sampler.handle);
	if (!s)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	s->magic = 0;
	hl_image_object_free(s);
	return HSA_STATUS_SUCCESS;
}
