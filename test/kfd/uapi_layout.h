/*
 * The UAPI layout test compares common/amd/kfd_uapi.h with Linux's
 * <linux/kfd_ioctl.h>.  The two headers define some of the same struct
 * names (kfd_event_data, kfd_process_device_apertures...), so each side is
 * evaluated in its own TU (uapi_layout_ours.c, uapi_layout_sys.c) from the
 * one list in uapi_layout_list.h, and the test compares the two tables
 * entry by entry.
 */
#ifndef UAPI_LAYOUT_H
#define UAPI_LAYOUT_H

#include <stddef.h>

enum layout_kind { LAYOUT_SIZE, LAYOUT_OFFSET, LAYOUT_IOCTL, LAYOUT_CONST };

struct layout_entry {
	enum layout_kind kind;
	const char *label;
	unsigned long long value;
};

extern const struct layout_entry uapi_ours[];
extern const size_t uapi_ours_count;
extern const struct layout_entry uapi_sys[];
extern const size_t uapi_sys_count;

/* The system header's CREATE_QUEUE (88 bytes at API 1.11). */
extern const size_t sys_create_queue_size;
extern const unsigned long sys_create_queue_ioctl;
extern const unsigned long sys_ioctl_api_minor;

#endif
