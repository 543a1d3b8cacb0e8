/*
 * Test helpers over code object files, independent of the loader: read a
 * file, find a .dynsym symbol and its file bytes with <elf.h> alone (so a
 * test compares the loader's answers with the ELF, not with itself), and
 * locate headers to corrupt.
 */
#ifndef HL_TEST_CO_FILE_H
#define HL_TEST_CO_FILE_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct co_file {
	uint8_t *data;
	size_t size;
};

/* $HL_CO_DIR/<kernel>.<gfx>.co into f (gfx NULL: $HL_GFX); false if absent. */
bool co_load(struct co_file *f, const char *kernel, const char *gfx);
bool co_load_path(struct co_file *f, const char *path);
void co_free(struct co_file *f);

/* The section header of the first section of type `type`, or NULL. */
Elf64_Shdr *co_section(const struct co_file *f, uint32_t type, uint32_t *index);
/* The .dynsym entry named name, or NULL. */
Elf64_Sym *co_dynsym(const struct co_file *f, const char *name);
/* The .symtab entry named name (locals too), or NULL. */
Elf64_Sym *co_symtab(const struct co_file *f, const char *name);
/* File bytes at a symbol's address (via its PT_LOAD), or NULL. */
const uint8_t *co_sym_bytes(const struct co_file *f, const Elf64_Sym *s);
/* The first PT_NOTE program header, or NULL. */
Elf64_Phdr *co_phdr(const struct co_file *f, uint32_t type);

#endif
