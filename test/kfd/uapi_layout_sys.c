/*
 * Linux's side of the UAPI layout comparison: Debian's
 * <linux/kfd_ioctl.h> (API 1.11) evaluated through uapi_layout_list.h.
 * Built with test/kfd/compat on the include path for its <drm/drm.h>.
 */
#include <linux/kfd_ioctl.h>

#include "uapi_layout.h"

#define SIZE(label, ours, sys) { LAYOUT_SIZE, "sizeof " #label, sizeof(struct sys) },
#define FIELD(label, ours, of, sys, sf) \
	{ LAYOUT_OFFSET, "offsetof " #label "." #of, offsetof(struct sys, sf) },
#define IOCTL(label, ours, sys) { LAYOUT_IOCTL, "ioctl " #label, (unsigned long)(sys) },
/* Linux spells flag 31 as (1 << 31), a negative int: compare the 32 bits. */
#define CONST(label, ours, sys) { LAYOUT_CONST, #label, (unsigned int)(sys) },

const struct layout_entry uapi_sys[] = {
#include "uapi_layout_list.h"
};
const size_t uapi_sys_count = sizeof(uapi_sys) / sizeof(uapi_sys[0]);

const size_t sys_create_queue_size = sizeof(struct kfd_ioctl_create_queue_args);
const unsigned long sys_create_queue_ioctl = AMDKFD_IOC_CREATE_QUEUE;
const unsigned long sys_ioctl_api_minor = KFD_IOCTL_MINOR_VERSION;
