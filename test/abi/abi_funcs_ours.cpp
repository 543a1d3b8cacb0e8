/* Function types declared by our headers (built with -I include). */
#define ABI_FUNCS abi_funcs_ours
#define ABI_FUNCS_COUNT abi_funcs_ours_count
#include "abi_funcs.inc"
