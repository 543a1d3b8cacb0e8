/*
 * Concurrent loads: four threads each build, query and destroy executables
 * from one shared reader while a fifth walks every executable through the
 * loader extension and asks for each one's loaded code objects.  Every
 * kernel object must hold the ELF's descriptor bytes; no call may fail.
 * Run under ASan (and TSan builds) this checks the loader's locking.
 * Label emu.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "co_file.h"
#include "hl_check.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ven_amd_loader.h"

#define THREADS 4
#define ROUNDS 25

static hsa_agent_t gpu;
static struct co_file vadd;
static const uint8_t *kd_bytes;
static hsa_code_object_reader_t reader;
static hsa_ven_amd_loader_1_03_pfn_t table;
static atomic_int failures, walking;

static hsa_status_t find_gpu(hsa_agent_t agent, void *data)
{
	(void)data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_GPU && !gpu.handle)
		gpu = agent;
	return HSA_STATUS_SUCCESS;
}

static void *loader_thread(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		hsa_executable_t e;
		hsa_executable_symbol_t s;
		uint64_t ko = 0;
		if (hsa_executable_create_alt(HSA_PROFILE_FULL,
					      HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
					      &e) != HSA_STATUS_SUCCESS) {
			atomic_fetch_add(&failures, 1);
			continue;
		}
		if (hsa_executable_load_agent_code_object(e, gpu, reader, NULL, NULL) ||
		    hsa_executable_freeze(e, NULL) ||
		    hsa_executable_get_symbol_by_name(e, "vadd", &gpu, &s) ||
		    hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &ko) ||
		    memcmp((const void *)(uintptr_t)ko, kd_bytes, 64) != 0)
			atomic_fetch_add(&failures, 1);
		if (hsa_executable_destroy(e) != HSA_STATUS_SUCCESS)
			atomic_fetch_add(&failures, 1);
	}
	return NULL;
}

static hsa_status_t count_lco(hsa_executable_t e, hsa_loaded_code_object_t l, void *data)
{
	(void)e;
	uint64_t base;
	if (table.hsa_ven_amd_loader_loaded_code_object_get_info(
		    l, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, &base) ||
	    base == 0)
		atomic_fetch_add(&failures, 1);
	++*(unsigned *)data;
	return HSA_STATUS_SUCCESS;
}

static hsa_status_t visit_exe(hsa_executable_t e, void *data)
{
	(void)data;
	unsigned n = 0;
	/* the walk holds the loader lock: the executable cannot vanish here */
	if (table.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(e, count_lco, &n))
		atomic_fetch_add(&failures, 1);
	return HSA_STATUS_SUCCESS;
}

static void *walker_thread(void *arg)
{
	(void)arg;
	while (atomic_load(&walking))
		if (table.hsa_ven_amd_loader_iterate_executables(visit_exe, NULL))
			atomic_fetch_add(&failures, 1);
	return NULL;
}

START_TEST(concurrent_loads_and_walks)
{
	ck_assert(co_load(&vadd, "vadd", NULL));
	kd_bytes = co_sym_bytes(&vadd, co_dynsym(&vadd, "vadd.kd"));
	ck_assert_ptr_nonnull(kd_bytes);
	ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_iterate_agents(find_gpu, NULL), HSA_STATUS_SUCCESS);
	ck_assert(gpu.handle);
	ck_assert_int_eq(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1,
							      sizeof(table), &table),
			 HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_code_object_reader_create_from_memory(vadd.data, vadd.size, &reader),
			 HSA_STATUS_SUCCESS);
	pthread_t t[THREADS], w;
	atomic_store(&walking, 1);
	ck_assert_int_eq(pthread_create(&w, NULL, walker_thread, NULL), 0);
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, loader_thread, NULL), 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	atomic_store(&walking, 0);
	pthread_join(w, NULL);
	ck_assert_msg(atomic_load(&failures) == 0, "%d calls failed", atomic_load(&failures));
	ck_assert_int_eq(hsa_code_object_reader_destroy(reader), HSA_STATUS_SUCCESS);
	ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
	co_free(&vadd);
}
END_TEST

static Suite *threads_suite(void)
{
	Suite *s = suite_create("loader_threads");
	TCase *tc = tcase_create("threads");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, concurrent_loads_and_walks);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(threads_suite)
