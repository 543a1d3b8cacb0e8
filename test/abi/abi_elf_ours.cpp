/* amd_hsa_elf.h items of our headers (built with -I include). */
#define ABI_ITEMS abi_elf_ours
#define ABI_ITEMS_COUNT abi_elf_ours_count
#include "abi_elf.inc"
