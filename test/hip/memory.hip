/*
 * Copies and fills: hipMemcpy host->device->host with pageable (malloc) and
 * pinned (hipHostMalloc) host memory for sizes from 1 byte to 64 MiB
 * (argv[1]: the largest size in MiB, default 64) at aligned and unaligned
 * offsets on both sides (unaligned only up to 1 MiB: with SDMA off an
 * unaligned copy is a byte-wise blit kernel, slow in the interpreter); device-to-device copies;
 * hipMemset / hipMemsetD32 / hipMemsetAsync on unaligned ranges; hipMemcpy2D
 * host->device, device->device and device->host with three different
 * pitches.  Every byte that should have been written is compared, and the
 * bytes around it must be left alone.
 */
#include "hip_test.h"

#define MAX_SIZE (64u << 20)
#define SLACK 64u

static uint8_t *dev_buf, *dev_buf2;
static size_t max_size = MAX_SIZE;

/* host -> device at (hoff, doff), then device -> other host buffer at hoff2 */
static void roundtrip(uint8_t *src, uint8_t *dst, size_t n, size_t hoff, size_t doff,
		      size_t hoff2, uint32_t seed, const char *kind)
{
	ht_fill(src + hoff, n, seed);
	memset(dst, 0xEE, n + hoff2 + SLACK);
	HT_CHECK(hipMemcpy(dev_buf + doff, src + hoff, n, hipMemcpyHostToDevice));
	HT_CHECK(hipMemcpy(dst + hoff2, dev_buf + doff, n, hipMemcpyDeviceToHost));
	size_t bad = ht_mismatch(dst + hoff2, n, seed);
	HT_EXPECT(bad == n, "%s: %zu bytes, offsets host %zu dev %zu back %zu: byte %zu is 0x%02x,"
		  " expected 0x%02x", kind, n, hoff, doff, hoff2, bad, dst[hoff2 + bad],
		  ht_pattern(seed, bad));
	for (size_t i = 0; i < hoff2; i++)
		HT_EXPECT(dst[i] == 0xEE, "%s: %zu bytes: byte %zu before the copy written", kind,
			  n, i);
	for (size_t i = n + hoff2; i < n + hoff2 + SLACK; i++)
		HT_EXPECT(dst[i] == 0xEE, "%s: %zu bytes: byte %zu past the copy written", kind, n,
			  i - hoff2);
}

static void copies(uint8_t *src, uint8_t *dst, const char *kind)
{
	static const size_t sizes[] = { 1, 2, 3, 4, 7, 63, 64, 65, 255, 4095, 4096, 4097,
					65543, (1u << 20) + 13, 4u << 20, MAX_SIZE };
	static const size_t offs[][3] = { { 0, 0, 0 }, { 1, 0, 3 }, { 0, 5, 0 }, { 7, 3, 1 } };
	uint32_t seed = 1;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (size_t o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
			size_t n = sizes[s];
			if (n > max_size)
				continue;
			/* above 64 KiB: aligned and fully unaligned up to 1 MiB,
			 * only aligned beyond */
			if (n > 65543 && o != 0 && (o != 3 || n > (2u << 20)))
				continue;
			roundtrip(src, dst, n, offs[o][0], offs[o][1], offs[o][2], seed++, kind);
		}
	}
	printf("%s copies: ok\n", kind);
}

static void device_to_device(uint8_t *host)
{
	static const size_t cases[][3] = { /* n, src off, dst off */
		{ 1, 0, 0 }, { 13, 3, 1 }, { 4096, 0, 0 }, { 4099, 1, 2 }, { 1u << 20, 0, 0 },
		{ 65536 + 5, 7, 3 }, { 4u << 20, 0, 0 } };
	uint32_t seed = 100;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t n = cases[c][0], so = cases[c][1], dof = cases[c][2];
		ht_fill(host, n, seed);
		HT_CHECK(hipMemcpy(dev_buf + so, host, n, hipMemcpyHostToDevice));
		HT_CHECK(hipMemset(dev_buf2, 0x5A, n + dof + SLACK));
		HT_CHECK(hipMemcpy(dev_buf2 + dof, dev_buf + so, n, hipMemcpyDeviceToDevice));
		memset(host, 0, n + dof + SLACK);
		HT_CHECK(hipMemcpy(host, dev_buf2, n + dof + SLACK, hipMemcpyDeviceToHost));
		size_t bad = ht_mismatch(host + dof, n, seed);
		HT_EXPECT(bad == n, "D2D %zu bytes (src +%zu, dst +%zu): byte %zu wrong", n, so, dof,
			  bad);
		for (size_t i = 0; i < dof; i++)
			HT_EXPECT(host[i] == 0x5A, "D2D %zu: byte %zu before written", n, i);
		for (size_t i = n + dof; i < n + dof + SLACK; i++)
			HT_EXPECT(host[i] == 0x5A, "D2D %zu: byte %zu after written", n, i);
		seed++;
	}
	printf("device-to-device: ok\n");
}

static void fills(uint8_t *host)
{
	/* HIP 5.2.3 (ROCclr's host code) fills a range shorter than 8 bytes
	 * that starts past an 8-byte boundary and ends before the next one
	 * with a kernel of 2^61 - 1 elements, which faults on any GPU: no
	 * half of a case below is such a range. */
	static const size_t cases[][2] = { /* n, offset */
		{ 1, 0 }, { 2, 6 }, { 16, 4 }, { 64, 0 }, { 100, 7 }, { 4097, 1 },
		{ (1u << 20) + 3, 5 }, { 4u << 20, 0 } };
	hipStream_t s;
	HT_CHECK(hipStreamCreate(&s));
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t n = cases[c][0], off = cases[c][1], span = n + off + SLACK;
		uint8_t v = (uint8_t)(0x11 * (c + 1));
		uint8_t va = (uint8_t)~v;
		/* sync fill over a background, then an async fill of the back half */
		HT_CHECK(hipMemset(dev_buf, 0xC3, span));
		HT_CHECK(hipMemset(dev_buf + off, v, n));
		HT_CHECK(hipMemsetAsync(dev_buf + off + n / 2, va, n - n / 2, s));
		HT_CHECK(hipStreamSynchronize(s));
		HT_CHECK(hipMemcpy(host, dev_buf, span, hipMemcpyDeviceToHost));
		for (size_t i = 0; i < span; i++) {
			uint8_t want = i < off ? 0xC3 : i < off + n / 2 ? v : i < off + n ? va : 0xC3;
			HT_EXPECT(host[i] == want, "memset %zu at +%zu: byte %zu is 0x%02x, expected "
				  "0x%02x", n, off, i, host[i], want);
		}
	}
	/* 32-bit fill */
	const size_t words = (1u << 18) + 3;
	HT_CHECK(hipMemsetD32((hipDeviceptr_t)(dev_buf + 4), 0xDEADBEEF, words));
	HT_CHECK(hipMemcpy(host, dev_buf + 4, words * 4, hipMemcpyDeviceToHost));
	for (size_t i = 0; i < words; i++) {
		uint32_t w;
		memcpy(&w, host + 4 * i, 4);
		HT_EXPECT(w == 0xDEADBEEF, "memsetD32 word %zu is 0x%08x", i, w);
	}
	HT_CHECK(hipStreamDestroy(s));
	printf("fills: ok\n");
}

static void copy_2d(uint8_t *host)
{
	const size_t width = 300, height = 77, hpitch = 333, dpitch = 512, dpitch2 = 320;
	uint8_t *img = host, *out = host + hpitch * height + 4096;
	ht_fill(img, hpitch * height, 7);
	HT_CHECK(hipMemset(dev_buf, 0, dpitch * height));
	HT_CHECK(hipMemcpy2D(dev_buf, dpitch, img, hpitch, width, height, hipMemcpyHostToDevice));
	HT_CHECK(hipMemcpy2D(dev_buf2 + 3, dpitch2, dev_buf, dpitch, width, height,
			     hipMemcpyDeviceToDevice));
	memset(out, 0xEE, 400 * height);
	HT_CHECK(hipMemcpy2D(out, 400, dev_buf2 + 3, dpitch2, width, height,
			     hipMemcpyDeviceToHost));
	for (size_t y = 0; y < height; y++) {
		for (size_t x = 0; x < 400; x++) {
			uint8_t want = x < width ? img[y * hpitch + x] : 0xEE;
			HT_EXPECT(out[y * 400 + x] == want, "2D row %zu col %zu: 0x%02x, expected "
				  "0x%02x", y, x, out[y * 400 + x], want);
		}
	}
	/* the device pitch padding was never written */
	HT_CHECK(hipMemcpy(out, dev_buf, dpitch * height, hipMemcpyDeviceToHost));
	for (size_t y = 0; y < height; y++)
		for (size_t x = width; x < dpitch; x++)
			HT_EXPECT(out[y * dpitch + x] == 0, "2D padding row %zu col %zu written", y,
				  x);
	printf("2D copies: ok\n");
}

int main(int argc, char **argv)
{
	size_t cap = MAX_SIZE + 4096;
	if (argc > 1)
		max_size = (size_t)atoi(argv[1]) << 20;
	HT_CHECK(hipMalloc(&dev_buf, cap));
	HT_CHECK(hipMalloc(&dev_buf2, cap));

	uint8_t *src = (uint8_t *)malloc(cap), *dst = (uint8_t *)malloc(cap);
	HT_EXPECT(src && dst, "malloc of %zu bytes", cap);
	copies(src, dst, "pageable");
	free(src);
	free(dst);

	uint8_t *psrc, *pdst;
	HT_CHECK(hipHostMalloc(&psrc, cap, hipHostMallocDefault));
	HT_CHECK(hipHostMalloc(&pdst, cap, hipHostMallocDefault));
	copies(psrc, pdst, "pinned");

	device_to_device(psrc);
	fills(psrc);
	copy_2d(psrc);

	HT_CHECK(hipHostFree(psrc));
	HT_CHECK(hipHostFree(pdst));
	HT_CHECK(hipFree(dev_buf));
	HT_CHECK(hipFree(dev_buf2));
	printf("memory: PASS\n");
	return 0;
}
