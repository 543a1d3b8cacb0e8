/*
 * Helpers shared by the runtime suites: status assertions that print both
 * statuses, and a stale-handle source (an address no runtime object lives
 * at: a local of the test, never inside the runtime's arrays).
 */
#ifndef HSALITE_RT_TEST_H
#define HSALITE_RT_TEST_H

#include <check.h>
#include <stdint.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

#define ck_status(expr, expected)                                              \
	do {                                                                   \
		hsa_status_t s_ = (expr);                                      \
		hsa_status_t e_ = (hsa_status_t)(expected);                    \
		ck_assert_msg(s_ == e_, "%s: got %#x, expected %#x", #expr,    \
			      (unsigned)s_, (unsigned)e_);                     \
	} while (0)

static uint64_t rt_test_bogus_storage[8] __attribute__((unused));
/* A handle value that is not any runtime object: the address of test data. */
#define RT_BOGUS_HANDLE ((uint64_t)(uintptr_t)&rt_test_bogus_storage[3])

#endif
