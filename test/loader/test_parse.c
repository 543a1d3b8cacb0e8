/*
 * The code-object layer without a device: hl_co_parse, hl_co_check_isa and
 * hl_co_place on the kernels compiled for $HL_GFX, pristine and corrupted.
 * Every rejection must be -ENOEXEC (or -EXDEV for another ISA) with its
 * reason in the log ($HL_LOG_PATH, which HSALITE_LOG_FILE also names), and
 * never a crash: each corrupted image lives in an exact-size allocation so
 * ASan catches any read past it.  Label unit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "co_file.h"
#include "hl_check.h"
#include "loader/loader_priv.h"

static struct co_file vadd, globals;
static const char *gfx;

static void setup(void)
{
	gfx = getenv("HL_GFX");
	ck_assert_msg(gfx, "HL_GFX is not set");
	ck_assert_msg(co_load(&vadd, "vadd", NULL), "vadd.%s.co missing", gfx);
	ck_assert_msg(co_load(&globals, "globals", NULL), "globals.%s.co missing", gfx);
}

static void teardown(void)
{
	co_free(&vadd);
	co_free(&globals);
}

static long log_size(void)
{
	FILE *fp = fopen(getenv("HL_LOG_PATH"), "r");
	if (!fp)
		return 0;
	fseek(fp, 0, SEEK_END);
	long n = ftell(fp);
	fclose(fp);
	return n;
}

/* The log text written since offset `from`. */
static char *log_since(long from)
{
	static char buf[16384];
	buf[0] = '\0';
	FILE *fp = fopen(getenv("HL_LOG_PATH"), "r");
	if (!fp)
		return buf;
	fseek(fp, from, SEEK_SET);
	size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* Parses a private, exact-size copy of data[0, size). */
static int parse_copy(const uint8_t *data, size_t size, struct hl_code_object **co)
{
	uint8_t *copy = malloc(size ? size : 1);
	ck_assert(copy);
	memcpy(copy, data, size);
	int err = hl_co_parse(copy, size, co);
	if (*co) { /* the object borrows the image: keep neither */
		hl_co_free(*co);
		*co = NULL;
	}
	free(copy);
	return err;
}

/* A corrupted copy of f must be rejected with `phrase` in the log. */
static void expect_reject(const struct co_file *f, void (*corrupt)(uint8_t *, size_t),
			  const char *phrase)
{
	uint8_t *copy = malloc(f->size);
	ck_assert(copy);
	memcpy(copy, f->data, f->size);
	corrupt(copy, f->size);
	long at = log_size();
	struct hl_code_object *co = NULL;
	int err = hl_co_parse(copy, f->size, &co);
	bool got_object = co != NULL;
	hl_co_free(co);
	free(copy);
	ck_assert_msg(err == -ENOEXEC, "%s: got %d, expected -ENOEXEC", phrase, err);
	ck_assert(!got_object);
	const char *log = log_since(at);
	ck_assert_msg(strstr(log, phrase), "log lacks '%s'; it says: %s", phrase, log);
}

static Elf64_Ehdr *eh(uint8_t *d)
{
	return (Elf64_Ehdr *)d;
}

/* ---- valid objects ---- */

START_TEST(valid_vadd_is_described)
{
	struct hl_code_object *co = NULL;
	ck_assert_int_eq(hl_co_parse(vadd.data, vadd.size, &co), 0);
	ck_assert_str_eq(co->processor, gfx);
	ck_assert_uint_eq(co->version, strcmp(gfx, "gfx90a") == 0 ? 4 : 5);
	ck_assert_uint_eq(co->n_kernels, 1);
	ck_assert_str_eq(co->kernels[0].name, "vadd");
	ck_assert_str_eq(co->kernels[0].symbol, "vadd.kd");
	const uint8_t *kd = co_sym_bytes(&vadd, co_dynsym(&vadd, "vadd.kd"));
	ck_assert_ptr_nonnull(kd);
	ck_assert_mem_eq(co->kernels[0].kd, kd, 64);
	uint32_t kd_kernarg;
	memcpy(&kd_kernarg, kd + 8, 4);
	ck_assert_uint_eq(co->kernels[0].kernarg_size, kd_kernarg);
	/* three pointers and a uint; v5 may add hidden arguments */
	ck_assert_uint_ge(co->kernels[0].kernarg_size, 28);
	ck_assert_uint_eq(co->kernels[0].group_size, 0);
	ck_assert_uint_eq(co->kernels[0].wavefront_size, 64);
	hl_co_free(co);
}
END_TEST

START_TEST(lds_kernel_has_group_segment)
{
	struct co_file f;
	ck_assert(co_load(&f, "reduce_lds", NULL));
	struct hl_code_object *co = NULL;
	ck_assert_int_eq(hl_co_parse(f.data, f.size, &co), 0);
	ck_assert_uint_eq(co->n_kernels, 1);
	ck_assert_uint_eq(co->kernels[0].group_size, 256 * 4); /* __local uint tmp[256] */
	hl_co_free(co);
	co_free(&f);
}
END_TEST

START_TEST(private_array_has_private_segment)
{
	struct co_file f;
	ck_assert(co_load(&f, "private_array", NULL));
	struct hl_code_object *co = NULL;
	ck_assert_int_eq(hl_co_parse(f.data, f.size, &co), 0);
	ck_assert_uint_ge(co->kernels[0].private_size, 64 * 4); /* uint buf[64] */
	hl_co_free(co);
	co_free(&f);
}
END_TEST

START_TEST(globals_has_two_kernels_and_relocations)
{
	struct hl_code_object *co = NULL;
	ck_assert_int_eq(hl_co_parse(globals.data, globals.size, &co), 0);
	ck_assert_uint_eq(co->n_kernels, 2);
	ck_assert_uint_ge(co->n_relocs, 2);
	hl_co_free(co);
}
END_TEST

START_TEST(relocations_patch_the_load_address)
{
	struct hl_code_object *co = NULL;
	ck_assert_int_eq(hl_co_parse(globals.data, globals.size, &co), 0);
	uint64_t size = hl_co_load_size(co);
	uint8_t *buf = malloc(size);
	ck_assert(buf);
	const uint64_t base = 0x7f1234500000ull; /* a multiple of any p_align we accept */
	ck_assert_int_eq(hl_co_place(co, buf, base, NULL, NULL), 0);
	const Elf64_Sym *table = co_dynsym(&globals, "table");
	const Elf64_Sym *counter = co_dynsym(&globals, "counter");
	ck_assert(table && counter);
	uint64_t t[2], expect = base - co->vaddr_lo + counter->st_value;
	memcpy(t, buf + (table->st_value - co->vaddr_lo), sizeof(t));
	ck_assert_msg(t[0] == expect && t[1] == expect, "table = {%#llx, %#llx}, expected %#llx",
		      (unsigned long long)t[0], (unsigned long long)t[1],
		      (unsigned long long)expect);
	uint32_t c;
	memcpy(&c, buf + (counter->st_value - co->vaddr_lo), 4);
	ck_assert_uint_eq(c, 7);
	free(buf);
	hl_co_free(co);
}
END_TEST

START_TEST(relative_relocations_add_the_load_delta)
{
	struct co_file f;
	ck_assert(co_load(&f, "relative", NULL));
	struct hl_code_object *co = NULL;
	ck_assert_int_eq(hl_co_parse(f.data, f.size, &co), 0);
	ck_assert_uint_ge(co->n_relocs, 2);
	for (uint32_t i = 0; i < co->n_relocs; i++)
		ck_assert_uint_eq(co->relocs[i].type, HL_R_AMDGPU_RELATIVE64);
	uint8_t *buf = malloc(hl_co_load_size(co));
	ck_assert(buf);
	const uint64_t base = 0x7f0000200000ull;
	ck_assert_int_eq(hl_co_place(co, buf, base, NULL, NULL), 0);
	/* hidden variables: only .symtab names them */
	const Elf64_Sym *table = co_symtab(&f, "table"), *counter = co_symtab(&f, "counter");
	ck_assert(table && counter);
	uint64_t t[2], expect = base - co->vaddr_lo + counter->st_value;
	memcpy(t, buf + (table->st_value - co->vaddr_lo), sizeof(t));
	ck_assert_msg(t[0] == expect && t[1] == expect, "table = {%#llx, %#llx}, expected %#llx",
		      (unsigned long long)t[0], (unsigned long long)t[1],
		      (unsigned long long)expect);
	free(buf);
	hl_co_free(co);
	co_free(&f);
}
END_TEST

/* Each relocation type's formula, on the globals object's first relocation
 * retyped in the parsed description (the compilers emit only ABS64 and
 * RELATIVE64 for these kernels). */
static uint64_t place_as(struct hl_code_object *co, uint32_t type, int64_t addend,
			 uint64_t base, uint64_t *s_out, uint64_t *p_out, int *err)
{
	struct hl_co_reloc saved = co->relocs[0];
	co->relocs[0].type = type;
	co->relocs[0].addend = addend;
	uint8_t *buf = malloc(hl_co_load_size(co));
	ck_assert(buf);
	*err = hl_co_place(co, buf, base, NULL, NULL);
	uint64_t v = 0;
	memcpy(&v, buf + (co->relocs[0].offset - co->vaddr_lo), 8);
	*s_out = co->syms[co->relocs[0].sym].value + (base - co->vaddr_lo);
	*p_out = co->relocs[0].offset + (base - co->vaddr_lo);
	co->relocs[0] = saved;
	free(buf);
	return v;
}

START_TEST(every_relocation_type_has_its_formula)
{
	struct hl_code_object *co = NULL;
	ck_assert_int_eq(hl_co_parse(globals.data, globals.size, &co), 0);
	ck_assert_uint_eq(co->relocs[0].type, HL_R_AMDGPU_ABS64);
	ck_assert_uint_ne(co->relocs[0].sym, 0);
	uint64_t s, p, v;
	int err;
	const uint64_t base = 0x7f1234500000ull;
	v = place_as(co, HL_R_AMDGPU_ABS64, 8, base, &s, &p, &err);
	ck_assert_int_eq(err, 0);
	ck_assert_uint_eq(v, s + 8);
	v = place_as(co, HL_R_AMDGPU_REL64, 8, base, &s, &p, &err);
	ck_assert_int_eq(err, 0);
	ck_assert_uint_eq(v, s + 8 - p);
	v = place_as(co, HL_R_AMDGPU_ABS32_LO, 4, base, &s, &p, &err);
	ck_assert_int_eq(err, 0);
	ck_assert_uint_eq((uint32_t)v, (uint32_t)(s + 4));
	v = place_as(co, HL_R_AMDGPU_ABS32_HI, 4, base, &s, &p, &err);
	ck_assert_int_eq(err, 0);
	ck_assert_uint_eq((uint32_t)v, (uint32_t)((s + 4) >> 32));
	v = place_as(co, HL_R_AMDGPU_REL32, -4, base, &s, &p, &err);
	ck_assert_int_eq(err, 0);
	ck_assert_uint_eq((uint32_t)v, (uint32_t)(s - 4 - p));
	/* ABS32 must fit: at a base above 4 GiB it cannot */
	place_as(co, HL_R_AMDGPU_ABS32, 0, base, &s, &p, &err);
	ck_assert_int_eq(err, -ENOEXEC);
	v = place_as(co, HL_R_AMDGPU_ABS32, 0, 0x10000000ull, &s, &p, &err);
	ck_assert_int_eq(err, 0);
	ck_assert_uint_eq((uint32_t)v, (uint32_t)s);
	hl_co_free(co);
}
END_TEST

static int resolve_to(void *ctx, const char *name, uint64_t *value)
{
	if (strcmp(name, "counter") != 0)
		return -1;
	*value = *(uint64_t *)ctx;
	return 0;
}

START_TEST(undefined_symbols_go_to_the_resolver)
{
	struct hl_code_object *co = NULL;
	ck_assert_int_eq(hl_co_parse(globals.data, globals.size, &co), 0);
	/* make "counter" an import, as a code object referencing a variable the
	 * application defines would have it */
	uint32_t idx = 0;
	for (uint32_t i = 1; i < co->n_syms; i++)
		if (strcmp(co->syms[i].name, "counter") == 0)
			idx = i;
	ck_assert_uint_ne(idx, 0);
	co->syms[idx].shndx = SHN_UNDEF;
	uint8_t *buf = malloc(hl_co_load_size(co));
	ck_assert(buf);
	long at = log_size();
	ck_assert_int_eq(hl_co_place(co, buf, 0x7f0000000000ull, NULL, NULL), -ENOEXEC);
	ck_assert(strstr(log_since(at), "undefined symbol 'counter'"));
	uint64_t addr = 0x123456789000ull;
	ck_assert_int_eq(hl_co_place(co, buf, 0x7f0000000000ull, resolve_to, &addr), 0);
	const Elf64_Sym *table = co_dynsym(&globals, "table");
	uint64_t t0;
	memcpy(&t0, buf + (table->st_value - co->vaddr_lo), 8);
	ck_assert_uint_eq(t0, addr);
	free(buf);
	hl_co_free(co);
}
END_TEST

/* ---- truncation ---- */

START_TEST(every_truncation_is_rejected)
{
	for (size_t n = 0; n < vadd.size; n++) {
		struct hl_code_object *co = NULL;
		int err = parse_copy(vadd.data, n, &co);
		ck_assert_msg(err == -ENOEXEC, "truncated to %zu bytes: got %d, expected -ENOEXEC",
			      n, err);
	}
}
END_TEST

/* ---- corrupted headers ---- */

static void c_class(uint8_t *d, size_t n) { (void)n; d[EI_CLASS] = ELFCLASS32; }
static void c_data(uint8_t *d, size_t n) { (void)n; d[EI_DATA] = ELFDATA2MSB; }
static void c_magic(uint8_t *d, size_t n) { (void)n; d[1] = 'X'; }
static void c_osabi(uint8_t *d, size_t n) { (void)n; d[EI_OSABI] = 0; }
static void c_abi_v2(uint8_t *d, size_t n) { (void)n; d[EI_ABIVERSION] = 0; }
static void c_abi_v3(uint8_t *d, size_t n) { (void)n; d[EI_ABIVERSION] = 1; }
static void c_abi_v9(uint8_t *d, size_t n) { (void)n; d[EI_ABIVERSION] = 9; }
static void c_machine(uint8_t *d, size_t n) { (void)n; eh(d)->e_machine = EM_X86_64; }
static void c_type(uint8_t *d, size_t n) { (void)n; eh(d)->e_type = ET_EXEC; }
static void c_phoff(uint8_t *d, size_t n) { eh(d)->e_phoff = n - 8; }
static void c_phoff_wrap(uint8_t *d, size_t n) { (void)n; eh(d)->e_phoff = ~0ull - 15; } /* 8-aligned */
static void c_phentsize(uint8_t *d, size_t n) { (void)n; eh(d)->e_phentsize = 32; }
static void c_shoff(uint8_t *d, size_t n) { eh(d)->e_shoff = n; }
static void c_shnum(uint8_t *d, size_t n) { (void)n; eh(d)->e_shnum = 0; }
static void c_shstrndx(uint8_t *d, size_t n) { (void)n; eh(d)->e_shstrndx = eh(d)->e_shnum; }
static void c_mach(uint8_t *d, size_t n) { (void)n; eh(d)->e_flags = (eh(d)->e_flags & ~0xffu) | 0xfe; }
static void c_flag_bits(uint8_t *d, size_t n) { (void)n; eh(d)->e_flags |= 0x10000; }

#define REJECT_TEST(name, file, fn, phrase)          \
	START_TEST(name)                             \
	{                                            \
		expect_reject(&file, fn, phrase);    \
	}                                            \
	END_TEST

REJECT_TEST(bad_magic, vadd, c_magic, "bad magic")
REJECT_TEST(class32, vadd, c_class, "ELFCLASS64")
REJECT_TEST(big_endian, vadd, c_data, "little-endian")
REJECT_TEST(wrong_osabi, vadd, c_osabi, "ELFOSABI_AMDGPU_HSA")
REJECT_TEST(code_object_v2, vadd, c_abi_v2, "code object v2")
REJECT_TEST(code_object_v3, vadd, c_abi_v3, "code object v3")
REJECT_TEST(unknown_abi_version, vadd, c_abi_v9, "unknown code object version")
REJECT_TEST(wrong_machine, vadd, c_machine, "EM_AMDGPU")
REJECT_TEST(not_et_dyn, vadd, c_type, "ET_DYN")
REJECT_TEST(phoff_past_end, vadd, c_phoff, "program headers")
REJECT_TEST(phoff_wraps, vadd, c_phoff_wrap, "program headers")
REJECT_TEST(phentsize_wrong, vadd, c_phentsize, "program headers")
REJECT_TEST(shoff_past_end, vadd, c_shoff, "section headers")
REJECT_TEST(no_sections, vadd, c_shnum, "no section headers")
REJECT_TEST(shstrndx_out_of_range, vadd, c_shstrndx, "e_shstrndx")
REJECT_TEST(unknown_processor, vadd, c_mach, "unknown processor")
REJECT_TEST(undefined_flag_bits, vadd, c_flag_bits, "undefined bits")

/* ---- corrupted tables ---- */

static struct co_file *cur; /* the pristine file the corrupt_* functions mirror */

static Elf64_Shdr *shdr_in(uint8_t *d, uint32_t type)
{
	uint32_t idx;
	if (!co_section(cur, type, &idx))
		return NULL;
	return (Elf64_Shdr *)(d + eh(d)->e_shoff) + idx;
}

static Elf64_Sym *sym_in(uint8_t *d, const char *name)
{
	Elf64_Sym *s = co_dynsym(cur, name);
	return s ? (Elf64_Sym *)(d + ((uint8_t *)s - cur->data)) : NULL;
}

static void c_sym_name(uint8_t *d, size_t n) { (void)n; sym_in(d, "vadd.kd")->st_name = 0x7fffffff; }
static void c_sym_value(uint8_t *d, size_t n) { (void)n; sym_in(d, "vadd.kd")->st_value = 0x40000000; }
static void c_kd_misaligned(uint8_t *d, size_t n) { (void)n; sym_in(d, "vadd.kd")->st_value -= 4; }
static void c_kd_size(uint8_t *d, size_t n) { (void)n; sym_in(d, "vadd.kd")->st_size = 32; }
static void c_sym_shndx(uint8_t *d, size_t n) { (void)n; sym_in(d, "vadd.kd")->st_shndx = 0xfeff; }
static void c_dynsym_entsize(uint8_t *d, size_t n) { (void)n; shdr_in(d, SHT_DYNSYM)->sh_entsize = 16; }
static void c_dynsym_offset(uint8_t *d, size_t n) { shdr_in(d, SHT_DYNSYM)->sh_offset = n - 4; }
static void c_no_dynsym(uint8_t *d, size_t n) { (void)n; shdr_in(d, SHT_DYNSYM)->sh_type = SHT_PROGBITS; }
static void c_load_filesz(uint8_t *d, size_t n)
{
	Elf64_Phdr *p = (Elf64_Phdr *)(d + ((uint8_t *)co_phdr(cur, PT_LOAD) - cur->data));
	p->p_filesz = n * 2;
	p->p_memsz = n * 2;
}
static void c_load_align(uint8_t *d, size_t n)
{
	(void)n;
	Elf64_Phdr *p = (Elf64_Phdr *)(d + ((uint8_t *)co_phdr(cur, PT_LOAD) - cur->data));
	p->p_align = 3000;
}
static void c_load_memsz(uint8_t *d, size_t n)
{
	(void)n;
	Elf64_Phdr *p = (Elf64_Phdr *)(d + ((uint8_t *)co_phdr(cur, PT_LOAD) - cur->data));
	p->p_memsz = 16; /* below filesz */
}
static uint8_t *note_in(uint8_t *d)
{
	return d + co_phdr(cur, PT_NOTE)->p_offset;
}
static void c_note_descsz(uint8_t *d, size_t n) { (void)n; ((Elf64_Nhdr *)note_in(d))->n_descsz = 0x7ffffff0; }
static void c_note_type(uint8_t *d, size_t n) { (void)n; ((Elf64_Nhdr *)note_in(d))->n_type = 33; }
static void c_note_msgpack(uint8_t *d, size_t n)
{
	(void)n;
	/* desc starts after the 12-byte header and the padded "AMDGPU\0" */
	note_in(d)[12 + 8] = 0xc1; /* never used by msgpack */
}
static void c_note_not_map(uint8_t *d, size_t n)
{
	(void)n;
	note_in(d)[12 + 8] = 0x90; /* an empty array, then trailing bytes */
}
static void c_note_huge_array(uint8_t *d, size_t n)
{
	(void)n;
	/* an array32 claiming 2^32 - 1 elements: msgpack-c would allocate them */
	static const uint8_t hdr[5] = { 0xdd, 0xff, 0xff, 0xff, 0xff };
	memcpy(note_in(d) + 12 + 8, hdr, sizeof(hdr));
}
static void c_misaligned_phoff(uint8_t *d, size_t n) { (void)n; eh(d)->e_phoff += 2; }
static void c_target_mismatch(uint8_t *d, size_t n)
{
	(void)n;
	eh(d)->e_flags = (eh(d)->e_flags & ~0x300u) | 0x300u; /* xnack on */
}
static void c_rela_offset(uint8_t *d, size_t n)
{
	(void)n;
	Elf64_Shdr *r = shdr_in(d, SHT_RELA);
	((Elf64_Rela *)(d + r->sh_offset))->r_offset = 0x7fff0000;
}
static void c_rela_type(uint8_t *d, size_t n)
{
	(void)n;
	Elf64_Shdr *r = shdr_in(d, SHT_RELA);
	Elf64_Rela *e = (Elf64_Rela *)(d + r->sh_offset);
	e->r_info = ELF64_R_INFO(ELF64_R_SYM(e->r_info), 200);
}
static void c_rela_sym(uint8_t *d, size_t n)
{
	(void)n;
	Elf64_Shdr *r = shdr_in(d, SHT_RELA);
	Elf64_Rela *e = (Elf64_Rela *)(d + r->sh_offset);
	e->r_info = ELF64_R_INFO(0x123456, ELF64_R_TYPE(e->r_info));
}
static void c_kd_entry(uint8_t *d, size_t n)
{
	(void)n;
	uint8_t *kd = d + (co_sym_bytes(cur, co_dynsym(cur, "vadd.kd")) - cur->data);
	int64_t off;
	memcpy(&off, kd + 16, 8);
	off += 4; /* mid-instruction, unaligned */
	memcpy(kd + 16, &off, 8);
}
static void c_kd_entry_data(uint8_t *d, size_t n)
{
	(void)n;
	uint8_t *kd = d + (co_sym_bytes(cur, co_dynsym(cur, "vadd.kd")) - cur->data);
	int64_t off = 0; /* the descriptor itself: data, not code */
	memcpy(kd + 16, &off, 8);
}
static void c_section_name(uint8_t *d, size_t n)
{
	(void)n;
	shdr_in(d, SHT_DYNSYM)->sh_name = 0x7fffff00;
}
static void c_shstrtab_type(uint8_t *d, size_t n)
{
	(void)n;
	((Elf64_Shdr *)(d + eh(d)->e_shoff))[eh(d)->e_shstrndx].sh_type = SHT_PROGBITS;
}
static void c_kd_metadata(uint8_t *d, size_t n)
{
	(void)n;
	Elf64_Sym *s = sym_in(d, "vadd.kd");
	uint8_t *kd = d + (co_sym_bytes(cur, co_dynsym(cur, "vadd.kd")) - cur->data);
	(void)s;
	kd[8] ^= 0x40; /* kernarg_size */
}

/* libelf hands back a copy of a compressed section, freed by elf_end while
 * symbol names would still point into it (found by fuzz_loader). */
static void c_dynstr_compressed(uint8_t *d, size_t n)
{
	(void)n;
	uint32_t link = shdr_in(d, SHT_DYNSYM)->sh_link;
	((Elf64_Shdr *)(d + eh(d)->e_shoff) + link)->sh_flags |= SHF_COMPRESSED;
}

#define REJECT_IN(name, file, fn, phrase)            \
	START_TEST(name)                             \
	{                                            \
		cur = &file;                         \
		expect_reject(&file, fn, phrase);    \
	}                                            \
	END_TEST

REJECT_IN(symbol_name_out_of_range, vadd, c_sym_name, "name offset")
REJECT_IN(symbol_outside_segments, vadd, c_sym_value, "not inside a loaded segment")
REJECT_IN(descriptor_misaligned, vadd, c_kd_misaligned, "64-byte aligned")
REJECT_IN(descriptor_wrong_size, vadd, c_kd_size, "64-byte aligned")
REJECT_IN(symbol_section_out_of_range, vadd, c_sym_shndx, "section index")
REJECT_IN(dynsym_entsize_wrong, vadd, c_dynsym_entsize, "Elf64_Sym")
REJECT_IN(dynsym_past_end, vadd, c_dynsym_offset, "outside the")
REJECT_IN(no_dynsym, vadd, c_no_dynsym, "no .dynsym")
REJECT_IN(dynstr_compressed, vadd, c_dynstr_compressed, "SHF_COMPRESSED")
REJECT_IN(segment_past_end, vadd, c_load_filesz, "outside the")
REJECT_IN(segment_bad_align, vadd, c_load_align, "p_align")
REJECT_IN(segment_filesz_above_memsz, vadd, c_load_memsz, "not a valid segment")
REJECT_IN(note_runs_past_segment, vadd, c_note_descsz, "runs past")
REJECT_IN(no_metadata_note, vadd, c_note_type, "no NT_AMDGPU_METADATA")
REJECT_IN(metadata_not_msgpack, vadd, c_note_msgpack, "not one well-formed msgpack object")
REJECT_IN(metadata_not_a_map, vadd, c_note_not_map, "msgpack")
REJECT_IN(metadata_huge_count, vadd, c_note_huge_array, "not one well-formed msgpack object")
REJECT_IN(phoff_misaligned, vadd, c_misaligned_phoff, "not 8-byte aligned")
REJECT_IN(metadata_target_mismatch, vadd, c_target_mismatch, "disagrees with e_flags")
REJECT_IN(relocation_outside_segments, globals, c_rela_offset, "not inside a loaded segment")
REJECT_IN(relocation_unknown_type, globals, c_rela_type, "not a dynamic AMDGPU relocation")
REJECT_IN(relocation_symbol_out_of_range, globals, c_rela_sym, "invalid")
REJECT_IN(code_entry_unaligned, vadd, c_kd_entry, "code entry")
REJECT_IN(code_entry_not_code, vadd, c_kd_entry_data, "code entry")
REJECT_IN(section_name_out_of_range, vadd, c_section_name, "name offset")
REJECT_IN(shstrtab_not_strtab, vadd, c_shstrtab_type, "e_shstrndx")
REJECT_IN(descriptor_disagrees_with_metadata, vadd, c_kd_metadata, "disagrees with the metadata")

/* ---- ISA ---- */

START_TEST(own_isa_accepted_with_either_xnack)
{
	struct hl_code_object *co = NULL;
	ck_assert_int_eq(hl_co_parse(vadd.data, vadd.size, &co), 0);
	char name[128];
	snprintf(name, sizeof(name), "amdgcn-amd-amdhsa--%s:sramecc+:xnack-", gfx);
	ck_assert_int_eq(hl_co_check_isa(co, name), 0);
	snprintf(name, sizeof(name), "amdgcn-amd-amdhsa--%s:sramecc-:xnack+", gfx);
	ck_assert_int_eq(hl_co_check_isa(co, name), 0);
	hl_co_free(co);
}
END_TEST

START_TEST(other_isa_rejected_naming_both)
{
	struct hl_code_object *co = NULL;
	ck_assert_int_eq(hl_co_parse(vadd.data, vadd.size, &co), 0);
	const char *other = strcmp(gfx, "gfx90a") == 0 ? "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"
						       : "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-";
	long at = log_size();
	ck_assert_int_eq(hl_co_check_isa(co, other), -EXDEV);
	const char *log = log_since(at);
	ck_assert_msg(strstr(log, other) && strstr(log, co->target_id), "log: %s", log);
	hl_co_free(co);
}
END_TEST

START_TEST(fixed_xnack_must_match)
{
	struct hl_code_object *co = NULL;
	ck_assert_int_eq(hl_co_parse(vadd.data, vadd.size, &co), 0);
	co->xnack = HL_CO_FEATURE_ON; /* as a -mcpu=<gfx>:xnack+ build */
	char name[128];
	snprintf(name, sizeof(name), "amdgcn-amd-amdhsa--%s:sramecc+:xnack-", gfx);
	ck_assert_int_eq(hl_co_check_isa(co, name), -EXDEV);
	snprintf(name, sizeof(name), "amdgcn-amd-amdhsa--%s:sramecc+:xnack+", gfx);
	ck_assert_int_eq(hl_co_check_isa(co, name), 0);
	hl_co_free(co);
}
END_TEST

static Suite *parse_suite(void)
{
	Suite *s = suite_create("loader_parse");
	TCase *tc = tcase_create("parse");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, valid_vadd_is_described);
	tcase_add_test(tc, lds_kernel_has_group_segment);
	tcase_add_test(tc, private_array_has_private_segment);
	tcase_add_test(tc, globals_has_two_kernels_and_relocations);
	tcase_add_test(tc, relocations_patch_the_load_address);
	tcase_add_test(tc, relative_relocations_add_the_load_delta);
	tcase_add_test(tc, every_relocation_type_has_its_formula);
	tcase_add_test(tc, undefined_symbols_go_to_the_resolver);
	tcase_add_test(tc, every_truncation_is_rejected);
	tcase_add_test(tc, bad_magic);
	tcase_add_test(tc, class32);
	tcase_add_test(tc, big_endian);
	tcase_add_test(tc, wrong_osabi);
	tcase_add_test(tc, code_object_v2);
	tcase_add_test(tc, code_object_v3);
	tcase_add_test(tc, unknown_abi_version);
	tcase_add_test(tc, wrong_machine);
	tcase_add_test(tc, not_et_dyn);
	tcase_add_test(tc, phoff_past_end);
	tcase_add_test(tc, phoff_wraps);
	tcase_add_test(tc, phentsize_wrong);
	tcase_add_test(tc, shoff_past_end);
	tcase_add_test(tc, no_sections);
	tcase_add_test(tc, shstrndx_out_of_range);
	tcase_add_test(tc, unknown_processor);
	tcase_add_test(tc, undefined_flag_bits);
	tcase_add_test(tc, symbol_name_out_of_range);
	tcase_add_test(tc, symbol_outside_segments);
	tcase_add_test(tc, descriptor_misaligned);
	tcase_add_test(tc, descriptor_wrong_size);
	tcase_add_test(tc, symbol_section_out_of_range);
	tcase_add_test(tc, dynsym_entsize_wrong);
	tcase_add_test(tc, dynsym_past_end);
	tcase_add_test(tc, no_dynsym);
	tcase_add_test(tc, dynstr_compressed);
	tcase_add_test(tc, segment_past_end);
	tcase_add_test(tc, segment_bad_align);
	tcase_add_test(tc, segment_filesz_above_memsz);
	tcase_add_test(tc, note_runs_past_segment);
	tcase_add_test(tc, no_metadata_note);
	tcase_add_test(tc, metadata_not_msgpack);
	tcase_add_test(tc, metadata_not_a_map);
	tcase_add_test(tc, metadata_huge_count);
	tcase_add_test(tc, phoff_misaligned);
	tcase_add_test(tc, metadata_target_mismatch);
	tcase_add_test(tc, relocation_outside_segments);
	tcase_add_test(tc, relocation_unknown_type);
	tcase_add_test(tc, relocation_symbol_out_of_range);
	tcase_add_test(tc, code_entry_unaligned);
	tcase_add_test(tc, code_entry_not_code);
	tcase_add_test(tc, section_name_out_of_range);
	tcase_add_test(tc, shstrtab_not_strtab);
	tcase_add_test(tc, descriptor_disagrees_with_metadata);
	tcase_add_test(tc, own_isa_accepted_with_either_xnack);
	tcase_add_test(tc, other_isa_rejected_naming_both);
	tcase_add_test(tc, fixed_xnack_must_match);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(parse_suite)
