/*
 * The format table: which (channel order, channel type, geometry) a GFX9 GPU
 * supports and how the hardware reads it.  The values are ROCr 5.2.3's
 * (image_lut_kv.cpp, used by ImageManagerAi for gfx9): HSA PRM table 9-4
 * combinations, read-write except sRGBA (read-only) and depth (read or
 * write only); 1DB (a buffer) takes no sRGB order and no 555/565 packing;
 * the depth geometries take only the depth orders.  ROCr indexes its table
 * with the caller's order and type unchecked; we answer "unsupported" for
 * values outside the enumerations.
 */
#include "image/image_priv.h"

#define RO HSA_EXT_IMAGE_CAPABILITY_READ_ONLY
#define ROWO (HSA_EXT_IMAGE_CAPABILITY_READ_ONLY | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY)
#define RW (ROWO | HSA_EXT_IMAGE_CAPABILITY_READ_WRITE)

bool hl_image_geometry_valid(uint32_t geometry)
{
	return geometry <= HSA_EXT_IMAGE_GEOMETRY_2DADEPTH;
}

/* One channel of each type: bytes, then the data format for 1, 2 and 4
 * channels, and the numeric format.  Bytes 0: no such channel type. */
struct channel {
	uint8_t bytes;
	uint8_t fmt[3];
	uint8_t num;
};

static const struct channel channels[16] = {
	[HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8] = { 1, { HL_FMT_8, HL_FMT_8_8, HL_FMT_8_8_8_8 },
						    HL_NUM_SNORM },
	[HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16] = { 2,
						     { HL_FMT_16, HL_FMT_16_16,
						       HL_FMT_16_16_16_16 },
						     HL_NUM_SNORM },
	[HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8] = { 1, { HL_FMT_8, HL_FMT_8_8, HL_FMT_8_8_8_8 },
						    HL_NUM_UNORM },
	[HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16] = { 2,
						     { HL_FMT_16, HL_FMT_16_16,
						       HL_FMT_16_16_16_16 },
						     HL_NUM_UNORM },
	[HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8] = { 1, { HL_FMT_8, HL_FMT_8_8, HL_FMT_8_8_8_8 },
						     HL_NUM_SINT },
	[HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16] = { 2,
						      { HL_FMT_16, HL_FMT_16_16,
							HL_FMT_16_16_16_16 },
						      HL_NUM_SINT },
	[HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32] = { 4,
						      { HL_FMT_32, HL_FMT_32_32,
							HL_FMT_32_32_32_32 },
						      HL_NUM_SINT },
	[HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8] = { 1,
						       { HL_FMT_8, HL_FMT_8_8,
							 HL_FMT_8_8_8_8 },
						       HL_NUM_UINT },
	[HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16] = { 2,
							{ HL_FMT_16, HL_FMT_16_16,
							  HL_FMT_16_16_16_16 },
							HL_NUM_UINT },
	[HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32] = { 4,
							{ HL_FMT_32, HL_FMT_32_32,
							  HL_FMT_32_32_32_32 },
							HL_NUM_UINT },
	[HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT] = { 2,
						    { HL_FMT_16, HL_FMT_16_16,
						      HL_FMT_16_16_16_16 },
						    HL_NUM_FLOAT },
	[HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT] = { 4, { HL_FMT_32, HL_FMT_32_32, HL_FMT_32_32_32_32 },
					       HL_NUM_FLOAT },
};

static struct hl_image_props make(uint8_t cap, uint32_t type, unsigned n_channels)
{
	const struct channel *c = &channels[type];
	struct hl_image_props p = { 0, 0, 0, 0 };
	if (!c->bytes)
		return p;
	p.cap = cap;
	p.elem_bytes = (uint8_t)(c->bytes * n_channels);
	p.data_format = c->fmt[n_channels == 4 ? 2 : n_channels - 1];
	p.num_format = c->num;
	return p;
}

static bool is_norm(uint32_t t)
{
	return t <= HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16;
}

/* The table, without the geometry restrictions. */
static struct hl_image_props lookup(uint32_t order, uint32_t type)
{
	struct hl_image_props none = { 0, 0, 0, 0 };
	switch (order) {
	case HSA_EXT_IMAGE_CHANNEL_ORDER_A:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_R:
		return make(RW, type, 1);
	case HSA_EXT_IMAGE_CHANNEL_ORDER_RG:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_RA:
		return make(RW, type, 2);
	case HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA:
		return make(RW, type, 4);
	case HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB:
		if (type == HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8 ||
		    type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8 ||
		    type == HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8 ||
		    type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8)
			return make(RW, type, 4);
		return none;
	case HSA_EXT_IMAGE_CHANNEL_ORDER_RGB: {
		struct hl_image_props p = { RW, 2, 0, HL_NUM_UNORM };
		if (type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555)
			p.data_format = HL_FMT_1_5_5_5;
		else if (type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565)
			p.data_format = HL_FMT_5_6_5;
		else if (type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_101010) {
			p.data_format = HL_FMT_2_10_10_10;
			p.elem_bytes = 4;
		} else
			return none;
		return p;
	}
	case HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA:
		if (type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8) {
			struct hl_image_props p = { RO, 4, HL_FMT_8_8_8_8, HL_NUM_SRGB };
			return p;
		}
		return none;
	case HSA_EXT_IMAGE_CHANNEL_ORDER_INTENSITY:
	case HSA_EXT_IMAGE_CHANNEL_ORDER_LUMINANCE:
		if (is_norm(type) || type == HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT ||
		    type == HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT)
			return make(RW, type, 1);
		return none;
	case HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH:
		/* ROCr lists UNORM_INT24 with capability 0 (a TODO): unsupported. */
		if (type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16 ||
		    type == HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT)
			return make(ROWO, type, 1);
		return none;
	default:
		/* RX, RGX, RGBX, ABGR, SRGB, SRGBX, SBGRA, DEPTH_STENCIL */
		return none;
	}
}

struct hl_image_props hl_image_props(hsa_ext_image_geometry_t g, hsa_ext_image_format_t f)
{
	struct hl_image_props none = { 0, 0, 0, 0 };
	uint32_t order = f.channel_order, type = f.channel_type;
	if (!hl_image_geometry_valid(g) || order > HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH_STENCIL ||
	    type > HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT)
		return none;
	switch (g) {
	case HSA_EXT_IMAGE_GEOMETRY_1DB:
		if (order >= HSA_EXT_IMAGE_CHANNEL_ORDER_SRGB &&
		    order <= HSA_EXT_IMAGE_CHANNEL_ORDER_SBGRA)
			return none;
		if (type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555 ||
		    type == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565)
			return none;
		return lookup(order, type);
	case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
	case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH:
		if (order != HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH &&
		    order != HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH_STENCIL)
			return none;
		return lookup(order, type);
	default:
		return lookup(order, type);
	}
}

void hl_image_swizzle(uint32_t order, uint8_t sel[4])
{
	static const uint8_t table[20][4] = {
		[HSA_EXT_IMAGE_CHANNEL_ORDER_A] = { HL_SEL_0, HL_SEL_0, HL_SEL_0, HL_SEL_X },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_R] = { HL_SEL_X, HL_SEL_0, HL_SEL_0, HL_SEL_1 },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_RX] = { HL_SEL_X, HL_SEL_0, HL_SEL_0, HL_SEL_1 },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_RG] = { HL_SEL_X, HL_SEL_Y, HL_SEL_0, HL_SEL_1 },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_RGX] = { HL_SEL_X, HL_SEL_Y, HL_SEL_0, HL_SEL_1 },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_RA] = { HL_SEL_X, HL_SEL_0, HL_SEL_0, HL_SEL_Y },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_RGB] = { HL_SEL_Z, HL_SEL_Y, HL_SEL_X, HL_SEL_1 },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_RGBX] = { HL_SEL_Z, HL_SEL_Y, HL_SEL_X, HL_SEL_1 },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA] = { HL_SEL_X, HL_SEL_Y, HL_SEL_Z, HL_SEL_W },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA] = { HL_SEL_Z, HL_SEL_Y, HL_SEL_X, HL_SEL_W },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB] = { HL_SEL_Y, HL_SEL_Z, HL_SEL_W, HL_SEL_X },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_ABGR] = { HL_SEL_Y, HL_SEL_X, HL_SEL_W, HL_SEL_Z },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_SRGB] = { HL_SEL_X, HL_SEL_Y, HL_SEL_Z, HL_SEL_1 },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBX] = { HL_SEL_X, HL_SEL_Y, HL_SEL_Z, HL_SEL_1 },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA] = { HL_SEL_X, HL_SEL_Y, HL_SEL_Z, HL_SEL_W },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_SBGRA] = { HL_SEL_Z, HL_SEL_Y, HL_SEL_X, HL_SEL_W },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_INTENSITY] = { HL_SEL_X, HL_SEL_X, HL_SEL_X, HL_SEL_X },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_LUMINANCE] = { HL_SEL_X, HL_SEL_X, HL_SEL_X, HL_SEL_1 },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH] = { HL_SEL_X, HL_SEL_0, HL_SEL_0, HL_SEL_0 },
		[HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH_STENCIL] = { HL_SEL_Y, HL_SEL_0, HL_SEL_0,
								HL_SEL_0 },
	};
	for (int i = 0; i < 4; i++)
		sel[i] = order < 20 ? table[order][i] : HL_SEL_0;
}

uint32_t hl_image_hw_type(hsa_ext_image_geometry_t g)
{
	/* SQ_RSRC_IMG_1D, 2D, 3D, 1D_ARRAY, 2D_ARRAY */
	static const uint8_t types[8] = { 8, 9, 10, 12, 13, 0, 9, 13 };
	return hl_image_geometry_valid(g) ? types[g] : 0;
}

void hl_image_max_dims(hsa_ext_image_geometry_t g, uint32_t dims[4])
{
	static const uint32_t limits[8][4] = {
		{ 16384, 1, 1, 1 },         /* 1D */
		{ 16384, 16384, 1, 1 },     /* 2D */
		{ 16384, 16384, 8192, 1 },  /* 3D */
		{ 16384, 1, 1, 8192 },      /* 1DA */
		{ 16384, 16384, 1, 8192 },  /* 2DA */
		{ 4294967295u, 1, 1, 1 },   /* 1DB */
		{ 16384, 16384, 1, 1 },     /* 2DDEPTH */
		{ 16384, 16384, 1, 8192 },  /* 2DADEPTH */
	};
	for (int i = 0; i < 4; i++)
		dims[i] = hl_image_geometry_valid(g) ? limits[g][i] : 0;
}
