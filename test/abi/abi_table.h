/*
 * The ABI test compares two tables of the same items built by two
 * translation units: one compiled against our include/hsa, one against
 * Debian's /usr/include/hsa (ROCr 5.2.3).  Both define the same names, so
 * they can never share a translation unit; each fills its own table from
 * the generated X-macro lists and the test compares the tables item by
 * item, by name.
 */
#ifndef HSALITE_TEST_ABI_TABLE_H
#define HSALITE_TEST_ABI_TABLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A size, alignment, offset or constant, named as the expression that gave it. */
struct abi_item {
	const char *name;
	long long value;
};

/*
 * A function and its type as the C++ compiler spells it (via a template's
 * __PRETTY_FUNCTION__), which names every parameter and return type.
 */
struct abi_func {
	const char *name;
	const char *type;
};

extern const struct abi_item abi_items_ours[];
extern const size_t abi_items_ours_count;
extern const struct abi_item abi_items_theirs[];
extern const size_t abi_items_theirs_count;

/* amd_hsa_elf.h, C++ only in ROCr, tabulated from C++ (abi_elf.inc). */
extern const struct abi_item abi_elf_ours[];
extern const size_t abi_elf_ours_count;
extern const struct abi_item abi_elf_theirs[];
extern const size_t abi_elf_theirs_count;

extern const struct abi_func abi_funcs_ours[];
extern const size_t abi_funcs_ours_count;
extern const struct abi_func abi_funcs_theirs[];
extern const size_t abi_funcs_theirs_count;

#ifdef __cplusplus
}
#endif

#endif
