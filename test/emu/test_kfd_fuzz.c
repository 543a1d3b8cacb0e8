/*
 * Robustness of the kfdemu driver model against arbitrary ioctl input: a
 * fixed-seed stream of KFD ioctls with random numbers, sizes and argument
 * bytes.  Values are drawn from a mix that reaches deep into the handlers
 * (the real gpu_id, live handles and event ids, small numbers, all-ones,
 * and pointers into a scratch area or to unmapped memory).  Every call must
 * return 0 or one of the errno values the kernel uses, and the host must
 * not crash.  WAIT_EVENTS gets a zero timeout so the stream never blocks.
 */
#include "emu_fixture.h"

#define ITERATIONS 20000
#define SCRATCH 0x20000

static uint8_t *scratch;
static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t pick(uint64_t handle, uint32_t event)
{
	switch (next() % 10) {
	case 0: return 0;
	case 1: return next() % 64;
	case 2: return E.gpu_id;
	case 3: return handle;
	case 4: return (uintptr_t)scratch + (next() % (SCRATCH - 512) & ~7ull);
	case 5: return 0x10; /* unmapped */
	case 6: return ~0ull;
	case 7: return event;
	case 8: return 1ull << (next() % 48);
	default: return next();
	}
}

static bool errno_known(long r)
{
	static const int ok[] = { 0, -EINVAL, -EFAULT, -ENOMEM, -ENODEV, -ESRCH, -EBUSY,
				  -ENOSPC, -ENOTTY, -EPERM, -EIO, -EEXIST, -EOPNOTSUPP,
				  -EADDRINUSE, -EBADF, -EACCES, -KFD_ENOTSUPP };
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (r == ok[i])
			return true;
	}
	return false;
}

START_TEST(random_ioctls_give_kernel_errnos_and_never_crash)
{
	scratch = mmap(NULL, SCRATCH, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(scratch, MAP_FAILED);
	uint64_t handle = (uint64_t)E.gpu_id << 32;
	uint32_t event = 1;
	for (int i = 0; i < ITERATIONS; i++) {
		unsigned nr = next() % 3 ? 1 + next() % 0x26 : next() % 0x100;
		unsigned size = next() % 4 ? (unsigned)(next() % 128) : (unsigned)(next() % 2048);
		uint64_t arg[256];
		for (unsigned w = 0; w < 256; w++)
			arg[w] = pick(handle, event);
		if (nr == 0x0C)
			((uint32_t *)arg)[4] = 0; /* WAIT_EVENTS: poll */
		unsigned long cmd = _IOC(_IOC_READ | _IOC_WRITE, 'K', nr, size & 0x3FFF);
		long r = kio(cmd, arg);
		/* SVM with an unknown op: svm_ioctl's positive EINVAL */
		bool svm_bad_op = nr == 0x20 && r == EINVAL;
		ck_assert_msg(errno_known(r) || svm_bad_op,
			      "iteration %d: nr 0x%x size %u returned %ld", i, nr, size, r);
		if (!r && nr == 0x16 && size >= 24)
			handle = arg[2];
		if (!r && nr == 0x08 && size >= 28)
			event = ((uint32_t *)arg)[6];
	}
	munmap(scratch, SCRATCH);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("kfdemu_fuzz");
	TCase *tc = tcase_create("fuzz");
	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, emu_setup, emu_teardown);
	tcase_add_test(tc, random_ioctls_give_kernel_errnos_and_never_crash);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(suite)
