/*
 * Sampler objects: an S# in GPU-visible memory, the handle its address
 * (ROCr 5.2.3's Sampler::Create and ImageManagerAi::PopulateSamplerSrd).
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

hsa_status_t hsa_ext_sampler_create(hsa_agent_t agent, const hsa_ext_sampler_descriptor_t *desc,
				    hsa_ext_sampler_t *sampler)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!agent.handle)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	if (!desc || !sampler)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	sampler->handle = 0;
	struct hl_agent *a = hl_agent_lookup(rt, agent);
	if (!a || !hl_image_gpu_supported(a))
		return HSA_STATUS_ERROR_INVALID_AGENT;
	uint32_t srd[8];
	if (hl_sampler_write_srd(srd, desc))
		return (hsa_status_t)HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED;
	struct hl_sampler *s;
	if (hl_image_object_alloc(rt, sizeof(*s), (void **)&s))
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	for (int i = 0; i < 8; i++)
		s->srd[i] = srd[i];
	s->agent = a;
	s->desc = *desc;
	s->magic = HL_SAMPLER_MAGIC;
	sampler->handle = (uint64_t)(uintptr_t)s;
	return HSA_STATUS_SUCCESS;
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
