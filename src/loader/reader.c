/*
 * Code object readers: where a code object's bytes come from.
 *
 * A memory reader borrows the caller's bytes (the HSA spec has them stay
 * valid until the reader is destroyed); a file reader reads the whole file,
 * or the [offset, offset + size) window the AMD loader extension asks for,
 * into its own buffer.  The descriptor stays the caller's: it is read with
 * pread, so its file offset does not move, and never closed.  Readers do
 * not parse: as in ROCr, the bytes are validated when an executable loads
 * them, and a load copies them, so a reader may be destroyed right after.
 * Each reader carries the URI ROCr would give its code objects
 * (hsa_ven_amd_loader LOADED_CODE_OBJECT_INFO_URI):
 *   memory://<pid>#offset=<address>&size=<bytes>
 *   file://<path>#offset=<offset>&size=<bytes>
 */
#define _GNU_SOURCE /* asprintf, PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/loader_priv.h"
#include "runtime/runtime.h"
#include "util/log.h"

#define LOG "loader"
/* A code object larger than this is not something we were given on
 * purpose; refusing it keeps a wrong fd from filling memory. */
#define MAX_FILE_BYTES (1ull << 31)

static hsa_status_t reader_publish(struct hl_reader *r, hsa_code_object_reader_t *out)
{
	/* Into the registry of the runtime now current, which frees it with
	 * the rest at its teardown (reading may have outlasted the one the
	 * caller checked). */
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt) {
		free(r->buf);
		free(r->uri);
		free(r);
		return hl_status_from_errno(-EINVAL);
	}
	struct hl_loader_registry *lr = rt->loader;
	hl_loader_lock(lr);
	r->next = lr->readers;
	lr->readers = r;
	hl_loader_unlock(lr);
	out->handle = (uint64_t)(uintptr_t)r;
	return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_code_object_reader_create_from_memory(const void *code_object, size_t size,
						       hsa_code_object_reader_t *reader)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!code_object || size == 0 || !reader)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	if (asprintf(&r->uri, "memory://%d#offset=%#llx&size=%zu", (int)getpid(),
		     (unsigned long long)(uintptr_t)code_object, size) < 0) {
		free(r);
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	r->data = code_object;
	r->size = size;
	return reader_publish(r, reader);
}

/* Reads [offset, offset + size) of fd (size 0: to the end) into *buf. */
static int read_fd(int fd, uint64_t offset, uint64_t size, uint8_t **buf, size_t *len)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL; /* pread needs a seekable file; ROCr lseeks too */
	uint64_t fsize = (uint64_t)st.st_size;
	if (offset > fsize || (size && size > fsize - offset))
		return -ERANGE;
	uint64_t want = size ? size : fsize - offset;
	if (want == 0)
		return -ENODATA;
	if (want > MAX_FILE_BYTES)
		return -EFBIG;
	uint8_t *b = malloc(want);
	if (!b)
		return -ENOMEM;
	uint64_t done = 0;
	while (done < want) {
		ssize_t n = pread(fd, b + done, want - done, (off_t)(offset + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? -errno : -ENODATA;
			free(b);
			return err;
		}
		done += (uint64_t)n;
	}
	*buf = b;
	*len = want;
	return 0;
}

static hsa_status_t create_from_file(hsa_file_t file, uint64_t offset, uint64_t size,
				     hsa_code_object_reader_t *reader)
{
	if (!hl_runtime_get())
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	if (!reader)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	struct hl_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	int err = read_fd(file, offset, size, &r->buf, &r->size);
	if (err) {
		free(r);
		hl_error(LOG, "code object file (fd %d, offset %llu, size %llu): %s", file,
			 (unsigned long long)offset, (unsigned long long)size, hl_errno_name(err));
		if (err == -ENOMEM)
			return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
		if (err == -ENODATA)
			return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
		return HSA_STATUS_ERROR_INVALID_FILE;
	}
	r->data = r->buf;
	char link[64], path[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", file);
	ssize_t n = readlink(link, path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = '\0';
	if (asprintf(&r->uri, "file://%s#offset=%llu&size=%zu", path, (unsigned long long)offset,
		     r->size) < 0) {
		free(r->buf);
		free(r);
		return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
	}
	return reader_publish(r, reader);
}

hsa_status_t hsa_code_object_reader_create_from_file(hsa_file_t file,
						     hsa_code_object_reader_t *reader)
{
	return create_from_file(file, 0, 0, reader);
}

hsa_status_t hl_loader_reader_create_from_file_with_offset_size(
	hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t *reader)
{
	if (hl_runtime_get() && size == 0)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	return create_from_file(file, offset, size, reader);
}

hsa_status_t hsa_code_object_reader_destroy(hsa_code_object_reader_t reader)
{
	struct hl_runtime *rt = hl_runtime_get();
	if (!rt)
		return HSA_STATUS_ERROR_NOT_INITIALIZED;
	struct hl_loader_registry *lr = rt->loader;
	hl_loader_lock(lr);
	struct hl_reader **pp = &lr->readers;
	while (*pp && (uint64_t)(uintptr_t)*pp != reader.handle)
		pp = &(*pp)->next;
	struct hl_reader *r = *pp;
	if (r)
		*pp = r->next;
	hl_loader_unlock(lr);
	if (!r)
		return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
	free(r->buf);
	free(r->uri);
	free(r);
	return HSA_STATUS_SUCCESS;
}
