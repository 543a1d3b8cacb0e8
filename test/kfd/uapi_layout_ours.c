/*
 * Our side of the UAPI layout comparison: common/amd/kfd_uapi.h evaluated
 * through uapi_layout_list.h.
 */
#include "amd/kfd_uapi.h"

#include "uapi_layout.h"

#define SIZE(label, ours, sys) { LAYOUT_SIZE, "sizeof " #label, sizeof(struct ours) },
#define FIELD(label, ours, of, sys, sf) \
	{ LAYOUT_OFFSET, "offsetof " #label "." #of, offsetof(struct ours, of) },
#define IOCTL(label, ours, sys) { LAYOUT_IOCTL, "ioctl " #label, (unsigned long)(ours) },
/* Every constant compared is a 32-bit value (see uapi_layout_sys.c). */
#define CONST(label, ours, sys) { LAYOUT_CONST, #label, (unsigned int)(ours) },

const struct layout_entry uapi_ours[] = {
#include "uapi_layout_list.h"
};
const size_t uapi_ours_count = sizeof(uapi_ours) / sizeof(uapi_ours[0]);
