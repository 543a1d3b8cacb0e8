/*
 * A kernel that faults.  Expected outcome, as on a real MI210 with ROCr
 * 5.2.3: the process does not get an error code back; ROCr's VM-fault
 * handler prints "Memory access fault by GPU node-<n> ... on address <va>"
 * and abort()s, so the process dies of SIGABRT.  A device-side trap
 * (__builtin_trap, s_trap 2) makes the queue report an error, and HIP's
 * queue callback aborts the process with "Device::callbackQueue aborting".
 * Either way the program must die promptly: a hang is the failure kfdemu
 * must never have.  The queue error comes from the runtime's trap handler:
 * "fault withheld" runs the trap child with hsalite's handler withheld
 * (HSALITE_NO_TRAP_HANDLER=1, set by ctest), where, as on silicon without a
 * handler, the s_trap is skipped, hipDeviceSynchronize succeeds, and
 * kfdemu reports an "unreported device exception".
 *
 * The parent never touches HIP: it re-runs itself as a child (so the child
 * opens its own emulated GPU), collects its stderr and checks how it died.
 */
#include "hip_test.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define BAD_VA 0x10000ull
#define TIMEOUT_S 120

__global__ void store_to(int *p)
{
	if (threadIdx.x == 5)
		*p = 42;
}

__global__ void trap(int *p)
{
	p[threadIdx.x] = 1;
	if (threadIdx.x == 0)
		__builtin_trap();
}

static int child(const char *mode)
{
	int *ok;
	HT_CHECK(hipMalloc(&ok, 4096));
	if (!strcmp(mode, "vmfault"))
		hipLaunchKernelGGL(store_to, dim3(1), dim3(64), 0, 0, (int *)BAD_VA);
	else
		hipLaunchKernelGGL(trap, dim3(1), dim3(64), 0, 0, ok);
	hipError_t e = hipDeviceSynchronize();
	/* reaching here is not what ROCr does */
	fprintf(stderr, "fault child: hipDeviceSynchronize returned %d (%s)\n", (int)e,
		hipGetErrorString(e));
	return 3;
}

static volatile sig_atomic_t timed_out;
static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

/* Runs "self child <mode>", returns its wait status and its stderr. */
static int run_child(const char *self, const char *mode, char *out, size_t cap)
{
	int fds[2];
	HT_EXPECT(pipe(fds) == 0, "pipe");
	pid_t pid = fork();
	HT_EXPECT(pid >= 0, "fork");
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execl(self, self, "child", mode, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm; /* no SA_RESTART: read() returns EINTR */
	sigaction(SIGALRM, &sa, NULL);
	alarm(TIMEOUT_S);
	size_t len = 0;
	for (;;) {
		ssize_t n = read(fds[0], out + len, cap - 1 - len);
		if (n > 0) {
			len += (size_t)n;
			if (len == cap - 1)
				len = 0; /* keep the tail */
			continue;
		}
		if (n < 0 && timed_out) {
			fprintf(stderr, "%s: child hung for %d s: killing it\n", mode, TIMEOUT_S);
			kill(pid, SIGKILL);
		}
		break;
	}
	out[len] = 0;
	close(fds[0]);
	int st = 0;
	waitpid(pid, &st, 0);
	alarm(0);
	fprintf(stderr, "---- %s child stderr ----\n%s---- end ----\n", mode, out);
	HT_EXPECT(!timed_out, "%s: the faulting program hung", mode);
	return st;
}

int main(int argc, char **argv)
{
	static char out[1 << 16];
	if (argc > 2 && !strcmp(argv[1], "child"))
		return child(argv[2]);
	if (argc > 1 && !strcmp(argv[1], "withheld")) {
		int st = run_child("/proc/self/exe", "trap", out, sizeof(out));
		HT_EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 3,
			  "withheld: child status 0x%x, expected exit 3 (the trap skipped)", st);
		HT_EXPECT(strstr(out, "unreported device exception") != NULL,
			  "withheld: kfdemu did not report the lost trap");
		printf("device trap without a trap handler: skipped, reported by kfdemu: ok\n");
		printf("fault: PASS\n");
		return 0;
	}

	int st = run_child("/proc/self/exe", "vmfault", out, sizeof(out));
	HT_EXPECT(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT,
		  "vmfault: child status 0x%x (exit %d, signal %d), expected SIGABRT", st,
		  WIFEXITED(st) ? WEXITSTATUS(st) : -1, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	HT_EXPECT(strstr(out, "Memory access fault by GPU node-") != NULL,
		  "vmfault: no ROCr memory access fault report");
	char addr[64];
	snprintf(addr, sizeof(addr), "on address 0x%llx", BAD_VA);
	HT_EXPECT(strstr(out, addr) != NULL, "vmfault: report does not name %s", addr);
	printf("vm fault: SIGABRT with ROCr's report: ok\n");

	st = run_child("/proc/self/exe", "trap", out, sizeof(out));
	HT_EXPECT(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT,
		  "trap: child status 0x%x (exit %d, signal %d), expected SIGABRT", st,
		  WIFEXITED(st) ? WEXITSTATUS(st) : -1, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	HT_EXPECT(strstr(out, "callbackQueue") != NULL, "trap: no HIP queue-error report");
	printf("device trap: SIGABRT from HIP's queue callback: ok\n");
	printf("fault: PASS\n");
	return 0;
}
