/*
 * The runtime's blit kernels: linear copy, rectangular copy and fill, run by
 * src/copy on a GPU's internal blit queue (hsa_amd_memory_async_copy,
 * hsa_memory_copy, hsa_amd_memory_async_copy_rect, hsa_amd_memory_fill).
 *
 * Built by CMake for every supported gfx (src/copy/CMakeLists fragment in
 * src/CMakeLists.txt) and embedded in the library as a C array.
 *
 * Work split: every kernel is a grid-stride loop over 16-byte units with
 * the stride passed in (the host sizes the grid to the copy: one wave for
 * a small copy, a bounded number of waves for a large one), so any grid
 * covers any size.  Only workgroup and workitem ids are read: no hidden
 * arguments, so the code object's version does not matter.
 *
 * Alignment: vload16/vstore16 on uchar pointers carry byte alignment; gfx9
 * runs with SH_MEM_CONFIG.alignment_mode = unaligned (amdgpu's default for
 * compute), so the compiler may use dwordx4 accesses at any address; a
 * copy of any alignment and size is correct either way.
 */

#define WG 64u

/* 16 bytes at any byte address (see the alignment note above). */
typedef uint4 __attribute__((aligned(1))) hl_u16b;
/* 16 bytes at a 4-byte aligned address. */
typedef uint4 __attribute__((aligned(4))) hl_u16d;

static inline ulong hl_id(void)
{
	return (ulong)__builtin_amdgcn_workgroup_id_x() * WG + __builtin_amdgcn_workitem_id_x();
}

/* dst[0..size) = src[0..size); stride = the grid's work-items.  Four units
 * per lane per round (loads first, then stores), so a round costs one loop
 * test and one address step for 64 bytes a lane; lanes stay interleaved
 * 16 bytes apart within each of the four, as in the one-unit loop. */
__kernel void hl_copy(__global const uchar *src, __global uchar *dst, ulong size, ulong stride)
{
	__global const hl_u16b *s = (__global const hl_u16b *)src;
	__global hl_u16b *d = (__global hl_u16b *)dst;
	ulong id = hl_id();
	ulong units = size >> 4;
	ulong i = id;
	for (; i + 3 * stride < units; i += 4 * stride) {
		uint4 a = s[i], b = s[i + stride], c = s[i + 2 * stride], e = s[i + 3 * stride];
		d[i] = a;
		d[i + stride] = b;
		d[i + 2 * stride] = c;
		d[i + 3 * stride] = e;
	}
	for (; i < units; i += stride)
		d[i] = s[i];
	ulong t = (units << 4) + id;
	if (t < size)
		dst[t] = src[t];
}

/* A 3-D box: rows of width bytes, height rows per slice, depth slices. */
__kernel void hl_copy_rect(__global const uchar *src, ulong src_pitch, ulong src_slice,
			   __global uchar *dst, ulong dst_pitch, ulong dst_slice,
			   ulong width, ulong height, ulong depth, ulong stride)
{
	ulong chunks = (width + 15) >> 4;
	ulong total = chunks * height * depth;
	for (ulong i = hl_id(); i < total; i += stride) {
		ulong c = i % chunks, r = i / chunks;
		ulong y = r % height, z = r / height;
		__global const uchar *s = src + z * src_slice + y * src_pitch + (c << 4);
		__global uchar *d = dst + z * dst_slice + y * dst_pitch + (c << 4);
		ulong left = width - (c << 4);
		if (left >= 16) {
			*(__global hl_u16b *)d = *(__global const hl_u16b *)s;
		} else {
			for (ulong k = 0; k < left; k++)
				d[k] = s[k];
		}
	}
}

/* count 32-bit values at dst (4-byte aligned) set to value. */
__kernel void hl_fill(__global uint *dst, ulong count, uint value, ulong stride)
{
	ulong id = hl_id();
	ulong units = count >> 2;
	uint4 v = (uint4)(value);
	for (ulong i = id; i < units; i += stride)
		((__global hl_u16d *)dst)[i] = v;
	ulong t = (units << 2) + id;
	if (t < count)
		dst[t] = value;
}
