/*
 * Shared HSA helpers for suites whose one binary runs on either runtime
 * (hsalite, or Debian's ROCr first on LD_LIBRARY_PATH): they use only the
 * public HSA API, so they hold no hsalite internals.
 *
 * ck_hsa(expr) asserts HSA_STATUS_SUCCESS and names the status on failure;
 * hl_first_agents() finds the first GPU and the first CPU agent.
 */
#ifndef HL_HSA_H
#define HL_HSA_H

#include <stdbool.h>

#include <hsa/hsa.h>

#include "hl_check.h"

#define ck_hsa(expr)                                                            \
	do {                                                                    \
		hsa_status_t st_ = (expr);                                      \
		const char *msg_ = "?";                                         \
		hsa_status_string(st_, &msg_);                                  \
		ck_assert_msg(st_ == HSA_STATUS_SUCCESS, "%s: 0x%x %s", #expr,  \
			      (unsigned)st_, msg_);                             \
	} while (0)

struct hl_first_agents {
	hsa_agent_t gpu, cpu;
	bool have_gpu, have_cpu;
};

static inline hsa_status_t hl_first_agents_cb(hsa_agent_t a, void *data)
{
	struct hl_first_agents *f = data;
	hsa_device_type_t t;

	if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) != HSA_STATUS_SUCCESS)
		return HSA_STATUS_SUCCESS;
	if (t == HSA_DEVICE_TYPE_GPU && !f->have_gpu) {
		f->gpu = a;
		f->have_gpu = true;
	} else if (t == HSA_DEVICE_TYPE_CPU && !f->have_cpu) {
		f->cpu = a;
		f->have_cpu = true;
	}
	return HSA_STATUS_SUCCESS;
}

/* The first GPU and CPU agents; a *have_ flag stays false when there is
 * none.  Returns hsa_iterate_agents' status. */
static inline hsa_status_t hl_first_agents(hsa_agent_t *gpu, bool *have_gpu,
					   hsa_agent_t *cpu, bool *have_cpu)
{
	struct hl_first_agents f = { .have_gpu = false, .have_cpu = false };
	hsa_status_t st = hsa_iterate_agents(hl_first_agents_cb, &f);

	*gpu = f.gpu;
	*have_gpu = f.have_gpu;
	*cpu = f.cpu;
	*have_cpu = f.have_cpu;
	return st;
}

#endif
