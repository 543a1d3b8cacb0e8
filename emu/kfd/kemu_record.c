/*
 * The ioctl record: KFDEMU_IOCTL_RECORD=<file> appends one line per call a
 * program makes into the model -- every /dev/kfd ioctl, render-node ioctl,
 * mmap of an emulated file and open of an emulated node -- with the fields
 * a comparison of two runtimes needs (test/diff/ioctl_diff.py reads it).
 * Unlike KFDEMU_LOG=debug, which prints for a human, the record is one
 * parseable line per call, written after the call with its result:
 *
 *   <pid> gpu <index> gpu_id=0x.. minor=<n>            (per device, at start)
 *   <seq> <pid> <tid> kfd <NAME> ret=<r> <field>=0x.. ...
 *   <seq> <pid> <tid> drm <gpu> <NAME> ret=<r> [<field>=0x..]
 *   <seq> <pid> <tid> mmap <kfd|gpu> off=0x.. len=0x.. prot=<p> flags=0x.. ret=<r>
 *   <seq> <pid> <tid> open <kfd|gpu> ret=<r>
 *
 * KFD fields are those of the debug log (kemu_log.c: names as in
 * kfd_ioctl.h, values after the call), plus MAP/UNMAP's device list read
 * from user memory ("devices=0x..,0x..") and SVM's attribute array
 * ("attrs=type:value,...").  <seq> is the line's position among the
 * machine's lines (taken with the write under record_lock: calls are
 * recorded in the order they returned); <tid> tells threads apart.  Each
 * line is one write(2) to a file opened O_APPEND, so lines of concurrent
 * threads (and of several processes recording into one file) never
 * interleave.
 * Recording costs nothing when the variable is unset.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <libdrm/drm.h>
#include <libdrm/amdgpu_drm.h>

#include "kemu_priv.h"

/* The longest device list recorded (MAP of more GPUs is cut, "..." marks it). */
#define RECORD_MAX_DEVICES 16
#define RECORD_MAX_ATTRS 16

/* One line to the record (buf holds len bytes with room for the newline). */
static void record_write(struct kemu_machine *m, char *buf, size_t len)
{
	buf[len++] = '\n';
	/* one write: O_APPEND makes it atomic against other writers (other
	 * processes recording into the same file); a short write of a line
	 * this small to a regular file does not happen, and a failed one
	 * loses one record, which the log says */
	ssize_t n = write(m->record_fd, buf, len);
	if (n != (ssize_t)len)
		kemu_warn(m, "KFDEMU_IOCTL_RECORD: write failed (%s): record incomplete",
			  n < 0 ? strerror(errno) : "short write");
}

/* Writes "<seq> <pid> <tid> " and the line body (len bytes of body) as one
 * line.  The sequence number is taken under record_lock with the write, so
 * it is the line's position among this machine's lines in the file. */
static void record_write_seq(struct kemu_machine *m, const char *body, size_t len)
{
	char buf[1280];
	pthread_mutex_lock(&m->record_lock);
	int n = snprintf(buf, sizeof(buf), "%llu %d %ld ", (unsigned long long)m->record_seq++,
			 (int)getpid(), (long)syscall(SYS_gettid));
	if (n < 0 || (size_t)n + len + 1 > sizeof(buf)) {
		pthread_mutex_unlock(&m->record_lock);
		kemu_warn(m, "KFDEMU_IOCTL_RECORD: line too long: record incomplete");
		return;
	}
	memcpy(buf + n, body, len);
	record_write(m, buf, (size_t)n + len);
	pthread_mutex_unlock(&m->record_lock);
}

/* Appends printf output to buf, keeping one byte for the newline. */
__attribute__((format(printf, 4, 5)))
static size_t record_add(char *buf, size_t len, size_t cap, const char *fmt, ...)
{
	if (len + 1 >= cap)
		return len;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + len, cap - 1 - len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return len;
	return len + (size_t)n < cap - 1 ? len + (size_t)n : cap - 2;
}

void kemu_record_init(struct kemu_machine *m)
{
	m->record_fd = -1;
	const char *path = getenv("KFDEMU_IOCTL_RECORD");
	if (!path || !*path)
		return;
	/* the raw system call: the shim's open() must not see the model's own file */
	long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			  0644);
	if (fd < 0) {
		kemu_warn(m, "KFDEMU_IOCTL_RECORD=%s: %s: not recording", path, strerror(errno));
		return;
	}
	m->record_fd = (int)fd;
	for (uint32_t i = 0; i < m->topo.n_gpus; i++) {
		char buf[128];
		int n = snprintf(buf, sizeof(buf) - 1, "%d gpu %u gpu_id=0x%x minor=%u",
				 (int)getpid(), i, m->topo.gpus[i].gpu_id,
				 m->topo.gpus[i].drm_render_minor);
		if (n > 0 && (size_t)n < sizeof(buf) - 1)
			record_write(m, buf, (size_t)n);
	}
}

void kemu_record_fini(struct kemu_machine *m)
{
	if (m->record_fd >= 0)
		kemu_sys_close(m->record_fd);
	m->record_fd = -1;
}

/* MAP/UNMAP: the GPU ids of the device array (read as the handler does). */
static size_t record_devices(char *buf, size_t len, size_t cap, const void *arg, size_t size)
{
	const struct kfd_args_map_memory_to_gpu *a = arg;
	if (size < sizeof(*a))
		return len;
	uint32_t n = a->n_devices < RECORD_MAX_DEVICES ? a->n_devices : RECORD_MAX_DEVICES;
	uint32_t ids[RECORD_MAX_DEVICES];
	if (n && kemu_copy_from_user(ids, a->device_ids_array_ptr, n * sizeof(uint32_t)))
		return record_add(buf, len, cap, " devices=fault");
	len = record_add(buf, len, cap, " devices=");
	for (uint32_t i = 0; i < n; i++)
		len = record_add(buf, len, cap, "%s0x%x", i ? "," : "", ids[i]);
	if (a->n_devices > n)
		len = record_add(buf, len, cap, ",...");
	return len;
}

/* SVM: the attribute array that follows the header in the argument. */
static size_t record_svm_attrs(char *buf, size_t len, size_t cap, const void *arg, size_t size)
{
	const struct kfd_args_svm *a = arg;
	if (size < sizeof(*a))
		return len;
	size_t have = (size - sizeof(*a)) / sizeof(struct kfd_svm_attribute);
	size_t n = a->nattr < have ? a->nattr : have;
	if (n > RECORD_MAX_ATTRS)
		n = RECORD_MAX_ATTRS;
	const struct kfd_svm_attribute *at =
		(const struct kfd_svm_attribute *)((const uint8_t *)arg + sizeof(*a));
	len = record_add(buf, len, cap, " attrs=");
	for (size_t i = 0; i < n; i++)
		len = record_add(buf, len, cap, "%s%u:0x%x", i ? "," : "", at[i].type,
				 at[i].value);
	return len;
}

void kemu_record_kfd(struct kemu_machine *m, unsigned nr, const void *arg, size_t size,
		     long ret)
{
	if (m->record_fd < 0)
		return;
	char buf[1024];
	size_t len = 0;
	len = record_add(buf, len, sizeof(buf), "kfd %s ret=%ld", kemu_ioctl_name(nr), ret);
	if (arg) {
		len += kemu_ioctl_fields(nr, arg, size, buf + len, sizeof(buf) - 1 - len);
		if (nr == _IOC_NR(KFD_IOCTL_MAP_MEMORY_TO_GPU) ||
		    nr == _IOC_NR(KFD_IOCTL_UNMAP_MEMORY_FROM_GPU))
			len = record_devices(buf, len, sizeof(buf), arg, size);
		else if (nr == _IOC_NR(KFD_IOCTL_SVM(0)))
			len = record_svm_attrs(buf, len, sizeof(buf), arg, size);
	}
	record_write_seq(m, buf, len);
}

/* The render-node ioctls user space issues, by number (drm.h, amdgpu_drm.h). */
static const char *render_name(unsigned nr)
{
	switch (nr) {
	case 0x00: return "VERSION";
	case 0x09: return "GEM_CLOSE";
	case 0x0c: return "GET_CAP";
	case 0x2d: return "PRIME_HANDLE_TO_FD";
	case 0x2e: return "PRIME_FD_TO_HANDLE";
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_CREATE: return "AMDGPU_GEM_CREATE";
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_MMAP: return "AMDGPU_GEM_MMAP";
	case DRM_COMMAND_BASE + DRM_AMDGPU_CTX: return "AMDGPU_CTX";
	case DRM_COMMAND_BASE + DRM_AMDGPU_CS: return "AMDGPU_CS";
	case DRM_COMMAND_BASE + DRM_AMDGPU_INFO: return "AMDGPU_INFO";
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_METADATA: return "AMDGPU_GEM_METADATA";
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_VA: return "AMDGPU_GEM_VA";
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_OP: return "AMDGPU_GEM_OP";
	case DRM_COMMAND_BASE + DRM_AMDGPU_GEM_USERPTR: return "AMDGPU_GEM_USERPTR";
	default: return NULL;
	}
}

void kemu_record_render(struct kemu_file *f, unsigned long request, const void *kdata,
			long ret)
{
	struct kemu_machine *m = f->m;
	if (m->record_fd < 0)
		return;
	unsigned nr = _IOC_NR(request), size = _IOC_SIZE(request);
	char buf[512];
	size_t len = 0;
	const char *name = render_name(nr);
	if (name)
		len = record_add(buf, len, sizeof(buf), "drm %u %s ret=%ld", f->dev->index, name,
				 ret);
	else
		len = record_add(buf, len, sizeof(buf), "drm %u NR_0x%x ret=%ld", f->dev->index,
				 nr, ret);
	if (nr == DRM_COMMAND_BASE + DRM_AMDGPU_INFO && size >= sizeof(struct drm_amdgpu_info)) {
		const struct drm_amdgpu_info *in = kdata;
		len = record_add(buf, len, sizeof(buf), " query=0x%x return_size=0x%x", in->query,
				 in->return_size);
	} else if (nr == DRM_COMMAND_BASE + DRM_AMDGPU_GEM_VA &&
		   size >= sizeof(struct drm_amdgpu_gem_va)) {
		const struct drm_amdgpu_gem_va *va = kdata;
		len = record_add(buf, len, sizeof(buf), " operation=0x%x flags=0x%x va=0x%llx"
				 " map_size=0x%llx", va->operation, va->flags,
				 (unsigned long long)va->va_address,
				 (unsigned long long)va->map_size);
	}
	record_write_seq(m, buf, len);
}

void kemu_record_mmap(struct kemu_file *f, size_t len_map, int prot, int flags,
		      uint64_t offset, int ret)
{
	struct kemu_machine *m = f->m;
	if (m->record_fd < 0)
		return;
	char buf[256];
	size_t len = 0;
	if (f->node == KEMU_NODE_KFD)
		len = record_add(buf, len, sizeof(buf), "mmap kfd");
	else
		len = record_add(buf, len, sizeof(buf), "mmap %u", f->dev->index);
	len = record_add(buf, len, sizeof(buf), " off=0x%llx len=0x%zx prot=%d flags=0x%x ret=%d",
			 (unsigned long long)offset, len_map, prot, flags, ret);
	record_write_seq(m, buf, len);
}

void kemu_record_open(struct kemu_machine *m, int gpu, int ret)
{
	if (m->record_fd < 0)
		return;
	char buf[128];
	size_t len = 0;
	if (gpu < 0)
		len = record_add(buf, len, sizeof(buf), "open kfd ret=%d", ret < 0 ? ret : 0);
	else
		len = record_add(buf, len, sizeof(buf), "open %d ret=%d", gpu, ret < 0 ? ret : 0);
	record_write_seq(m, buf, len);
}
