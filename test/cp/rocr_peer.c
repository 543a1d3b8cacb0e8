/*
 * Stock ROCr 5.2.3 (Debian's libhsa-runtime64.so.1 and libhsakmt) on the
 * emulated GPU, driving kfdemu's command processor: ROCr creates its own
 * queues (user and utility), runs its internal blit kernels for copies to
 * and from VRAM (HSA_ENABLE_SDMA=0: kfdemu models no SDMA engine), loads a
 * clang-compiled code object, and the CP executes a kernel dispatch and
 * BARRIER_AND / BARRIER_OR packets with the signal values the HSA spec
 * gives.  Built against /usr/include/hsa and linked against the system
 * library only (never hsalite); runs under the kfdemu launcher (mi210:
 * ROCr 5.2.3 predates gfx942).  Exits 77 when ROCr cannot find a GPU at
 * all (no emulator).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hl_hsa.h"

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t sys_pool, vram_pool, kernarg_pool;
static bool have_gpu, have_cpu;

static void *sys_alloc(size_t size)
{
	void *p = NULL;
	ck_hsa(hsa_amd_memory_pool_allocate(sys_pool, size, 0, &p));
	ck_hsa(hsa_amd_agents_allow_access(1, &gpu, NULL, p));
	return p;
}

static void setup(void)
{
	ck_hsa(hsa_init());
	ck_hsa(hl_first_agents(&gpu, &have_gpu, &cpu, &have_cpu));
	if (!have_gpu) {
		fprintf(stderr, "rocr_peer: ROCr found no GPU agent: skipped\n");
		exit(HL_SKIP);
	}
	struct hl_pools pools;
	ck_hsa(hl_find_pools(gpu, cpu, &pools));
	ck_assert(pools.have_sys && pools.have_vram && pools.have_kernarg);
	sys_pool = pools.sys;
	vram_pool = pools.vram;
	kernarg_pool = pools.kernarg;
}

static void teardown(void)
{
	ck_hsa(hsa_shut_down());
}

START_TEST(the_runtime_is_rocr)
{
	Dl_info info;
	ck_assert(dladdr((void *)hsa_init, &info));
	char *ours = realpath(info.dli_fname, NULL);
	char *rocr = realpath("/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1", NULL);
	ck_assert_msg(ours && rocr && !strcmp(ours, rocr), "hsa_init from %s, not ROCr's %s",
		      info.dli_fname, rocr ? rocr : "?");
	free(ours);
	free(rocr);
	char name[64] = "";
	ck_hsa(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name));
	ck_assert_str_eq(name, "gfx90a");
}
END_TEST

START_TEST(blit_kernels_copy_through_vram)
{
	/* host -> VRAM -> host with ROCr's blit kernels on its utility queue */
	enum { N = 1 << 16 };
	uint32_t *src = sys_alloc(N * 4), *dst = sys_alloc(N * 4);
	for (uint32_t i = 0; i < N; i++) {
		src[i] = i * 2654435761u;
		dst[i] = 0;
	}
	void *vram = NULL;
	ck_hsa(hsa_amd_memory_pool_allocate(vram_pool, N * 4, 0, &vram));
	hsa_signal_t s;
	ck_hsa(hsa_signal_create(1, 0, NULL, &s));
	ck_hsa(hsa_amd_memory_async_copy(vram, gpu, src, cpu, N * 4, 0, NULL, s));
	ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, 10000000000ull,
						   HSA_WAIT_STATE_BLOCKED), 0);
	hsa_signal_store_relaxed(s, 1);
	ck_hsa(hsa_amd_memory_async_copy(dst, cpu, vram, gpu, N * 4, 0, NULL, s));
	ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, 10000000000ull,
						   HSA_WAIT_STATE_BLOCKED), 0);
	for (uint32_t i = 0; i < N; i++)
		ck_assert_msg(dst[i] == src[i], "dst[%u] = 0x%x, expected 0x%x", i, dst[i], src[i]);
	ck_hsa(hsa_signal_destroy(s));
	ck_hsa(hsa_amd_memory_pool_free(vram));
	ck_hsa(hsa_amd_memory_pool_free(src));
	ck_hsa(hsa_amd_memory_pool_free(dst));
}
END_TEST

/* Reserves a slot, writes the body, publishes the header, rings. */
static void submit(hsa_queue_t *q, const void *pkt)
{
	uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
	while (idx - hsa_queue_load_read_index_scacquire(q) >= q->size)
		;
	uint8_t *slot = (uint8_t *)q->base_address + 64 * (idx % q->size);
	memcpy(slot + 4, (const uint8_t *)pkt + 4, 60);
	uint32_t first;
	memcpy(&first, pkt, 4);
	__atomic_store_n((uint32_t *)slot, first, __ATOMIC_RELEASE);
	hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
}

static uint16_t header(hsa_packet_type_t type)
{
	return (uint16_t)(type << HSA_PACKET_HEADER_TYPE | 1 << HSA_PACKET_HEADER_BARRIER |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE |
			  HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE);
}

START_TEST(kernel_dispatch_runs_vector_add)
{
	enum { N = 1000 };
	hsa_code_object_reader_t reader;
	int fd = open(CP_VADD_CO, O_RDONLY | O_CLOEXEC);
	ck_assert_msg(fd >= 0, "cannot open %s", CP_VADD_CO);
	ck_hsa(hsa_code_object_reader_create_from_file(fd, &reader));
	hsa_executable_t exe;
	ck_hsa(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					 NULL, &exe));
	ck_hsa(hsa_executable_load_agent_code_object(exe, gpu, reader, NULL, NULL));
	ck_hsa(hsa_executable_freeze(exe, NULL));
	hsa_executable_symbol_t sym;
	ck_hsa(hsa_executable_get_symbol_by_name(exe, "vadd.kd", &gpu, &sym));
	uint64_t kobj = 0;
	uint32_t kernarg_size = 0;
	ck_hsa(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kobj));
	ck_hsa(hsa_executable_symbol_get_info(
		sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg_size));
	ck_assert_uint_ge(kernarg_size, 28);

	int32_t *a = sys_alloc(N * 4), *b = sys_alloc(N * 4), *c = sys_alloc(N * 4);
	for (int i = 0; i < N; i++) {
		a[i] = i;
		b[i] = 1000 * i;
		c[i] = -1;
	}
	uint8_t *args = NULL;
	ck_hsa(hsa_amd_memory_pool_allocate(kernarg_pool, kernarg_size, 0, (void **)&args));
	ck_hsa(hsa_amd_agents_allow_access(1, &gpu, NULL, args));
	memset(args, 0, kernarg_size);
	uint32_t n = N;
	memcpy(args, &a, 8);
	memcpy(args + 8, &b, 8);
	memcpy(args + 16, &c, 8);
	memcpy(args + 24, &n, 4);

	hsa_queue_t *q;
	ck_hsa(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX,
				&q));
	hsa_signal_t done;
	ck_hsa(hsa_signal_create(1, 0, NULL, &done));
	hsa_kernel_dispatch_packet_t p;
	memset(&p, 0, sizeof(p));
	p.header = header(HSA_PACKET_TYPE_KERNEL_DISPATCH);
	p.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
	p.workgroup_size_x = 256;
	p.workgroup_size_y = p.workgroup_size_z = 1;
	p.grid_size_x = 1024;
	p.grid_size_y = p.grid_size_z = 1;
	p.kernel_object = kobj;
	p.kernarg_address = args;
	p.completion_signal = done;
	submit(q, &p);
	hsa_signal_value_t v = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1,
							 20000000000ull, HSA_WAIT_STATE_BLOCKED);
	ck_assert_int_eq(v, 0);
	for (int i = 0; i < N; i++)
		ck_assert_msg(c[i] == 1001 * i, "c[%d] = %d, expected %d", i, c[i], 1001 * i);
	ck_assert_uint_eq(hsa_queue_load_read_index_scacquire(q), 1);

	ck_hsa(hsa_signal_destroy(done));
	ck_hsa(hsa_queue_destroy(q));
	ck_hsa(hsa_executable_destroy(exe));
	ck_hsa(hsa_code_object_reader_destroy(reader));
	close(fd);
	hsa_amd_memory_pool_free(args);
	hsa_amd_memory_pool_free(a);
	hsa_amd_memory_pool_free(b);
	hsa_amd_memory_pool_free(c);
}
END_TEST

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { 0, (long)ms * 1000000L };
	nanosleep(&ts, NULL);
}

START_TEST(barrier_and_and_or_complete_with_their_dependencies)
{
	hsa_queue_t *q;
	ck_hsa(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
				&q));
	hsa_signal_t d0, d1, and_done, or_done;
	ck_hsa(hsa_signal_create(1, 0, NULL, &d0));
	ck_hsa(hsa_signal_create(1, 0, NULL, &d1));
	ck_hsa(hsa_signal_create(2, 0, NULL, &and_done)); /* decremented once: 2 -> 1 */
	ck_hsa(hsa_signal_create(1, 0, NULL, &or_done));

	hsa_barrier_or_packet_t o;
	memset(&o, 0, sizeof(o));
	o.header = header(HSA_PACKET_TYPE_BARRIER_OR);
	o.dep_signal[0] = d0;
	o.dep_signal[1] = d1;
	o.completion_signal = or_done;
	submit(q, &o);
	hsa_barrier_and_packet_t a;
	memset(&a, 0, sizeof(a));
	a.header = header(HSA_PACKET_TYPE_BARRIER_AND);
	a.dep_signal[0] = d0;
	a.dep_signal[3] = d1;
	a.completion_signal = and_done;
	submit(q, &a);

	sleep_ms(30);
	ck_assert_int_eq(hsa_signal_load_scacquire(or_done), 1);
	ck_assert_int_eq(hsa_signal_load_scacquire(and_done), 2);
	hsa_signal_store_screlease(d1, 0); /* OR satisfied, AND not */
	ck_assert_int_eq(hsa_signal_wait_scacquire(or_done, HSA_SIGNAL_CONDITION_EQ, 0,
						   10000000000ull, HSA_WAIT_STATE_BLOCKED), 0);
	sleep_ms(30);
	ck_assert_int_eq(hsa_signal_load_scacquire(and_done), 2);
	hsa_signal_store_screlease(d0, 0);
	ck_assert_int_eq(hsa_signal_wait_scacquire(and_done, HSA_SIGNAL_CONDITION_EQ, 1,
						   10000000000ull, HSA_WAIT_STATE_BLOCKED), 1);
	ck_assert_uint_eq(hsa_queue_load_read_index_scacquire(q), 2);

	ck_hsa(hsa_signal_destroy(d0));
	ck_hsa(hsa_signal_destroy(d1));
	ck_hsa(hsa_signal_destroy(and_done));
	ck_hsa(hsa_signal_destroy(or_done));
	ck_hsa(hsa_queue_destroy(q));
}
END_TEST

static Suite *rocr_peer_suite(void)
{
	Suite *s = suite_create("rocr_peer");
	TCase *tc = tcase_create("rocr");
	tcase_add_unchecked_fixture(tc, setup, teardown); /* one hsa_init */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, the_runtime_is_rocr);
	tcase_add_test(tc, blit_kernels_copy_through_vram);
	tcase_add_test(tc, kernel_dispatch_runs_vector_add);
	tcase_add_test(tc, barrier_and_and_or_complete_with_their_dependencies);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(rocr_peer_suite)
