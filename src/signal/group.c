/*
 * Signal groups: a fixed set of signals waited on together
 * (hsa_signal_group_create / destroy / wait_any_{relaxed,scacquire}).
 *
 * A group is a heap object whose address is the handle.  Live groups are
 * kept on a list under group_lock, and a handle is validated by finding it
 * there, never by dereferencing what the caller passed.  The wait runs on
 * hl_signal_wait_any with no timeout, outside the lock; destroying a group
 * while a thread waits on it is the caller's bug (the HSA specification
 * leaves it undefined), as is destroying a member signal, which we survive:
 * the dead signal drops out of the wait.  The list is the runtime's
 * (rt->signals); the last hsa_shut_down frees what is left of it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "signal/signal_priv.h"

struct signal_group {
	uint32_t n;
	hsa_signal_t *signals;
	struct signal_group *next;
};

/* Caller holds sg->group_lock. */
static struct signal_group *group_find_locked(struct hl_signals *sg, uint64_t handle)
{
	for (struct signal_group *g = sg->groups; g; g = g->next)
		if ((uint64_t)(uintptr_t)g == handle)
			return g;
	return NULL;
}

hsa_status_t hsa_signal_group_create(uint32_t num_signals, const hsa_signal_t *signals,
				     uint32_t num_consumers, const hsa_agent_t *consumers,
				     hsa_signal_group_t *signal_group)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!signal_group || !num_signals || !signals || (num_consumers && !consumers))
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	for (uint32_t i = 0; i < num_consumers; i++)
		if (!hl_agent_lookup(rt, consumers[i]))
			return HSA_STATUS_ERROR_INVALID_AGENT;
	for (uint32_t i = 0; i < num_signals; i++) {
		struct hl_signal_side *side = hl_signal_side_live(signals[i].handle);
		if (!side || hl_load_relaxed(&side->kind) != AMD_SIGNAL_KIND_USER)
			return hl_signal_bad_handle(signals[i].handle);
		for (uint32_t j = 0; j < i; j++)
			if (signals[j].handle == signals[i].handle)
				return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* no repeats */
	}
	struct hl_signals *sg = rt->signals;
	struct signal_group *g = calloc(1, sizeof(*g));
	hsa_signal_t *copy = calloc(num_signals, sizeof(*copy));
	if (!g || !copy) {
		free(g);
		free(copy);
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	memcpy(copy, signals, num_signals * sizeof(*copy));
	g->n = num_signals;
	g->signals = copy;
	pthread_mutex_lock(&sg->group_lock);
	g->next = sg->groups;
	sg->groups = g;
	pthread_mutex_unlock(&sg->group_lock);
	signal_group->handle = (uint64_t)(uintptr_t)g;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_group_destroy(hsa_signal_group_t signal_group)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_signals *sg = rt->signals;
	pthread_mutex_lock(&sg->group_lock);
	struct signal_group **pp = &sg->groups;
	while (*pp && (uint64_t)(uintptr_t)*pp != signal_group.handle)
		pp = &(*pp)->next;
	struct signal_group *g = *pp;
	if (g)
		*pp = g->next;
	pthread_mutex_unlock(&sg->group_lock);
	if (!g)
		return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
	free(g->signals);
	free(g);
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t group_wait(hsa_signal_group_t signal_group,
			       const hsa_signal_condition_t *conditions,
			       const hsa_signal_value_t *compare_values, hsa_wait_state_t hint,
			       hsa_signal_t *signal, hsa_signal_value_t *value)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!conditions || !compare_values || !signal || !value)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_signals *sg = rt->signals;
	pthread_mutex_lock(&sg->group_lock);
	struct signal_group *g = group_find_locked(sg, signal_group.handle);
	pthread_mutex_unlock(&sg->group_lock);
	if (!g)
		return HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP;
	int64_t v = 0;
	uint32_t idx = hl_signal_wait_any(g->n, g->signals, conditions, compare_values, UINT64_MAX,
					  hint, &v);
	/* The acquire of the scacquire variant is hl_signal_wait_any's
	 * acquire load of the satisfying value. */
	if (idx == UINT32_MAX)
		return HSA_STATUS_ERROR_INVALID_SIGNAL; /* every member was destroyed */
	*signal = g->signals[idx];
	*value = v;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_group_wait_any_scacquire(hsa_signal_group_t signal_group,
						 const hsa_signal_condition_t *conditions,
						 const hsa_signal_value_t *compare_values,
						 hsa_wait_state_t wait_state_hint,
						 hsa_signal_t *signal, hsa_signal_value_t *value)
{
	return group_wait(signal_group, conditions, compare_values, wait_state_hint, signal, value);
}

hsa_status_t hsa_signal_group_wait_any_relaxed(hsa_signal_group_t signal_group,
					       const hsa_signal_condition_t *conditions,
					       const hsa_signal_value_t *compare_values,
					       hsa_wait_state_t wait_state_hint,
					       hsa_signal_t *signal, hsa_signal_value_t *value)
{
	return group_wait(signal_group, conditions, compare_values, wait_state_hint, signal, value);
}

/* Caller holds sg->group_lock, or is a fork child's forget step. */
static void groups_free(struct hl_signals *sg)
{
	while (sg->groups) {
		struct signal_group *g = sg->groups;
		sg->groups = g->next;
		free(g->signals);
		free(g);
	}
}

void hl_signal_groups_destroy(struct hl_signals *sg)
{
	pthread_mutex_lock(&sg->group_lock);
	groups_free(sg);
	pthread_mutex_unlock(&sg->group_lock);
}

void hl_signal_groups_forget(struct hl_signals *sg)
{
	/* A fork child: the parent's groups name signals the child cannot
	 * use; a parent thread may have held the lock at the fork. */
	groups_free(sg);
}
