/*
 * The image extension's private header (its files and its unit tests; other
 * modules use image/image.h) (HSA_EXTENSION_IMAGES): formats,
 * the GFX9 surface layout, the hardware descriptors and the image and
 * sampler objects.  ROCr 5.2.3's src/image is the model for every value a
 * client can see; the files say which of its facts they follow.
 *
 *   format.c      the format table: capability, element size, hardware
 *                 data/number format, channel swizzle, geometry limits
 *   surface.c     the GFX9 surface layout addrlib computes for ROCr: swizzle
 *                 mode, pitch, size, alignment (linear and tiled; linear
 *                 mip chains and their levels)
 *   descriptor.c  the image (T#, V# for 1DB) and sampler (S#) dwords
 *   image.c       image objects and the API: capability, data info,
 *                 create, destroy, max dimensions; the v2 calls, mipmapped
 *                 arrays and their level images
 *   transfer.c    import, export, copy, clear
 *   sampler.c     sampler objects
 *
 * Objects live in GPU-visible system memory (the kernarg pool, as ROCr's
 * Image::Create), one allocation each; the public handle is the address of
 * the descriptor, which is the start of the allocation.  A handle is
 * validated by looking the allocation up and checking the object's magic.
 */
#ifndef HSALITE_IMAGE_PRIV_H
#define HSALITE_IMAGE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hsa/hsa_ext_image.h"
#include "image/image.h"
#include "runtime/runtime.h"

/* ---- format.c ---- */

/* ROCr's ImageProperty of a (format, geometry): cap 0 when unsupported. */
struct hl_image_props {
	uint8_t cap;           /* hsa_ext_image_format_capability_t mask */
	uint8_t elem_bytes;    /* bytes per element */
	uint8_t data_format;   /* SQ FMT_* */
	uint8_t num_format;    /* SQ TYPE_* */
};

/* Hardware channel selects (SQ SEL_*). */
enum { HL_SEL_0 = 0, HL_SEL_1 = 1, HL_SEL_X = 4, HL_SEL_Y = 5, HL_SEL_Z = 6, HL_SEL_W = 7 };
/* Hardware numeric formats used by the table (SQ TYPE_*). */
enum { HL_NUM_UNORM = 0, HL_NUM_SNORM = 1, HL_NUM_UINT = 4, HL_NUM_SINT = 5, HL_NUM_FLOAT = 7,
       HL_NUM_SRGB = 9 };
/* Hardware data formats used by the table (SQ FMT_*). */
enum { HL_FMT_8 = 1, HL_FMT_16 = 2, HL_FMT_8_8 = 3, HL_FMT_32 = 4, HL_FMT_16_16 = 5,
       HL_FMT_2_10_10_10 = 9, HL_FMT_8_8_8_8 = 10, HL_FMT_32_32 = 11, HL_FMT_16_16_16_16 = 12,
       HL_FMT_32_32_32_32 = 14, HL_FMT_5_6_5 = 16, HL_FMT_1_5_5_5 = 17 };

bool hl_image_geometry_valid(uint32_t geometry);
/* The properties of format in geometry; all zero when the pair is not
 * supported or either value is out of range. */
struct hl_image_props hl_image_props(hsa_ext_image_geometry_t g, hsa_ext_image_format_t f);
/* dst_sel of the four result channels (r, g, b, a) for a channel order. */
void hl_image_swizzle(uint32_t order, uint8_t sel[4]);
/* SQ_RSRC_IMG_* of a geometry (0 for 1DB). */
uint32_t hl_image_hw_type(hsa_ext_image_geometry_t g);
/* Largest width, height, depth and array size of a geometry. */
void hl_image_max_dims(hsa_ext_image_geometry_t g, uint32_t dims[4]);

/* ---- surface.c ---- */

/* GFX9 swizzle modes (AddrSwizzleMode) ROCr's choices come from. */
enum { HL_SW_LINEAR = 0 };

struct hl_image_surface {
	uint32_t sw_mode;      /* SW_MODE of the T# */
	uint32_t pitch;        /* elements per row */
	uint32_t height;       /* rows per slice, padded */
	uint32_t slices;       /* array layers or depth, at least 1 */
	uint32_t levels;       /* mip levels, at least 1 (more: a linear chain) */
	uint32_t base_height;  /* level 0's height, 1 for 1D (the chain's rule) */
	uint32_t elem_bytes;
	uint64_t slice_size;   /* bytes */
	uint64_t size;         /* bytes */
	uint64_t align;        /* bytes */
	/* tiled modes: block dimensions in elements, whether the resource is
	 * 3D, and the GPU's GB_ADDR_CONFIG (set by the image's creator: the
	 * element order depends on the pipes and banks) */
	uint32_t block_w, block_h, block_d;
	bool tex3d;
	uint32_t gb_addr_config;
};

/* The surface of desc as ROCr's ImageManagerAi computes it with addrlib:
 * tiled selects the optimal layout (ROCr's Image::TILED), else linear;
 * row_pitch (bytes, 0 = none) is a customised linear pitch; levels the mip
 * levels (1: one; a chain is laid out linear even where tiled asks for
 * the optimal layout, as addrlib's tiled mip chain is not modelled).
 * -EINVAL where addrlib fails (ROCr: HSA_STATUS_ERROR). */
int hl_image_surface(const struct hl_agent *agent, const hsa_ext_image_descriptor_t *desc,
		     const struct hl_image_props *props, bool tiled, size_t row_pitch,
		     uint32_t levels, struct hl_image_surface *out);
/* Mip level `level` of a chain as a one-level surface (the same pitch and
 * slice size; *offset: its first byte from the chain's) for the element
 * addressing of transfers.  -EINVAL for a level past the chain. */
int hl_image_surface_level(const struct hl_image_surface *chain, uint32_t level,
			   struct hl_image_surface *out, uint64_t *offset);
/* Byte offset of element (x, y, z) in the surface (z: slice or layer);
 * tiled modes in the GFX9 element order (gfx9_swizzle.h). */
uint64_t hl_image_surface_offset(const struct hl_image_surface *s, uint32_t x, uint32_t y,
				 uint32_t z);

/* ---- image objects (image.c) ---- */

#define HL_IMAGE_MAGIC   0x494d4731u  /* "IMG1" */
#define HL_SAMPLER_MAGIC 0x534d5031u  /* "SMP1" */

struct hl_image {
	uint32_t srd[12];      /* the handle points here: T# (or V#), then
	                        * channel type, channel order, width, 0 */
	uint32_t magic;
	struct hl_agent *agent;
	hsa_ext_image_descriptor_t desc;
	hsa_access_permission_t permission;
	struct hl_image_props props;
	struct hl_image_surface surf;  /* of the level transfers address */
	void *data;                    /* that level's first byte */
	/* mip chains (hsa_ext_image_create_v2 with mipmap_levels > 1) and
	 * their level images (hsa_ext_image_mipmap_array_get_level): the
	 * whole chain's surface and first byte, and the level this image
	 * shows (BASE_LEVEL = LAST_LEVEL of a level image's T#).  A
	 * single-level image has chain.levels 1. */
	struct hl_image_surface chain;
	void *chain_data;
	uint32_t level;
};
_Static_assert(offsetof(struct hl_image, srd) == 0, "the handle is the descriptor");

struct hl_sampler {
	uint32_t srd[8];       /* S# in the first four dwords */
	uint32_t magic;
	struct hl_agent *agent;
	hsa_ext_sampler_descriptor_t desc;
};
_Static_assert(offsetof(struct hl_sampler, srd) == 0, "the handle is the descriptor");

/* The image of a handle, or NULL when the handle names none. */
struct hl_image *hl_image_lookup(struct hl_runtime *rt, uint64_t handle);
struct hl_sampler *hl_sampler_lookup(struct hl_runtime *rt, uint64_t handle);
/* The image attributes of hsa_agent_get_info (HSA_EXT_AGENT_INFO_*):
 * INVALID_ARGUMENT for an attribute outside them. */
hsa_status_t hl_image_agent_info(const struct hl_agent *a, uint32_t attr, void *value);
/* An object of size bytes in GPU-visible system memory; freed with
 * hl_image_object_free. */
int hl_image_object_alloc(struct hl_runtime *rt, size_t size, void **out);
void hl_image_object_free(void *obj);
/* The API's common agent check: INVALID_AGENT for handle 0 or a stranger. */
hsa_status_t hl_image_check_agent(struct hl_runtime *rt, hsa_agent_t agent,
				  struct hl_agent **out);
/* Whether images work on this GPU (the GFX9 family ROCr 5.2.3 handles). */
bool hl_image_gpu_supported(const struct hl_agent *agent);

/* ---- descriptor.c ---- */

/* Fills img->srd from desc, props, surf and data. */
void hl_image_write_srd(struct hl_image *img, uint64_t gpu_address);
/* Fills the S# of a sampler; -EINVAL for a descriptor value out of range. */
int hl_sampler_write_srd(uint32_t srd[8], const hsa_ext_sampler_descriptor_t *d);
/* The same with one addressing mode per axis (hsa_ext_sampler_create_v2). */
int hl_sampler_write_srd_v2(uint32_t srd[8], const hsa_ext_sampler_descriptor_v2_t *d);

/* ---- transfer.c ---- */

/* Encodes a clear colour (four floats, or four 32-bit integers for the
 * integer channel types) as one element of img's format. */
void hl_image_pack_color(const struct hl_image *img, const void *color, uint8_t out[16]);

#endif /* HSALITE_IMAGE_PRIV_H */
