/*
 * Image objects and the image API: capabilities, data size and alignment,
 * create (opaque, linear, and from an AMD layout), destroy, the geometry
 * limits and the image agent attributes.
 *
 * The checks and statuses are ROCr 5.2.3's (image/hsa_ext_image.cpp,
 * image_runtime.cpp): agent handle 0 is INVALID_AGENT before anything
 * else; NULL pointers, a geometry or permission out of range, or a layout
 * other than linear in a *_with_layout call are INVALID_ARGUMENT; then a
 * format the GPU does not support is IMAGE_FORMAT_UNSUPPORTED, a dimension
 * over the limit IMAGE_SIZE_UNSUPPORTED, a linear pitch other than the
 * layout's IMAGE_PITCH_UNSUPPORTED, data not aligned as the layout needs
 * INVALID_ARGUMENT.  A linear call with row pitch 0 uses width * element
 * size, and slice pitch 0 row pitch * height (1DA: row pitch), as ROCr's
 * enforceDefaultPitch.  ROCr looks the format up in its table unchecked
 * and crashes on unknown agents or GPUs it has no image manager for; we
 * answer those (format unsupported, INVALID_AGENT, zero limits).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "amd/gfx9_desc.h"
#include "amd/gfx9_swizzle.h"
#include "image/image_priv.h"
#include "memory/memory.h"
#include "runtime/status.h"
#include "util/log.h"

#define LOG "image"

bool hl_image_gpu_supported(const struct hl_agent *a)
{
	/* ROCr's DevIDToAddrLibFamily: gfx900-gfx90c are FAMILY_AI or
	 * FAMILY_RV, handled by ImageManagerAi; other gfx9 (gfx940+) have no
	 * address library family, and ROCr fails to create the manager. */
	if (a->type != HSA_DEVICE_TYPE_GPU || a->gfx_major != 9 || a->gfx_minor != 0)
		return false;
	switch (a->gfx_stepping) {
	case 0: case 1: case 2: case 3: case 4: case 6: case 8: case 10: case 12:
		return true;
	default:
		return false;
	}
}

hsa_status_t hl_image_check_agent(struct hl_runtime *rt, hsa_agent_t agent, struct hl_agent **out)
{
	struct hl_agent *a = agent.handle ? hl_agent_lookup(rt, agent) : NULL;
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	*out = a;
	return HSA_STATUS_SUCCESS;
}

int hl_image_object_alloc(struct hl_runtime *rt, size_t size, void **out)
{
	for (uint32_t i = 0; i < rt->n_pools; i++)
		if (rt->pools[i].kind == HL_POOL_SYSTEM_KERNARG) {
			int err = hl_pool_allocate(rt, &rt->pools[i], size, out);
			if (!err)
				memset(*out, 0, size);
			return err;
		}
	return -ENOMEM;
}

void hl_image_object_free(void *obj)
{
	hsa_status_t st = hsa_amd_memory_pool_free(obj);
	if (st != HSA_STATUS_SUCCESS)
		hl_warn(LOG, "freeing object %p: %s", obj, hl_status_name(st));
}

/* The object of kind magic at handle, or NULL.  The handle must be the
 * start of one of our allocations: nothing the caller passes is read
 * before that is known. */
static void *object_lookup(struct hl_runtime *rt, uint64_t handle, uint32_t magic,
			   size_t magic_offset)
{
	if (!handle)
		return NULL;
	void *p = (void *)(uintptr_t)handle;
	pthread_mutex_lock(&rt->mem_lock);
	struct hl_alloc *al = hl_alloc_find_locked(rt, p);
	bool ok = al && al->ptr == p && al->size >= magic_offset + sizeof(uint32_t);
	pthread_mutex_unlock(&rt->mem_lock);
	if (!ok)
		return NULL;
	uint32_t m;
	memcpy(&m, (const char *)p + magic_offset, sizeof(m));
	return m == magic ? p : NULL;
}

struct hl_image *hl_image_lookup(struct hl_runtime *rt, uint64_t handle)
{
	return object_lookup(rt, handle, HL_IMAGE_MAGIC, offsetof(struct hl_image, magic));
}

struct hl_sampler *hl_sampler_lookup(struct hl_runtime *rt, uint64_t handle)
{
	return object_lookup(rt, handle, HL_SAMPLER_MAGIC, offsetof(struct hl_sampler, magic));
}

/* The properties of a format on an agent: CPUs and GPUs without image
 * support have none (capability 0). */
static struct hl_image_props agent_props(const struct hl_agent *a, hsa_ext_image_geometry_t g,
					 hsa_ext_image_format_t f)
{
	struct hl_image_props none = { 0, 0, 0, 0 };
	return hl_image_gpu_supported(a) ? hl_image_props(g, f) : none;
}

/* ROCr's enforceDefaultPitch. */
static void default_pitches(const struct hl_agent *a, const hsa_ext_image_descriptor_t *d,
			    size_t *row, size_t *slice)
{
	if (!*row)
		*row = d->width * agent_props(a, d->geometry, d->format).elem_bytes;
	if (!*slice && (d->depth || d->array_size)) {
		switch (d->geometry) {
		case HSA_EXT_IMAGE_GEOMETRY_3D:
		case HSA_EXT_IMAGE_GEOMETRY_2DA:
		case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH:
			*slice = *row * d->height;
			break;
		case HSA_EXT_IMAGE_GEOMETRY_1DA:
			*slice = *row;
			break;
		default:
			/* ROCr prints "Depth set on single layer image
			 * geometry." and goes on. */
			hl_debug(LOG, "depth or array size set on a single-layer geometry");
			break;
		}
	}
}

/* Whether ROCr lays this image out tiled: the opaque layout on a
 * base-profile GPU, except 1DB. */
static bool layout_tiled(const struct hl_agent *a, const hsa_ext_image_descriptor_t *d,
			 hsa_ext_image_data_layout_t layout)
{
	return layout == HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE && a->profile == HSA_PROFILE_BASE &&
	       d->geometry != HSA_EXT_IMAGE_GEOMETRY_1DB;
}

static hsa_status_t surface_status(int err, const hsa_ext_image_descriptor_t *d)
{
	hl_debug(LOG, "geometry %u %zux%zux%zu[%zu]: no layout (%s)", (unsigned)d->geometry,
		 d->width, d->height, d->depth, d->array_size, hl_errno_name(err));
	return HSA_STATUS_ERROR;
}

/* ROCr's GetImageSizeAndAlignment (GetMipmapArraySizeAndAlignment for
 * levels > 1) and CalculateImageSizeAndAlignment; also returns the
 * surface and the properties. */
static hsa_status_t size_and_align(const struct hl_agent *a, const hsa_ext_image_descriptor_t *d,
				   hsa_ext_image_data_layout_t layout, size_t row_pitch,
				   size_t slice_pitch, uint32_t levels,
				   hsa_ext_image_data_info_t *info, struct hl_image_surface *surf,
				   struct hl_image_props *props)
{
	info->size = 0;
	info->alignment = 0;
	*props = agent_props(a, d->geometry, d->format);
	if (!props->cap)
		return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
	uint32_t max[4];
	hl_image_max_dims(d->geometry, max);
	if (d->width > max[0] || d->height > max[1] || d->depth > max[2] || d->array_size > max[3])
		return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED;
	const bool tiled = layout_tiled(a, d, layout);
	int err = hl_image_surface(a, d, props, tiled, tiled ? 0 : row_pitch, levels, surf);
	if (err)
		return surface_status(err, d);
	/* ROCr compares with addrlib's pitch and height, the latter level 0's
	 * (a chain is never customised: its v2 calls pass no pitches) */
	const uint64_t row = (uint64_t)surf->elem_bytes * surf->pitch;
	const uint64_t slice = row * (levels > 1 ? surf->base_height : surf->height);
	if (d->geometry != HSA_EXT_IMAGE_GEOMETRY_1DB &&
	    layout == HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR &&
	    ((row_pitch && row != row_pitch) || (slice_pitch && slice != slice_pitch)))
		return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED;
	info->size = surf->size;
	info->alignment = surf->align;
	return HSA_STATUS_SUCCESS;
}

/* ROCr subtracts the VRAM region's base from image addresses. */
static uint64_t gpu_address(const struct hl_agent *a, const void *data)
{
	uint64_t base = 0;
	for (uint32_t i = 0; i < a->n_pools; i++)
		if (a->pools[i].kind == HL_POOL_VRAM)
			base = a->pools[i].base;
	return (uint64_t)(uintptr_t)data - base;
}

static hsa_status_t create(struct hl_runtime *rt, struct hl_agent *a,
			   const hsa_ext_image_descriptor_t *d, const void *data,
			   hsa_access_permission_t perm, hsa_ext_image_data_layout_t layout,
			   size_t row_pitch, size_t slice_pitch, uint32_t levels,
			   hsa_ext_image_t *out)
{
	out->handle = 0;
	hsa_ext_image_data_info_t info;
	struct hl_image_surface surf;
	struct hl_image_props props;
	hsa_status_t st = size_and_align(a, d, layout, row_pitch, slice_pitch, levels, &info, &surf,
					 &props);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	if ((uintptr_t)data % info.alignment)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (surf.sw_mode != HL_SW_LINEAR &&
	    kfd_gb_addr_config(rt->proc, a->gpu->gpu_id, &surf.gb_addr_config))
		return HSA_STATUS_ERROR;
	struct hl_image *img;
	int err = hl_image_object_alloc(rt, sizeof(*img), (void **)&img);
	if (err)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	img->agent = a;
	img->desc = *d;
	img->permission = perm;
	img->props = props;
	img->chain = surf;
	img->chain_data = (void *)(uintptr_t)data;
	img->data = img->chain_data;
	/* transfers address level 0 of a chain (its T#'s BASE_LEVEL) */
	uint64_t level0;
	if (hl_image_surface_level(&surf, 0, &img->surf, &level0))
		img->surf = surf;
	hl_image_write_srd(img, gpu_address(a, data));
	/* Published by the return of the handle; the GPU reads the
	 * descriptor only from work the caller submits after this. */
	img->magic = HL_IMAGE_MAGIC;
	out->handle = (uint64_t)(uintptr_t)img;
	return HSA_STATUS_SUCCESS;
}

#define REQUIRE_AGENT(rt, agent, a)                                         \
	struct hl_runtime *rt = hl_runtime_get();                           \
	if (!rt)                                                            \
		return HSA_STATUS_ERROR_NOT_INITIALIZED;                    \
	if (!(agent).handle)                                                \
		return HSA_STATUS_ERROR_INVALID_AGENT;                      \
	struct hl_agent *a = hl_agent_lookup(rt, agent)

hsa_status_t hsa_ext_image_get_capability(hsa_agent_t agent, hsa_ext_image_geometry_t geometry,
					  const hsa_ext_image_format_t *format, uint32_t *mask)
{
	REQUIRE_AGENT(rt, agent, a);
	if (!format || !mask || !hl_image_geometry_valid((uint32_t)geometry))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	*mask = agent_props(a, geometry, *format).cap;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_ext_image_get_capability_with_layout(hsa_agent_t agent,
						      hsa_ext_image_geometry_t geometry,
						      const hsa_ext_image_format_t *format,
						      hsa_ext_image_data_layout_t layout,
						      uint32_t *mask)
{
	REQUIRE_AGENT(rt, agent, a);
	if (!format || !mask || !hl_image_geometry_valid((uint32_t)geometry) ||
	    layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	*mask = agent_props(a, geometry, *format).cap;
	return HSA_STATUS_SUCCESS;
}

static bool permission_valid(hsa_access_permission_t p)
{
	return p >= HSA_ACCESS_PERMISSION_RO && p <= HSA_ACCESS_PERMISSION_RW;
}

hsa_status_t hsa_ext_image_data_get_info(hsa_agent_t agent, const hsa_ext_image_descriptor_t *desc,
					 hsa_access_permission_t perm,
					 hsa_ext_image_data_info_t *info)
{
	REQUIRE_AGENT(rt, agent, a);
	if (!desc || !info || !permission_valid(perm))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	struct hl_image_surface surf;
	struct hl_image_props props;
	return size_and_align(a, desc, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0, 1, info, &surf,
			      &props);
}

hsa_status_t hsa_ext_image_data_get_info_with_layout(
	hsa_agent_t agent, const hsa_ext_image_descriptor_t *desc, hsa_access_permission_t perm,
	hsa_ext_image_data_layout_t layout, size_t row_pitch, size_t slice_pitch,
	hsa_ext_image_data_info_t *info)
{
	REQUIRE_AGENT(rt, agent, a);
	if (!desc || !info || !permission_valid(perm) ||
	    layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	default_pitches(a, desc, &row_pitch, &slice_pitch);
	struct hl_image_surface surf;
	struct hl_image_props props;
	return size_and_align(a, desc, layout, row_pitch, slice_pitch, 1, info, &surf, &props);
}

hsa_status_t hsa_ext_image_create(hsa_agent_t agent, const hsa_ext_image_descriptor_t *desc,
				  const void *data, hsa_access_permission_t perm,
				  hsa_ext_image_t *image)
{
	REQUIRE_AGENT(rt, agent, a);
	if (!desc || !data || !image)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	return create(rt, a, desc, data, perm, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0, 1, image);
}

hsa_status_t hsa_ext_image_create_with_layout(hsa_agent_t agent,
					      const hsa_ext_image_descriptor_t *desc,
					      const void *data, hsa_access_permission_t perm,
					      hsa_ext_image_data_layout_t layout, size_t row_pitch,
					      size_t slice_pitch, hsa_ext_image_t *image)
{
	REQUIRE_AGENT(rt, agent, a);
	if (!desc || !data || !image || layout != HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	default_pitches(a, desc, &row_pitch, &slice_pitch);
	return create(rt, a, desc, data, perm, layout, row_pitch, slice_pitch, 1, image);
}

/* Bytes per element of a T# data/number format pair (ROCr's
 * ImageLutKv::GetPixelSize: the formats ROCr creates; 32-bit UNORM is
 * its 24-bit depth, 3). */
static uint32_t hw_pixel_size(uint32_t data_format, uint32_t num_format)
{
	switch (data_format) {
	case HL_FMT_8:
		return 1;
	case HL_FMT_16: case HL_FMT_8_8: case HL_FMT_5_6_5: case HL_FMT_1_5_5_5:
		return 2;
	case HL_FMT_32:
		return num_format == HL_NUM_UNORM ? 3 : 4;
	case HL_FMT_16_16: case HL_FMT_2_10_10_10: case HL_FMT_8_8_8_8:
		return 4;
	case HL_FMT_32_32: case HL_FMT_16_16_16_16:
		return 8;
	case HL_FMT_32_32_32_32:
		return 16;
	default:
		return 0;
	}
}

/* ROCr's ImageManagerAi::PopulateImageSrd(image, metadata): the caller's
 * eight descriptor dwords with the address, format and swizzle put in,
 * and the metadata offset made absolute. */
static void write_srd_from_layout(struct hl_image *img, const uint32_t words[8], uint64_t addr)
{
	const hsa_ext_image_descriptor_t *d = &img->desc;
	uint8_t sel[4];
	hl_image_swizzle(d->format.channel_order, sel);
	uint32_t *w = img->srd;
	memcpy(w, words, 8 * sizeof(uint32_t));
	if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) {
		gfx9_v_set_base(w, addr);
		GFX9_DESC_SET(w, GFX9_V_STRIDE, img->props.elem_bytes);
		gfx9_desc_set_dst_sel(w, sel);
		GFX9_DESC_SET(w, GFX9_V_NUM_FORMAT, img->props.num_format);
		GFX9_DESC_SET(w, GFX9_V_DATA_FORMAT, img->props.data_format);
		/* ROCr stores the element size in the 2-bit field */
		GFX9_DESC_SET(w, GFX9_V_INDEX_STRIDE, img->props.elem_bytes);
	} else {
		gfx9_t_set_base(w, addr);
		GFX9_DESC_SET(w, GFX9_T_DATA_FORMAT, img->props.data_format);
		GFX9_DESC_SET(w, GFX9_T_NUM_FORMAT, img->props.num_format);
		gfx9_desc_set_dst_sel(w, sel);
		if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_1D ||
		    d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA)
			GFX9_DESC_SET(w, GFX9_T_TYPE, hl_image_hw_type(d->geometry));
		/* the caller's metadata offset, made absolute */
		gfx9_t_set_meta(w, gfx9_t_meta(w) + addr);
	}
	w[8] = d->format.channel_type;
	w[9] = d->format.channel_order;
	w[10] = (uint32_t)d->width;
}

/* The surface of an image whose layout came with its descriptor
 * (hsa_amd_image_create), for transfers: SW_MODE and PITCH of the T#, the
 * descriptor's dimensions.  Left empty (pitch 0: transfers refused) for a
 * compressed surface (COMPRESSION_EN, word 6 bit 21: the bytes are not the
 * elements), a mode the element order does not describe, or when the
 * GPU's GB_ADDR_CONFIG cannot be read. */
static void surface_from_srd(struct hl_runtime *rt, struct hl_image *img)
{
	const hsa_ext_image_descriptor_t *d = &img->desc;
	const uint32_t *w = img->srd;
	struct hl_image_surface *s = &img->surf;
	memset(s, 0, sizeof(*s));
	const uint32_t eb = img->props.elem_bytes;
	size_t slices = d->array_size > d->depth ? d->array_size : d->depth;
	s->elem_bytes = eb;
	s->levels = 1;
	s->slices = slices ? (uint32_t)slices : 1;
	s->height = d->height ? (uint32_t)d->height : 1;
	if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) {
		s->pitch = (uint32_t)d->width;
		s->height = 1;
		s->slice_size = (uint64_t)s->pitch * eb;
		s->size = s->slice_size;
		return;
	}
	if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_1D || d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA)
		s->height = 1;
	if (GFX9_DESC_GET(w, GFX9_T_COMPRESSION_EN))
		return;
	const uint32_t sw = GFX9_DESC_GET(w, GFX9_T_SW_MODE);
	const uint32_t pitch = GFX9_DESC_GET(w, GFX9_T_PITCH) + 1;
	s->tex3d = d->geometry == HSA_EXT_IMAGE_GEOMETRY_3D;
	uint32_t e = 0;
	while ((1u << e) < eb)
		e++;
	if (sw == HL_SW_LINEAR) {
		s->pitch = pitch;
		s->slice_size = (uint64_t)pitch * s->height * eb;
		s->size = s->slice_size * s->slices;
		return;
	}
	struct gfx9_surface g = { .sw_mode = sw, .elem_log2 = e, .is3d = s->tex3d,
				  .pitch = pitch, .height = s->height };
	uint64_t last;
	if ((1u << e) != eb ||
	    gfx9_swizzle_offset(&g, 0, 0, 0, &last) ||
	    kfd_gb_addr_config(rt->proc, img->agent->gpu->gpu_id, &s->gb_addr_config))
		return;
	/* Whole blocks: the block of the last element ends the surface. */
	g.cfg = gfx9_addr_config_decode(s->gb_addr_config);
	gfx9_swizzle_offset(&g, pitch - 1, s->height - 1, s->slices - 1, &last);
	const uint32_t blk = sw <= 3 ? 256 : (sw <= 7 || (sw >= 20 && sw <= 23)) ? 4096 : 65536;
	s->sw_mode = sw;
	s->pitch = pitch;
	s->size = (last / blk + 1) * blk;
	s->align = blk;
}

hsa_status_t hsa_amd_image_create(hsa_agent_t agent, const hsa_ext_image_descriptor_t *desc,
				  const hsa_amd_image_descriptor_t *layout, const void *data,
				  hsa_access_permission_t perm, hsa_ext_image_t *image)
{
	REQUIRE_AGENT(rt, agent, a);
	if (!desc || !data || !image || !layout)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	image->handle = 0;
	if ((uintptr_t)data % 256)
		return HSA_STATUS_ERROR_INVALID_ALLOCATION;
	if (layout->version != 1 || a->type != HSA_DEVICE_TYPE_GPU ||
	    layout->deviceID != (0x1002u << 16 | a->node->props.device_id))
		return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
	struct hl_image_props props = agent_props(a, desc->geometry, desc->format);
	if (!props.cap || !props.elem_bytes)
		return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
	const uint32_t *words = layout->data;
	if (desc->geometry != HSA_EXT_IMAGE_GEOMETRY_1DB &&
	    hw_pixel_size(GFX9_DESC_GET(words, GFX9_T_DATA_FORMAT),
			  GFX9_DESC_GET(words, GFX9_T_NUM_FORMAT)) != props.elem_bytes)
		return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
	struct hl_image *img;
	if (hl_image_object_alloc(rt, sizeof(*img), (void **)&img))
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	img->agent = a;
	img->desc = *desc;
	img->permission = perm;
	img->props = props;
	img->data = (void *)(uintptr_t)data;
	write_srd_from_layout(img, words, gpu_address(a, data));
	surface_from_srd(rt, img);
	img->surf.base_height = img->surf.height;
	img->chain = img->surf;
	img->chain_data = img->data;
	img->magic = HL_IMAGE_MAGIC;
	image->handle = (uint64_t)(uintptr_t)img;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_ext_image_destroy(hsa_agent_t agent, hsa_ext_image_t image)
{
	REQUIRE_AGENT(rt, agent, a);
	(void)a;
	struct hl_image *img = hl_image_lookup(rt, image.handle);
	if (!img)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	img->magic = 0;
	hl_image_object_free(img);
	return HSA_STATUS_SUCCESS;
}

/* The geometry an image limit attribute asks about; -1 for others. */
static int limit_geometry(uint32_t attr)
{
	switch (attr) {
	case HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS:
		return HSA_EXT_IMAGE_GEOMETRY_1D;
	case HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS:
		return HSA_EXT_IMAGE_GEOMETRY_1DA;
	case HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS:
		return HSA_EXT_IMAGE_GEOMETRY_1DB;
	case HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS:
		return HSA_EXT_IMAGE_GEOMETRY_2D;
	case HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS:
	case HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS:
		return HSA_EXT_IMAGE_GEOMETRY_2DA;
	case HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS:
		return HSA_EXT_IMAGE_GEOMETRY_2DDEPTH;
	case HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS:
		return HSA_EXT_IMAGE_GEOMETRY_2DADEPTH;
	case HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS:
		return HSA_EXT_IMAGE_GEOMETRY_3D;
	default:
		return -1;
	}
}

/* ROCr's ImageRuntime::GetImageInfoMaxDimension: three values for 3D, two
 * for the 2D geometries, one otherwise (the layer count for ARRAY_MAX_LAYERS);
 * zero on agents without images. */
static hsa_status_t max_dim(const struct hl_agent *a, uint32_t attr, void *value)
{
	int g = limit_geometry(attr);
	if (g < 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	uint32_t dims[4] = { 0, 0, 0, 0 };
	if (hl_image_gpu_supported(a))
		hl_image_max_dims((hsa_ext_image_geometry_t)g, dims);
	uint32_t out[3] = { dims[0], dims[1], dims[2] };
	size_t n = 1;
	if (attr == HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS)
		n = 3;
	else if (g == HSA_EXT_IMAGE_GEOMETRY_2D || g == HSA_EXT_IMAGE_GEOMETRY_2DDEPTH ||
		 g == HSA_EXT_IMAGE_GEOMETRY_2DADEPTH ||
		 attr == HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS)
		n = 2;
	else if (attr == HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS)
		out[0] = dims[3];
	memcpy(value, out, n * sizeof(uint32_t));
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_image_get_info_max_dim(hsa_agent_t agent, hsa_agent_info_t attribute,
					    void *value)
{
	REQUIRE_AGENT(rt, agent, a);
	if (!value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	return max_dim(a, (uint32_t)attribute, value);
}

hsa_status_t hl_image_agent_info(const struct hl_agent *a, uint32_t attr, void *value)
{
	const bool gpu = a->type == HSA_DEVICE_TYPE_GPU;
	/* A GPU without images (gfx94x/95x): ROCr 1.18 answers every one of
	 * these with a single uint32_t 0, the 2D and 3D sizes included. */
	if (gpu && !hl_image_gpu_supported(a)) {
		if (limit_geometry(attr) < 0 && attr != HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES &&
		    attr != HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES &&
		    attr != HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS)
			return HSA_STATUS_ERROR_INVALID_ARGUMENT;
		memset(value, 0, sizeof(uint32_t));
		return HSA_STATUS_SUCCESS;
	}
	uint32_t v;
	switch (attr) {
	case HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES:
		v = gpu ? 128 : 0;
		break;
	case HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES:
		v = gpu ? 64 : 0;
		break;
	case HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS:
		/* 16, ROCr 1.18's answer.  ROCr 5.2.3's GPU agent stored 16
		 * and fell through to HSA_AMD_AGENT_INFO_CHIP_ID (a missing
		 * break), so its clients saw the device id; no client reads
		 * a sampler count off a chip id (docs/differences.md). */
		v = gpu ? 16 : 0;
		break;
	default:
		return max_dim(a, attr, value);
	}
	memcpy(value, &v, sizeof(v));
	return HSA_STATUS_SUCCESS;
}

/*
 * Version 2 of the image calls (AMD's newest header; ROCr's rocm-systems
 * image/hsa_ext_image.cpp and image_runtime.cpp).  A descriptor with
 * mipmap_levels 0 or 1 is a single-level image: each call is its version 1
 * twin with the opaque layout (ROCr copies the first six members into a
 * version 1 descriptor), with ROCr's checks, which differ from version 1's
 * in one point: hsa_ext_image_data_get_info_v2 does not check the access
 * permission.
 *
 * More levels are a mipmapped array (ROCr's GetMipmapArraySizeAndAlignment
 * and CreateMipmapArrayHandle): width 0 (create only) or more levels than
 * the largest extent allows (1 + floor(log2)) is INVALID_ARGUMENT; then a
 * format or size the GPU lacks as for one level; the size and alignment
 * are addrlib's for the whole chain (surface.c).  hsalite lays out every
 * chain linear: 1D and 1DA images (GFX9 1D resources are always linear)
 * and 2D, 2DA, 3D and the depth geometries, also where ROCr picks
 * addrlib's tiled mip chain (a base-profile GPU such as gfx90a: the
 * layout is the runtime's choice, only size and alignment differ).  A
 * 1DB chain (a buffer: it has no mip levels; ROCr builds a V# and later
 * writes level fields over its format bits) is INVALID_ARGUMENT.
 *
 * hsa_ext_image_mipmap_array_get_level (ROCr's GetMipmapArrayLevelHandle
 * and ImageManagerAi::PopulateMipLevelSrd): a new image object whose T# is
 * the array's with BASE_LEVEL = LAST_LEVEL = the level, so that the
 * texture unit addresses that level (its WIDTH and HEIGHT stay level 0's:
 * GFX9 derives a level's extent from them); with a descriptor whose
 * channel type or order differs, the T# is the array's in that format.
 * The caller destroys it with hsa_ext_image_destroy_v2.  Transfers on the
 * level image address the level; on the array, level 0.
 */

/* ROCr's ComputeMaxMipLevels: the bit length of the largest extent the
 * geometry uses, a 0 extent counted as 1. */
static uint32_t mip_levels_max(const hsa_ext_image_descriptor_v2_t *d)
{
	size_t w = d->width ? d->width : 1, h = d->height ? d->height : 1;
	size_t z = d->depth ? d->depth : 1, m = w;
	switch (d->geometry) {
	case HSA_EXT_IMAGE_GEOMETRY_2D:
	case HSA_EXT_IMAGE_GEOMETRY_2DA:
	case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
	case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH:
		m = w > h ? w : h;
		break;
	case HSA_EXT_IMAGE_GEOMETRY_3D:
		m = w > h ? w : h;
		m = m > z ? m : z;
		break;
	default:
		break;
	}
	/* ROCr takes the extents as uint32_t. */
	uint32_t v = (uint32_t)m, n = 0;
	while (v) {
		n++;
		v >>= 1;
	}
	return n ? n : 1;
}

static hsa_ext_image_descriptor_t desc_v1(const hsa_ext_image_descriptor_v2_t *d)
{
	hsa_ext_image_descriptor_t v1 = {
		.geometry = d->geometry,
		.width = d->width,
		.height = d->height,
		.depth = d->depth,
		.array_size = d->array_size,
		.format = d->format,
	};
	return v1;
}

/* The size and alignment of a mipmapped array (levels > 1): ROCr's
 * refusals, then the chain's layout. */
static hsa_status_t mip_size_and_align(const struct hl_agent *a,
				       const hsa_ext_image_descriptor_v2_t *d, const char *call,
				       hsa_ext_image_data_info_t *info,
				       struct hl_image_surface *surf, struct hl_image_props *props)
{
	info->size = 0;
	info->alignment = 0;
	if (d->mipmap_levels > mip_levels_max(d))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	const hsa_ext_image_descriptor_t v1 = desc_v1(d);
	if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB && agent_props(a, v1.geometry, v1.format).cap) {
		hl_error(LOG, "%s: %zu mip levels of a 1DB (buffer) image, which has none",
			 call, d->mipmap_levels);
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	return size_and_align(a, &v1, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0,
			      (uint32_t)d->mipmap_levels, info, surf, props);
}

hsa_status_t hsa_ext_image_data_get_info_v2(hsa_agent_t agent,
					    const hsa_ext_image_descriptor_v2_t *desc,
					    hsa_access_permission_t perm,
					    hsa_ext_image_data_info_t *info)
{
	REQUIRE_AGENT(rt, agent, a);
	(void)perm; /* unchecked and unused, as in ROCr's */
	if (!desc || !info)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	struct hl_image_surface surf;
	struct hl_image_props props;
	if (desc->mipmap_levels > 1)
		return mip_size_and_align(a, desc, "hsa_ext_image_data_get_info_v2", info, &surf,
					  &props);
	const hsa_ext_image_descriptor_t v1 = desc_v1(desc);
	return size_and_align(a, &v1, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0, 1, info, &surf,
			      &props);
}

hsa_status_t hsa_ext_image_create_v2(hsa_agent_t agent, const hsa_ext_image_descriptor_v2_t *desc,
				     const void *data, hsa_access_permission_t perm,
				     hsa_ext_image_t *image)
{
	REQUIRE_AGENT(rt, agent, a);
	if (!desc || !data || !image)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (!a)
		return HSA_STATUS_ERROR_INVALID_AGENT;
	const hsa_ext_image_descriptor_t v1 = desc_v1(desc);
	if (desc->mipmap_levels <= 1)
		return create(rt, a, &v1, data, perm, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0, 1,
			      image);
	image->handle = 0;
	if (!desc->width)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	/* ROCr's checks first (mip_size_and_align), then create()'s own
	 * pass over the same layout */
	hsa_ext_image_data_info_t info;
	struct hl_image_surface surf;
	struct hl_image_props props;
	hsa_status_t st = mip_size_and_align(a, desc, "hsa_ext_image_create_v2", &info, &surf,
					     &props);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	return create(rt, a, &v1, data, perm, HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0,
		      (uint32_t)desc->mipmap_levels, image);
}

hsa_status_t hsa_ext_image_destroy_v2(hsa_agent_t agent, hsa_ext_image_t image)
{
	/* ROCr's: the same DestroyImageHandle as version 1, for single-level
	 * images, mipmapped arrays and level images alike. */
	return hsa_ext_image_destroy(agent, image);
}

hsa_status_t hsa_amd_image_create_v2(hsa_agent_t agent, const hsa_ext_image_descriptor_v2_t *desc,
				     const hsa_amd_image_descriptor_t *layout, const void *data,
				     hsa_access_permission_t perm, hsa_ext_image_t *image)
{
	REQUIRE_AGENT(rt, agent, a);
	(void)rt;
	if (!desc || !data || !image)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	if (desc->mipmap_levels > 1) {
		if (!a)
			return HSA_STATUS_ERROR_INVALID_AGENT;
		image->handle = 0;
		/* ROCr's CreateMipmapArrayHandleWithLayout takes the level
		 * offsets from metadata after the caller's T#, whose format
		 * no public header defines: not taken. */
		hsa_ext_image_data_info_t info;
		struct hl_image_surface surf;
		struct hl_image_props props;
		hsa_status_t st = mip_size_and_align(a, desc, "hsa_amd_image_create_v2", &info,
						     &surf, &props);
		if (st != HSA_STATUS_SUCCESS && st != (hsa_status_t)
		    HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED)
			return st;
		hl_error(LOG, "hsa_amd_image_create_v2: a mipmapped array (%zu levels) from a "
			 "caller's layout is not taken: IMAGE_SIZE_UNSUPPORTED", desc->mipmap_levels);
		return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED;
	}
	const hsa_ext_image_descriptor_t v1 = desc_v1(desc);
	/* hsa_amd_image_create's checks, a NULL layout (which ROCr reads)
	 * included. */
	return hsa_amd_image_create(agent, &v1, layout, data, perm, image);
}

/* Extent of mip level l of desc's level 0: halved and at least 1 (GFX9's
 * rule for a level's width, height and 3D depth); array layers kept. */
static void level_desc(hsa_ext_image_descriptor_t *d, uint32_t l)
{
	size_t *ext[3] = { &d->width, &d->height, &d->depth };
	const int n = d->geometry == HSA_EXT_IMAGE_GEOMETRY_3D ? 3 :
		      d->geometry == HSA_EXT_IMAGE_GEOMETRY_1D ||
		      d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? 1 : 2;
	for (int i = 0; i < n; i++) {
		size_t v = *ext[i] >> l;
		*ext[i] = v ? v : 1;
	}
}

hsa_status_t hsa_ext_image_mipmap_array_get_level(hsa_agent_t agent,
						  const hsa_ext_image_t *mipmapped_array,
						  uint32_t mip_level,
						  const hsa_ext_image_descriptor_v2_t *desc,
						  hsa_ext_image_t *level_image_out)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	/* ROCr's checks: the two handles' pointers; then the agent, the
	 * array and the level. */
	if (!mipmapped_array || !level_image_out)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_agent *a;
	hsa_status_t st = hl_image_check_agent(rt, agent, &a);
	if (st != HSA_STATUS_SUCCESS)
		return st;
	level_image_out->handle = 0;
	const struct hl_image *arr = hl_image_lookup(rt, mipmapped_array->handle);
	if (!arr || arr->chain.levels < 2 || mip_level >= arr->chain.levels) {
		hl_debug(LOG, "hsa_ext_image_mipmap_array_get_level(0x%llx, level %u): %s",
			 (unsigned long long)mipmapped_array->handle, mip_level,
			 arr && arr->chain.levels > 1 ? "past the last level"
						      : "not a mipmapped array");
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	}
	/* The format of the level image: the caller's, when given (ROCr:
	 * the array's T# rebuilt in it).  The layout stays the array's, so
	 * the element size must too. */
	struct hl_image_props props = arr->props;
	hsa_ext_image_format_t fmt = arr->desc.format;
	if (desc && (desc->format.channel_type != fmt.channel_type ||
		     desc->format.channel_order != fmt.channel_order)) {
		props = agent_props(a, arr->desc.geometry, desc->format);
		if (!props.cap || props.elem_bytes != arr->props.elem_bytes) {
			hl_debug(LOG, "mipmap_array_get_level: format (%u, %u) %s",
				 (unsigned)desc->format.channel_type,
				 (unsigned)desc->format.channel_order,
				 props.cap ? "has another element size than the array's"
					   : "is not supported");
			return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
		}
		fmt = desc->format;
	}
	struct hl_image_surface lsurf;
	uint64_t loff;
	if (hl_image_surface_level(&arr->chain, mip_level, &lsurf, &loff))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_image *img;
	if (hl_image_object_alloc(rt, sizeof(*img), (void **)&img))
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	img->agent = arr->agent;
	img->desc = arr->desc;
	img->desc.format = fmt;
	img->permission = arr->permission;
	img->props = props;
	img->chain = arr->chain;
	img->chain_data = arr->chain_data;
	img->level = mip_level;
	hl_image_write_srd(img, gpu_address(arr->agent, arr->chain_data));
	GFX9_DESC_SET(img->srd, GFX9_T_BASE_LEVEL, mip_level);
	GFX9_DESC_SET(img->srd, GFX9_T_LAST_LEVEL, mip_level);
	/* transfers: the level's extent, rows and first byte */
	level_desc(&img->desc, mip_level);
	img->surf = lsurf;
	img->data = (uint8_t *)arr->chain_data + loff;
	/* Published by the return of the handle, as create()'s. */
	img->magic = HL_IMAGE_MAGIC;
	level_image_out->handle = (uint64_t)(uintptr_t)img;
	return HSA_STATUS_SUCCESS;
}
