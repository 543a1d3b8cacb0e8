/* The ABI table of our headers (built with -I include, see CMakeLists.txt). */
#define ABI_ITEMS abi_items_ours
#define ABI_ITEMS_COUNT abi_items_ours_count
#include "abi_items.inc"
