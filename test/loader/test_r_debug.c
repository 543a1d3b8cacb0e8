/*
 * The debugger's rendezvous, _amdgpu_r_debug (src/loader/debug.c), read the
 * way rocgdb reads it: found by name in the library's dynamic symbols
 * (version ROCR_1), r_map walked as a link_map list.  Freezing an
 * executable lists its loaded code objects with l_name = the URI the loader
 * extension reports and l_addr = load address - lowest vaddr (the loader
 * extension's LOAD_DELTA); destroying it unlists them; the state is
 * RT_CONSISTENT between changes and r_brk is a function of the library.
 * Label emu; loader_r_debug_rocr runs the same source on Debian's ROCr
 * 5.2.3 (label peer), which behaves the same.
 */
#define _GNU_SOURCE /* dladdr, dlvsym */
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "co_file.h"
#include "hl_check.h"
#include "hl_hsa.h"
#include "hsa/hsa.h"
#include "hsa/hsa_ven_amd_loader.h"

static hsa_agent_t gpu;

static hsa_status_t find_gpu(hsa_agent_t agent, void *data)
{
	(void)data;
	hsa_device_type_t type;
	hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
	if (type == HSA_DEVICE_TYPE_GPU && !gpu.handle)
		gpu = agent;
	return HSA_STATUS_SUCCESS;
}

static struct r_debug *rendezvous(void)
{
	struct r_debug *r = dlvsym(RTLD_DEFAULT, "_amdgpu_r_debug", "ROCR_1");
	ck_assert_msg(r, "_amdgpu_r_debug@ROCR_1 is not exported");
	return r;
}

static unsigned list_length(const struct r_debug *r)
{
	unsigned n = 0;
	const struct link_map *prev = NULL;
	for (const struct link_map *m = r->r_map; m; m = m->l_next) {
		ck_assert_ptr_eq(m->l_prev, prev);
		prev = m;
		n++;
	}
	return n;
}

struct lco_list {
	hsa_loaded_code_object_t l[4];
	unsigned n;
};

static hsa_status_t collect(hsa_executable_t e, hsa_loaded_code_object_t l, void *data)
{
	(void)e;
	struct lco_list *ll = data;
	if (ll->n < 4)
		ll->l[ll->n++] = l;
	return HSA_STATUS_SUCCESS;
}

static hsa_executable_t load(hsa_code_object_reader_t r, bool freeze)
{
	hsa_executable_t e;
	ck_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
					    NULL, &e), HSA_STATUS_SUCCESS);
	ck_status(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL), HSA_STATUS_SUCCESS);
	if (freeze)
		ck_status(hsa_executable_freeze(e, NULL), HSA_STATUS_SUCCESS);
	return e;
}

/* The list entry of loaded code object l: same URI, same delta. */
static void check_entry(const hsa_ven_amd_loader_1_03_pfn_t *t, const struct link_map *m,
			hsa_loaded_code_object_t l)
{
	uint32_t len = 0;
	ck_status(t->hsa_ven_amd_loader_loaded_code_object_get_info(
			  l, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, &len),
		  HSA_STATUS_SUCCESS);
	char uri[512] = { 0 };
	ck_assert_uint_lt(len, sizeof(uri));
	ck_status(t->hsa_ven_amd_loader_loaded_code_object_get_info(
			  l, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, uri),
		  HSA_STATUS_SUCCESS);
	int64_t delta = 0;
	ck_status(t->hsa_ven_amd_loader_loaded_code_object_get_info(
			  l, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA, &delta),
		  HSA_STATUS_SUCCESS);
	ck_assert_ptr_nonnull(m->l_name);
	ck_assert_str_eq(m->l_name, uri);
	ck_assert_uint_eq((uint64_t)m->l_addr, (uint64_t)delta);
	ck_assert(strncmp(uri, "memory://", 9) == 0);
}

START_TEST(freeze_lists_destroy_unlists)
{
	struct co_file f;
	ck_assert(co_load(&f, "vadd", NULL));
	struct r_debug *r = rendezvous();
	ck_assert_int_eq(r->r_version, 7);
	ck_assert_int_eq(r->r_state, RT_CONSISTENT);
	ck_assert_ptr_null(r->r_map);
	/* r_brk is a function inside the runtime library. */
	Dl_info brk = { 0 }, self = { 0 };
	ck_assert(dladdr((void *)(uintptr_t)r->r_brk, &brk));
	ck_assert(dladdr((void *)r, &self));
	ck_assert_ptr_eq(brk.dli_fbase, self.dli_fbase);

	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	ck_status(hsa_iterate_agents(find_gpu, NULL), HSA_STATUS_SUCCESS);
	ck_assert(gpu.handle);
	hsa_ven_amd_loader_1_03_pfn_t t;
	ck_status(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof(t), &t),
		  HSA_STATUS_SUCCESS);
	hsa_code_object_reader_t rd;
	ck_status(hsa_code_object_reader_create_from_memory(f.data, f.size, &rd),
		  HSA_STATUS_SUCCESS);

	/* Loaded but not frozen: not listed yet (ROCr lists at freeze). */
	hsa_executable_t a = load(rd, false);
	ck_assert_uint_eq(list_length(r), 0);
	ck_status(hsa_executable_freeze(a, NULL), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(list_length(r), 1);
	ck_assert_int_eq(r->r_state, RT_CONSISTENT);
	struct lco_list la = { .n = 0 };
	ck_status(t.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(a, collect, &la),
		  HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(la.n, 1);
	check_entry(&t, r->r_map, la.l[0]);

	/* A second executable is appended after the first. */
	hsa_executable_t b = load(rd, true);
	ck_assert_uint_eq(list_length(r), 2);
	struct lco_list lb = { .n = 0 };
	ck_status(t.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(b, collect, &lb),
		  HSA_STATUS_SUCCESS);
	check_entry(&t, r->r_map->l_next, lb.l[0]);
	ck_assert_uint_ne((uint64_t)r->r_map->l_addr, (uint64_t)r->r_map->l_next->l_addr);

	/* Destroying the first leaves the second at the head. */
	ck_status(hsa_executable_destroy(a), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(list_length(r), 1);
	check_entry(&t, r->r_map, lb.l[0]);
	ck_assert_int_eq(r->r_state, RT_CONSISTENT);

	/* An executable destroyed unfrozen never appears. */
	hsa_executable_t c = load(rd, false);
	ck_status(hsa_executable_destroy(c), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(list_length(r), 1);

	/* The last hsa_shut_down empties the list (b is left to it). */
	ck_status(hsa_code_object_reader_destroy(rd), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	ck_assert_ptr_null(r->r_map);
	ck_assert_int_eq(r->r_state, RT_CONSISTENT);
	co_free(&f);
}
END_TEST

/* hsalite only (HL_R_DEBUG_FORK=1; plain builds: the parent forks with
 * kfdemu's engine threads running, see CMakeLists.txt): a fork child has
 * no GPU code loaded, so its rendezvous lists nothing from the fork on
 * (the loader's fork_child step), while the parent's list is untouched;
 * the child's own runtime lists its own code objects. */
START_TEST(a_fork_child_lists_nothing_of_the_parent)
{
	struct co_file f;
	ck_assert(co_load(&f, "vadd", NULL));
	struct r_debug *r = rendezvous();
	ck_status(hsa_init(), HSA_STATUS_SUCCESS);
	gpu.handle = 0;
	ck_status(hsa_iterate_agents(find_gpu, NULL), HSA_STATUS_SUCCESS);
	ck_assert(gpu.handle);
	hsa_code_object_reader_t rd;
	ck_status(hsa_code_object_reader_create_from_memory(f.data, f.size, &rd),
		  HSA_STATUS_SUCCESS);
	hsa_executable_t a = load(rd, true);
	ck_assert_uint_eq(list_length(r), 1);
	const struct link_map *parent_head = r->r_map;

	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* exit codes: 1 the parent's list, 2 a change left open,
		 * 3 the child's own runtime fails, 4 its list is wrong */
		if (r->r_map != NULL)
			_exit(1);
		if (r->r_state != RT_CONSISTENT)
			_exit(2);
		gpu.handle = 0;
		hsa_code_object_reader_t crd;
		hsa_executable_t ce;
		if (hsa_init() != HSA_STATUS_SUCCESS ||
		    hsa_iterate_agents(find_gpu, NULL) != HSA_STATUS_SUCCESS || !gpu.handle ||
		    hsa_code_object_reader_create_from_memory(f.data, f.size, &crd) !=
			    HSA_STATUS_SUCCESS ||
		    hsa_executable_create_alt(HSA_PROFILE_FULL,
					      HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
					      &ce) != HSA_STATUS_SUCCESS ||
		    hsa_executable_load_agent_code_object(ce, gpu, crd, NULL, NULL) !=
			    HSA_STATUS_SUCCESS ||
		    hsa_executable_freeze(ce, NULL) != HSA_STATUS_SUCCESS)
			_exit(3);
		if (!r->r_map || r->r_map->l_next || r->r_map == parent_head)
			_exit(4);
		if (hsa_shut_down() != HSA_STATUS_SUCCESS || r->r_map)
			_exit(3);
		_exit(0);
	}
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x",
		      (unsigned)status);
	/* The parent's list is its own, unchanged. */
	ck_assert_ptr_eq(r->r_map, parent_head);
	ck_assert_uint_eq(list_length(r), 1);
	ck_status(hsa_executable_destroy(a), HSA_STATUS_SUCCESS);
	ck_assert_uint_eq(list_length(r), 0);
	ck_status(hsa_code_object_reader_destroy(rd), HSA_STATUS_SUCCESS);
	ck_status(hsa_shut_down(), HSA_STATUS_SUCCESS);
	co_free(&f);
}
END_TEST

static Suite *r_debug_suite(void)
{
	Suite *s = suite_create("loader_r_debug");
	TCase *tc = tcase_create("r_debug");
	if (getenv("HL_R_DEBUG_FORK") && !strcmp(getenv("HL_R_DEBUG_FORK"), "1")) {
		tcase_add_test(tc, a_fork_child_lists_nothing_of_the_parent);
		suite_add_tcase(s, tc);
		return s;
	}
	tcase_add_test(tc, freeze_lists_destroy_unlists);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(r_debug_suite)
