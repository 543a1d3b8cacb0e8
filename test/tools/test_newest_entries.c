/*
 * The nine AmdExtTable entries of AMD's header of rocm-systems 41e1945c
 * (interfaces 1.24-1.29, step 0x12; docs/tools.md "The entries of
 * interface 1.24 to 1.29"): the table a tool's OnLoad gets is 744 bytes at
 * step 0x12, each entry starts as hsalite's function, and each exported
 * call jumps through its entry, so a tool that swaps one sees the call.
 * hsalite only (no ROCr the repository runs has these entries); the
 * suite's tool is hl_table_grab (HSA_TOOLS_LIB).
 */
#include <stddef.h>
#include <string.h>

#include "hl_check.h"
#include "hl_hsa.h"
#include "table_grab.h"

/* Our own number for a swapped entry's answer: no real call gives it. */
#define SEEN ((hsa_status_t)0x7E57)

static int calls[9];

static hsa_status_t rec_sem_open(hsa_agent_t a, const hsa_amd_external_semaphore_handle_descriptor_t *d,
				 hsa_amd_external_semaphore_t *s)
{
	(void)a, (void)d, (void)s;
	calls[0]++;
	return SEEN;
}

static hsa_status_t rec_sem_close(hsa_amd_external_semaphore_t s)
{
	(void)s;
	calls[1]++;
	return SEEN;
}

static hsa_status_t rec_fabric_export(hsa_fabric_handle_t *f, hsa_amd_vmem_alloc_handle_t h,
				      uint64_t flags)
{
	(void)f, (void)h, (void)flags;
	calls[2]++;
	return SEEN;
}

static hsa_status_t rec_fabric_import(hsa_fabric_handle_t f, hsa_amd_vmem_alloc_handle_t *h)
{
	(void)f, (void)h;
	calls[3]++;
	return SEEN;
}

static hsa_status_t rec_queue_create(hsa_agent_t a, hsa_amd_queue_create_desc_t *d, uint32_t n)
{
	(void)a, (void)d, (void)n;
	calls[4]++;
	return SEEN;
}

static hsa_status_t rec_queue_signal(hsa_queue_t *q, hsa_amd_external_semaphore_t s, uint64_t v)
{
	(void)q, (void)s, (void)v;
	calls[5]++;
	return SEEN;
}

static hsa_status_t rec_queue_wait(hsa_queue_t *q, hsa_amd_external_semaphore_t s, uint64_t v)
{
	(void)q, (void)s, (void)v;
	calls[6]++;
	return SEEN;
}

static hsa_status_t rec_image_v2(hsa_agent_t a, const hsa_ext_image_descriptor_v2_t *d,
				 const hsa_amd_image_descriptor_t *l, const void *data,
				 hsa_access_permission_t p, hsa_ext_image_t *img)
{
	(void)a, (void)d, (void)l, (void)data, (void)p, (void)img;
	calls[7]++;
	return SEEN;
}

static hsa_status_t rec_interop_sized(uint32_t n, hsa_agent_t *a, hsa_handle_t h, uint32_t flags,
				      size_t hint, size_t *size, void **ptr, size_t *msize,
				      const void **meta)
{
	(void)n, (void)a, (void)h, (void)flags, (void)hint, (void)size, (void)ptr, (void)msize,
		(void)meta;
	calls[8]++;
	return SEEN;
}

static void setup(void)
{
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	ck_assert_msg(hl_grabbed_table() != NULL, "HSA_TOOLS_LIB did not load hl_table_grab");
}

static void teardown(void)
{
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
}

START_TEST(amd_table_size_and_step)
{
	const AmdExtTable *amd = hl_grabbed_table()->amd_ext_;
	ck_assert_uint_eq(amd->version.major_id, 2);
	ck_assert_uint_eq(amd->version.minor_id, 744);
	ck_assert_uint_eq(amd->version.step_id, 0x12);
	/* every new entry is filled (none left to the missing-entry answer:
	 * the fabric export through its entry answers as the call) */
	const void *e[] = {
		(const void *)amd->hsa_amd_external_semaphore_handle_open_fn,
		(const void *)amd->hsa_amd_external_semaphore_handle_close_fn,
		(const void *)amd->hsa_amd_vmem_export_fabric_handle_fn,
		(const void *)amd->hsa_amd_vmem_import_fabric_handle_fn,
		(const void *)amd->hsa_amd_queue_create_fn,
		(const void *)amd->hsa_amd_queue_signal_external_semaphore_fn,
		(const void *)amd->hsa_amd_queue_wait_external_semaphore_fn,
		(const void *)amd->hsa_amd_image_create_v2_fn,
		(const void *)amd->hsa_amd_interop_map_buffer_with_size_fn,
	};
	for (unsigned i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		ck_assert_msg(e[i] != NULL, "entry %u is NULL", i);
	hsa_fabric_handle_t f;
	ck_status(amd->hsa_amd_vmem_export_fabric_handle_fn(&f, (hsa_amd_vmem_alloc_handle_t){ 5 },
							    0),
		  HSA_STATUS_ERROR_INVALID_ALLOCATION);
	ck_status(amd->hsa_amd_vmem_import_fabric_handle_fn(f, NULL),
		  HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

/* Swap all nine, call each exported function once, put them back. */
START_TEST(exported_calls_go_through_the_entries)
{
	AmdExtTable *amd = hl_grabbed_table()->amd_ext_;
	AmdExtTable saved = *amd;
	memset(calls, 0, sizeof(calls));
	amd->hsa_amd_external_semaphore_handle_open_fn = rec_sem_open;
	amd->hsa_amd_external_semaphore_handle_close_fn = rec_sem_close;
	amd->hsa_amd_vmem_export_fabric_handle_fn = rec_fabric_export;
	amd->hsa_amd_vmem_import_fabric_handle_fn = rec_fabric_import;
	amd->hsa_amd_queue_create_fn = rec_queue_create;
	amd->hsa_amd_queue_signal_external_semaphore_fn = rec_queue_signal;
	amd->hsa_amd_queue_wait_external_semaphore_fn = rec_queue_wait;
	amd->hsa_amd_image_create_v2_fn = rec_image_v2;
	amd->hsa_amd_interop_map_buffer_with_size_fn = rec_interop_sized;

	hsa_agent_t none = { 0 };
	hsa_amd_external_semaphore_t sem = { 0 };
	hsa_fabric_handle_t f = { { 0 } };
	hsa_amd_vmem_alloc_handle_t h = { 0 };
	hsa_status_t got[9] = {
		hsa_amd_external_semaphore_handle_open(none, NULL, NULL),
		hsa_amd_external_semaphore_handle_close(sem),
		hsa_amd_vmem_export_fabric_handle(&f, h, 0),
		hsa_amd_vmem_import_fabric_handle(f, &h),
		hsa_amd_queue_create(none, NULL, 0),
		hsa_amd_queue_signal_external_semaphore(NULL, sem, 0),
		hsa_amd_queue_wait_external_semaphore(NULL, sem, 0),
		hsa_amd_image_create_v2(none, NULL, NULL, NULL, HSA_ACCESS_PERMISSION_RO, NULL),
		hsa_amd_interop_map_buffer_with_size(0, NULL, (hsa_handle_t){ 0 }, 0, 0, NULL, NULL,
						     NULL, NULL),
	};
	*amd = saved;
	for (int i = 0; i < 9; i++) {
		ck_assert_msg(got[i] == SEEN, "call %d answered 0x%x, not through its entry", i,
			      (unsigned)got[i]);
		ck_assert_int_eq(calls[i], 1);
	}
	/* put back: the calls are hsalite's again */
	ck_status(hsa_amd_vmem_import_fabric_handle(f, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
	ck_assert_int_ne(hsa_amd_external_semaphore_handle_open(none, NULL, NULL), SEEN);
	ck_assert_int_eq(calls[0], 1);
}
END_TEST

static Suite *newest_entries_suite(void)
{
	Suite *s = suite_create("tools-newest-entries");
	TCase *tc = tcase_create("entries");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, amd_table_size_and_step);
	tcase_add_test(tc, exported_calls_go_through_the_entries);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(newest_entries_suite)
