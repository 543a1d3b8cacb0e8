/*
 * kfd_ioctl and kfd_ioctl_name without a GPU: errors come back as -errno
 * with errno kept, and every request has a printable name.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "hl_check.h"
#include "kfd/kfd.h"

START_TEST(non_kfd_fd_gives_enotty)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	struct kfd_args_get_version v = { 0 };
	errno = 0;
	int ret = kfd_ioctl(fd, KFD_IOCTL_GET_VERSION, &v);
	int saved = errno;
	close(fd);
	ck_assert_int_eq(ret, -ENOTTY);
	ck_assert_int_eq(saved, ENOTTY);
}
END_TEST

START_TEST(closed_fd_gives_ebadf)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	close(fd);
	struct kfd_args_get_version v = { 0 };
	ck_assert_int_eq(kfd_ioctl(fd, KFD_IOCTL_GET_VERSION, &v), -EBADF);
	ck_assert_int_eq(errno, EBADF);
}
END_TEST

START_TEST(names_follow_the_ioctl_number)
{
	ck_assert_str_eq(kfd_ioctl_name(KFD_IOCTL_GET_VERSION), "GET_VERSION");
	ck_assert_str_eq(kfd_ioctl_name(KFD_IOCTL_CREATE_QUEUE), "CREATE_QUEUE");
	ck_assert_str_eq(kfd_ioctl_name(KFD_IOCTL_WAIT_EVENTS), "WAIT_EVENTS");
	ck_assert_str_eq(kfd_ioctl_name(KFD_IOCTL_ALLOC_MEMORY_OF_GPU), "ALLOC_MEMORY_OF_GPU");
	ck_assert_str_eq(kfd_ioctl_name(KFD_IOCTL_RUNTIME_ENABLE), "RUNTIME_ENABLE");
}
END_TEST

START_TEST(name_ignores_the_size_field)
{
	/* SVM carries its attribute array in the size bits; the 88-byte
	 * CREATE_QUEUE of API < 1.17 is the same ioctl. */
	ck_assert_str_eq(kfd_ioctl_name(KFD_IOCTL_SVM(5)), "SVM");
	ck_assert_str_eq(kfd_ioctl_name(_IOC(_IOC_READ | _IOC_WRITE, 'K', 0x02,
					     KFD_ARGS_CREATE_QUEUE_SIZE_V1)),
			 "CREATE_QUEUE");
}
END_TEST

START_TEST(unknown_numbers_have_a_name_too)
{
	ck_assert_str_eq(kfd_ioctl_name(_IOWR('K', 0x7F, int)), "UNKNOWN");
	ck_assert_str_eq(kfd_ioctl_name(_IOWR('K', 0x00, int)), "UNKNOWN");
	ck_assert_str_eq(kfd_ioctl_name(_IOWR('K', 0x81, int)), "ROCM_DKMS");
	ck_assert_str_eq(kfd_ioctl_name(_IOWR('d', 0x02, int)), "NOT_KFD");
}
END_TEST

START_TEST(process_open_without_dev_kfd_is_enoent)
{
	if (access(KFD_DEVICE_PATH, F_OK) == 0)
		return; /* a machine with a GPU: covered by the device suite */
	struct kfd_process *proc = (struct kfd_process *)1;
	ck_assert_int_eq(kfd_process_open(&proc), -ENOENT);
	ck_assert_ptr_null(proc);
}
END_TEST

static Suite *ioctl_suite(void)
{
	Suite *s = suite_create("kfd_ioctl");
	TCase *tc = tcase_create("wrapper");
	tcase_add_test(tc, non_kfd_fd_gives_enotty);
	tcase_add_test(tc, closed_fd_gives_ebadf);
	tcase_add_test(tc, names_follow_the_ioctl_number);
	tcase_add_test(tc, name_ignores_the_size_field);
	tcase_add_test(tc, unknown_numbers_have_a_name_too);
	tcase_add_test(tc, process_open_without_dev_kfd_is_enoent);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(ioctl_suite)
