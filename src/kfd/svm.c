/*
 * SVM ranges (AMDKFD_IOC_SVM, KFD API 1.5+): attributes the kernel keeps
 * over ranges of the process's own CPU address space, which GPUs reach at
 * the CPU address (HMM).  The runtime (src/memory/svm.c) turns
 * hsa_amd_svm_attribute_t into the KFD attributes passed here; this file
 * only checks what libhsakmt's hsaKmtSVMSetAttr/GetAttr check before the
 * ioctl (a page-aligned, non-zero range, KFD 1.5) and issues it.
 *
 * The attribute array rides behind the 24-byte header, and its length is
 * encoded in the ioctl's size field (the kernel copies in exactly that
 * many bytes), so the size field's 14 bits bound the count.
 */
#include "kfd/kfd_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

static const char *svm_op_name(uint32_t op)
{
	return op == KFD_SVM_OP_GET_ATTR ? "SVM GET_ATTR" : "SVM SET_ATTR";
}

int kfd_svm_attrs(struct kfd_process *proc, uint32_t op, uint64_t start, uint64_t size,
		  struct kfd_svm_attribute *attrs, uint32_t n)
{
	if (!kfd_svm_api(proc)) {
		hl_debug(KFD_LOG, "%s: EOPNOTSUPP: KFD API 1.%u < 1.5", svm_op_name(op),
			 proc->version_minor);
		return -EOPNOTSUPP;
	}
	if (!start || !size || (start | size) & (KFD_PAGE_SIZE - 1)) {
		hl_error(KFD_LOG, "%s: EINVAL: range [0x%llx, +0x%llx) is empty or not "
			 "page-aligned", svm_op_name(op), (unsigned long long)start,
			 (unsigned long long)size);
		return -EINVAL;
	}
	if (n > KFD_SVM_MAX_ATTRS) {
		hl_error(KFD_LOG, "%s: E2BIG: %u attributes, the ioctl carries at most %u",
			 svm_op_name(op), n, KFD_SVM_MAX_ATTRS);
		return -E2BIG;
	}
	size_t bytes = sizeof(struct kfd_args_svm) + (size_t)n * sizeof(*attrs);
	struct kfd_args_svm *args = calloc(1, bytes);
	if (!args)
		return -ENOMEM;
	args->start_addr = start;
	args->size = size;
	args->op = op;
	args->nattr = n;
	if (n)
		memcpy(args->attrs, attrs, (size_t)n * sizeof(*attrs));
	int ret = kfd_ioctl(proc->fd, KFD_IOCTL_SVM(n), args);
	/* An unknown op comes back as a positive EINVAL from svm_ioctl; we
	 * only send the two known ones. */
	if (ret)
		hl_error(KFD_LOG, "%s: %s: [0x%llx, +0x%llx), %u attributes", svm_op_name(op),
			 hl_errno_name(ret), (unsigned long long)start, (unsigned long long)size,
			 n);
	else if (op == KFD_SVM_OP_GET_ATTR && n)
		memcpy(attrs, args->attrs, (size_t)n * sizeof(*attrs));
	free(args);
	return ret;
}
