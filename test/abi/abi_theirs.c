/* The ABI table of Debian's ROCr 5.2.3 headers in /usr/include/hsa. */
#define ABI_ITEMS abi_items_theirs
#define ABI_ITEMS_COUNT abi_items_theirs_count
#include "abi_items.inc"
