/*
 * image_model.h — the host model of gfx90a image reads the image tests
 * check kfdemu against (test_isa_image, test_image_peer): texel decode of
 * normalized and float formats, DST_SEL, SQ_TEX_CLAMP address modes on
 * texel indices, point and bilinear filtering on texel-space coordinates
 * rounded to 8 fraction bits, border TRANS_BLACK.  Written from the
 * hardware rules (docs/kfdemu.md, "Image instructions"), not from the
 * interpreter.  The image is linear: texel (x, y, z) at
 * ((z * rows + y) * pitch + x) * bytes, rows = 1 for 1-D types.
 */
#ifndef IMAGE_MODEL_H
#define IMAGE_MODEL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* T# TYPE, number formats */
enum { T1D = 8, T2D = 9, T3D = 10, T1DA = 12, T2DA = 13 };
enum { UNORM = 0, SNORM = 1, UINT = 4, SINT = 5, FLOAT = 7 };
/* DST_SEL: X=4 Y=5 Z=6 W=7, 0, 1 */
#define SEL(x, y, z, w) ((x) | (y) << 3 | (z) << 6 | (w) << 9)
#define RGBA SEL(4, 5, 6, 7)
#define BGRA SEL(6, 5, 4, 7)
#define R001 SEL(4, 0, 0, 1)

struct img_model {
	uint8_t *data;
	unsigned type, nfmt, sel;
	uint32_t w, h, d, pitch, bytes, comps, bits;
};

static inline uint8_t *model_texel(const struct img_model *im, uint32_t x, uint32_t y, uint32_t z)
{
	uint32_t rows = (im->type == T1D || im->type == T1DA) ? 1 : im->h;
	return im->data + (((size_t)z * rows + y) * im->pitch + x) * im->bytes;
}


static inline uint32_t comp_raw(const struct img_model *im, const uint8_t *t, unsigned c)
{
	uint32_t v = 0;
	memcpy(&v, t + c * im->bits / 8, im->bits / 8);
	return v;
}

static inline float half_to_float(uint16_t h)
{
	int e = (h >> 10) & 31, m = h & 1023;
	float f = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY)
		: ldexpf((float)(m | 1024), e - 25);
	return h & 0x8000 ? -f : f;
}

/* Memory component c of a texel as the float the shader sees (normalized
 * and float formats). */
static inline float comp_float(const struct img_model *im, const uint8_t *t, unsigned c)
{
	uint32_t raw, max = im->bits == 32 ? 0xffffffffu : (1u << im->bits) - 1;
	if (c >= im->comps)
		return c == 3 ? 1.0f : 0.0f;
	raw = comp_raw(im, t, c);
	if (im->nfmt == FLOAT) {
		float f;
		if (im->bits == 16)
			return half_to_float((uint16_t)raw);
		memcpy(&f, &raw, 4);
		return f;
	}
	if (im->nfmt == SNORM) {
		int32_t s = (int32_t)(raw << (32 - im->bits)) >> (32 - im->bits);
		float f = (float)((double)s / (max >> 1));
		return f < -1.0f ? -1.0f : f;
	}
	return (float)((double)raw / max);
}

static inline void model_sel(const struct img_model *im, const float mem[4], float out[4])
{
	for (unsigned i = 0; i < 4; i++) {
		unsigned s = (im->sel >> (3 * i)) & 7;
		out[i] = s >= 4 ? mem[s - 4] : s == 1 ? 1.0f : 0.0f;
	}
}

/* SQ_TEX_CLAMP on a texel index: WRAP 0, MIRROR 1, LAST_TEXEL 2,
 * BORDER 6; -1 = border. */
static inline long model_addr(long i, long n, unsigned mode)
{
	long r;
	switch (mode) {
	case 0:
		r = i % n;
		return r < 0 ? r + n : r;
	case 1:
		r = i % (2 * n);
		if (r < 0)
			r += 2 * n;
		return r >= n ? 2 * n - 1 - r : r;
	case 2:
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	default:
		return i < 0 || i >= n ? -1 : i;
	}
}

/* Sampled value (dims 1-3 of c) per the hardware rules. */
static inline void model_sample(const struct img_model *im, unsigned clamp, unsigned linear, unsigned unnorm, const float *c, unsigned dims,
			 float out[4])
{
	uint32_t n[3] = { im->w, im->h, im->type == T3D ? im->d : 1 };
	long idx[3][2];
	float wt[3][2];
	unsigned cnt[3];
	float mem[4] = { 0, 0, 0, 0 };
	uint32_t slice = 0;

	if (im->type == T2DA || im->type == T1DA) {
		float r = rintf(c[dims]);
		slice = r < 0 ? 0 : r > im->d - 1 ? im->d - 1 : (uint32_t)r;
	}
	for (unsigned d = 0; d < 3; d++) {
		if (d >= dims) {
			cnt[d] = 1, idx[d][0] = 0, wt[d][0] = 1;
			continue;
		}
		double u = unnorm ? c[d] : (double)(c[d] * (float)n[d]);
		u = nearbyint(u * 256) / 256;
		if (!linear) {
			cnt[d] = 1;
			idx[d][0] = model_addr((long)floor(u), n[d], clamp);
			wt[d][0] = 1;
		} else {
			double v = u - 0.5, f = floor(v);
			cnt[d] = 2;
			idx[d][0] = model_addr((long)f, n[d], clamp);
			idx[d][1] = model_addr((long)f + 1, n[d], clamp);
			wt[d][1] = (float)(v - f);
			wt[d][0] = 1 - wt[d][1];
		}
	}
	for (unsigned k = 0; k < cnt[2]; k++)
		for (unsigned j = 0; j < cnt[1]; j++)
			for (unsigned i = 0; i < cnt[0]; i++) {
				float w = wt[0][i] * wt[1][j] * wt[2][k];
				float t[4] = { 0, 0, 0, 0 };
				if (idx[0][i] >= 0 && idx[1][j] >= 0 && idx[2][k] >= 0) {
					uint32_t z = im->type == T3D ? (uint32_t)idx[2][k] : slice;
					const uint8_t *p = model_texel(im, (uint32_t)idx[0][i], (uint32_t)idx[1][j], z);
					for (unsigned ch = 0; ch < 4; ch++)
						t[ch] = comp_float(im, p, ch);
				}       /* else the border: TRANS_BLACK, all 0 */
				for (unsigned ch = 0; ch < 4; ch++)
					mem[ch] += w * t[ch];
			}
	model_sel(im, mem, out);
}

#endif
