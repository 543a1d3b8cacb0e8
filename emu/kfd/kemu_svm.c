/*
 * Shared virtual memory (AMDKFD_IOC_SVM, kfd_svm.c): attribute ranges over
 * the process's own CPU address space.  The topology advertises
 * SVMAPISupported, so the ioctl is modelled, without migration: every SVM
 * range lives in system memory and the GPU reaches it at GPU VA == CPU VA.
 *
 *   any op    the attribute array must fit the ioctl size, the range be
 *             page aligned and non-zero (-EINVAL); an unknown op returns
 *             +EINVAL, not an error (svm_ioctl's "r = EINVAL")
 *   SET_ATTR  validates the attributes (unknown type or unknown gpu_id
 *             -EINVAL), then the range (every page mapped in the process,
 *             none by a mapping of /dev/kfd or a render node -EFAULT, no
 *             BO mapping of any GPU VM inside -EADDRINUSE),
 *             then splits existing ranges at the boundaries, fills gaps with
 *             default ranges and applies the attributes in order
 *             (svm_range_add / svm_range_apply_attrs)
 *   GET_ATTR  checks the range first (-EFAULT), then the attribute types
 *             (-EINVAL), and reports the common attributes of the ranges in
 *             the interval, or the defaults if there is none
 *             (svm_range_get_attr)
 *
 * GPU access: a range is mapped on a GPU when its ACCESS or ACCESS_IN_PLACE
 * bit for that GPU is set (XNACK off: mapped eagerly; new ranges of an
 * XNACK-on process get access on every GPU, as svm_range_new does);
 * GPU_RO removes write, GPU_EXEC adds execute.  With XNACK on, a GPU access
 * to any mapped CPU page outside SVM ranges and BOs also succeeds, as the
 * retry-fault handler creates an "unregistered" range for it.  Unmapping
 * CPU pages (munmap, or mmap MAP_FIXED over them, through the shim) drops
 * the ranges over them, as the MMU notifier does (mremap and brk shrinking
 * are not seen).  ALLOC of a
 * BO over an SVM range is -EADDRINUSE, and a queue's CWSR area may be an SVM
 * range mapped to its GPU with GPU_ALWAYS_MAPPED (kfd_queue_buffer_svm_get).
 *
 * Ranges are a sorted array under process->vm_lock (write to change, read
 * to look up), changed only with process->lock held too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kemu_priv.h"

enum {
	KEMU_SVM_ATTR_PREFERRED_LOC,
	KEMU_SVM_ATTR_PREFETCH_LOC,
	KEMU_SVM_ATTR_ACCESS,
	KEMU_SVM_ATTR_ACCESS_IN_PLACE,
	KEMU_SVM_ATTR_NO_ACCESS,
	KEMU_SVM_ATTR_SET_FLAGS,
	KEMU_SVM_ATTR_CLR_FLAGS,
	KEMU_SVM_ATTR_GRANULARITY,
};
#define KEMU_SVM_LOCATION_SYSMEM    0u
#define KEMU_SVM_LOCATION_UNDEFINED 0xFFFFFFFFu
#define KEMU_SVM_DEFAULT_GRANULARITY 9 /* 2 MiB, svm_default_granularity */

static int svm_gpuidx(struct kemu_process *p, uint32_t gpu_id)
{
	struct kemu_pdd *pdd = kemu_pdd_by_id(p, gpu_id);
	return pdd ? (int)pdd->dev->index : -1;
}

/* svm_range_check_attr */
static int svm_check_attrs(struct kemu_process *p, const struct kfd_svm_attribute *a, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t v = a[i].value;
		int idx = 0;
		switch (a[i].type) {
		case KEMU_SVM_ATTR_PREFERRED_LOC:
			if (v != KEMU_SVM_LOCATION_SYSMEM && v != KEMU_SVM_LOCATION_UNDEFINED)
				idx = svm_gpuidx(p, v);
			break;
		case KEMU_SVM_ATTR_PREFETCH_LOC:
			if (v != KEMU_SVM_LOCATION_SYSMEM)
				idx = svm_gpuidx(p, v);
			break;
		case KEMU_SVM_ATTR_ACCESS:
		case KEMU_SVM_ATTR_ACCESS_IN_PLACE:
		case KEMU_SVM_ATTR_NO_ACCESS:
			idx = svm_gpuidx(p, v);
			break;
		case KEMU_SVM_ATTR_SET_FLAGS:
		case KEMU_SVM_ATTR_CLR_FLAGS:
		case KEMU_SVM_ATTR_GRANULARITY:
			break;
		default:
			kemu_info(p->m, "SVM: unknown attribute type 0x%x: -EINVAL", a[i].type);
			return -EINVAL;
		}
		if (idx < 0) {
			kemu_info(p->m, "SVM: no GPU 0x%x: -EINVAL", v);
			return -EINVAL;
		}
	}
	return 0;
}

/* svm_range_is_valid: every page of [start, last] is mapped.  msync with
 * MS_ASYNC does no work on Linux but walks the VMAs and fails with ENOMEM
 * on a hole, like the kernel's vma_lookup loop. */
static bool svm_cpu_range_valid(uint64_t start, uint64_t last)
{
	return msync((void *)(uintptr_t)(start << 12), (last - start + 1) << 12, MS_ASYNC) == 0;
}

/* svm_range_is_valid's other refusal: a range over a device mapping
 * (VM_IO | VM_PFNMAP | VM_MIXEDMAP), which is what the CPU mappings of KFD
 * and DRM objects are: doorbells, MMIO, events, BOs through the render
 * node.  kemu_mmap records each (kemu_svm_device_mapped) and munmap trims
 * them (kemu_cpu_unmapped).  Pages [start, last]. */
static bool svm_has_device_vma(struct kemu_process *p, uint64_t start, uint64_t last)
{
	bool hit = false;
	pthread_mutex_lock(&p->dev_vma_lock);
	for (size_t i = 0; i < p->n_dev_vmas && !hit; i++)
		hit = p->dev_vmas[i].start <= last && p->dev_vmas[i].last >= start;
	pthread_mutex_unlock(&p->dev_vma_lock);
	return hit;
}

void kemu_svm_device_mapped(struct kemu_machine *m, uint64_t addr, uint64_t len)
{
	struct kemu_process *p = kemu_process_find(m, getpid());
	if (!p || !len)
		return;
	struct kemu_svm_span span = { addr >> 12, (addr + len - 1) >> 12 };
	pthread_mutex_lock(&p->dev_vma_lock);
	if (p->n_dev_vmas == p->cap_dev_vmas) {
		size_t cap = p->cap_dev_vmas ? 2 * p->cap_dev_vmas : 16;
		struct kemu_svm_span *v = realloc(p->dev_vmas, cap * sizeof(*v));
		if (!v) {
			pthread_mutex_unlock(&p->dev_vma_lock);
			kemu_warn(m, "SVM: no memory to record device mapping [0x%llx, +0x%llx)",
				  (unsigned long long)addr, (unsigned long long)len);
			return;
		}
		p->dev_vmas = v;
		p->cap_dev_vmas = cap;
	}
	p->dev_vmas[p->n_dev_vmas++] = span;
	pthread_mutex_unlock(&p->dev_vma_lock);
}

/* munmap of [start, last]: trims the recorded device mappings (one that
 * straddles the hole becomes two).  Takes dev_vma_lock. */
static void svm_device_unmapped(struct kemu_process *p, uint64_t start, uint64_t last)
{
	pthread_mutex_lock(&p->dev_vma_lock);
	for (size_t i = 0; i < p->n_dev_vmas;) {
		struct kemu_svm_span v = p->dev_vmas[i];
		if (v.last < start || v.start > last) {
			i++;
			continue;
		}
		if (v.start < start && v.last > last) {
			struct kemu_svm_span *grown = p->dev_vmas;
			if (p->n_dev_vmas == p->cap_dev_vmas) {
				grown = realloc(p->dev_vmas, 2 * p->cap_dev_vmas * sizeof(*grown));
				if (!grown) { /* keep the whole span: a stricter check */
					i++;
					continue;
				}
				p->dev_vmas = grown;
				p->cap_dev_vmas *= 2;
			}
			p->dev_vmas[i++] = (struct kemu_svm_span){ v.start, start - 1 };
			p->dev_vmas[p->n_dev_vmas++] = (struct kemu_svm_span){ last + 1, v.last };
		} else if (v.start < start) {
			p->dev_vmas[i++].last = start - 1;
		} else if (v.last > last) {
			p->dev_vmas[i++].start = last + 1;
		} else {
			p->dev_vmas[i] = p->dev_vmas[--p->n_dev_vmas];
		}
	}
	pthread_mutex_unlock(&p->dev_vma_lock);
}

static struct kemu_svm_range svm_default_range(const struct kemu_process *p, uint64_t start,
					       uint64_t last)
{
	struct kemu_svm_range r = {
		.start = start, .last = last,
		.preferred_loc = KEMU_SVM_LOCATION_UNDEFINED,
		.prefetch_loc = KEMU_SVM_LOCATION_UNDEFINED,
		.granularity = KEMU_SVM_DEFAULT_GRANULARITY,
		.flags = KFD_SVM_FLAG_HOST_ACCESS | KFD_SVM_FLAG_COHERENT,
	};
	if (p->xnack_enabled)
		r.access = (1u << p->n_pdds) - 1;
	return r;
}

/* svm_range_apply_attrs */
static void svm_apply(struct kemu_process *p, struct kemu_svm_range *r,
		      const struct kfd_svm_attribute *a, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t bit = 0;
		if (a[i].type >= KEMU_SVM_ATTR_ACCESS && a[i].type <= KEMU_SVM_ATTR_NO_ACCESS)
			bit = 1u << svm_gpuidx(p, a[i].value);
		switch (a[i].type) {
		case KEMU_SVM_ATTR_PREFERRED_LOC:
			r->preferred_loc = a[i].value;
			break;
		case KEMU_SVM_ATTR_PREFETCH_LOC:
			r->prefetch_loc = a[i].value;
			break;
		case KEMU_SVM_ATTR_ACCESS:
			r->access |= bit;
			r->aip &= ~bit;
			break;
		case KEMU_SVM_ATTR_ACCESS_IN_PLACE:
			r->aip |= bit;
			r->access &= ~bit;
			break;
		case KEMU_SVM_ATTR_NO_ACCESS:
			r->access &= ~bit;
			r->aip &= ~bit;
			break;
		case KEMU_SVM_ATTR_SET_FLAGS:
			r->flags |= a[i].value;
			break;
		case KEMU_SVM_ATTR_CLR_FLAGS:
			r->flags &= ~a[i].value;
			break;
		case KEMU_SVM_ATTR_GRANULARITY:
			r->granularity = a[i].value < 0x3F ? a[i].value : 0x3F;
			break;
		}
	}
}

static int svm_cmp(const void *a, const void *b)
{
	const struct kemu_svm_range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Does any GPU VM of p map a BO inside [start, last]?  Caller holds
 * vm_lock. */
static bool svm_overlaps_bo(struct kemu_process *p, uint64_t start, uint64_t last)
{
	for (uint32_t i = 0; i < p->n_pdds; i++) {
		const struct kemu_vm *vm = &p->pdds[i].vm;
		for (size_t j = 0; j < vm->n; j++) {
			if (vm->maps[j].start <= last && vm->maps[j].last >= start)
				return true;
		}
	}
	return false;
}

bool kemu_svm_overlaps(struct kemu_process *p, uint64_t addr, uint64_t size)
{
	if (!size)
		return false;
	uint64_t start = addr >> 12, last = (addr + size - 1) >> 12;
	bool hit = false;
	pthread_rwlock_rdlock(&p->vm_lock);
	for (size_t i = 0; i < p->n_svm && !hit; i++)
		hit = p->svm[i].start <= last && p->svm[i].last >= start;
	pthread_rwlock_unlock(&p->vm_lock);
	return hit;
}

/* Caller holds p->lock; takes vm_lock for write. */
static int svm_set_attr(struct kemu_process *p, uint64_t start, uint64_t last,
			const struct kfd_svm_attribute *a, uint32_t n)
{
	int err = 0;
	pthread_rwlock_wrlock(&p->vm_lock);
	if (svm_overlaps_bo(p, start, last)) {
		kemu_info(p->m, "SVM: [0x%llx 0x%llx] already mapped by a BO: -EADDRINUSE",
			  (unsigned long long)start << 12, (unsigned long long)last << 12);
		err = -EADDRINUSE;
		goto out_unlock;
	}
	/* worst case: every old range, two split-off ends and a gap after
	 * each old range plus one */
	size_t cap = p->n_svm * 2 + 3;
	struct kemu_svm_range *out = calloc(cap, sizeof(*out));
	if (!out) {
		err = -ENOMEM;
		goto out_unlock;
	}
	size_t n_out = 0;
	uint64_t cur = start;
	for (size_t i = 0; i < p->n_svm; i++) {
		struct kemu_svm_range r = p->svm[i];
		if (r.last < start || r.start > last) {
			out[n_out++] = r;
			continue;
		}
		if (r.start > cur) /* a gap before this range */
			out[n_out++] = svm_default_range(p, cur, r.start - 1);
		if (r.start < start) {
			struct kemu_svm_range left = r;
			left.last = start - 1;
			out[n_out++] = left;
			r.start = start;
		}
		if (r.last > last) {
			struct kemu_svm_range right = r;
			right.start = last + 1;
			out[n_out++] = right;
			r.last = last;
		}
		out[n_out++] = r;
		cur = r.last + 1;
	}
	if (cur <= last)
		out[n_out++] = svm_default_range(p, cur, last);
	for (size_t i = 0; i < n_out; i++) {
		if (out[i].start >= start && out[i].last <= last)
			svm_apply(p, &out[i], a, n);
	}
	qsort(out, n_out, sizeof(*out), svm_cmp);
	free(p->svm);
	p->svm = out;
	p->n_svm = n_out;
	p->cap_svm = cap;
out_unlock:
	kemu_vm_write_unlock(p);
	return err;
}

/* svm_range_get_attr.  Caller holds p->lock. */
static int svm_get_attr(struct kemu_process *p, uint64_t start, uint64_t last,
			struct kfd_svm_attribute *a, uint32_t n)
{
	bool want_pref = false, want_prefetch = false;
	for (uint32_t i = 0; i < n; i++) {
		switch (a[i].type) {
		case KEMU_SVM_ATTR_PREFERRED_LOC:
			want_pref = true;
			break;
		case KEMU_SVM_ATTR_PREFETCH_LOC:
			want_prefetch = true;
			break;
		case KEMU_SVM_ATTR_ACCESS:
		case KEMU_SVM_ATTR_SET_FLAGS:
		case KEMU_SVM_ATTR_CLR_FLAGS:
		case KEMU_SVM_ATTR_GRANULARITY:
			break;
		default: /* ACCESS_IN_PLACE and NO_ACCESS are answers, not questions */
			return -EINVAL;
		}
	}
	struct kemu_svm_range def = svm_default_range(p, start, last);
	uint32_t loc = def.preferred_loc, prefetch = def.prefetch_loc;
	uint32_t flags_and = def.flags, flags_or = def.flags, gran = def.granularity;
	uint32_t all = (1u << p->n_pdds) - 1, access = all, aip = all;
	bool found = false;
	pthread_rwlock_rdlock(&p->vm_lock);
	for (size_t i = 0; i < p->n_svm; i++) {
		const struct kemu_svm_range *r = &p->svm[i];
		if (r->last < start || r->start > last)
			continue;
		if (!found) {
			flags_and = 0xFFFFFFFFu;
			flags_or = 0;
			gran = 0xFF;
		}
		if (want_pref) {
			if (r->preferred_loc == KEMU_SVM_LOCATION_UNDEFINED ||
			    (found && loc != r->preferred_loc)) {
				loc = KEMU_SVM_LOCATION_UNDEFINED;
				want_pref = false;
			} else {
				loc = r->preferred_loc;
			}
		}
		if (want_prefetch) {
			if (r->prefetch_loc == KEMU_SVM_LOCATION_UNDEFINED ||
			    (found && prefetch != r->prefetch_loc)) {
				prefetch = KEMU_SVM_LOCATION_UNDEFINED;
				want_prefetch = false;
			} else {
				prefetch = r->prefetch_loc;
			}
		}
		access &= r->access;
		aip &= r->aip;
		flags_and &= r->flags;
		flags_or |= r->flags;
		if (r->granularity < gran)
			gran = r->granularity;
		found = true;
	}
	pthread_rwlock_unlock(&p->vm_lock);
	if (!found) {
		access = p->xnack_enabled ? all : 0;
		aip = 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		switch (a[i].type) {
		case KEMU_SVM_ATTR_PREFERRED_LOC:
			a[i].value = loc;
			break;
		case KEMU_SVM_ATTR_PREFETCH_LOC:
			a[i].value = prefetch;
			break;
		case KEMU_SVM_ATTR_ACCESS: {
			int idx = svm_gpuidx(p, a[i].value);
			if (idx < 0)
				return -EINVAL;
			if (access >> idx & 1)
				a[i].type = KEMU_SVM_ATTR_ACCESS;
			else if (aip >> idx & 1)
				a[i].type = KEMU_SVM_ATTR_ACCESS_IN_PLACE;
			else
				a[i].type = KEMU_SVM_ATTR_NO_ACCESS;
			break;
		}
		case KEMU_SVM_ATTR_SET_FLAGS:
			a[i].value = flags_and;
			break;
		case KEMU_SVM_ATTR_CLR_FLAGS:
			a[i].value = ~flags_or;
			break;
		case KEMU_SVM_ATTR_GRANULARITY:
			a[i].value = gran;
			break;
		}
	}
	return 0;
}

long kemu_ioctl_svm(struct kemu_process *p, void *arg, size_t size)
{
	struct kfd_args_svm *a = arg;
	/* kfd_ioctl_svm_validate: the attributes ride in the ioctl size
	 * (kernel buffer = user size, at most 14 bits' worth) */
	if (size < sizeof(*a) + (size_t)a->nattr * sizeof(struct kfd_svm_attribute))
		return -EINVAL;
	if ((a->start_addr & (KEMU_PAGE_SIZE - 1)) || (a->size & (KEMU_PAGE_SIZE - 1)) ||
	    !a->start_addr || !a->size)
		return -EINVAL;
	/* svm_ioctl: an unknown op is a positive EINVAL, which kfd_ioctl
	 * hands back as the ioctl's return value (no error, errno untouched) */
	if (a->op != KFD_SVM_OP_SET_ATTR && a->op != KFD_SVM_OP_GET_ATTR) {
		kemu_info(p->m, "SVM: unknown op %u: returns +EINVAL, as svm_ioctl does", a->op);
		return EINVAL;
	}
	uint64_t start = a->start_addr >> 12, last = (a->start_addr + a->size - 1) >> 12;
	long err = 0;
	pthread_mutex_lock(&p->lock);
	/* svm_range_set_attr checks the attributes before the range,
	 * svm_range_get_attr the range before the attributes */
	if (a->op == KFD_SVM_OP_SET_ATTR)
		err = svm_check_attrs(p, a->attrs, a->nattr);
	if (!err && (!kemu_access_ok(a->start_addr, a->size) || !svm_cpu_range_valid(start, last) ||
		     svm_has_device_vma(p, start, last)))
		err = -EFAULT;
	if (!err)
		err = a->op == KFD_SVM_OP_SET_ATTR ? svm_set_attr(p, start, last, a->attrs, a->nattr) :
						     svm_get_attr(p, start, last, a->attrs, a->nattr);
	pthread_mutex_unlock(&p->lock);
	return err;
}

/* kfd_queue_buffer_svm_get: [addr, addr + size) must be covered by SVM
 * ranges mapped to device index idx with GPU_ALWAYS_MAPPED.  Caller holds
 * p->lock. */
int kemu_svm_queue_get(struct kemu_process *p, uint32_t idx, uint64_t addr, uint64_t size)
{
	uint64_t page = addr >> 12, left = size >> 12;
	int err = 0;
	pthread_rwlock_rdlock(&p->vm_lock);
	while (left) {
		const struct kemu_svm_range *r = kemu_svm_lookup(p, page);
		if (!r || !((r->access | r->aip) >> idx & 1) ||
		    !(r->flags & KFD_SVM_FLAG_GPU_ALWAYS_MAPPED)) {
			err = -EINVAL;
			break;
		}
		uint64_t span = r->last - page + 1;
		if (span >= left)
			break;
		left -= span;
		page += span;
	}
	pthread_rwlock_unlock(&p->vm_lock);
	return err;
}

const struct kemu_svm_range *kemu_svm_lookup(const struct kemu_process *p, uint64_t page)
{
	size_t lo = 0, hi = p->n_svm;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->svm[mid].last < page)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->n_svm && p->svm[lo].start <= page)
		return &p->svm[lo];
	return NULL;
}

bool kemu_svm_gpu_page_mapped(const struct kemu_process *p, uint32_t idx, uint64_t page,
			      unsigned *perms)
{
	const struct kemu_svm_range *r = kemu_svm_lookup(p, page);
	if (r) {
		if (!((r->access | r->aip) >> idx & 1))
			return false;
		*perms = KEMU_ACCESS_READ;
		if (!(r->flags & KFD_SVM_FLAG_GPU_RO))
			*perms |= KEMU_ACCESS_WRITE;
		if (r->flags & KFD_SVM_FLAG_GPU_EXEC)
			*perms |= KEMU_ACCESS_EXEC;
		return true;
	}
	/* XNACK on: the fault handler maps any valid CPU page (an
	 * unregistered range with default flags) */
	if (p->xnack_enabled && svm_cpu_range_valid(page, page)) {
		*perms = KEMU_ACCESS_READ | KEMU_ACCESS_WRITE;
		return true;
	}
	return false;
}

/* svm_range_unmap_from_cpu: the MMU notifier's UNMAP event drops the SVM
 * ranges (or their parts) over pages the process unmapped, so memory mapped
 * there later starts from the defaults.  Caller holds p->lock and vm_lock
 * for write. */
static int svm_remove_locked(struct kemu_process *p, uint64_t start, uint64_t last)
{
	size_t hit = 0;
	for (size_t i = 0; i < p->n_svm; i++)
		hit += p->svm[i].start <= last && p->svm[i].last >= start;
	if (!hit)
		return 0;
	/* one range may straddle the hole and become two */
	struct kemu_svm_range *out = calloc(p->n_svm + 1, sizeof(*out));
	if (!out)
		return -ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < p->n_svm; i++) {
		struct kemu_svm_range r = p->svm[i];
		if (r.last < start || r.start > last) {
			out[n++] = r;
			continue;
		}
		if (r.start < start) {
			out[n] = r;
			out[n++].last = start - 1;
		}
		if (r.last > last) {
			out[n] = r;
			out[n++].start = last + 1;
		}
	}
	free(p->svm);
	p->svm = out;
	p->n_svm = n;
	p->cap_svm = p->n_svm + 1;
	return 0;
}

void kemu_cpu_unmapped(struct kemu_machine *m, pid_t pid, uint64_t addr, uint64_t len)
{
	if (!len || !kemu_access_ok(addr, len))
		return;
	/* the HDP model forgets CPU mappings of VRAM there */
	kemu_hdp_cpu_unmapped(addr, len);
	struct kemu_process *p = kemu_process_find(m, pid);
	if (!p)
		return;
	uint64_t start = addr >> 12, last = (addr + len - 1) >> 12;
	svm_device_unmapped(p, start, last);
	/* most unmaps touch no SVM range: no write lock, no VM generation */
	if (!kemu_svm_overlaps(p, addr, len))
		return;
	pthread_mutex_lock(&p->lock);
	pthread_rwlock_wrlock(&p->vm_lock);
	if (svm_remove_locked(p, start, last))
		kemu_warn(m, "SVM: no memory to drop the ranges of unmapped [0x%llx, +0x%llx)",
			  (unsigned long long)addr, (unsigned long long)len);
	kemu_vm_write_unlock(p);
	pthread_mutex_unlock(&p->lock);
}

void kemu_svm_fini(struct kemu_process *p)
{
	free(p->dev_vmas);
	p->dev_vmas = NULL;
	p->n_dev_vmas = p->cap_dev_vmas = 0;
	free(p->svm);
	p->svm = NULL;
	p->n_svm = p->cap_svm = 0;
}
