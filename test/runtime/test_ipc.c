/*
 * IPC between two processes, each with its own hsa_init (and, under the
 * launcher, its own kfdemu machine): hsa_amd_ipc_memory_create / attach /
 * detach, hsa_amd_pointer_info of attached memory, and IPC signals.
 *
 * The suite (the parent) fork+execs this binary as --child once; the child
 * serves commands that arrive over a pipe (attach, check or fill a range
 * through the CPU or a GPU copy, allocate and export, signal operations)
 * and answers each before the next, so the two processes take turns and a
 * failed check in the parent leaves the child ready for the next test.
 * Handles cross as bytes, as an application would send them.
 *
 * Run with two GPUs: buffers are shared on the same GPU and attached on the
 * peer GPU only.  Exits 77 without a GPU.
 *
 * HL_IPC_CHILD names another build of this file as the child: built
 * against ROCr 5.2.3, with a kfdemu answering the ROCm-DKMS IPC ioctls
 * (KFDEMU_DKMS_IPC=1), the "cross" cases run between ROCr and hsalite, in
 * both roles.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hl_check.h"
#include "rt_test.h"

#define MAX_GPUS 4
#define BUF_SIZE (1u << 20)
#define WAIT_NS 20000000000ull /* 20 s: a lost wake-up fails, never hangs */

enum op {
	OP_ATTACH = 1,    /* h; a = GPU mask (0: num_agents 0), arg = CPU agent too */
	OP_DETACH,        /* a = ptr */
	OP_CHECK,         /* a = ptr, b = len, c = seed, arg = -1 CPU or GPU index */
	OP_FILL,          /* same */
	OP_ALLOC_EXPORT,  /* a = size, arg = GPU index -> value = ptr, h */
	OP_FREE,          /* a = ptr */
	OP_PTR_INFO,      /* a = ptr -> info */
	OP_SIG_CREATE,    /* a = initial -> value = signal, h */
	OP_SIG_ATTACH,    /* h -> value = signal */
	OP_SIG_WAIT_EQ,   /* a = signal, b = value -> value seen */
	OP_SIG_STORE,     /* a = signal, b = value, arg = delay ms before */
	OP_SIG_DESTROY,   /* a = signal */
	OP_SIG_COPY,      /* a = signal: a GPU copy with it as completion signal */
	OP_QUIT,
};

struct msg {
	uint32_t op;
	int32_t arg;
	uint64_t a, b, c;
	hsa_amd_ipc_memory_t h;
};

struct reply {
	uint32_t status;
	uint64_t value;
	hsa_amd_ipc_memory_t h;
	/* Only the pointer type crosses: the two processes may be built against
	 * different headers (ours, Debian's 5.2.3), whose hsa_amd_pointer_info_t
	 * sizes differ, and the message must have one layout for both. */
	uint32_t info_type;
	uint32_t n_accessible;
};

/* ---- what both processes know ---- */

static hsa_agent_t cpu, gpus[MAX_GPUS];
static uint32_t n_gpus;
static hsa_amd_memory_pool_t sys_pool, vram_pool[MAX_GPUS];
static void *host_buf; /* BUF_SIZE of fine-grained system memory */

static hsa_status_t find_pool(hsa_amd_memory_pool_t pool, void *data)
{
	hsa_amd_segment_t seg;
	uint32_t flags;
	bool alloc;
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
	hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
	hsa_amd_memory_pool_t *out = data;
	if (seg == HSA_AMD_SEGMENT_GLOBAL && alloc && !out->handle &&
	    ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) ||
	     (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED)))
		*out = pool;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_agent(hsa_agent_t a, void *data)
{
	(void)data;
	hsa_device_type_t t;
	hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
	if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) {
		cpu = a;
		hsa_amd_agent_iterate_memory_pools(a, find_pool, &sys_pool);
	} else if (t == HSA_DEVICE_TYPE_GPU && n_gpus < MAX_GPUS) {
		hsa_amd_agent_iterate_memory_pools(a, find_pool, &vram_pool[n_gpus]);
		gpus[n_gpus++] = a;
	}
	return HSA_STATUS_SUCCESS;
}

static int setup(void)
{
	if (hsa_init() != HSA_STATUS_SUCCESS)
		return -1;
	hsa_iterate_agents(find_agent, NULL);
	if (!n_gpus || !sys_pool.handle)
		return -1;
	if (hsa_amd_memory_pool_allocate(sys_pool, BUF_SIZE, 0, &host_buf) ||
	    hsa_amd_agents_allow_access(n_gpus, gpus, NULL, host_buf))
		return -1;
	return 0;
}

static uint8_t pattern(uint64_t seed, uint64_t i)
{
	return (uint8_t)(seed * 31 + i * 7 + (i >> 9));
}

/* A GPU copy of len bytes, src -> dst, on gpus[g]; 0 or a status. */
static hsa_status_t gpu_copy(void *dst, const void *src, size_t len, int g, bool to_host)
{
	hsa_signal_t done;
	hsa_status_t st = hsa_signal_create(1, 0, NULL, &done);
	if (st)
		return st;
	st = hsa_amd_memory_async_copy(dst, to_host ? cpu : gpus[g], src, to_host ? gpus[g] : cpu,
				       len, 0, NULL, done);
	if (!st && hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS,
					     HSA_WAIT_STATE_BLOCKED) != 0)
		st = HSA_STATUS_ERROR;
	hsa_signal_destroy(done);
	return st;
}

/* 0 when [ptr, ptr+len) holds pattern(seed), read by the CPU (via < 0) or
 * by a GPU copy on gpus[via]; else the first bad offset + 1, or a status
 * with bit 63 set. */
static uint64_t check_range(uint8_t *ptr, uint64_t len, uint64_t seed, int via)
{
	const uint8_t *src = ptr;
	if (via >= 0) {
		hsa_status_t st = gpu_copy(host_buf, ptr, len, via, true);
		if (st)
			return 1ull << 63 | st;
		src = host_buf;
	}
	for (uint64_t i = 0; i < len; i++)
		if (src[i] != pattern(seed, i))
			return i + 1;
	return 0;
}

static uint64_t fill_range(uint8_t *ptr, uint64_t len, uint64_t seed, int via)
{
	uint8_t *dst = via >= 0 ? host_buf : ptr;
	for (uint64_t i = 0; i < len; i++)
		dst[i] = pattern(seed, i);
	if (via >= 0) {
		hsa_status_t st = gpu_copy(ptr, host_buf, len, via, false);
		if (st)
			return 1ull << 63 | st;
	}
	return 0;
}

/* ---- the child: one command at a time ---- */

static void serve(const struct msg *m, struct reply *r)
{
	hsa_signal_t s = { m->a };
	void *p = (void *)(uintptr_t)m->a;
	switch (m->op) {
	case OP_ATTACH: {
		hsa_agent_t list[MAX_GPUS + 1];
		uint32_t n = 0;
		for (uint32_t g = 0; g < n_gpus; g++)
			if (m->a & (1u << g))
				list[n++] = gpus[g];
		if (m->arg)
			list[n++] = cpu;
		void *mapped = NULL;
		r->status = hsa_amd_ipc_memory_attach(&m->h, m->b, n, n ? list : NULL, &mapped);
		r->value = (uintptr_t)mapped;
		break;
	}
	case OP_DETACH:
		r->status = hsa_amd_ipc_memory_detach(p);
		break;
	case OP_CHECK:
		r->value = check_range(p, m->b, m->c, m->arg);
		break;
	case OP_FILL:
		r->value = fill_range(p, m->b, m->c, m->arg);
		break;
	case OP_ALLOC_EXPORT: {
		void *q = NULL;
		hsa_amd_pointer_info_t info = { .size = sizeof(info) };
		r->status = hsa_amd_memory_pool_allocate(vram_pool[m->arg], m->a, 0, &q);
		/* The size to share is the allocation's as pointer_info gives
		 * it (page-rounded), as HIP's hipIpcGetMemHandle asks. */
		if (!r->status)
			r->status = hsa_amd_pointer_info(q, &info, NULL, NULL, NULL);
		if (!r->status)
			r->status = hsa_amd_ipc_memory_create(q, info.sizeInBytes, &r->h);
		r->value = (uintptr_t)q;
		break;
	}
	case OP_FREE:
		r->status = hsa_amd_memory_pool_free(p);
		break;
	case OP_PTR_INFO: {
		hsa_agent_t *acc = NULL;
		hsa_amd_pointer_info_t info = { .size = sizeof(info) };
		r->status = hsa_amd_pointer_info(p, &info, malloc, &r->n_accessible, &acc);
		r->info_type = (uint32_t)info.type;
		free(acc);
		break;
	}
	case OP_SIG_CREATE: {
		hsa_signal_t sig = { 0 };
		r->status = hsa_amd_signal_create((hsa_signal_value_t)m->a, 0, NULL,
						  HSA_AMD_SIGNAL_IPC, &sig);
		if (!r->status)
			r->status = hsa_amd_ipc_signal_create(sig, &r->h);
		r->value = sig.handle;
		break;
	}
	case OP_SIG_ATTACH: {
		hsa_signal_t sig = { 0 };
		r->status = hsa_amd_ipc_signal_attach(&m->h, &sig);
		r->value = sig.handle;
		break;
	}
	case OP_SIG_WAIT_EQ:
		r->value = (uint64_t)hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ,
							       (hsa_signal_value_t)m->b, WAIT_NS,
							       HSA_WAIT_STATE_BLOCKED);
		break;
	case OP_SIG_STORE:
		if (m->arg > 0)
			usleep((useconds_t)m->arg * 1000);
		hsa_signal_store_screlease(s, (hsa_signal_value_t)m->b);
		break;
	case OP_SIG_DESTROY:
		r->status = hsa_signal_destroy(s);
		break;
	case OP_SIG_COPY: {
		/* 4 KiB host to VRAM of GPU 0, completing on the IPC signal. */
		void *v = NULL;
		r->status = hsa_amd_memory_pool_allocate(vram_pool[0], 4096, 0, &v);
		if (r->status)
			break;
		r->status = hsa_amd_memory_async_copy(v, gpus[0], host_buf, cpu, 4096, 0, NULL, s);
		if (!r->status)
			r->value = (uint64_t)hsa_signal_wait_scacquire(
				s, HSA_SIGNAL_CONDITION_LT, 1, WAIT_NS, HSA_WAIT_STATE_BLOCKED);
		hsa_amd_memory_pool_free(v);
		break;
	}
	}
}

static int child_main(int rfd, int wfd)
{
	if (setup())
		return 2;
	struct msg m;
	while (read(rfd, &m, sizeof(m)) == (ssize_t)sizeof(m) && m.op != OP_QUIT) {
		struct reply r;
		memset(&r, 0, sizeof(r));
		serve(&m, &r);
		if (write(wfd, &r, sizeof(r)) != (ssize_t)sizeof(r))
			return 3;
	}
	hsa_shut_down();
	return 0;
}

/* ---- the parent ---- */

static int to_child = -1, from_child = -1;
static pid_t child = -1;

static void send_msg(const struct msg *m)
{
	ck_assert_int_eq(write(to_child, m, sizeof(*m)), sizeof(*m));
}

static struct reply recv_reply(void)
{
	struct reply r;
	ck_assert_int_eq(read(from_child, &r, sizeof(r)), sizeof(r));
	return r;
}

static struct reply call(struct msg m)
{
	send_msg(&m);
	return recv_reply();
}

static int spawn_child(void)
{
	int down[2], up[2];
	if (pipe(down) || pipe(up))
		return -1;
	child = fork();
	if (child < 0)
		return -1;
	if (child == 0) {
		char r[16], w[16];
		close(down[1]);
		close(up[0]);
		snprintf(r, sizeof(r), "%d", down[0]);
		snprintf(w, sizeof(w), "%d", up[1]);
		const char *exe = getenv("HL_IPC_CHILD");
		execl(exe ? exe : "/proc/self/exe", "test_ipc_child", "--child", r, w,
		      (char *)NULL);
		_exit(127);
	}
	close(down[0]);
	close(up[1]);
	to_child = down[1];
	from_child = up[0];
	return 0;
}

static void *alloc_vram(int g, size_t size)
{
	void *p = NULL;
	ck_status(hsa_amd_memory_pool_allocate(vram_pool[g], size, 0, &p), HSA_STATUS_SUCCESS);
	return p;
}

/* The parent exports VRAM of GPU 0; the child attaches it on every GPU,
 * reads it with the CPU and a GPU, writes half of it back through a GPU;
 * the parent sees that half. */
START_TEST(memory_parent_to_child)
{
	uint8_t *buf = alloc_vram(0, BUF_SIZE);
	fill_range(buf, BUF_SIZE, 1, -1);
	hsa_amd_ipc_memory_t h;
	ck_status(hsa_amd_ipc_memory_create(buf, BUF_SIZE, &h), HSA_STATUS_SUCCESS);

	struct reply r = call((struct msg){ .op = OP_ATTACH, .h = h, .b = BUF_SIZE });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	uint64_t remote = r.value;
	ck_assert(remote != 0);
	r = call((struct msg){ .op = OP_PTR_INFO, .a = remote + 4096 });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	ck_assert_int_eq(r.info_type, HSA_EXT_POINTER_TYPE_IPC);
	r = call((struct msg){ .op = OP_CHECK, .a = remote, .b = BUF_SIZE, .c = 1, .arg = -1 });
	ck_assert_msg(r.value == 0, "child CPU read: %#llx", (unsigned long long)r.value);
	r = call((struct msg){ .op = OP_CHECK, .a = remote, .b = BUF_SIZE, .c = 1, .arg = 0 });
	ck_assert_msg(r.value == 0, "child GPU read: %#llx", (unsigned long long)r.value);
	r = call((struct msg){ .op = OP_FILL, .a = remote + BUF_SIZE / 2, .b = BUF_SIZE / 2,
			       .c = 2, .arg = 0 });
	ck_assert_int_eq(r.value, 0);
	ck_assert_int_eq(check_range(buf, BUF_SIZE / 2, 1, -1), 0);
	ck_assert_int_eq(check_range(buf + BUF_SIZE / 2, BUF_SIZE / 2, 2, -1), 0);
	ck_assert_int_eq(check_range(buf + BUF_SIZE / 2, BUF_SIZE / 2, 2, 0), 0);
	r = call((struct msg){ .op = OP_DETACH, .a = remote });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	/* Detached: a second detach is refused. */
	r = call((struct msg){ .op = OP_DETACH, .a = remote });
	ck_status(r.status, HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_free(buf), HSA_STATUS_SUCCESS);
}
END_TEST

/* The other direction: the child exports, the parent attaches, reads with
 * a GPU, writes with the CPU; the child reads the change. */
START_TEST(memory_child_to_parent)
{
	struct reply r = call((struct msg){ .op = OP_ALLOC_EXPORT, .a = BUF_SIZE, .arg = 0 });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	uint64_t remote = r.value;
	hsa_amd_ipc_memory_t h = r.h;
	r = call((struct msg){ .op = OP_FILL, .a = remote, .b = BUF_SIZE, .c = 3, .arg = -1 });
	ck_assert_int_eq(r.value, 0);

	uint8_t *p = NULL;
	ck_status(hsa_amd_ipc_memory_attach(&h, BUF_SIZE, 1, &gpus[0], (void **)&p),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(check_range(p, BUF_SIZE, 3, 0), 0);
	ck_assert_int_eq(fill_range(p, 4096, 4, -1), 0);
	r = call((struct msg){ .op = OP_CHECK, .a = remote, .b = 4096, .c = 4, .arg = 0 });
	ck_assert_msg(r.value == 0, "child GPU read of the parent's write: %#llx",
		      (unsigned long long)r.value);
	ck_status(hsa_amd_ipc_memory_detach(p), HSA_STATUS_SUCCESS);
	r = call((struct msg){ .op = OP_FREE, .a = remote });
	ck_status(r.status, HSA_STATUS_SUCCESS);
}
END_TEST

/* Attached on the peer GPU only: GPU 1 reads and writes GPU 0's VRAM of
 * the other process. */
START_TEST(memory_peer_gpu)
{
	if (n_gpus < 2)
		return;
	uint8_t *buf = alloc_vram(0, BUF_SIZE);
	fill_range(buf, BUF_SIZE, 5, -1);
	hsa_amd_ipc_memory_t h;
	ck_status(hsa_amd_ipc_memory_create(buf, BUF_SIZE, &h), HSA_STATUS_SUCCESS);
	struct reply r = call((struct msg){ .op = OP_ATTACH, .h = h, .a = 1u << 1, .b = BUF_SIZE });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	uint64_t remote = r.value;
	r = call((struct msg){ .op = OP_CHECK, .a = remote, .b = BUF_SIZE, .c = 5, .arg = 1 });
	ck_assert_msg(r.value == 0, "peer GPU read: %#llx", (unsigned long long)r.value);
	r = call((struct msg){ .op = OP_FILL, .a = remote, .b = 8192, .c = 6, .arg = 1 });
	ck_assert_int_eq(r.value, 0);
	ck_assert_int_eq(check_range(buf, 8192, 6, 0), 0);
	/* Mapped on GPU 1 only. */
	r = call((struct msg){ .op = OP_PTR_INFO, .a = remote });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(r.n_accessible, 1);
	r = call((struct msg){ .op = OP_DETACH, .a = remote });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(buf), HSA_STATUS_SUCCESS);
}
END_TEST

/* An allocation that is exactly one 2 MiB block: shared whole, not as a
 * fragment of one. */
#define WHOLE_BLOCK (2u << 20)

/* hsa_amd_pointer_info on attached memory, as ROCr reports it: type IPC,
 * the import's base and size, no host base, userdata settable. */
START_TEST(memory_pointer_info)
{
	struct reply r = call((struct msg){ .op = OP_ALLOC_EXPORT, .a = WHOLE_BLOCK, .arg = 0 });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	uint64_t remote = r.value;
	uint8_t *p = NULL;
	/* The size the handle carries is the allocation's.  (A smaller
	 * VRAM allocation is a fragment of a 2 MiB block, whose handle names
	 * the block: test_suballoc.c.) */
	ck_status(hsa_amd_ipc_memory_attach(&r.h, 0, 0, NULL, (void **)&p), HSA_STATUS_SUCCESS);
	hsa_amd_pointer_info_t info = { .size = sizeof(info) };
	uint32_t n = 0;
	hsa_agent_t *acc = NULL;
	ck_status(hsa_amd_pointer_info(p + 5000, &info, malloc, &n, &acc), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_IPC);
	ck_assert_ptr_eq(info.agentBaseAddress, p);
	ck_assert_ptr_null(info.hostBaseAddress);
	ck_assert_uint_eq(info.sizeInBytes, WHOLE_BLOCK);
	ck_assert_uint_eq(info.agentOwner.handle, gpus[0].handle);
	ck_assert_uint_eq(n, n_gpus); /* num_agents 0: every GPU */
	free(acc);
	ck_status(hsa_amd_pointer_info_set_userdata(p, &n), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_pointer_info(p, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_ptr_eq(info.userData, &n);
	/* Re-exported from the attaching process, attached back by the first. */
	hsa_amd_ipc_memory_t again;
	ck_status(hsa_amd_ipc_memory_create(p, WHOLE_BLOCK, &again), HSA_STATUS_SUCCESS);
	r = call((struct msg){ .op = OP_ATTACH, .h = again });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	ck_assert_uint_ne(r.value, remote);
	ck_assert_int_eq(fill_range(p, WHOLE_BLOCK, 7, -1), 0);
	struct reply c = call((struct msg){ .op = OP_CHECK, .a = r.value, .b = WHOLE_BLOCK, .c = 7,
					    .arg = -1 });
	ck_assert_int_eq(c.value, 0);
	r = call((struct msg){ .op = OP_DETACH, .a = r.value });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_ipc_memory_detach(p), HSA_STATUS_SUCCESS);
	/* Detached: unknown again. */
	ck_status(hsa_amd_pointer_info(p, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
	ck_assert_int_ne(info.type, HSA_EXT_POINTER_TYPE_IPC);
	r = call((struct msg){ .op = OP_FREE, .a = remote });
	ck_status(r.status, HSA_STATUS_SUCCESS);
}
END_TEST

/* The exporter frees while the importer holds the memory: the importer
 * keeps the pages (dma-buf lifetime); a new attach of the handle fails. */
START_TEST(memory_exporter_frees_first)
{
	uint8_t *buf = alloc_vram(0, 65536);
	fill_range(buf, 65536, 8, -1);
	hsa_amd_ipc_memory_t h;
	ck_status(hsa_amd_ipc_memory_create(buf, 65536, &h), HSA_STATUS_SUCCESS);
	struct reply r = call((struct msg){ .op = OP_ATTACH, .h = h });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	uint64_t remote = r.value;
	ck_status(hsa_amd_memory_pool_free(buf), HSA_STATUS_SUCCESS);
	r = call((struct msg){ .op = OP_CHECK, .a = remote, .b = 65536, .c = 8, .arg = 0 });
	ck_assert_int_eq(r.value, 0);
	struct reply again = call((struct msg){ .op = OP_ATTACH, .h = h });
	ck_status(again.status, HSA_STATUS_ERROR_INVALID_ARGUMENT);
	r = call((struct msg){ .op = OP_DETACH, .a = remote });
	ck_status(r.status, HSA_STATUS_SUCCESS);
}
END_TEST

/* ROCr 5.2.3's statuses for what cannot be shared or attached. */
START_TEST(memory_bad_arguments)
{
	hsa_amd_ipc_memory_t h;
	uint8_t *buf = alloc_vram(0, 8192);
	ck_status(hsa_amd_ipc_memory_create(NULL, 8192, &h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ipc_memory_create(buf, 8192, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* not the whole allocation, not its start */
	ck_status(hsa_amd_ipc_memory_create(buf, 4096, &h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ipc_memory_create(buf + 4096, 4096, &h),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* the size asked for, not the page-rounded one ROCr records */
	void *odd = alloc_vram(0, 4096 + 100);
	ck_status(hsa_amd_ipc_memory_create(odd, 4096 + 100, &h),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ipc_memory_create(odd, 8192, &h), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_memory_pool_free(odd), HSA_STATUS_SUCCESS);
	/* not runtime memory; system-pool memory (user pages: the kernel
	 * does not export them) */
	static uint8_t local[8192];
	ck_status(hsa_amd_ipc_memory_create(local, 8192, &h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	void *sys = NULL;
	ck_status(hsa_amd_memory_pool_allocate(sys_pool, 8192, 0, &sys), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_ipc_memory_create(sys, 8192, &h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_free(sys), HSA_STATUS_SUCCESS);

	void *p = NULL;
	memset(&h, 0, sizeof(h));
	ck_status(hsa_amd_ipc_memory_attach(&h, 4096, 0, NULL, &p),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ipc_memory_create(buf, 8192, &h), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_ipc_memory_attach(&h, 4096, 0, NULL, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ipc_memory_attach(&h, 4096, 1, NULL, &p),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_agent_t bogus = { RT_BOGUS_HANDLE };
	ck_status(hsa_amd_ipc_memory_attach(&h, 4096, 1, &bogus, &p),
		  HSA_STATUS_ERROR_INVALID_AGENT);
	/* A handle naming another fd of the exporter (a reused number) */
	hsa_amd_ipc_memory_t wrong = h;
	wrong.handle[1] = 0; /* stdin */
	struct reply r = call((struct msg){ .op = OP_ATTACH, .h = wrong });
	ck_status(r.status, HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* A dead exporter: a pid that is not running */
	wrong = h;
	wrong.handle[0] = 0x7ffffffe;
	r = call((struct msg){ .op = OP_ATTACH, .h = wrong });
	ck_status(r.status, HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ipc_memory_detach(NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ipc_memory_detach(buf), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_memory_pool_free(buf), HSA_STATUS_SUCCESS);
}
END_TEST

static bool on_value(hsa_signal_value_t value, void *arg)
{
	(void)value;
	(void)arg;
	return false;
}

/* A signal created here, attached there: the child waits for a value the
 * parent stores, the parent waits for one the child stores later. */
START_TEST(signal_parent_to_child)
{
	hsa_signal_t s;
	ck_status(hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_IPC, &s), HSA_STATUS_SUCCESS);
	hsa_amd_ipc_signal_t h;
	ck_status(hsa_amd_ipc_signal_create(s, &h), HSA_STATUS_SUCCESS);
	struct reply r = call((struct msg){ .op = OP_SIG_ATTACH, .h = h });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	uint64_t remote = r.value;

	send_msg(&(struct msg){ .op = OP_SIG_WAIT_EQ, .a = remote, .b = 2 });
	usleep(20000); /* let the child start waiting (the test holds either way) */
	hsa_signal_store_screlease(s, 2);
	r = recv_reply();
	ck_assert_int_eq(r.value, 2);

	send_msg(&(struct msg){ .op = OP_SIG_STORE, .a = remote, .b = 3, .arg = 20 });
	ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 3, WAIT_NS,
						   HSA_WAIT_STATE_BLOCKED), 3);
	recv_reply();

	/* A GPU copy in the child completes on it: the parent sees it drop. */
	hsa_signal_store_screlease(s, 1);
	send_msg(&(struct msg){ .op = OP_SIG_COPY, .a = remote });
	ck_assert_int_lt(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, WAIT_NS,
						   HSA_WAIT_STATE_BLOCKED), 1);
	r = recv_reply();
	ck_status(r.status, HSA_STATUS_SUCCESS);

	/* No async handler on it: ROCr 5.2.3 takes only interrupt signals
	 * (it waits on their KFD events; an IPC signal has none). */
	ck_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 7, on_value, NULL),
		  HSA_STATUS_ERROR_INVALID_SIGNAL);

	/* The attacher lets go first; the creator's signal goes on. */
	r = call((struct msg){ .op = OP_SIG_DESTROY, .a = remote });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	hsa_signal_store_screlease(s, 9);
	ck_assert_int_eq(hsa_signal_load_scacquire(s), 9);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

/* Created in the child, attached here; the creator destroys it first and
 * the attached copy still works. */
START_TEST(signal_child_to_parent)
{
	struct reply r = call((struct msg){ .op = OP_SIG_CREATE, .a = 5 });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	uint64_t remote = r.value;
	hsa_signal_t s;
	ck_status(hsa_amd_ipc_signal_attach(&r.h, &s), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_signal_load_relaxed(s), 5);
	/* The page is attached IPC memory, as pointer info says. */
	hsa_amd_pointer_info_t info = { .size = sizeof(info) };
	ck_status(hsa_amd_pointer_info((void *)(uintptr_t)s.handle, &info, NULL, NULL, NULL),
		  HSA_STATUS_SUCCESS);
	ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_IPC);

	send_msg(&(struct msg){ .op = OP_SIG_STORE, .a = remote, .b = 6, .arg = 20 });
	ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 6, WAIT_NS,
						   HSA_WAIT_STATE_BLOCKED), 6);
	recv_reply();
	send_msg(&(struct msg){ .op = OP_SIG_WAIT_EQ, .a = remote, .b = 4 });
	usleep(20000);
	hsa_signal_subtract_screlease(s, 2);
	r = recv_reply();
	ck_assert_int_eq(r.value, 4);

	r = call((struct msg){ .op = OP_SIG_DESTROY, .a = remote });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	hsa_signal_store_relaxed(s, 11);
	ck_assert_int_eq(hsa_signal_load_relaxed(s), 11);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(signal_bad_arguments)
{
	hsa_signal_t plain, s;
	hsa_amd_ipc_signal_t h;
	ck_status(hsa_signal_create(0, 0, NULL, &plain), HSA_STATUS_SUCCESS);
	/* not created with HSA_AMD_SIGNAL_IPC */
	ck_status(hsa_amd_ipc_signal_create(plain, &h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ipc_signal_create(plain, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	hsa_signal_t zero = { 0 }, bogus = { RT_BOGUS_HANDLE };
	ck_status(hsa_amd_ipc_signal_create(zero, &h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_status(hsa_amd_ipc_signal_create(bogus, &h), HSA_STATUS_ERROR_INVALID_SIGNAL);
	ck_status(hsa_amd_ipc_signal_attach(NULL, &s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	memset(&h, 0, sizeof(h));
	ck_status(hsa_amd_ipc_signal_attach(&h, &s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	/* IPC memory that holds no signal */
	struct reply r = call((struct msg){ .op = OP_ALLOC_EXPORT, .a = 4096, .arg = 0 });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_ipc_signal_attach(&r.h, &s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	r = call((struct msg){ .op = OP_FREE, .a = r.value });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	/* An IPC signal's handle works as a memory handle too (4096 bytes). */
	ck_status(hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_IPC, &s), HSA_STATUS_SUCCESS);
	ck_status(hsa_amd_ipc_signal_create(s, &h), HSA_STATUS_SUCCESS);
	r = call((struct msg){ .op = OP_ATTACH, .h = h });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	r = call((struct msg){ .op = OP_DETACH, .a = r.value });
	ck_status(r.status, HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
	ck_status(hsa_signal_destroy(plain), HSA_STATUS_SUCCESS);
}
END_TEST

/* "cross": what holds whichever runtime each side runs (ROCr 5.2.3 on a
 * kernel with the ROCm-DKMS IPC ioctls, or hsalite); "hsalite": hsalite's
 * exact answers (ROCr sub-allocates VRAM, so its handles name fragments,
 * and it crashes on some bad handles). */
static Suite *ipc_suite(void)
{
	Suite *s = suite_create("ipc");
	TCase *cross = tcase_create("cross");
	tcase_set_timeout(cross, 120);
	tcase_add_test(cross, memory_parent_to_child);
	tcase_add_test(cross, memory_child_to_parent);
	tcase_add_test(cross, memory_peer_gpu);
	tcase_add_test(cross, signal_parent_to_child);
	tcase_add_test(cross, signal_child_to_parent);
	suite_add_tcase(s, cross);
	TCase *ours = tcase_create("hsalite");
	tcase_set_timeout(ours, 120);
	tcase_add_test(ours, memory_pointer_info);
	tcase_add_test(ours, memory_exporter_frees_first);
	tcase_add_test(ours, memory_bad_arguments);
	tcase_add_test(ours, signal_bad_arguments);
	suite_add_tcase(s, ours);
	return s;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--child"))
		return child_main(atoi(argv[2]), atoi(argv[3]));
	if (setup()) {
		fprintf(stderr, "test_ipc: no GPU agent: skipped\n");
		return HL_SKIP;
	}
	if (spawn_child()) {
		perror("test_ipc: spawn");
		return EXIT_FAILURE;
	}
	SRunner *sr = srunner_create(ipc_suite());
	srunner_set_fork_status(sr, CK_NOFORK);
	/* Another program as the child (the other runtime): the cross cases. */
	srunner_run(sr, NULL, getenv("HL_IPC_CHILD") ? "cross" : NULL, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	struct msg quit = { .op = OP_QUIT };
	int status = 0;
	if (write(to_child, &quit, sizeof(quit)) != (ssize_t)sizeof(quit) ||
	    waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "test_ipc: child ended with status %#x\n", status);
		failed++;
	}
	hsa_shut_down();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
