/* amd_hsa_elf.h items of Debian's ROCr 5.2.3 header. */
#define ABI_ITEMS abi_elf_theirs
#define ABI_ITEMS_COUNT abi_elf_theirs_count
#include "abi_elf.inc"
