// Image kernels for test_isa_image (and the image peer test): copies through
// read_image*/write_image* and sampled reads, built with clang-19 and the
// rocm-device-libs (ockl's image functions become MIMG instructions).

__kernel void copy_1d(read_only image1d_t src, write_only image1d_t dst)
{
	int x = get_global_id(0);
	write_imagef(dst, x, read_imagef(src, x));
}

__kernel void copy_2d(read_only image2d_t src, write_only image2d_t dst)
{
	int2 p = (int2)(get_global_id(0), get_global_id(1));
	write_imagef(dst, p, read_imagef(src, p));
}

__kernel void copy_3d(read_only image3d_t src, write_only image3d_t dst)
{
	int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
	write_imagef(dst, p, read_imagef(src, p));
}

__kernel void copy_1da(read_only image1d_array_t src, write_only image1d_array_t dst)
{
	int2 p = (int2)(get_global_id(0), get_global_id(1));
	write_imagef(dst, p, read_imagef(src, p));
}

__kernel void copy_2da(read_only image2d_array_t src, write_only image2d_array_t dst)
{
	int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
	write_imagef(dst, p, read_imagef(src, p));
}

__kernel void copy_1db(read_only image1d_buffer_t src, write_only image1d_buffer_t dst)
{
	int x = get_global_id(0);
	write_imagef(dst, x, read_imagef(src, x));
}

__kernel void load_1db(read_only image1d_buffer_t src, __global const int *pos, __global float4 *out)
{
	int i = get_global_id(0);
	out[i] = read_imagef(src, pos[i]);
}

__kernel void copy_2d_depth(read_only image2d_depth_t src, write_only image2d_depth_t dst)
{
	int2 p = (int2)(get_global_id(0), get_global_id(1));
	write_imagef(dst, p, read_imagef(src, p));
}

__kernel void copy_2d_i(read_only image2d_t src, write_only image2d_t dst)
{
	int2 p = (int2)(get_global_id(0), get_global_id(1));
	write_imagei(dst, p, read_imagei(src, p));
}

__kernel void copy_2d_ui(read_only image2d_t src, write_only image2d_t dst)
{
	int2 p = (int2)(get_global_id(0), get_global_id(1));
	write_imageui(dst, p, read_imageui(src, p));
}

// Reads at any integer position (out of range included) into a buffer.
__kernel void load_2d(read_only image2d_t src, __global const int2 *pos, __global float4 *out)
{
	int i = get_global_id(0);
	out[i] = read_imagef(src, pos[i]);
}

// Writes values from a buffer (unclamped: the image format converts).
__kernel void store_2d(write_only image2d_t dst, __global const float4 *val)
{
	int2 p = (int2)(get_global_id(0), get_global_id(1));
	write_imagef(dst, p, val[p.y * get_global_size(0) + p.x]);
}

__kernel void store_2d_i(write_only image2d_t dst, __global const int4 *val)
{
	int2 p = (int2)(get_global_id(0), get_global_id(1));
	write_imagei(dst, p, val[p.y * get_global_size(0) + p.x]);
}

__kernel void sample_1d(read_only image1d_t src, sampler_t s, __global const float *c,
			__global float4 *out)
{
	int i = get_global_id(0);
	out[i] = read_imagef(src, s, c[i]);
}

__kernel void sample_2d(read_only image2d_t src, sampler_t s, __global const float2 *c,
			__global float4 *out)
{
	int i = get_global_id(0);
	out[i] = read_imagef(src, s, c[i]);
}

__kernel void sample_3d(read_only image3d_t src, sampler_t s, __global const float4 *c,
			__global float4 *out)
{
	int i = get_global_id(0);
	out[i] = read_imagef(src, s, c[i]);
}

__kernel void sample_2da(read_only image2d_array_t src, sampler_t s, __global const float4 *c,
			 __global float4 *out)
{
	int i = get_global_id(0);
	out[i] = read_imagef(src, s, c[i]);
}

__kernel void sample_2d_ui(read_only image2d_t src, sampler_t s, __global const float2 *c,
			   __global uint4 *out)
{
	int i = get_global_id(0);
	out[i] = read_imageui(src, s, c[i]);
}

// Half-precision reads and writes (D16 image instructions).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void load_2d_h(read_only image2d_t src, __global const int2 *pos, __global half4 *out)
{
	int i = get_global_id(0);
	out[i] = read_imageh(src, pos[i]);
}

__kernel void store_2d_h(write_only image2d_t dst, __global const half4 *val)
{
	int2 p = (int2)(get_global_id(0), get_global_id(1));
	write_imageh(dst, p, val[p.y * get_global_size(0) + p.x]);
}

__kernel void sample_2d_h(read_only image2d_t src, sampler_t s, __global const float2 *c,
			  __global half4 *out)
{
	int i = get_global_id(0);
	out[i] = read_imageh(src, s, c[i]);
}

// Mip levels (image v2 mip chains; test/image_peer/test_image_mip.c): ockl's
// _lod functions are image_load_mip / image_store_mip; the image arguments
// are the descriptors' addresses (the image handles), as OpenCL passes an
// image.
float4 __ockl_image_load_lod_1D(__constant uint *i, int c, int l);
void __ockl_image_store_lod_1D(__constant uint *i, int c, int l, float4 p);
float4 __ockl_image_load_lod_1Da(__constant uint *i, int2 c, int l);
void __ockl_image_store_lod_1Da(__constant uint *i, int2 c, int l, float4 p);
float4 __ockl_image_load_lod_2D(__constant uint *i, int2 c, int l);
void __ockl_image_store_lod_2D(__constant uint *i, int2 c, int l, float4 p);
float4 __ockl_image_load_lod_2Da(__constant uint *i, int4 c, int l);
void __ockl_image_store_lod_2Da(__constant uint *i, int4 c, int l, float4 p);
float4 __ockl_image_load_lod_3D(__constant uint *i, int4 c, int l);
void __ockl_image_store_lod_3D(__constant uint *i, int4 c, int l, float4 p);

__kernel void mip_copy_1d(__constant uint *src, __constant uint *dst, int lod)
{
	int x = get_global_id(0);
	__ockl_image_store_lod_1D(dst, x, lod, __ockl_image_load_lod_1D(src, x, lod));
}

__kernel void mip_copy_1da(__constant uint *src, __constant uint *dst, int lod)
{
	int2 p = (int2)(get_global_id(0), get_global_id(1));
	__ockl_image_store_lod_1Da(dst, p, lod, __ockl_image_load_lod_1Da(src, p, lod));
}

__kernel void mip_copy_2d(__constant uint *src, __constant uint *dst, int lod)
{
	int2 p = (int2)(get_global_id(0), get_global_id(1));
	__ockl_image_store_lod_2D(dst, p, lod, __ockl_image_load_lod_2D(src, p, lod));
}

// (x, y, layer): the layer is the grid's z
__kernel void mip_copy_2da(__constant uint *src, __constant uint *dst, int lod)
{
	int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
	__ockl_image_store_lod_2Da(dst, p, lod, __ockl_image_load_lod_2Da(src, p, lod));
}

__kernel void mip_copy_3d(__constant uint *src, __constant uint *dst, int lod)
{
	int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
	__ockl_image_store_lod_3D(dst, p, lod, __ockl_image_load_lod_3D(src, p, lod));
}
