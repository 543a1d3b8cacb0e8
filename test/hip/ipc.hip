/*
 * IPC memory between two processes (HIP 5.2.3 over hsa_amd_ipc_memory_*):
 * the parent fills a hipMalloc'ed buffer, makes a hipIpcMemHandle_t and
 * passes its bytes to a fork+exec'd child through a pipe; the child (its
 * own HIP and runtime) opens the handle on its last device (the peer GPU
 * with --gpus 2), checks the bytes with a copy, doubles every element with
 * a kernel, closes it and exits; the parent checks the kernel's results in
 * its own buffer.
 *
 * ROCr 5.2.3 needs the ROCm-DKMS kernel's IPC ioctls for this
 * (KFDEMU_DKMS_IPC=1 under kfdemu); hsalite uses them when there, dma-buf
 * fds otherwise.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "hip_test.h"

#define N (1 << 18) /* ints */

__global__ void twice(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] *= 2;
}

static int child(int rfd)
{
	hipIpcMemHandle_t h;
	HT_EXPECT(read(rfd, &h, sizeof(h)) == (ssize_t)sizeof(h), "a handle from the parent");
	int n_dev = 0;
	HT_CHECK(hipGetDeviceCount(&n_dev));
	HT_CHECK(hipSetDevice(n_dev - 1));
	int *p = NULL;
	HT_CHECK(hipIpcOpenMemHandle((void **)&p, h, hipIpcMemLazyEnablePeerAccess));
	int *host = (int *)malloc(N * sizeof(int));
	HT_CHECK(hipMemcpy(host, p, N * sizeof(int), hipMemcpyDeviceToHost));
	for (int i = 0; i < N; i++)
		HT_EXPECT(host[i] == 3 * i + 1, "child: element %d is %d, expected %d", i, host[i],
			  3 * i + 1);
	twice<<<N / 256, 256>>>(p, N);
	HT_CHECK(hipGetLastError());
	HT_CHECK(hipDeviceSynchronize());
	HT_CHECK(hipIpcCloseMemHandle(p));
	free(host);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--child"))
		return child(atoi(argv[2]));

	int *d = NULL;
	HT_CHECK(hipMalloc((void **)&d, N * sizeof(int)));
	int *host = (int *)malloc(N * sizeof(int));
	for (int i = 0; i < N; i++)
		host[i] = 3 * i + 1;
	HT_CHECK(hipMemcpy(d, host, N * sizeof(int), hipMemcpyHostToDevice));
	hipIpcMemHandle_t h;
	HT_CHECK(hipIpcGetMemHandle(&h, d));

	int fds[2];
	HT_EXPECT(pipe(fds) == 0, "a pipe");
	pid_t pid = fork();
	if (pid == 0) {
		char arg[16];
		close(fds[1]);
		snprintf(arg, sizeof(arg), "%d", fds[0]);
		execl("/proc/self/exe", argv[0], "--child", arg, (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	HT_EXPECT(write(fds[1], &h, sizeof(h)) == (ssize_t)sizeof(h), "the handle sent");
	close(fds[1]);
	int status = 0;
	HT_EXPECT(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "the child to succeed (status %#x)", status);

	HT_CHECK(hipMemcpy(host, d, N * sizeof(int), hipMemcpyDeviceToHost));
	for (int i = 0; i < N; i++)
		HT_EXPECT(host[i] == 2 * (3 * i + 1), "parent: element %d is %d, expected %d", i,
			  host[i], 2 * (3 * i + 1));
	HT_CHECK(hipFree(d));
	free(host);
	printf("ipc: %d ints shared with a child process, checked and doubled there\n", N);
	return 0;
}
