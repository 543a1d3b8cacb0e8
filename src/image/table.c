/*
 * HSA_EXTENSION_IMAGES as the module registers it when it attaches to a
 * runtime (src/modules.c): the function table ROCr 1.18 serves
 * (hsa_ext_images_1_pfn_t, the ten 1.00 entries, the three *_with_layout
 * ones, then hsa_ext_sampler_create_v2; a caller asking for ROCr 5.2.3's
 * length gets its thirteen), the GPU agents that have the extension, and the
 * image agent attributes (hsa_ext_image.h's HSA_EXT_AGENT_INFO_*).
 */
#include "image/image_priv.h"

/* The exported functions, as ROCr's table holds them (a tool that wraps
 * the HSA API table sees calls made through this one too): hl_export_<name>
 * is the trampoline's address (src/tools/gen_api.py). */
#include "hl_api_exports.h"

/* The image extension's agent attributes, 0x3000..0x300C. */
#define IMAGE_AGENT_INFO_FIRST HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS
#define IMAGE_AGENT_INFO_LAST  0x300C
_Static_assert(HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS == 0x3000, "first image attribute");

static const hsa_ext_images_1_pfn_t images_table = {
	.hsa_ext_image_get_capability = hl_export_hsa_ext_image_get_capability,
	.hsa_ext_image_data_get_info = hl_export_hsa_ext_image_data_get_info,
	.hsa_ext_image_create = hl_export_hsa_ext_image_create,
	.hsa_ext_image_destroy = hl_export_hsa_ext_image_destroy,
	.hsa_ext_image_copy = hl_export_hsa_ext_image_copy,
	.hsa_ext_image_import = hl_export_hsa_ext_image_import,
	.hsa_ext_image_export = hl_export_hsa_ext_image_export,
	.hsa_ext_image_clear = hl_export_hsa_ext_image_clear,
	.hsa_ext_sampler_create = hl_export_hsa_ext_sampler_create,
	.hsa_ext_sampler_destroy = hl_export_hsa_ext_sampler_destroy,
	.hsa_ext_image_get_capability_with_layout = hl_export_hsa_ext_image_get_capability_with_layout,
	.hsa_ext_image_data_get_info_with_layout = hl_export_hsa_ext_image_data_get_info_with_layout,
	.hsa_ext_image_create_with_layout = hl_export_hsa_ext_image_create_with_layout,
	.hsa_ext_sampler_create_v2 = hl_export_hsa_ext_sampler_create_v2,
};

static const struct hl_extension images_extension = {
	.id = HSA_EXTENSION_IMAGES,
	.table = &images_table,
	.size = sizeof(images_table),
	/* ROCr sets IMAGES on GPU agents; we on those with images. */
	.agent_supported = hl_image_gpu_supported,
	.agent_attr_first = IMAGE_AGENT_INFO_FIRST,
	.agent_attr_last = IMAGE_AGENT_INFO_LAST,
	.agent_info = hl_image_agent_info,
};

int hl_image_attach(struct hl_runtime *rt)
{
	return hl_extension_register(rt, &images_extension);
}
