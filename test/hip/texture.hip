/*
 * HIP textures: hipMallocArray (an opaque HSA image: tiled on GFX9),
 * hipMemcpy2DToArray in, a kernel sampling it with tex2D and linear
 * filtering (unnormalized coordinates, clamp), compared with a host
 * bilinear reference, and hipMemcpy2DFromArray back bit for bit.  HIP
 * 5.2.3 refuses arrays without the runtime's HSA_EXTENSION_IMAGES.
 */
#include "hip_test.h"
#include <math.h>

__global__ void sample(hipTextureObject_t tex, float *out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	if (x >= w || y >= h)
		return;
	out[y * w + x] = tex2D<float>(tex, x + 0.75f, y + 0.25f);
}

int main(void)
{
	const int w = 40, h = 9;
	float *host = (float *)malloc(w * h * sizeof(float));
	for (int i = 0; i < w * h; i++)
		host[i] = (float)((i * 37) % 101);
	hipChannelFormatDesc fmt = hipCreateChannelDesc<float>();
	hipArray_t arr;
	HT_CHECK(hipMallocArray(&arr, &fmt, w, h, 0));
	HT_CHECK(hipMemcpy2DToArray(arr, 0, 0, host, w * sizeof(float), w * sizeof(float), h,
				    hipMemcpyHostToDevice));
	hipResourceDesc rd = {};
	rd.resType = hipResourceTypeArray;
	rd.res.array.array = arr;
	hipTextureDesc td = {};
	td.addressMode[0] = td.addressMode[1] = hipAddressModeClamp;
	td.filterMode = hipFilterModeLinear;
	td.readMode = hipReadModeElementType;
	td.normalizedCoords = 0;
	hipTextureObject_t tex;
	HT_CHECK(hipCreateTextureObject(&tex, &rd, &td, NULL));
	float *dout;
	HT_CHECK(hipMalloc(&dout, w * h * sizeof(float)));
	hipLaunchKernelGGL(sample, dim3(1, h), dim3(64), 0, 0, tex, dout, w, h);
	HT_CHECK(hipGetLastError());
	float *out = (float *)malloc(w * h * sizeof(float));
	HT_CHECK(hipMemcpy(out, dout, w * h * sizeof(float), hipMemcpyDeviceToHost));
	int bad = 0;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			/* unnormalized: texel centres at +0.5; x + 0.75 -> between x and x+1 weight .25 */
			float fx = x + 0.75f - 0.5f, fy = y + 0.25f - 0.5f;
			int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
			float ax = fx - x0, ay = fy - y0;
			auto at = [&](int xx, int yy) {
				xx = xx < 0 ? 0 : xx >= w ? w - 1 : xx;
				yy = yy < 0 ? 0 : yy >= h ? h - 1 : yy;
				return host[yy * w + xx];
			};
			float e = (1 - ax) * (1 - ay) * at(x0, y0) + ax * (1 - ay) * at(x0 + 1, y0) +
				  (1 - ax) * ay * at(x0, y0 + 1) + ax * ay * at(x0 + 1, y0 + 1);
			if (fabsf(out[y * w + x] - e) > 0.5f && bad++ < 5)
				fprintf(stderr, "(%d,%d): %f, expected %f\n", x, y, out[y * w + x], e);
		}
	/* and back out of the array */
	float *back = (float *)malloc(w * h * sizeof(float));
	HT_CHECK(hipMemcpy2DFromArray(back, w * sizeof(float), arr, 0, 0, w * sizeof(float), h,
				      hipMemcpyDeviceToHost));
	HT_EXPECT(!memcmp(back, host, w * h * sizeof(float)), "array round trip");
	HT_EXPECT(!bad, "%d texels off", bad);
	HT_CHECK(hipDestroyTextureObject(tex));
	HT_CHECK(hipFreeArray(arr));
	HT_CHECK(hipFree(dout));
	printf("texture: PASS\n");
	return 0;
}
