/*
 * Code object file helpers for the loader tests (see co_file.h).  Reads
 * only what a valid clang/lld code object holds; tests call it on the
 * pristine files before corrupting copies.
 */
#include "co_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool co_load_path(struct co_file *f, const char *path)
{
	f->data = NULL;
	f->size = 0;
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return false;
	fseek(fp, 0, SEEK_END);
	long n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	f->data = n > 0 ? malloc((size_t)n) : NULL;
	bool ok = f->data && fread(f->data, 1, (size_t)n, fp) == (size_t)n;
	fclose(fp);
	if (!ok) {
		free(f->data);
		f->data = NULL;
		return false;
	}
	f->size = (size_t)n;
	return true;
}

bool co_load(struct co_file *f, const char *kernel, const char *gfx)
{
	char path[1024];
	const char *dir = getenv("HL_CO_DIR");
	if (!gfx)
		gfx = getenv("HL_GFX");
	if (!dir || !gfx)
		return false;
	snprintf(path, sizeof(path), "%s/%s.%s.co", dir, kernel, gfx);
	return co_load_path(f, path);
}

void co_free(struct co_file *f)
{
	free(f->data);
	f->data = NULL;
}

static Elf64_Ehdr *ehdr(const struct co_file *f)
{
	return (Elf64_Ehdr *)f->data;
}

Elf64_Shdr *co_section(const struct co_file *f, uint32_t type, uint32_t *index)
{
	Elf64_Shdr *sh = (Elf64_Shdr *)(f->data + ehdr(f)->e_shoff);
	for (uint32_t i = 0; i < ehdr(f)->e_shnum; i++) {
		if (sh[i].sh_type == type) {
			if (index)
				*index = i;
			return &sh[i];
		}
	}
	return NULL;
}

static Elf64_Sym *sym_in(const struct co_file *f, uint32_t type, const char *name)
{
	Elf64_Shdr *ds = co_section(f, type, NULL);
	if (!ds)
		return NULL;
	Elf64_Shdr *str = (Elf64_Shdr *)(f->data + ehdr(f)->e_shoff) + ds->sh_link;
	Elf64_Sym *sym = (Elf64_Sym *)(f->data + ds->sh_offset);
	for (size_t i = 0; i < ds->sh_size / sizeof(Elf64_Sym); i++)
		if (strcmp((const char *)f->data + str->sh_offset + sym[i].st_name, name) == 0)
			return &sym[i];
	return NULL;
}

Elf64_Sym *co_dynsym(const struct co_file *f, const char *name)
{
	return sym_in(f, SHT_DYNSYM, name);
}

Elf64_Sym *co_symtab(const struct co_file *f, const char *name)
{
	return sym_in(f, SHT_SYMTAB, name);
}

Elf64_Phdr *co_phdr(const struct co_file *f, uint32_t type)
{
	Elf64_Phdr *ph = (Elf64_Phdr *)(f->data + ehdr(f)->e_phoff);
	for (uint32_t i = 0; i < ehdr(f)->e_phnum; i++)
		if (ph[i].p_type == type)
			return &ph[i];
	return NULL;
}

const uint8_t *co_sym_bytes(const struct co_file *f, const Elf64_Sym *s)
{
	Elf64_Phdr *ph = (Elf64_Phdr *)(f->data + ehdr(f)->e_phoff);
	for (uint32_t i = 0; i < ehdr(f)->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && s->st_value >= ph[i].p_vaddr &&
		    s->st_value + s->st_size <= ph[i].p_vaddr + ph[i].p_filesz)
			return f->data + ph[i].p_offset + (s->st_value - ph[i].p_vaddr);
	}
	return NULL;
}
