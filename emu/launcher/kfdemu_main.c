/*
 * kfdemu: runs a command on the emulated GPU.
 *
 *   kfdemu [--preset mi210|mi300x] [--gpus N] [--] command [args...]
 *
 * It writes the machine's sysfs tree into a private temporary directory
 * (kemu_topology_create), adds the procfs facts a loaded amdgpu driver
 * shows (/proc/modules lists amdgpu, /sys/module/amdgpu/refcnt), exports
 * the settings to the shim (KFDEMU_TOPOLOGY_DIR, KFDEMU_PRESET,
 * KFDEMU_GPUS), prepends libkfdemu.so to LD_PRELOAD, runs the command as a
 * child, waits for it, removes the tree and exits with the child's status
 * (128 + signal number if it was killed).  SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT are forwarded to the child.  A watchdog process in its own
 * session removes the tree if the launcher itself is killed (SIGKILL from
 * a test harness's timeout): it waits for EOF on a pipe only the launcher
 * holds open.
 *
 * With an ASan build of the shim, the ASan runtime is put first in
 * LD_PRELOAD (needed by programs built without ASan, such as stock
 * rocminfo) and verify_asan_link_order=0 is added to ASAN_OPTIONS (needed
 * by programs built with it, where the shim now precedes their own libasan).
 * A TSan shim gets the TSan runtime first in LD_PRELOAD the same way
 * (without it, TSan initialises from inside the shim's interposers and
 * spins).  When the command itself is not built with ASan (no libasan in its
 * DT_NEEDED), detect_leaks=0 is added too: LeakSanitizer would otherwise
 * report the leaks of rocminfo, ROCr, /bin/sh and every other foreign
 * program.  The shim's own leaks are checked by the ASan test programs and
 * by valgrind (docs/kfdemu.md).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kfdemu.h"

#ifndef KFDEMU_ASAN_RUNTIME
#define KFDEMU_ASAN_RUNTIME ""
#endif
#ifndef KFDEMU_TSAN_RUNTIME
#define KFDEMU_TSAN_RUNTIME ""
#endif

/* volatile sig_atomic_t: the one type C allows a signal handler to read */
static volatile sig_atomic_t child_pid;

static void forward_signal(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: kfdemu [--preset NAME] [--gpus N] [--] command [args...]\n"
		"Runs command on an emulated AMD GPU machine (kfdemu).\n\n"
		"  --preset NAME  GPU model:");
	for (const char *const *p = kemu_preset_names; *p; p++)
		fprintf(out, " %s", *p);
	fprintf(out,
		" (default mi210)\n"
		"  --gpus N       number of GPUs, 1..%d (default 1)\n"
		"  --help         this text\n\n"
		"Environment passed to the emulator: KFDEMU_LOG=none|error|warn|info|debug,\n"
		"KFDEMU_FAIL=ioctl:NAME:N,alloc:N,mmap:N,open:N (fault injection),\n"
		"KFDEMU_DKMS_IPC=1 (answer the ROCm-DKMS IPC ioctls, as ROCr 5.2.3 needs),\n"
		"KFDEMU_SHIM=path (use this libkfdemu.so).  See docs/kfdemu.md.\n",
		KEMU_MAX_GPUS);
}

/* Writes text to <dir>/<rel>, creating parent directories. */
static int tree_write(const char *dir, const char *rel, const char *text, size_t len)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	FILE *f = fopen(path, "wx");
	if (!f)
		return errno == EEXIST ? 0 : -errno; /* the topology wrote it: keep */
	size_t n = fwrite(text, 1, len, f);
	int err = fclose(f) ? -errno : 0;
	return n == len ? err : -EIO;
}

/* /proc/modules as the host shows it, plus the amdgpu line of a loaded
 * driver (what `lsmod | grep amdgpu` looks for). */
static int write_proc_facts(const char *dir)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return -ENOMEM;
	FILE *host = fopen("/proc/modules", "re");
	bool has_amdgpu = false;
	if (host) {
		char line[512];
		while (fgets(line, sizeof(line), host)) {
			if (!strncmp(line, "amdgpu ", 7))
				has_amdgpu = true;
			fputs(line, mem);
		}
		fclose(host);
	}
	if (!has_amdgpu)
		fputs("amdgpu 16191488 0 - Live 0x0000000000000000\n", mem);
	fclose(mem);
	int err = tree_write(dir, "proc/modules", text, len);
	free(text);
	if (!err)
		err = tree_write(dir, "sys/module/amdgpu/refcnt", "0\n", 2);
	/* no module depends on amdgpu: an empty holders directory */
	char path[PATH_MAX];
	if (!err && snprintf(path, sizeof(path), "%s/sys/module/amdgpu/holders", dir) <
			    (int)sizeof(path) &&
	    mkdir(path, 0755) < 0 && errno != EEXIST)
		err = -errno;
	return err;
}

static const char *find_shim(char *buf, size_t len)
{
	const char *env = getenv("KFDEMU_SHIM");
	if (env && *env)
		return env;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		if (snprintf(buf, len, "%s/%s", dirname(exe), KFDEMU_SHIM_INSTALL_REL) < (int)len &&
		    access(buf, R_OK) == 0)
			return buf;
	}
	return KFDEMU_SHIM_BUILD_PATH;
}

/* Finds cmd like execvp does; false if not found. */
static bool find_in_path(const char *cmd, char *out, size_t len)
{
	if (strchr(cmd, '/'))
		return snprintf(out, len, "%s", cmd) < (int)len;
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *end = strchrnul(path, ':');
		if (snprintf(out, len, "%.*s/%s", (int)(end - path), path, cmd) < (int)len &&
		    access(out, X_OK) == 0)
			return true;
		path = *end ? end + 1 : end;
	}
	return false;
}

/* Does the ELF64 executable at path list libasan in DT_NEEDED?  Any read
 * or format problem answers false. */
static bool elf_needs_asan(const char *path)
{
	bool found = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	Elf64_Ehdr eh;
	if (fstat(fd, &st) || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 256)
		goto out_close;
	Elf64_Phdr ph[256];
	size_t phsz = (size_t)eh.e_phnum * sizeof(Elf64_Phdr);
	if (pread(fd, ph, phsz, (off_t)eh.e_phoff) != (ssize_t)phsz)
		goto out_close;
	const Elf64_Phdr *dyn = NULL;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = &ph[i];
	}
	if (!dyn || dyn->p_filesz > (1u << 20))
		goto out_close;
	Elf64_Dyn *d = malloc(dyn->p_filesz);
	if (!d || pread(fd, d, dyn->p_filesz, (off_t)dyn->p_offset) != (ssize_t)dyn->p_filesz)
		goto out_free;
	size_t n = dyn->p_filesz / sizeof(*d);
	uint64_t strtab = 0;
	for (size_t i = 0; i < n && d[i].d_tag != DT_NULL; i++) {
		if (d[i].d_tag == DT_STRTAB)
			strtab = d[i].d_un.d_ptr;
	}
	/* the string table's file offset, through the PT_LOAD that holds it */
	uint64_t stroff = 0;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && strtab >= ph[i].p_vaddr &&
		    strtab < ph[i].p_vaddr + ph[i].p_filesz)
			stroff = strtab - ph[i].p_vaddr + ph[i].p_offset;
	}
	for (size_t i = 0; stroff && i < n && d[i].d_tag != DT_NULL && !found; i++) {
		char name[64] = { 0 };
		if (d[i].d_tag == DT_NEEDED &&
		    pread(fd, name, sizeof(name) - 1, (off_t)(stroff + d[i].d_un.d_val)) > 0)
			found = !strncmp(name, "libasan.so", 10);
	}
out_free:
	free(d);
out_close:
	close(fd);
	return found;
}

/* Forks the watchdog that removes the tree once the launcher is gone, by
 * whatever death.  Returns the fd the launcher keeps (close-on-exec, so the
 * command does not hold it), or -1 if no watchdog could be started. */
static int start_watchdog(struct kemu_topology *topo)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		/* a new session: a kill of the launcher's process group misses us */
		setsid();
		close(pfd[1]);
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		char c;
		while (read(pfd[0], &c, 1) < 0 && errno == EINTR)
			;
		kemu_topology_destroy(topo);
		_exit(0);
	}
	close(pfd[0]);
	return pfd[1];
}

static int setup_env(const struct kemu_topology *t, const char *shim, const char *cmd)
{
	char num[16];
	snprintf(num, sizeof(num), "%u", t->n_gpus);
	if (setenv("KFDEMU_TOPOLOGY_DIR", t->dir, 1) || setenv("KFDEMU_PRESET", t->preset, 1) ||
	    setenv("KFDEMU_GPUS", num, 1))
		return -errno;
	const char *old = getenv("LD_PRELOAD");
	const char *asan = KFDEMU_ASAN_RUNTIME;
	const char *runtime = *asan ? asan : KFDEMU_TSAN_RUNTIME;
	char *preload = NULL;
	if (asprintf(&preload, "%s%s%s%s%s", runtime, *runtime ? ":" : "", shim,
		     old && *old ? ":" : "", old && *old ? old : "") < 0)
		return -ENOMEM;
	int err = setenv("LD_PRELOAD", preload, 1) ? -errno : 0;
	free(preload);
	if (!err && *asan) {
		const char *opts = getenv("ASAN_OPTIONS");
		char *o = NULL;
		char exe[PATH_MAX];
		bool asan_cmd = (opts && strstr(opts, "detect_leaks")) ||
				(find_in_path(cmd, exe, sizeof(exe)) && elf_needs_asan(exe));
		if (asprintf(&o, "%s%sverify_asan_link_order=0%s", opts && *opts ? opts : "",
			     opts && *opts ? ":" : "", asan_cmd ? "" : ":detect_leaks=0") < 0)
			return -ENOMEM;
		err = setenv("ASAN_OPTIONS", o, 1) ? -errno : 0;
		free(o);
	}
	return err;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "preset", required_argument, NULL, 'p' },
		{ "gpus", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *preset = "mi210";
	unsigned long gpus = 1;
	int c;
	while ((c = getopt_long(argc, argv, "+p:g:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			preset = optarg;
			break;
		case 'g': {
			char *end;
			gpus = strtoul(optarg, &end, 10);
			if (*end || gpus < 1 || gpus > KEMU_MAX_GPUS) {
				fprintf(stderr, "kfdemu: --gpus must be 1..%d\n", KEMU_MAX_GPUS);
				return 2;
			}
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}

	struct kemu_topology topo;
	int err = kemu_topology_create(preset, (uint32_t)gpus, true, &topo);
	if (err) {
		fprintf(stderr, "kfdemu: cannot create topology %s x%lu: %s\n", preset, gpus,
			strerror(-err));
		return 2;
	}
	int status = 2;
	int watchdog = start_watchdog(&topo);
	err = write_proc_facts(topo.dir);
	char shim_buf[PATH_MAX];
	if (!err)
		err = setup_env(&topo, find_shim(shim_buf, sizeof(shim_buf)), argv[optind]);
	if (err) {
		fprintf(stderr, "kfdemu: cannot prepare the machine: %s\n", strerror(-err));
		goto out_destroy;
	}

	struct sigaction sa = { .sa_handler = forward_signal };
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);

	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "kfdemu: fork: %s\n", strerror(errno));
		goto out_destroy;
	}
	if (pid == 0) {
		execvp(argv[optind], &argv[optind]);
		fprintf(stderr, "kfdemu: %s: %s\n", argv[optind], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	child_pid = pid;
	int ws;
	while (waitpid(pid, &ws, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "kfdemu: waitpid: %s\n", strerror(errno));
			goto out_destroy;
		}
	}
	status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);

out_destroy:
	kemu_topology_destroy(&topo);
	if (watchdog >= 0)
		close(watchdog); /* the watchdog finds nothing left and exits */
	return status;
}
