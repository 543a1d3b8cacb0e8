/* Function types declared by Debian's ROCr 5.2.3 headers. */
#define ABI_FUNCS abi_funcs_theirs
#define ABI_FUNCS_COUNT abi_funcs_theirs_count
#include "abi_funcs.inc"
