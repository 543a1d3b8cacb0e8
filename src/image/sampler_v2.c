/*
 * hsa_ext_sampler_create_v2 (ROCr 1.18): a sampler with one addressing mode
 * per axis (hsa_ext_sampler_descriptor_v2_t), the S# CLAMP_X/Y/Z fields set
 * one by one.  Statuses as hsa_ext_sampler_create's (sampler.c): agent
 * handle 0 INVALID_AGENT, NULL pointers INVALID_ARGUMENT, an agent that is
 * not a GPU with images INVALID_AGENT, and a mode out of range
 * SAMPLER_DESCRIPTOR_UNSUPPORTED where ROCr silently builds an all-zero S#
 * (docs/differences.md).  hsa_ext_sampler_destroy releases it.
 */
#include "image/image_priv.h"

hsa_status_t hsa_ext_sampler_create_v2(hsa_agent_t agent,
				       const hsa_ext_sampler_descriptor_v2_t *desc,
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
	if (hl_sampler_write_srd_v2(srd, desc))
		return (hsa_status_t)HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED;
	struct hl_sampler *s;
	if (hl_image_object_alloc(rt, sizeof(*s), (void **)&s))
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	for (int i = 0; i < 8; i++)
		s->srd[i] = srd[i];
	s->agent = a;
	/* the v1 view of it: the x axis' mode */
	s->desc.coordinate_mode = desc->coordinate_mode;
	s->desc.filter_mode = desc->filter_mode;
	s->desc.address_mode = desc->address_modes[0];
	s->magic = HL_SAMPLER_MAGIC;
	sampler->handle = (uint64_t)(uintptr_t)s;
	return HSA_STATUS_SUCCESS;
}
