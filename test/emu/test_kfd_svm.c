/*
 * AMDKFD_IOC_SVM on the kfdemu driver model: argument and range rules with
 * the kernel's errno, attribute splitting and GET_ATTR's common values, the
 * GPU view of SVM memory, and the BO/SVM exclusion.
 */
#include "emu_fixture.h"

#include <sys/syscall.h>
#include <linux/memfd.h>

#define ATTR_PREFERRED_LOC 0
#define ATTR_ACCESS 2
#define ATTR_ACCESS_IN_PLACE 3
#define ATTR_NO_ACCESS 4
#define ATTR_SET_FLAGS 5
#define ATTR_CLR_FLAGS 6
#define ATTR_GRANULARITY 7
#define LOC_UNDEFINED 0xFFFFFFFFu

struct svm_args {
	struct kfd_args_svm a;
	struct kfd_svm_attribute attrs[4];
};

static long svm(uint32_t op, void *start, uint64_t size, struct kfd_svm_attribute *attrs,
		uint32_t n)
{
	struct svm_args s = { .a = { .start_addr = (uintptr_t)start, .size = size, .op = op,
				     .nattr = n } };
	memcpy(s.attrs, attrs, n * sizeof(*attrs));
	long r = kio(KFD_IOCTL_SVM(n), &s);
	memcpy(attrs, s.attrs, n * sizeof(*attrs));
	return r;
}

static uint8_t *mem;
#define MEM_SIZE (16 * 4096)

static void svm_setup(void)
{
	emu_setup();
	mem = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(mem, MAP_FAILED);
}

static void svm_teardown(void)
{
	munmap(mem, MEM_SIZE);
	emu_teardown();
}

START_TEST(unaligned_range_is_einval)
{
	struct kfd_svm_attribute a = { ATTR_ACCESS, 0 };
	a.value = E.gpu_id;
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem + 8, 4096, &a, 1), -EINVAL);
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem, 0, &a, 1), -EINVAL);
}
END_TEST

START_TEST(unmapped_range_is_efault)
{
	struct kfd_svm_attribute a = { ATTR_ACCESS, E.gpu_id };
	munmap(mem + 4 * 4096, 4096);
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem, MEM_SIZE, &a, 1), -EFAULT);
}
END_TEST

START_TEST(unknown_gpu_is_einval)
{
	struct kfd_svm_attribute a = { ATTR_ACCESS, E.gpu_id ^ 0x4000 };
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem, MEM_SIZE, &a, 1), -EINVAL);
}
END_TEST

START_TEST(unknown_attribute_is_einval)
{
	struct kfd_svm_attribute a = { 9, 0 };
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem, MEM_SIZE, &a, 1), -EINVAL);
}
END_TEST

/* svm_ioctl's default case is "r = EINVAL": the ioctl returns 22, no
 * error, whatever the range, and writes nothing. */
START_TEST(unknown_op_returns_positive_einval)
{
	struct kfd_svm_attribute a = { ATTR_GRANULARITY, 0 };
	munmap(mem, MEM_SIZE);
	ck_assert_int_eq(svm(7, mem, MEM_SIZE, &a, 1), EINVAL);
	ck_assert_uint_eq(a.type, ATTR_GRANULARITY);
	ck_assert_uint_eq(a.value, 0);
}
END_TEST

/* svm_range_set_attr checks the attributes before the range;
 * svm_range_get_attr the range before the attribute types. */
START_TEST(set_checks_attributes_before_the_range_get_after)
{
	struct kfd_svm_attribute a = { 9, 0 };
	munmap(mem, MEM_SIZE);
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem, MEM_SIZE, &a, 1), -EINVAL);
	a.type = ATTR_ACCESS_IN_PLACE; /* an answer, not a question */
	ck_assert_int_eq(svm(KFD_SVM_OP_GET_ATTR, mem, MEM_SIZE, &a, 1), -EFAULT);
}
END_TEST

/* The kernel bounds the attribute count by the ioctl size only (14 bits:
 * 2044 attributes); granularity values are applied in order. */
START_TEST(the_largest_attribute_array_the_ioctl_size_carries)
{
	enum { N = ((1 << 14) - 1 - 24) / 8 };
	static struct {
		struct kfd_args_svm a;
		struct kfd_svm_attribute attrs[N];
	} big;
	big.a = (struct kfd_args_svm){ .start_addr = (uintptr_t)mem, .size = MEM_SIZE,
				       .op = KFD_SVM_OP_SET_ATTR, .nattr = N };
	for (uint32_t i = 0; i < N; i++)
		big.attrs[i] = (struct kfd_svm_attribute){ ATTR_GRANULARITY, i % 20 };
	ck_assert_int_eq(kio(KFD_IOCTL_SVM(N), &big), 0);
	struct kfd_svm_attribute g = { ATTR_GRANULARITY, 0 };
	ck_assert_int_eq(svm(KFD_SVM_OP_GET_ATTR, mem, MEM_SIZE, &g, 1), 0);
	ck_assert_uint_eq(g.value, (N - 1) % 20);
}
END_TEST

/* munmap (the shim calls kemu_cpu_unmapped) drops the ranges over the
 * unmapped pages and splits one that straddles them, as KFD's MMU
 * notifier does: pages mapped there again start from the defaults. */
START_TEST(unmapped_pages_lose_their_svm_ranges)
{
	struct kfd_svm_attribute a = { ATTR_GRANULARITY, 4 };
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem, MEM_SIZE, &a, 1), 0);
	kemu_cpu_unmapped(E.m, getpid(), (uintptr_t)(mem + 4 * 4096), 2 * 4096);
	void *again = mmap(mem + 4 * 4096, 2 * 4096, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	ck_assert_ptr_eq(again, mem + 4 * 4096);
	struct kfd_svm_attribute g = { ATTR_GRANULARITY, 0 };
	ck_assert_int_eq(svm(KFD_SVM_OP_GET_ATTR, mem + 4 * 4096, 2 * 4096, &g, 1), 0);
	ck_assert_uint_eq(g.value, 9); /* no range: the default */
	g.value = 0;
	ck_assert_int_eq(svm(KFD_SVM_OP_GET_ATTR, mem, 4 * 4096, &g, 1), 0);
	ck_assert_uint_eq(g.value, 4);
	g.value = 0;
	ck_assert_int_eq(svm(KFD_SVM_OP_GET_ATTR, mem + 6 * 4096, MEM_SIZE - 6 * 4096, &g, 1), 0);
	ck_assert_uint_eq(g.value, 4);
	/* over the whole buffer only the two remaining ranges count */
	g.value = 0;
	ck_assert_int_eq(svm(KFD_SVM_OP_GET_ATTR, mem, MEM_SIZE, &g, 1), 0);
	ck_assert_uint_eq(g.value, 4);
}
END_TEST

/* svm_range_is_valid refuses device mappings (VM_IO | VM_PFNMAP), which
 * is what the CPU mappings of /dev/kfd and render-node objects are: here
 * the MMIO remap page; once unmapped, the pages are ordinary again. */
START_TEST(a_device_mapping_is_efault)
{
	void *dev = NULL;
	uint64_t mmio = (uint64_t)E.gpu_id << 46; /* KFD_MMAP_TYPE_MMIO */
	ck_assert_int_eq(kemu_mmap(E.m, NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, E.kfd,
				   mmio, &dev), 0);
	struct kfd_svm_attribute a = { ATTR_ACCESS, E.gpu_id };
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, dev, 4096, &a, 1), -EFAULT);
	struct kfd_svm_attribute g = { ATTR_GRANULARITY, 0 };
	ck_assert_int_eq(svm(KFD_SVM_OP_GET_ATTR, dev, 4096, &g, 1), -EFAULT);
	/* an ordinary shared mapping is not a device's */
	int other = (int)syscall(SYS_memfd_create, "not-a-device", MFD_CLOEXEC);
	ck_assert_int_ge(other, 0);
	ck_assert_int_eq(ftruncate(other, 4096), 0);
	uint8_t *shm = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, other, 0);
	ck_assert_ptr_ne(shm, MAP_FAILED);
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, shm, 4096, &a, 1), 0);
	munmap(shm, 4096);
	close(other);
	/* unmapped (the shim reports it) and mapped again: ordinary memory */
	munmap(dev, 4096);
	kemu_cpu_unmapped(E.m, getpid(), (uintptr_t)dev, 4096);
	void *again = mmap(dev, 4096, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	ck_assert_ptr_eq(again, dev);
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, again, 4096, &a, 1), 0);
	munmap(again, 4096);
}
END_TEST

START_TEST(get_without_ranges_returns_defaults)
{
	struct kfd_svm_attribute a[3] = { { ATTR_PREFERRED_LOC, 0 }, { ATTR_ACCESS, E.gpu_id },
					  { ATTR_SET_FLAGS, 0 } };
	ck_assert_int_eq(svm(KFD_SVM_OP_GET_ATTR, mem, MEM_SIZE, a, 3), 0);
	ck_assert_uint_eq(a[0].value, LOC_UNDEFINED);
	ck_assert_uint_eq(a[1].type, ATTR_NO_ACCESS); /* XNACK off */
	ck_assert_uint_eq(a[2].value, KFD_SVM_FLAG_HOST_ACCESS | KFD_SVM_FLAG_COHERENT);
}
END_TEST

START_TEST(set_then_get_reports_access_and_flags)
{
	struct kfd_svm_attribute s[2] = { { ATTR_ACCESS, E.gpu_id },
					  { ATTR_SET_FLAGS, KFD_SVM_FLAG_GPU_RO } };
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem, MEM_SIZE, s, 2), 0);
	struct kfd_svm_attribute g[2] = { { ATTR_ACCESS, E.gpu_id }, { ATTR_SET_FLAGS, 0 } };
	ck_assert_int_eq(svm(KFD_SVM_OP_GET_ATTR, mem, MEM_SIZE, g, 2), 0);
	ck_assert_uint_eq(g[0].type, ATTR_ACCESS);
	ck_assert(g[1].value & KFD_SVM_FLAG_GPU_RO);
}
END_TEST

START_TEST(partial_set_splits_and_get_reports_common_values)
{
	struct kfd_svm_attribute s = { ATTR_PREFERRED_LOC, 0 /* system memory */ };
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem, MEM_SIZE, &s, 1), 0);
	s.value = E.gpu_id;
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem + 4 * 4096, 4 * 4096, &s, 1), 0);
	struct kfd_svm_attribute g = { ATTR_PREFERRED_LOC, 0 };
	ck_assert_int_eq(svm(KFD_SVM_OP_GET_ATTR, mem + 4 * 4096, 4 * 4096, &g, 1), 0);
	ck_assert_uint_eq(g.value, E.gpu_id);
	ck_assert_int_eq(svm(KFD_SVM_OP_GET_ATTR, mem, 4 * 4096, &g, 1), 0);
	ck_assert_uint_eq(g.value, 0);
	ck_assert_int_eq(svm(KFD_SVM_OP_GET_ATTR, mem, MEM_SIZE, &g, 1), 0);
	ck_assert_msg(g.value == LOC_UNDEFINED, "mixed ranges: location 0x%x", g.value);
}
END_TEST

START_TEST(gpu_reads_and_writes_svm_memory_at_the_cpu_address)
{
	struct kfd_svm_attribute s = { ATTR_ACCESS, E.gpu_id };
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem, MEM_SIZE, &s, 1), 0);
	uint32_t v = 0xABCD;
	ck_assert_int_eq(kemu_vm_write(E.p, E.gpu_id, (uintptr_t)mem + 4090, &v, 4, NULL), 0);
	uint32_t w;
	memcpy(&w, mem + 4090, 4);
	ck_assert_uint_eq(w, 0xABCD);
}
END_TEST

START_TEST(gpu_access_without_access_attribute_faults)
{
	struct kfd_svm_attribute s = { ATTR_GRANULARITY, 3 };
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem, MEM_SIZE, &s, 1), 0);
	struct kemu_vm_fault_info f;
	uint32_t v;
	ck_assert_int_eq(kemu_vm_read(E.p, E.gpu_id, (uintptr_t)mem, &v, 4, &f), -EFAULT);
	ck_assert(f.not_present);
}
END_TEST

START_TEST(gpu_write_to_gpu_ro_range_is_read_only_fault)
{
	struct kfd_svm_attribute s[2] = { { ATTR_ACCESS, E.gpu_id },
					  { ATTR_SET_FLAGS, KFD_SVM_FLAG_GPU_RO } };
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem, MEM_SIZE, s, 2), 0);
	struct kemu_vm_fault_info f;
	uint32_t v = 1;
	ck_assert_int_eq(kemu_vm_write(E.p, E.gpu_id, (uintptr_t)mem, &v, 4, &f), -EFAULT);
	ck_assert(f.read_only);
}
END_TEST

START_TEST(svm_over_a_bo_mapping_is_eaddrinuse)
{
	uint64_t h;
	struct kfd_args_alloc_memory_of_gpu a = { .va_addr = (uintptr_t)mem, .size = 4096,
						  .gpu_id = E.gpu_id, .flags = KFD_ALLOC_GTT };
	ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), 0);
	h = a.handle;
	ck_assert_int_eq(emu_map(h), 0);
	struct kfd_svm_attribute s = { ATTR_ACCESS, E.gpu_id };
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem, MEM_SIZE, &s, 1), -EADDRINUSE);
}
END_TEST

START_TEST(bo_over_an_svm_range_is_eaddrinuse)
{
	struct kfd_svm_attribute s = { ATTR_ACCESS, E.gpu_id };
	ck_assert_int_eq(svm(KFD_SVM_OP_SET_ATTR, mem, MEM_SIZE, &s, 1), 0);
	struct kfd_args_alloc_memory_of_gpu a = { .va_addr = (uintptr_t)mem + 4096, .size = 4096,
						  .gpu_id = E.gpu_id, .flags = KFD_ALLOC_GTT };
	ck_assert_int_eq(kio(KFD_IOCTL_ALLOC_MEMORY_OF_GPU, &a), -EADDRINUSE);
}
END_TEST

START_TEST(attribute_array_beyond_the_ioctl_size_is_einval)
{
	struct svm_args s = { .a = { .start_addr = (uintptr_t)mem, .size = MEM_SIZE,
				     .op = KFD_SVM_OP_GET_ATTR, .nattr = 3 } };
	ck_assert_int_eq(kio(KFD_IOCTL_SVM(1), &s), -EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("kfdemu_svm");
	TCase *tc = tcase_create("svm");
	tcase_add_checked_fixture(tc, svm_setup, svm_teardown);
	tcase_add_test(tc, unaligned_range_is_einval);
	tcase_add_test(tc, unmapped_range_is_efault);
	tcase_add_test(tc, unknown_gpu_is_einval);
	tcase_add_test(tc, unknown_attribute_is_einval);
	tcase_add_test(tc, unknown_op_returns_positive_einval);
	tcase_add_test(tc, set_checks_attributes_before_the_range_get_after);
	tcase_add_test(tc, the_largest_attribute_array_the_ioctl_size_carries);
	tcase_add_test(tc, unmapped_pages_lose_their_svm_ranges);
	tcase_add_test(tc, a_device_mapping_is_efault);
	tcase_add_test(tc, get_without_ranges_returns_defaults);
	tcase_add_test(tc, set_then_get_reports_access_and_flags);
	tcase_add_test(tc, partial_set_splits_and_get_reports_common_values);
	tcase_add_test(tc, gpu_reads_and_writes_svm_memory_at_the_cpu_address);
	tcase_add_test(tc, gpu_access_without_access_attribute_faults);
	tcase_add_test(tc, gpu_write_to_gpu_ro_range_is_read_only_fault);
	tcase_add_test(tc, svm_over_a_bo_mapping_is_eaddrinuse);
	tcase_add_test(tc, bo_over_an_svm_range_is_eaddrinuse);
	tcase_add_test(tc, attribute_array_beyond_the_ioctl_size_is_einval);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
