/*
 * Status names for the runtime's own messages.  The public text is
 * hsa_status_string (status.c); this is the short form for log lines such
 * as "queue create: HSA_STATUS_ERROR_OUT_OF_RESOURCES".
 */
#ifndef HSALITE_RUNTIME_STATUS_H
#define HSALITE_RUNTIME_STATUS_H

#include <hsa/hsa.h>

/*
 * The enumerator name of status ("HSA_STATUS_ERROR_INVALID_AGENT"), or
 * "HSA_STATUS_UNKNOWN" for a value no header defines.  Never NULL; the
 * string is static.  Safe at any time, including before hsa_init.
 */
const char *hl_status_name(hsa_status_t status);

#endif
