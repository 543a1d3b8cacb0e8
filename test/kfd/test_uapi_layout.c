/*
 * common/amd/kfd_uapi.h against Linux's <linux/kfd_ioctl.h> as Debian ships
 * it (API 1.11): every struct size, field offset, ioctl number and constant
 * that both define must agree, and our 96-byte CREATE_QUEUE must extend the
 * 88-byte one that header has.
 */
#include "amd/kfd_uapi.h"

#include "hl_check.h"
#include "uapi_layout.h"

static void compare_kind(enum layout_kind kind)
{
	unsigned checked = 0;

	ck_assert_uint_eq(uapi_ours_count, uapi_sys_count);
	for (size_t i = 0; i < uapi_ours_count; i++) {
		const struct layout_entry *o = &uapi_ours[i], *s = &uapi_sys[i];
		if (o->kind != kind)
			continue;
		ck_assert_str_eq(o->label, s->label);
		ck_assert_msg(o->value == s->value, "%s: ours 0x%llx, Linux 0x%llx", o->label,
			      o->value, s->value);
		checked++;
	}
	ck_assert_msg(checked > 0, "no entries of kind %d compared", (int)kind);
}

START_TEST(struct_sizes_match_linux)
{
	compare_kind(LAYOUT_SIZE);
}
END_TEST

START_TEST(field_offsets_match_linux)
{
	compare_kind(LAYOUT_OFFSET);
}
END_TEST

START_TEST(ioctl_numbers_match_linux)
{
	compare_kind(LAYOUT_IOCTL);
}
END_TEST

START_TEST(constants_match_linux)
{
	compare_kind(LAYOUT_CONST);
}
END_TEST

START_TEST(system_header_is_api_1_11_or_later)
{
	ck_assert_msg(sys_ioctl_api_minor >= 11, "Linux header is API 1.%lu",
		      sys_ioctl_api_minor);
}
END_TEST

START_TEST(create_queue_v1_is_linux_create_queue)
{
	/* Before 1.17 the struct ended after ctl_stack_size. */
	if (sys_ioctl_api_minor < 17)
		ck_assert_uint_eq(sys_create_queue_size, KFD_ARGS_CREATE_QUEUE_SIZE_V1);
	else
		ck_assert_uint_eq(sys_create_queue_size, sizeof(struct kfd_args_create_queue));
	ck_assert_uint_eq(offsetof(struct kfd_args_create_queue, ctl_stack_size) + 4,
			  KFD_ARGS_CREATE_QUEUE_SIZE_V1);
}
END_TEST

START_TEST(create_queue_ioctl_differs_only_in_size)
{
	unsigned long ours = KFD_IOCTL_CREATE_QUEUE;
	unsigned long sys = sys_create_queue_ioctl;

	ck_assert_uint_eq(_IOC_NR(ours), _IOC_NR(sys));
	ck_assert_uint_eq(_IOC_TYPE(ours), _IOC_TYPE(sys));
	ck_assert_uint_eq(_IOC_DIR(ours), _IOC_DIR(sys));
	ck_assert_uint_eq(_IOC_SIZE(ours), sizeof(struct kfd_args_create_queue));
	ck_assert_uint_eq(_IOC_SIZE(sys), sys_create_queue_size);
}
END_TEST

static Suite *uapi_suite(void)
{
	Suite *s = suite_create("kfd_uapi_layout");
	TCase *tc = tcase_create("layout");
	tcase_add_test(tc, struct_sizes_match_linux);
	tcase_add_test(tc, field_offsets_match_linux);
	tcase_add_test(tc, ioctl_numbers_match_linux);
	tcase_add_test(tc, constants_match_linux);
	tcase_add_test(tc, system_header_is_api_1_11_or_later);
	tcase_add_test(tc, create_queue_v1_is_linux_create_queue);
	tcase_add_test(tc, create_queue_ioctl_differs_only_in_size);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(uapi_suite)
