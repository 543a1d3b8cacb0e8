/*
 * The environment variables the runtime honours, read in one place at the
 * first hsa_init (ROCr reads its flags in Runtime::Load the same way):
 *
 *   ROCR_VISIBLE_DEVICES        comma list of GPU indices (topology order,
 *                               before filtering) or GPU-<uuid> tokens (a
 *                               unique prefix of the agent's UUID); filters
 *                               and reorders the GPU agents.  Parsing stops
 *                               at the first invalid token, duplicates are
 *                               ignored, an empty value hides every GPU.
 *   HSA_OVERRIDE_GFX_VERSION    major.minor.stepping (decimal) for every GPU,
 *                               e.g. 10.3.0 -> gfx1030, 9.0.10 -> gfx90a.
 *   HSA_OVERRIDE_GFX_VERSION_<n> the same for the GPU at KFD topology node
 *                               n only (node 0 is the CPU, so the first GPU
 *                               is usually 1, as in libhsakmt); wins over
 *                               the global one.
 *   HSA_XNACK                   0/1: the process's XNACK mode, set at init as
 *                               ROCr does (and assumed when the kernel has
 *                               no SET_XNACK_MODE).
 *   HSA_MAX_QUEUES              queues per GPU agent (HSA_AGENT_INFO_QUEUES_MAX);
 *                               unset or 0 means 128, larger values are capped
 *                               at 128, as in ROCr.
 *   HSA_ENABLE_VM_FAULT_MESSAGE "0" silences the message ROCr prints before
 *                               it aborts on an unhandled GPU memory fault
 *                               (system_event.c); anything else keeps it.
 *   HSALITE_LOG, HSALITE_LOG_FILE  the log (src/util/log.h).
 *   HSALITE_NO_TRAP_HANDLER     "1" (a test switch) withholds hsalite's trap
 *                               handler (src/queue/trap.c): device exceptions
 *                               are then lost, as on a runtime without one.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/runtime.h"
#include "runtime/runtime_priv.h"
#include "util/log.h"

/* "9.0.10" -> 9, 0, 10.  Each part is a decimal number; anything else is
 * rejected so a typo does not silently pick another GPU model. */
static bool parse_gfx_version(const char *s, uint32_t *major, uint32_t *minor, uint32_t *step)
{
	unsigned long v[3];
	const char *p = s;
	for (int i = 0; i < 3; i++) {
		char *end;
		if (!isdigit((unsigned char)*p))
			return false;
		v[i] = strtoul(p, &end, 10);
		if (v[i] > (i == 0 ? 63u : 255u)) /* libhsakmt's EngineId field widths */
			return false;
		if (i < 2 && *end != '.')
			return false;
		if (i == 2 && *end != '\0')
			return false;
		p = end + 1;
	}
	*major = (uint32_t)v[0];
	*minor = (uint32_t)v[1];
	*step = (uint32_t)v[2];
	return true;
}

void hl_env_read(struct hl_env *env)
{
	memset(env, 0, sizeof(*env));
	(void)hl_log_enabled(HL_LOG_ERROR); /* reads HSALITE_LOG once */

	env->visible_devices = getenv("ROCR_VISIBLE_DEVICES");

	const char *gfx = getenv("HSA_OVERRIDE_GFX_VERSION");
	if (gfx && *gfx) {
		if (parse_gfx_version(gfx, &env->gfx_major, &env->gfx_minor, &env->gfx_stepping))
			env->gfx_override = true;
		else
			hl_warn("env", "HSA_OVERRIDE_GFX_VERSION=%s ignored: expected major.minor.stepping",
				gfx);
	}

	env->max_queues = HL_QUEUES_MAX;
	const char *mq = getenv("HSA_MAX_QUEUES");
	if (mq && *mq) {
		unsigned long v = strtoul(mq, NULL, 10); /* atoi-like, as ROCr */
		if (v > 0 && v < HL_QUEUES_MAX)
			env->max_queues = (uint32_t)v;
	}

	/* GPU_MAX_HW_QUEUES: the hardware queues hsa_amd_counted_queue_acquire
	 * makes per agent and priority before it shares them (ROCr's
	 * cp_queues_limit; HIP reads the same variable, default 4). */
	env->max_hw_queues = 4;
	const char *mh = getenv("GPU_MAX_HW_QUEUES");
	if (mh && *mh) {
		unsigned long v = strtoul(mh, NULL, 10);
		if (v > 0 && v <= HL_QUEUES_MAX)
			env->max_hw_queues = (uint32_t)v;
		else
			hl_warn("env", "GPU_MAX_HW_QUEUES=%s ignored: expected 1..%u", mh,
				(unsigned)HL_QUEUES_MAX);
	}

	const char *vmf = getenv("HSA_ENABLE_VM_FAULT_MESSAGE");
	env->vm_fault_message = !vmf || strcmp(vmf, "0") != 0;

	const char *notrap = getenv("HSALITE_NO_TRAP_HANDLER");
	env->no_trap_handler = notrap && strcmp(notrap, "1") == 0;

	/* ROCr (flag.h): exactly "1" turns the fragment allocator off. */
	const char *nofrag = getenv("HSA_DISABLE_FRAGMENT_ALLOCATOR");
	env->no_fragment_alloc = nofrag && strcmp(nofrag, "1") == 0;

	env->xnack = -1;
	const char *xnack = getenv("HSA_XNACK");
	if (xnack && (!strcmp(xnack, "0") || !strcmp(xnack, "1")))
		env->xnack = xnack[0] - '0';
}

bool hl_env_gfx_override(const struct hl_env *env, uint32_t node,
			 uint32_t *major, uint32_t *minor, uint32_t *stepping)
{
	char name[48];
	snprintf(name, sizeof(name), "HSA_OVERRIDE_GFX_VERSION_%u", node);
	const char *v = getenv(name);
	if (v && *v) {
		if (parse_gfx_version(v, major, minor, stepping))
			return true;
		hl_warn("env", "%s=%s ignored: expected major.minor.stepping", name, v);
	}
	if (!env->gfx_override)
		return false;
	*major = env->gfx_major;
	*minor = env->gfx_minor;
	*stepping = env->gfx_stepping;
	return true;
}

/* Index of the GPU a token names, or -1.  A GPU-<hex> token matches when it
 * is a prefix of exactly one UUID (case-insensitive). */
static long visible_token_gpu(const char *tok, size_t len, const char *const *uuids, uint32_t n)
{
	if (len > 4 && !strncasecmp(tok, "GPU-", 4)) {
		long found = -1;
		for (uint32_t i = 0; i < n; i++) {
			if (strlen(uuids[i]) >= len && !strncasecmp(uuids[i], tok, len)) {
				if (found >= 0)
					return -1; /* ambiguous prefix */
				found = i;
			}
		}
		return found;
	}
	if (len == 0 || len > 9)
		return -1;
	long v = 0;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)tok[i]))
			return -1;
		v = v * 10 + (tok[i] - '0');
	}
	return v < (long)n ? v : -1;
}

uint32_t hl_env_visible_gpus(const struct hl_env *env, const char *const *uuids, uint32_t n,
			     uint32_t *order)
{
	uint32_t count = 0;
	if (!env->visible_devices) {
		for (uint32_t i = 0; i < n; i++)
			order[i] = i;
		return n;
	}
	const char *p = env->visible_devices;
	while (*p && count < n) {
		while (*p == ' ')
			p++;
		size_t len = strcspn(p, ",");
		size_t tlen = len;
		while (tlen && p[tlen - 1] == ' ')
			tlen--;
		long gpu = visible_token_gpu(p, tlen, uuids, n);
		if (gpu < 0) {
			hl_warn("env", "ROCR_VISIBLE_DEVICES: '%.*s' names no GPU; ignoring it and the rest",
				(int)tlen, p);
			break;
		}
		bool dup = false;
		for (uint32_t i = 0; i < count; i++)
			dup |= order[i] == (uint32_t)gpu;
		if (!dup)
			order[count++] = (uint32_t)gpu;
		p += len;
		if (*p == ',')
			p++;
	}
	return count;
}
