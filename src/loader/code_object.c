/*
 * Code objects: validation and description of an AMDGPU ELF image.
 *
 * In the style of Mesa's ac_rtld.c every field is checked before it is
 * used, so a malformed image is rejected with a logged reason and never
 * read out of bounds.  The raw ELF header is checked by hand first (libelf
 * trusts e_phoff/e_shoff more than we do), then libelf (elf_memory) walks
 * the program headers, sections, the dynamic symbol table and the dynamic
 * relocations; the NT_AMDGPU_METADATA note goes to metadata.c.
 *
 * Facts (LLVM AMDGPUUsage, "ELF Code Object"):
 *  - ELFCLASS64, ELFDATA2LSB, EM_AMDGPU (224), ET_DYN,
 *    EI_OSABI ELFOSABI_AMDGPU_HSA (64), EI_ABIVERSION 2 = code object v4,
 *    3 = v5 (0 and 1, v2 and v3, have other e_flags and metadata layouts and
 *    are refused with a clear message);
 *  - e_flags bits 0-7 EF_AMDGPU_MACH (the processor), bits 8-9 xnack and
 *    10-11 sramecc as unsupported/any/off/on; no other bit is defined;
 *  - the kernel descriptor is the 64-byte, 64-byte aligned object named by
 *    the metadata's .symbol (<name>.kd); its group/private/kernarg sizes
 *    must equal the metadata's, and its code entry (descriptor address +
 *    kernel_code_entry_byte_offset) must be 256-byte aligned code.
 * Only what a loader needs is described: PT_LOAD segments, .dynsym (the
 * symbols the dynamic linker exports, which is what ROCr exposes) and the
 * SHF_ALLOC SHT_RELA sections (.rela.dyn).  Static relocation sections
 * (non-SHF_ALLOC, already applied by the linker) are ignored.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/amd_hsa_elf.h"
#include "loader/loader_priv.h"
#include "util/log.h"

#define LOG "loader"
/* Nothing we load is this big; the bound keeps a forged p_memsz from
 * asking for an absurd allocation. */
#define MAX_LOAD_SPAN (1ull << 30)
#define MAX_SEG_ALIGN (1ull << 20)
#define PAGE 4096ull

/* EF_AMDGPU_MACH values (AMDGPUUsage "AMDGPU ELF Header"), for the
 * processors the runtime knows, with the target features each supports. */
struct mach {
	uint8_t mach;
	const char *name;
	bool sramecc, xnack;
};

static const struct mach machs[] = {
	{ 0x022, "gfx700", false, false },  { 0x023, "gfx701", false, false },
	{ 0x024, "gfx702", false, false },  { 0x028, "gfx801", false, true },
	{ 0x029, "gfx802", false, false },  { 0x02a, "gfx803", false, false },
	{ 0x03c, "gfx805", false, false },  { 0x02b, "gfx810", false, true },
	{ 0x02c, "gfx900", false, true },   { 0x02d, "gfx902", false, true },
	{ 0x02e, "gfx904", false, true },   { 0x02f, "gfx906", true, true },
	{ 0x030, "gfx908", true, true },    { 0x031, "gfx909", false, true },
	{ 0x03f, "gfx90a", true, true },    { 0x032, "gfx90c", false, true },
	{ 0x040, "gfx940", true, true },    { 0x04b, "gfx941", true, true },
	{ 0x04c, "gfx942", true, true },    { 0x04f, "gfx950", true, true },
	{ 0x033, "gfx1010", false, true },  { 0x034, "gfx1011", false, true },
	{ 0x035, "gfx1012", false, true },  { 0x042, "gfx1013", false, true },
	{ 0x036, "gfx1030", false, false }, { 0x037, "gfx1031", false, false },
	{ 0x038, "gfx1032", false, false }, { 0x039, "gfx1033", false, false },
	{ 0x03e, "gfx1034", false, false }, { 0x03d, "gfx1035", false, false },
	{ 0x045, "gfx1036", false, false }, { 0x041, "gfx1100", false, false },
	{ 0x046, "gfx1101", false, false }, { 0x047, "gfx1102", false, false },
	{ 0x044, "gfx1103", false, false }, { 0x043, "gfx1150", false, false },
	{ 0x04a, "gfx1151", false, false }, { 0x055, "gfx1152", false, false },
	{ 0x048, "gfx1200", false, false }, { 0x04e, "gfx1201", false, false },
};

static const struct mach *mach_find(uint32_t m)
{
	for (size_t i = 0; i < sizeof(machs) / sizeof(machs[0]); i++)
		if (machs[i].mach == m)
			return &machs[i];
	return NULL;
}

/* libelf's version handshake (elf_version) is the process's, made once
 * whatever runtime asks first; it holds nothing of a runtime. */
static pthread_once_t elf_once = PTHREAD_ONCE_INIT;
static bool elf_ok;

static void elf_init(void)
{
	elf_ok = elf_version(EV_CURRENT) != EV_NONE;
}

static bool add_overflows(uint64_t a, uint64_t b, uint64_t *sum)
{
	return __builtin_add_overflow(a, b, sum);
}

/* [off, off + len) inside [0, size). */
static bool in_file(uint64_t off, uint64_t len, uint64_t size)
{
	uint64_t end;
	return !add_overflows(off, len, &end) && end <= size;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static void target_id(char *buf, size_t n, const char *proc, enum hl_co_feature sramecc,
		      enum hl_co_feature xnack)
{
	snprintf(buf, n, "amdgcn-amd-amdhsa--%s%s%s", proc,
		 sramecc == HL_CO_FEATURE_ON ? ":sramecc+" :
		 sramecc == HL_CO_FEATURE_OFF ? ":sramecc-" : "",
		 xnack == HL_CO_FEATURE_ON ? ":xnack+" : xnack == HL_CO_FEATURE_OFF ? ":xnack-" : "");
}

static int check_ehdr(struct hl_code_object *co, const Elf64_Ehdr *eh, size_t size)
{
	const unsigned char *id = eh->e_ident;
	if (memcmp(id, ELFMAG, SELFMAG) != 0) {
		hl_error(LOG, "not an ELF file (bad magic)");
		return -ENOEXEC;
	}
	if (id[EI_CLASS] != ELFCLASS64) {
		hl_error(LOG, "EI_CLASS %u: AMDGPU code objects are ELFCLASS64", id[EI_CLASS]);
		return -ENOEXEC;
	}
	if (id[EI_DATA] != ELFDATA2LSB) {
		hl_error(LOG, "EI_DATA %u: AMDGPU code objects are little-endian", id[EI_DATA]);
		return -ENOEXEC;
	}
	if (id[EI_VERSION] != EV_CURRENT || eh->e_version != EV_CURRENT) {
		hl_error(LOG, "ELF version %u/%u, expected 1", id[EI_VERSION], eh->e_version);
		return -ENOEXEC;
	}
	if (id[EI_OSABI] != ELFOSABI_AMDGPU_HSA) {
		hl_error(LOG, "EI_OSABI %u: expected ELFOSABI_AMDGPU_HSA (64)", id[EI_OSABI]);
		return -ENOEXEC;
	}
	switch (id[EI_ABIVERSION]) {
	case ELFABIVERSION_AMDGPU_HSA_V4:
		co->version = 4;
		break;
	case ELFABIVERSION_AMDGPU_HSA_V5:
		co->version = 5;
		break;
	case ELFABIVERSION_AMDGPU_HSA_V2:
	case ELFABIVERSION_AMDGPU_HSA_V3:
		hl_error(LOG, "code object v%u (EI_ABIVERSION %u) is not supported: rebuild with "
			 "-mcode-object-version=4 or 5", id[EI_ABIVERSION] + 2u, id[EI_ABIVERSION]);
		return -ENOEXEC;
	default:
		hl_error(LOG, "EI_ABIVERSION %u: unknown code object version", id[EI_ABIVERSION]);
		return -ENOEXEC;
	}
	if (eh->e_machine != EM_AMDGPU) {
		hl_error(LOG, "e_machine %u: expected EM_AMDGPU (224)", eh->e_machine);
		return -ENOEXEC;
	}
	if (eh->e_type != ET_DYN) {
		hl_error(LOG, "e_type %u: a loadable code object is ET_DYN (3)", eh->e_type);
		return -ENOEXEC;
	}
	if (eh->e_ehsize != sizeof(Elf64_Ehdr)) {
		hl_error(LOG, "e_ehsize %u, expected %zu", eh->e_ehsize, sizeof(Elf64_Ehdr));
		return -ENOEXEC;
	}
	/* libelf hands out pointers into the image, so the tables we read as
	 * structs must be 8-byte aligned (every linker aligns them). */
	if (eh->e_phoff % 8 || eh->e_shoff % 8) {
		hl_error(LOG, "e_phoff %#llx / e_shoff %#llx are not 8-byte aligned",
			 (unsigned long long)eh->e_phoff, (unsigned long long)eh->e_shoff);
		return -ENOEXEC;
	}
	if (eh->e_phnum == 0 || eh->e_phnum == PN_XNUM ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    !in_file(eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr), size)) {
		hl_error(LOG, "program headers (e_phoff %#llx, %u x %u bytes) are not inside "
			 "the %zu-byte file", (unsigned long long)eh->e_phoff, eh->e_phnum,
			 eh->e_phentsize, size);
		return -ENOEXEC;
	}
	if (eh->e_shnum == 0) {
		hl_error(LOG, "no section headers (e_shnum 0%s)",
			 eh->e_shoff ? ", extended numbering is not supported" : "");
		return -ENOEXEC;
	}
	if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr), size)) {
		hl_error(LOG, "section headers (e_shoff %#llx, %u x %u bytes) are not inside "
			 "the %zu-byte file", (unsigned long long)eh->e_shoff, eh->e_shnum,
			 eh->e_shentsize, size);
		return -ENOEXEC;
	}
	if (eh->e_shstrndx == SHN_UNDEF || eh->e_shstrndx >= eh->e_shnum) {
		hl_error(LOG, "e_shstrndx %u out of range (%u sections)", eh->e_shstrndx,
			 eh->e_shnum);
		return -ENOEXEC;
	}

	uint32_t flags = eh->e_flags;
	const struct mach *m = mach_find(flags & EF_AMDGPU_MACH);
	if (!m) {
		hl_error(LOG, "e_flags %#x: unknown processor (EF_AMDGPU_MACH %#x)", flags,
			 flags & EF_AMDGPU_MACH);
		return -ENOEXEC;
	}
	if (flags & ~0xfffu) {
		hl_error(LOG, "e_flags %#x: undefined bits %#x set", flags, flags & ~0xfffu);
		return -ENOEXEC;
	}
	co->xnack = (enum hl_co_feature)((flags >> 8) & 3);
	co->sramecc = (enum hl_co_feature)((flags >> 10) & 3);
	if ((co->xnack != HL_CO_FEATURE_UNSUPPORTED) != m->xnack ||
	    (co->sramecc != HL_CO_FEATURE_UNSUPPORTED) != m->sramecc) {
		hl_error(LOG, "e_flags %#x: xnack/sramecc settings do not fit %s (which %s xnack "
			 "and %s sramecc)", flags, m->name, m->xnack ? "has" : "lacks",
			 m->sramecc ? "has" : "lacks");
		return -ENOEXEC;
	}
	snprintf(co->processor, sizeof(co->processor), "%s", m->name);
	target_id(co->target_id, sizeof(co->target_id), m->name, co->sramecc, co->xnack);
	return 0;
}

static int check_phdrs(struct hl_code_object *co, Elf *elf, size_t size, const Elf64_Phdr **notes,
		       size_t *n_notes)
{
	size_t n;
	Elf64_Phdr *ph = elf64_getphdr(elf);
	if (!ph || elf_getphdrnum(elf, &n) != 0) {
		hl_error(LOG, "libelf cannot read the program headers: %s", elf_errmsg(-1));
		return -ENOEXEC;
	}
	co->segs = calloc(n, sizeof(*co->segs));
	if (!co->segs)
		return -ENOMEM;
	co->max_align = PAGE;
	*n_notes = 0;
	uint64_t prev_end = 0;
	for (size_t i = 0; i < n; i++) {
		const Elf64_Phdr *p = &ph[i];
		if (p->p_type != PT_LOAD && p->p_type != PT_NOTE && p->p_type != PT_DYNAMIC)
			continue;
		if (!in_file(p->p_offset, p->p_filesz, size)) {
			hl_error(LOG, "program header %zu: file range [%#llx, +%#llx) is outside the "
				 "%zu-byte file", i, (unsigned long long)p->p_offset,
				 (unsigned long long)p->p_filesz, size);
			return -ENOEXEC;
		}
		if (p->p_type == PT_NOTE) {
			notes[(*n_notes)++] = p;
			continue;
		}
		if (p->p_type != PT_LOAD)
			continue;
		uint64_t end;
		if (p->p_filesz > p->p_memsz || add_overflows(p->p_vaddr, p->p_memsz, &end) ||
		    end > MAX_LOAD_SPAN) {
			hl_error(LOG, "PT_LOAD %zu: vaddr %#llx filesz %#llx memsz %#llx is not a "
				 "valid segment", i, (unsigned long long)p->p_vaddr,
				 (unsigned long long)p->p_filesz, (unsigned long long)p->p_memsz);
			return -ENOEXEC;
		}
		uint64_t align = p->p_align ? p->p_align : 1;
		if (!is_pow2(align) || align > MAX_SEG_ALIGN ||
		    (p->p_vaddr % align) != (p->p_offset % align)) {
			hl_error(LOG, "PT_LOAD %zu: p_align %#llx is not a power of two up to 1 MiB "
				 "congruent with vaddr %#llx and offset %#llx", i,
				 (unsigned long long)p->p_align, (unsigned long long)p->p_vaddr,
				 (unsigned long long)p->p_offset);
			return -ENOEXEC;
		}
		if (co->n_segs && p->p_vaddr < prev_end) {
			hl_error(LOG, "PT_LOAD %zu at %#llx overlaps or precedes the previous one "
				 "(ending at %#llx)", i, (unsigned long long)p->p_vaddr,
				 (unsigned long long)prev_end);
			return -ENOEXEC;
		}
		struct hl_co_segment *s = &co->segs[co->n_segs++];
		s->vaddr = p->p_vaddr;
		s->memsz = p->p_memsz;
		s->filesz = p->p_filesz;
		s->offset = p->p_offset;
		s->align = align;
		s->flags = p->p_flags;
		if (align > co->max_align)
			co->max_align = align;
		prev_end = end;
	}
	if (co->n_segs == 0) {
		hl_error(LOG, "no PT_LOAD segment");
		return -ENOEXEC;
	}
	/* Rounded down to the largest alignment, so a base that is a multiple
	 * of max_align keeps every segment's alignment. */
	co->vaddr_lo = co->segs[0].vaddr & ~(co->max_align - 1);
	co->vaddr_hi = prev_end;
	return 0;
}

/* Index of the PT_LOAD whose memory image holds [vaddr, vaddr + len), or -1. */
static int seg_of(const struct hl_code_object *co, uint64_t vaddr, uint64_t len)
{
	for (uint32_t i = 0; i < co->n_segs; i++) {
		const struct hl_co_segment *s = &co->segs[i];
		uint64_t end;
		if (vaddr >= s->vaddr && !add_overflows(vaddr, len, &end) &&
		    end <= s->vaddr + s->memsz)
			return (int)i;
	}
	return -1;
}

static int find_metadata(struct hl_code_object *co, const Elf64_Phdr **notes, size_t n_notes,
			 char *target, size_t target_size)
{
	bool found = false;
	for (size_t i = 0; i < n_notes; i++) {
		const uint8_t *p = co->image + notes[i]->p_offset;
		uint64_t left = notes[i]->p_filesz;
		while (left > 0) {
			Elf64_Nhdr nh;
			if (left < sizeof(nh)) {
				hl_error(LOG, "PT_NOTE %zu: %llu trailing bytes are not a note", i,
					 (unsigned long long)left);
				return -ENOEXEC;
			}
			memcpy(&nh, p, sizeof(nh));
			uint64_t name_pad = ((uint64_t)nh.n_namesz + 3) & ~3ull;
			uint64_t desc_pad = ((uint64_t)nh.n_descsz + 3) & ~3ull;
			if (name_pad + desc_pad > left - sizeof(nh)) {
				hl_error(LOG, "note (namesz %u, descsz %u) runs past its PT_NOTE",
					 nh.n_namesz, nh.n_descsz);
				return -ENOEXEC;
			}
			const char *name = (const char *)p + sizeof(nh);
			const uint8_t *desc = p + sizeof(nh) + name_pad;
			if (nh.n_namesz == 7 && memcmp(name, "AMDGPU", 7) == 0 &&
			    nh.n_type == HL_NT_AMDGPU_METADATA) {
				if (found) {
					hl_error(LOG, "two NT_AMDGPU_METADATA notes");
					return -ENOEXEC;
				}
				found = true;
				int err = hl_co_metadata_parse(co, desc, nh.n_descsz, target,
							       target_size);
				if (err)
					return err;
			}
			p += sizeof(nh) + name_pad + desc_pad;
			left -= sizeof(nh) + name_pad + desc_pad;
		}
	}
	if (!found) {
		hl_error(LOG, "no NT_AMDGPU_METADATA note (owner \"AMDGPU\", type 32)");
		return -ENOEXEC;
	}
	return 0;
}

/* The data of a section read as an array of 8-byte aligned structs (or
 * as a string table, for which any alignment is fine).  The bytes must be
 * the image's own: co keeps pointers into them (symbol names) after
 * elf_end, which frees any copy libelf made (it makes one for a section
 * flagged SHF_COMPRESSED, which gABI forbids on SHF_ALLOC sections anyway;
 * found by fuzz_loader). */
static int section_data(const struct hl_code_object *co, Elf_Scn *scn, const Elf64_Shdr *sh,
			size_t idx, const void **buf)
{
	if (sh->sh_flags & SHF_COMPRESSED) {
		hl_error(LOG, "section %zu: compressed (SHF_COMPRESSED), which a loaded "
			 "section cannot be", idx);
		return -ENOEXEC;
	}
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || d->d_size != sh->sh_size || (sh->sh_size && !d->d_buf)) {
		hl_error(LOG, "section %zu: libelf cannot read its %llu bytes: %s", idx,
			 (unsigned long long)sh->sh_size, elf_errmsg(-1));
		return -ENOEXEC;
	}
	uintptr_t lo = (uintptr_t)co->image, p = (uintptr_t)d->d_buf;
	if (sh->sh_size && (p < lo || p - lo > co->size || co->size - (p - lo) < d->d_size)) {
		hl_error(LOG, "section %zu: libelf gave a copy of its bytes, not the image's", idx);
		return -ENOEXEC;
	}
	if (sh->sh_type != SHT_STRTAB && (uintptr_t)d->d_buf % 8) {
		hl_error(LOG, "section %zu: offset %#llx is not 8-byte aligned", idx,
			 (unsigned long long)sh->sh_offset);
		return -ENOEXEC;
	}
	*buf = d->d_buf;
	return 0;
}

static int read_dynsym(struct hl_code_object *co, Elf *elf, size_t shnum, size_t dynsym_idx)
{
	Elf_Scn *scn = elf_getscn(elf, dynsym_idx);
	Elf64_Shdr *sh = scn ? elf64_getshdr(scn) : NULL;
	if (!sh)
		return -ENOEXEC;
	if (sh->sh_entsize != sizeof(Elf64_Sym) || sh->sh_size % sizeof(Elf64_Sym) ||
	    sh->sh_size / sizeof(Elf64_Sym) > UINT32_MAX) {
		hl_error(LOG, ".dynsym: entsize %llu / size %llu do not describe Elf64_Sym entries",
			 (unsigned long long)sh->sh_entsize, (unsigned long long)sh->sh_size);
		return -ENOEXEC;
	}
	if (sh->sh_link == SHN_UNDEF || sh->sh_link >= shnum) {
		hl_error(LOG, ".dynsym: sh_link %u is not a section", sh->sh_link);
		return -ENOEXEC;
	}
	Elf_Scn *str_scn = elf_getscn(elf, sh->sh_link);
	Elf64_Shdr *str_sh = str_scn ? elf64_getshdr(str_scn) : NULL;
	if (!str_sh || str_sh->sh_type != SHT_STRTAB) {
		hl_error(LOG, ".dynsym: sh_link %u is not a string table", sh->sh_link);
		return -ENOEXEC;
	}
	const Elf64_Sym *syms;
	const char *strs;
	int err = section_data(co, scn, sh, dynsym_idx, (const void **)&syms);
	if (!err)
		err = section_data(co, str_scn, str_sh, sh->sh_link, (const void **)&strs);
	if (err)
		return err;
	uint64_t strsz = str_sh->sh_size;

	co->n_syms = (uint32_t)(sh->sh_size / sizeof(Elf64_Sym));
	co->syms = calloc(co->n_syms ? co->n_syms : 1, sizeof(*co->syms));
	if (!co->syms)
		return -ENOMEM;
	for (uint32_t i = 0; i < co->n_syms; i++) {
		const Elf64_Sym *s = &syms[i];
		struct hl_co_symbol *o = &co->syms[i];
		if (s->st_name >= strsz || !memchr(strs + s->st_name, 0, strsz - s->st_name)) {
			hl_error(LOG, ".dynsym[%u]: name offset %u is outside the %llu-byte string "
				 "table or unterminated", i, s->st_name, (unsigned long long)strsz);
			return -ENOEXEC;
		}
		o->name = strs + s->st_name;
		o->value = s->st_value;
		o->size = s->st_size;
		o->type = ELF64_ST_TYPE(s->st_info);
		o->bind = ELF64_ST_BIND(s->st_info);
		o->shndx = s->st_shndx;
		o->kernel = -1;
		o->align = 1;
		if (s->st_shndx == SHN_UNDEF || s->st_shndx == SHN_ABS)
			continue;
		if (s->st_shndx >= shnum) {
			hl_error(LOG, ".dynsym[%u] '%s': section index %u out of range (%zu sections)",
				 i, o->name, s->st_shndx, shnum);
			return -ENOEXEC;
		}
		int seg = seg_of(co, s->st_value, s->st_size);
		if (seg < 0) {
			hl_error(LOG, ".dynsym[%u] '%s': [%#llx, +%#llx) is not inside a loaded "
				 "segment", i, o->name, (unsigned long long)s->st_value,
				 (unsigned long long)s->st_size);
			return -ENOEXEC;
		}
		o->seg = (uint32_t)seg;
		Elf_Scn *ss = elf_getscn(elf, s->st_shndx);
		Elf64_Shdr *ssh = ss ? elf64_getshdr(ss) : NULL;
		if (ssh && ssh->sh_addralign > 1 && is_pow2(ssh->sh_addralign))
			o->align = ssh->sh_addralign;
		if (ssh)
			o->sh_flags = ssh->sh_flags;
	}
	return 0;
}

static int read_relocs(struct hl_code_object *co, Elf *elf, size_t shnum, size_t dynsym_idx)
{
	/* Two passes: count, then fill. */
	uint64_t total = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 1; i < shnum; i++) {
			Elf_Scn *scn = elf_getscn(elf, i);
			Elf64_Shdr *sh = scn ? elf64_getshdr(scn) : NULL;
			if (!sh || !(sh->sh_flags & SHF_ALLOC))
				continue;
			if (sh->sh_type == SHT_REL) {
				hl_error(LOG, "section %zu: SHT_REL dynamic relocations; AMDGPU uses "
					 "SHT_RELA", i);
				return -ENOEXEC;
			}
			if (sh->sh_type != SHT_RELA)
				continue;
			if (sh->sh_entsize != sizeof(Elf64_Rela) ||
			    sh->sh_size % sizeof(Elf64_Rela) || sh->sh_link != dynsym_idx) {
				hl_error(LOG, "section %zu: SHT_RELA with entsize %llu, size %llu, "
					 "sh_link %u (expected Elf64_Rela entries against .dynsym "
					 "%zu)", i, (unsigned long long)sh->sh_entsize,
					 (unsigned long long)sh->sh_size, sh->sh_link, dynsym_idx);
				return -ENOEXEC;
			}
			uint64_t n = sh->sh_size / sizeof(Elf64_Rela);
			if (pass == 0) {
				total += n;
				continue;
			}
			const Elf64_Rela *r;
			int err = section_data(co, scn, sh, i, (const void **)&r);
			if (err)
				return err;
			for (uint64_t k = 0; k < n; k++) {
				uint32_t type = ELF64_R_TYPE(r[k].r_info);
				uint32_t sym = ELF64_R_SYM(r[k].r_info);
				uint64_t width;
				switch (type) {
				case HL_R_AMDGPU_NONE:
					continue;
				case HL_R_AMDGPU_ABS32_LO:
				case HL_R_AMDGPU_ABS32_HI:
				case HL_R_AMDGPU_ABS32:
				case HL_R_AMDGPU_REL32:
					width = 4;
					break;
				case HL_R_AMDGPU_ABS64:
				case HL_R_AMDGPU_REL64:
				case HL_R_AMDGPU_RELATIVE64:
					width = 8;
					break;
				default:
					hl_error(LOG, "relocation %llu in section %zu: type %u is not a "
						 "dynamic AMDGPU relocation", (unsigned long long)k,
						 i, type);
					return -ENOEXEC;
				}
				if (sym >= co->n_syms || (type == HL_R_AMDGPU_RELATIVE64 && sym)) {
					hl_error(LOG, "relocation %llu in section %zu: symbol %u "
						 "invalid (%u symbols)", (unsigned long long)k, i,
						 sym, co->n_syms);
					return -ENOEXEC;
				}
				if (seg_of(co, r[k].r_offset, width) < 0) {
					hl_error(LOG, "relocation %llu in section %zu: offset %#llx "
						 "(+%llu) is not inside a loaded segment",
						 (unsigned long long)k, i,
						 (unsigned long long)r[k].r_offset,
						 (unsigned long long)width);
					return -ENOEXEC;
				}
				struct hl_co_reloc *o = &co->relocs[co->n_relocs++];
				o->offset = r[k].r_offset;
				o->addend = r[k].r_addend;
				o->type = type;
				o->sym = sym;
			}
		}
		if (pass == 0) {
			co->relocs = calloc(total ? total : 1, sizeof(*co->relocs));
			if (!co->relocs)
				return -ENOMEM;
		}
	}
	return 0;
}

static int link_kernels(struct hl_code_object *co)
{
	for (uint32_t k = 0; k < co->n_kernels; k++) {
		struct hl_co_kernel *kn = &co->kernels[k];
		uint32_t i;
		for (i = 1; i < co->n_syms; i++)
			if (strcmp(co->syms[i].name, kn->symbol) == 0)
				break;
		if (i >= co->n_syms) { /* also when .dynsym is empty (n_syms 0) */
			hl_error(LOG, "kernel '%s': descriptor symbol '%s' is not in .dynsym", kn->name,
				 kn->symbol);
			return -ENOEXEC;
		}
		struct hl_co_symbol *s = &co->syms[i];
		if (s->kernel >= 0 || s->type != STT_OBJECT || s->shndx == SHN_UNDEF ||
		    s->shndx == SHN_ABS || s->size != HL_KD_SIZE || s->value % HL_KD_SIZE) {
			hl_error(LOG, "kernel '%s': '%s' is not a defined 64-byte, 64-byte aligned "
				 "object (type %u, size %llu, value %#llx)", kn->name, s->name,
				 s->type, (unsigned long long)s->size, (unsigned long long)s->value);
			return -ENOEXEC;
		}
		const struct hl_co_segment *seg = &co->segs[s->seg];
		if (s->value + HL_KD_SIZE > seg->vaddr + seg->filesz) {
			hl_error(LOG, "kernel '%s': descriptor at %#llx is not backed by file bytes",
				 kn->name, (unsigned long long)s->value);
			return -ENOEXEC;
		}
		memcpy(kn->kd, co->image + seg->offset + (s->value - seg->vaddr), HL_KD_SIZE);
		uint32_t kd_group, kd_private, kd_kernarg;
		memcpy(&kd_group, kn->kd + 0, 4);
		memcpy(&kd_private, kn->kd + 4, 4);
		memcpy(&kd_kernarg, kn->kd + 8, 4);
		if (kd_group != kn->group_size || kd_private != kn->private_size ||
		    kd_kernarg != kn->kernarg_size) {
			hl_error(LOG, "kernel '%s': descriptor (group %u, private %u, kernarg %u) "
				 "disagrees with the metadata (group %u, private %u, kernarg %u)",
				 kn->name, kd_group, kd_private, kd_kernarg, kn->group_size,
				 kn->private_size, kn->kernarg_size);
			return -ENOEXEC;
		}
		/* The code the CP will jump to: inside an executable segment and
		 * 256-byte aligned (AMDGPUUsage "Kernel Descriptor"). */
		int64_t entry_off;
		memcpy(&entry_off, kn->kd + 16, 8);
		uint64_t entry = s->value + (uint64_t)entry_off;
		int eseg = seg_of(co, entry, 4);
		if (eseg < 0 || !(co->segs[eseg].flags & PF_X) || entry % 256) {
			hl_error(LOG, "kernel '%s': code entry %#llx (descriptor %#llx %+lld) is not "
				 "256-byte aligned inside an executable segment", kn->name,
				 (unsigned long long)entry, (unsigned long long)s->value,
				 (long long)entry_off);
			return -ENOEXEC;
		}
		s->kernel = (int32_t)k;
		kn->sym = i;
	}
	return 0;
}

int hl_co_parse(const void *image, size_t size, struct hl_code_object **out)
{
	*out = NULL;
	if (!image || size < sizeof(Elf64_Ehdr)) {
		hl_error(LOG, "code object of %zu bytes is shorter than an ELF header", size);
		return -ENOEXEC;
	}
	pthread_once(&elf_once, elf_init);
	if (!elf_ok) {
		hl_error(LOG, "libelf: %s", elf_errmsg(-1));
		return -ENOEXEC;
	}
	struct hl_code_object *co = calloc(1, sizeof(*co));
	if (!co)
		return -ENOMEM;
	co->image = image;
	co->size = size;

	Elf64_Ehdr eh;
	memcpy(&eh, image, sizeof(eh));
	int err = check_ehdr(co, &eh, size);
	if (err)
		goto err_free_co;

	Elf *elf = elf_memory((char *)image, size);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		hl_error(LOG, "libelf rejects the image: %s", elf_errmsg(-1));
		err = -ENOEXEC;
		goto err_end_elf;
	}
	size_t shnum;
	if (elf_getshdrnum(elf, &shnum) != 0 || shnum != eh.e_shnum) {
		hl_error(LOG, "libelf sees %zu sections, e_shnum says %u", shnum, eh.e_shnum);
		err = -ENOEXEC;
		goto err_end_elf;
	}
	const Elf64_Phdr *notes[64];
	size_t n_notes = 0;
	if (eh.e_phnum > 64) {
		hl_error(LOG, "%u program headers: more than 64 is not a code object", eh.e_phnum);
		err = -ENOEXEC;
		goto err_end_elf;
	}
	err = check_phdrs(co, elf, size, notes, &n_notes);
	if (err)
		goto err_end_elf;

	/* The section name table, for the names' bounds below. */
	Elf_Scn *shstr_scn = elf_getscn(elf, eh.e_shstrndx);
	Elf64_Shdr *shstr = shstr_scn ? elf64_getshdr(shstr_scn) : NULL;
	if (!shstr || shstr->sh_type != SHT_STRTAB ||
	    !in_file(shstr->sh_offset, shstr->sh_size, size) || shstr->sh_size == 0 ||
	    co->image[shstr->sh_offset + shstr->sh_size - 1] != '\0') {
		hl_error(LOG, "section %u (e_shstrndx) is not a NUL-terminated string table inside "
			 "the file", eh.e_shstrndx);
		err = -ENOEXEC;
		goto err_end_elf;
	}

	/* Every section inside the file with a name inside .shstrtab; find
	 * the one .dynsym. */
	size_t dynsym_idx = 0;
	for (size_t i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		Elf64_Shdr *sh = scn ? elf64_getshdr(scn) : NULL;
		if (!sh) {
			hl_error(LOG, "section %zu: libelf cannot read its header: %s", i,
				 elf_errmsg(-1));
			err = -ENOEXEC;
			goto err_end_elf;
		}
		if (sh->sh_name >= shstr->sh_size) {
			hl_error(LOG, "section %zu: name offset %u is outside the %llu-byte .shstrtab",
				 i, sh->sh_name, (unsigned long long)shstr->sh_size);
			err = -ENOEXEC;
			goto err_end_elf;
		}
		if (sh->sh_type != SHT_NOBITS && !in_file(sh->sh_offset, sh->sh_size, size)) {
			hl_error(LOG, "section %zu: [%#llx, +%#llx) is outside the %zu-byte file", i,
				 (unsigned long long)sh->sh_offset,
				 (unsigned long long)sh->sh_size, size);
			err = -ENOEXEC;
			goto err_end_elf;
		}
		if (sh->sh_type == SHT_DYNSYM) {
			if (dynsym_idx) {
				hl_error(LOG, "two SHT_DYNSYM sections (%zu and %zu)", dynsym_idx, i);
				err = -ENOEXEC;
				goto err_end_elf;
			}
			dynsym_idx = i;
		}
	}
	if (!dynsym_idx) {
		hl_error(LOG, "no .dynsym section: not a linked code object");
		err = -ENOEXEC;
		goto err_end_elf;
	}
	err = read_dynsym(co, elf, shnum, dynsym_idx);
	if (!err)
		err = read_relocs(co, elf, shnum, dynsym_idx);
	if (err)
		goto err_end_elf;

	char target[128] = "";
	err = find_metadata(co, notes, n_notes, target, sizeof(target));
	if (err)
		goto err_end_elf;
	if (strcmp(target, co->target_id) != 0) {
		hl_error(LOG, "metadata amdhsa.target '%s' disagrees with e_flags (%s)", target,
			 co->target_id);
		err = -ENOEXEC;
		goto err_end_elf;
	}
	err = link_kernels(co);
	if (err)
		goto err_end_elf;
	elf_end(elf);
	*out = co;
	return 0;

err_end_elf:
	elf_end(elf);
err_free_co:
	hl_co_free(co);
	return err;
}

void hl_co_free(struct hl_code_object *co)
{
	if (!co)
		return;
	free(co->segs);
	free(co->syms);
	free(co->relocs);
	free(co->kernels);
	free(co->strings);
	free(co);
}

uint64_t hl_co_load_size(const struct hl_code_object *co)
{
	return (co->vaddr_hi - co->vaddr_lo + PAGE - 1) & ~(PAGE - 1);
}

static const char *parse_feature(const char *p, const char *name, enum hl_co_feature *f)
{
	size_t n = strlen(name);
	if (p[0] == ':' && strncmp(p + 1, name, n) == 0 && (p[n + 1] == '+' || p[n + 1] == '-')) {
		*f = p[n + 1] == '+' ? HL_CO_FEATURE_ON : HL_CO_FEATURE_OFF;
		return p + n + 2;
	}
	return p;
}

int hl_co_check_isa(const struct hl_code_object *co, const char *agent_isa_name)
{
	static const char prefix[] = "amdgcn-amd-amdhsa--";
	enum hl_co_feature sramecc = HL_CO_FEATURE_ANY, xnack = HL_CO_FEATURE_ANY;
	bool ok = strncmp(agent_isa_name, prefix, sizeof(prefix) - 1) == 0;
	if (ok) {
		const char *proc = agent_isa_name + sizeof(prefix) - 1;
		size_t plen = strcspn(proc, ":");
		ok = plen == strlen(co->processor) && strncmp(proc, co->processor, plen) == 0;
		const char *p = parse_feature(proc + plen, "sramecc", &sramecc);
		p = parse_feature(p, "xnack", &xnack);
		ok = ok && *p == '\0';
	}
	if (ok && (co->sramecc == HL_CO_FEATURE_ON || co->sramecc == HL_CO_FEATURE_OFF))
		ok = co->sramecc == sramecc;
	if (ok && (co->xnack == HL_CO_FEATURE_ON || co->xnack == HL_CO_FEATURE_OFF))
		ok = co->xnack == xnack;
	if (!ok) {
		hl_error(LOG, "code object is for %s, which the agent's ISA %s cannot run",
			 co->target_id, agent_isa_name);
		return -EXDEV;
	}
	return 0;
}
