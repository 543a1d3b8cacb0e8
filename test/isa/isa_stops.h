/*
 * isa_stops.h — the watchdog walk the fast-path suites (test_isa_vfast,
 * test_isa_vfast64) share: a kernel run on one wave with a watchdog of
 * k = 1, 2, ... instructions until the wave ends, each stop checked to be
 * exact (after k instructions, one instruction past the last stop).
 */
#ifndef ISA_STOPS_H
#define ISA_STOPS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hl_check.h"
#include "isa_harness.h"

/* Runs kernel of code (gfx90a, a 64-lane wave, the 16 bytes of kernel
 * arguments args) with a watchdog of k = 1, 2, ... up to 99 instructions
 * until the wave ends.  Each stop must be a watchdog stop after exactly k
 * instructions, 4 or 8 bytes past the last stop (the kernels are
 * straight-line).  Returns the k that let the wave end (100: none did). */
static inline unsigned hx_stop_points(const struct hx_code *code, const char *kernel,
				      const uint64_t args[2])
{
	uint64_t last_pc = 0;
	unsigned k;

	ck_assert(code && kernel && args);
	for (k = 1; k < 100; k++) {
		struct hx_launch l = { .gfx = KEMU_ISA_GFX90A, .args = args, .args_size = 16,
				       .grid = { 64, 1, 1 }, .wg = { 64, 1, 1 }, .watchdog = k };
		struct kemu_isa_error err;
		unsigned long long ran = 0;
		const char *msg;
		l.kd = hx_kd(code, kernel);
		ck_assert(l.kd != 0);
		if (hx_run(&l, &err) == 0)
			break;
		ck_assert_msg(err.kind == KEMU_ISA_ERR_WATCHDOG, "%s k %u: %s: %s", kernel, k,
			      kemu_isa_error_name(err.kind), err.message);
		msg = strstr(err.message, "ran ");
		ck_assert_msg(msg && sscanf(msg, "ran %llu", &ran) == 1 && ran == k,
			      "%s k %u: %s", kernel, k, err.message);
		if (k > 1)
			ck_assert_msg(err.pc == last_pc + 4 || err.pc == last_pc + 8,
				      "%s k %u: stopped at 0x%llx after 0x%llx", kernel, k,
				      (unsigned long long)err.pc, (unsigned long long)last_pc);
		last_pc = err.pc;
	}
	return k;
}

#endif
