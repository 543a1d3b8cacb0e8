/*
 * Helpers shared by the queue suites: status assertions that print both
 * values, and the first CPU and GPU agents of the runtime.
 */
#ifndef HSALITE_Q_TEST_H
#define HSALITE_Q_TEST_H

#include <check.h>
#include <stdint.h>

#include "hsa/amd_hsa_queue.h"
#include "hsa/amd_hsa_signal.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#include "hl_hsa.h"

static hsa_agent_t q_cpu, q_gpu;

static hsa_status_t q_find_agents(hsa_agent_t agent, void *data)
{
	(void)data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_CPU && !q_cpu.handle)
		q_cpu = agent;
	if (type == HSA_DEVICE_TYPE_GPU && !q_gpu.handle)
		q_gpu = agent;
	return HSA_STATUS_SUCCESS;
}

static inline void q_init(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	q_cpu.handle = q_gpu.handle = 0;
	ck_status(hsa_iterate_agents(q_find_agents, NULL), HSA_STATUS_SUCCESS);
	ck_assert_msg(q_cpu.handle && q_gpu.handle, "no CPU or GPU agent");
}

static inline void q_fini(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

static inline hsa_queue_t *q_create(uint32_t size, hsa_queue_type32_t type)
{
	hsa_queue_t *q = NULL;
	ck_status(hsa_queue_create(q_gpu, size, type, NULL, NULL, 0, 0, &q), HSA_STATUS_SUCCESS);
	ck_assert_ptr_nonnull(q);
	return q;
}

static inline amd_queue_t *q_amd(hsa_queue_t *q) { return (amd_queue_t *)q; }

#endif
