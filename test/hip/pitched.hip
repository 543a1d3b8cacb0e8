/*
 * Pitched allocations: hipMallocPitch and hipMalloc3D, which HIP 5.2.3
 * refuses (hipErrorInvalidValue) on a device without image support, so
 * they need the runtime's HSA_EXTENSION_IMAGES; then hipMemcpy2D and
 * hipMemcpy3D through the pitched memory and back, checked byte for byte,
 * and the padding between rows left alone.
 */
#include "hip_test.h"

int main(void)
{
	int images = 0;
	HT_CHECK(hipDeviceGetAttribute(&images, hipDeviceAttributeImageSupport, 0));
	HT_EXPECT(images == 1, "image support %d", images);

	const size_t width = 100, height = 10, depth = 4;
	void *p = NULL;
	size_t pitch = 0;
	HT_CHECK(hipMallocPitch(&p, &pitch, width, height));
	HT_EXPECT(pitch >= width && pitch % 256 == 0, "pitch %zu", pitch);
	uint8_t *host = (uint8_t *)malloc(width * height * depth);
	uint8_t *back = (uint8_t *)malloc(pitch * height * depth);
	HT_EXPECT(host && back, "malloc");
	ht_fill(host, width * height, 1);
	HT_CHECK(hipMemset2D(p, pitch, 0x5a, pitch, height));
	HT_CHECK(hipMemcpy2D(p, pitch, host, width, width, height, hipMemcpyHostToDevice));
	HT_CHECK(hipMemcpy(back, p, pitch * height, hipMemcpyDeviceToHost));
	for (size_t y = 0; y < height; y++) {
		HT_EXPECT(!memcmp(back + y * pitch, host + y * width, width), "row %zu", y);
		HT_EXPECT(back[y * pitch + width] == 0x5a, "padding of row %zu", y);
	}
	HT_CHECK(hipFree(p));
	printf("hipMallocPitch: pitch %zu, ok\n", pitch);

	hipPitchedPtr pp;
	HT_CHECK(hipMalloc3D(&pp, make_hipExtent(width, height, depth)));
	HT_EXPECT(pp.pitch >= width && pp.pitch % 256 == 0, "3D pitch %zu", pp.pitch);
	ht_fill(host, width * height * depth, 2);
	hipMemcpy3DParms up = {};
	up.srcPtr = make_hipPitchedPtr(host, width, width, height);
	up.dstPtr = pp;
	up.extent = make_hipExtent(width, height, depth);
	up.kind = hipMemcpyHostToDevice;
	HT_CHECK(hipMemcpy3D(&up));
	memset(back, 0, width * height * depth);
	hipMemcpy3DParms down = {};
	down.srcPtr = pp;
	down.dstPtr = make_hipPitchedPtr(back, width, width, height);
	down.extent = make_hipExtent(width, height, depth);
	down.kind = hipMemcpyDeviceToHost;
	HT_CHECK(hipMemcpy3D(&down));
	size_t bad = ht_mismatch(back, width * height * depth, 2);
	HT_EXPECT(bad == width * height * depth, "byte %zu", bad);
	HT_CHECK(hipFree(pp.ptr));
	printf("hipMalloc3D: pitch %zu, ok\n", pp.pitch);
	free(host);
	free(back);
	printf("pitched: PASS\n");
	return 0;
}
