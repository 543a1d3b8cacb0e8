/*
 * libFuzzer target for the loader's code-object layer: every input goes
 * through hl_co_parse (ELF header, program headers, sections, .dynsym,
 * .rela.dyn, the NT_AMDGPU_METADATA msgpack note, kernel descriptors), and
 * whatever parses is checked against two agent ISAs and placed into a host
 * buffer with its relocations applied (hl_co_place), i.e. the whole path a
 * load takes short of the GPU allocation.  The loader never runs on a
 * device here, so the target needs neither kfdemu nor hsa_init.
 *
 * Built only with a clang that supports -fsanitize=fuzzer (test/fuzz/
 * CMakeLists.txt), with ASan and UBSan; seeded with the test kernels.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loader/loader_priv.h"

#define MAX_PLACE (16u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int resolve_any(void *ctx, const char *name, uint64_t *value)
{
	(void)ctx;
	*value = 0x200000000000ull + strlen(name); /* touches the whole name */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hl_code_object *co = NULL;
	if (hl_co_parse(data, size, &co) != 0)
		return 0;
	(void)hl_co_check_isa(co, "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-");
	(void)hl_co_check_isa(co, "amdgcn-amd-amdhsa--gfx942:sramecc-:xnack+");
	volatile uint64_t sink = 0;
	for (uint32_t k = 0; k < co->n_kernels; k++)
		sink += strlen(co->kernels[k].name) + strlen(co->kernels[k].symbol) +
			co->kernels[k].kernarg_size + co->kernels[k].kd[63];
	uint64_t n = hl_co_load_size(co);
	if (n <= MAX_PLACE) {
		uint8_t *buf = malloc(n ? n : 1);
		if (buf) {
			uint64_t base = 0x100000000000ull; /* a multiple of any accepted p_align */
			(void)hl_co_place(co, buf, base, resolve_any, NULL);
			free(buf);
		}
	}
	hl_co_free(co);
	(void)sink;
	return 0;
}
