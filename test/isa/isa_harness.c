/*
 * isa_harness.c — see isa_harness.h.  The identity memory keeps a small
 * table of registered ranges; translate() answers only inside them, so a
 * kernel touching anything else gets a GPU memory fault, as on hardware.
 * Allocations are page aligned and page sized, which lets the
 * interpreter's per-page translation cache work.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa_harness.h"

#define HX_MAX 256

static struct {
	uint64_t start, end;
} ranges[HX_MAX];
static int nranges;
static pthread_mutex_t hx_lock = PTHREAD_MUTEX_INITIALIZER;

static void reg_add(void *p, size_t n)
{
	pthread_mutex_lock(&hx_lock);
	for (int i = 0; i < HX_MAX; i++) {
		if (ranges[i].end == 0) {
			ranges[i].start = (uint64_t)(uintptr_t)p;
			ranges[i].end = (uint64_t)(uintptr_t)p + n;
			if (i >= nranges)
				nranges = i + 1;
			break;
		}
	}
	pthread_mutex_unlock(&hx_lock);
}

static void reg_del(void *p)
{
	pthread_mutex_lock(&hx_lock);
	for (int i = 0; i < nranges; i++)
		if (ranges[i].start == (uint64_t)(uintptr_t)p)
			ranges[i].start = ranges[i].end = 0;
	pthread_mutex_unlock(&hx_lock);
}

static void *identity_translate(void *ctx, uint64_t va, uint64_t len, unsigned access)
{
	void *r = NULL;
	(void)ctx;
	(void)access;
	pthread_mutex_lock(&hx_lock);
	for (int i = 0; i < nranges; i++) {
		if (va >= ranges[i].start && len <= ranges[i].end - ranges[i].start &&
		    va - ranges[i].start <= ranges[i].end - ranges[i].start - len) {
			r = (void *)(uintptr_t)va;
			break;
		}
	}
	pthread_mutex_unlock(&hx_lock);
	return r;
}

struct hx_last hx_last;

static const struct kemu_isa_mem identity = { .ctx = NULL, .translate = identity_translate };

const struct kemu_isa_mem *hx_mem(void)
{
	return &identity;
}

void *hx_alloc(size_t bytes)
{
	size_t n = (bytes + 4095) & ~(size_t)4095;
	void *p;
	if (n == 0)
		n = 4096;
	p = aligned_alloc(4096, n);
	if (!p)
		return NULL;
	memset(p, 0, n);
	reg_add(p, n);
	return p;
}

void hx_free(void *p)
{
	if (!p)
		return;
	reg_del(p);
	free(p);
}

int hx_load(struct hx_code *c, const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *e = NULL;
	size_t nph = 0, i;
	uint64_t hi = 0;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_getphdrnum(e, &nph))
		goto out;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    ph.p_vaddr + ph.p_memsz > hi)
			hi = ph.p_vaddr + ph.p_memsz;
	}
	if (hi == 0 || hi > (64u << 20))
		goto out;
	c->size = (size_t)hi;
	c->image = hx_alloc(c->size);
	if (!c->image)
		goto out;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		if (pread(fd, c->image + ph.p_vaddr, ph.p_filesz, (off_t)ph.p_offset) !=
		    (ssize_t)ph.p_filesz)
			goto out;
	}
	rc = 0;
out:
	if (rc && c->image) {
		hx_free(c->image);
		c->image = NULL;
	}
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

void hx_unload(struct hx_code *c)
{
	hx_free(c->image);
	c->image = NULL;
}

uint64_t hx_kd(const struct hx_code *c, const char *name)
{
	int fd = open(c->path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	uint64_t va = 0;
	char want[256];

	if (fd < 0)
		return 0;
	snprintf(want, sizeof(want), "%s.kd", name);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && !va && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;
			if (!gelf_getsym(d, (int)i, &s))
				continue;
			n = elf_strptr(e, sh.sh_link, s.st_name);
			if (n && !strcmp(n, want) && s.st_value + 64 <= c->size) {
				va = (uint64_t)(uintptr_t)c->image + s.st_value;
				break;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return va;
}

void hx_each_kernel(const struct hx_code *c, void (*fn)(const char *name, uint64_t kd, void *ctx),
		    void *ctx)
{
	int fd = open(c->path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;

	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;
			size_t len;
			char name[256];
			if (!gelf_getsym(d, (int)i, &s))
				continue;
			n = elf_strptr(e, sh.sh_link, s.st_name);
			len = n ? strlen(n) : 0;
			if (len < 4 || len >= sizeof(name) || strcmp(n + len - 3, ".kd") ||
			    s.st_value + 64 > c->size)
				continue;
			memcpy(name, n, len - 3);
			name[len - 3] = 0;
			fn(name, (uint64_t)(uintptr_t)c->image + s.st_value, ctx);
		}
	}
	if (e)
		elf_end(e);
	close(fd);
}

/* Several host threads take workgroups from a shared counter, each with
 * its own scratch slot, as the CP does with a thread pool. */
struct hx_pool {
	struct kemu_isa_program *p;
	struct kemu_isa_dispatch *d;
	uint32_t nwg[3];
	uint64_t total;
	_Atomic uint64_t next;
	_Atomic int failed;
	struct kemu_isa_error err;
	pthread_mutex_t lock;
};

struct hx_worker {
	struct hx_pool *pool;
	unsigned slot;
};

static void *hx_worker_main(void *arg)
{
	struct hx_worker *wk = arg;
	struct hx_pool *pl = wk->pool;
	struct kemu_isa_error e;

	for (;;) {
		uint64_t i = atomic_fetch_add(&pl->next, 1);
		uint32_t x, y, z;
		if (i >= pl->total || atomic_load(&pl->failed))
			break;
		x = (uint32_t)(i % pl->nwg[0]);
		y = (uint32_t)(i / pl->nwg[0] % pl->nwg[1]);
		z = (uint32_t)(i / pl->nwg[0] / pl->nwg[1]);
		if (kemu_isa_run_workgroup_slot(pl->p, pl->d, x, y, z, wk->slot, &e)) {
			pthread_mutex_lock(&pl->lock);
			if (!atomic_exchange(&pl->failed, 1))
				pl->err = e;
			pthread_mutex_unlock(&pl->lock);
			break;
		}
	}
	return NULL;
}

/* Never set: the kernels run with a preemption request to poll, as the
 * CP runs them (and kfdemu-isa-bench measures that path). */
static const _Atomic bool hx_no_preempt;

/* All workgroups resident at once on one thread: start each (claim order),
 * then resume saved ones that were released; none released while some are
 * saved is a deadlock. */
static int hx_run_gws(struct hx_launch *l, struct kemu_isa_program *p,
		      const struct kemu_isa_dispatch *d, const uint32_t nwg[3],
		      struct kemu_isa_error *err)
{
	uint64_t total = (uint64_t)nwg[0] * nwg[1] * nwg[2];
	struct kemu_isa_wg_state **saved = calloc(total ? total : 1, sizeof(*saved));
	uint64_t nsaved = 0;
	int rc = 0;

	if (!saved)
		return -1;
	for (uint64_t i = 0; i < total && !rc; i++) {
		uint32_t x = (uint32_t)(i % nwg[0]), y = (uint32_t)(i / nwg[0] % nwg[1]);
		uint32_t z = (uint32_t)(i / nwg[0] / nwg[1]);
		struct kemu_isa_wg_state *st = NULL;
		int r = kemu_isa_run_workgroup_gws(p, d, x, y, z, (unsigned)i, &st, err);
		if (r < 0)
			rc = -1;
		else if (r == 1)
			saved[nsaved++] = st;
	}
	while (!rc && nsaved) {
		bool any = false;
		for (uint64_t i = 0; i < nsaved && !rc; i++) {
			if (!kemu_isa_workgroup_ready(saved[i]))
				continue;
			any = true;
			l->gws_suspends++;
			int r = kemu_isa_resume_workgroup(saved[i], d, err);
			if (r == 1)
				continue;
			saved[i--] = saved[--nsaved]; /* done or freed on error */
			if (r < 0)
				rc = -1;
		}
		if (!any && !rc) {
			if (err) {
				memset(err, 0, sizeof(*err));
				err->kind = KEMU_ISA_ERR_DEADLOCK;
				snprintf(err->message, sizeof(err->message),
					 "%llu workgroups wait on GWS and none can be released",
					 (unsigned long long)nsaved);
			}
			rc = -1;
		}
	}
	for (uint64_t i = 0; i < nsaved; i++)
		kemu_isa_workgroup_free(saved[i]);
	free(saved);
	return rc;
}

_Atomic uint64_t hx_context_saves;

uint64_t hx_preempt_after(void)
{
	const char *e = getenv("HX_PREEMPT_AFTER");
	return e ? strtoull(e, NULL, 0) : 0;
}

/* One workgroup under the context-save knob: every wave stops after
 * HX_PREEMPT_AFTER instructions, the workgroup is written in the CWSR
 * layout into a buffer (filled with a pattern first, so a byte the save
 * forgot is noticed), its state freed, rebuilt from the buffer alone and
 * resumed, until it ends. */
static int hx_run_preempted(struct kemu_isa_program *p, const struct kemu_isa_dispatch *d0,
			    uint32_t x, uint32_t y, uint32_t z, uint64_t after,
			    struct kemu_isa_error *err)
{
	struct kemu_isa_dispatch d = *d0;
	struct kemu_isa_wg_state *st = NULL;
	int rc;

	d.preempt_save = true;
	d.preempt_after = after;
	rc = kemu_isa_run_workgroup_gws(p, &d, x, y, z, 0, &st, err);
	while (rc == 2) {
		struct kemu_isa_ctx_wg rec;
		size_t n = kemu_isa_ctx_bytes(st);
		uint8_t *buf = malloc(n ? n : 1);
		if (!buf) {
			kemu_isa_workgroup_free(st);
			return -1;
		}
		memset(buf, 0xA5, n);
		if (kemu_isa_ctx_save(st, &rec, buf, n)) {
			free(buf);
			kemu_isa_workgroup_free(st);
			return -1;
		}
		kemu_isa_workgroup_free(st);
		atomic_fetch_add(&hx_context_saves, 1);
		/* what the CP keeps of it is the control stack's words: the
		 * record is rebuilt from them and the bytes alone, as the CP
		 * does (emu/cp/cp_ctx.c) */
		uint32_t words[KEMU_ISA_CTX_MAX_WAVES + 1];
		unsigned nw = kemu_isa_ctx_relaunch(&rec, words);
		struct kemu_isa_ctx_wg back;
		if (!nw || kemu_isa_ctx_parse(words, nw, &back) != nw ||
		    kemu_isa_ctx_rec_bytes(&back) != n || kemu_isa_ctx_identify(&back, buf, n) ||
		    memcmp(back.wg_id, rec.wg_id, sizeof(rec.wg_id)) || back.nwaves != rec.nwaves ||
		    back.live != rec.live || back.scratch_slot != rec.scratch_slot ||
		    back.scratch_en != rec.scratch_en ||
		    memcmp(back.wave_id, rec.wave_id, rec.live)) {
			snprintf(err->message, sizeof(err->message), "context save: the control-"
				 "stack words of workgroup (%u,%u,%u) do not give its record back",
				 rec.wg_id[0], rec.wg_id[1], rec.wg_id[2]);
			err->kind = KEMU_ISA_ERR_BAD_DISPATCH;
			free(buf);
			return -1;
		}
		st = kemu_isa_ctx_restore(p, &d, &back, buf, n, err);
		free(buf);
		if (!st)
			return -1;
		rc = kemu_isa_resume_workgroup(st, &d, err);
	}
	if (rc == 1) {
		kemu_isa_workgroup_free(st);
		return -1; /* waits on GWS without GWS: cannot happen */
	}
	return rc;
}

int hx_run(struct hx_launch *l, struct kemu_isa_error *err)
{
	struct kemu_isa_dispatch d;
	struct kemu_isa_program *p;
	uint8_t *kernarg = NULL, *packet = NULL, *scratch = NULL;
	uint32_t nwg[3];
	int rc = -1;

	memset(&d, 0, sizeof(d));
	kernarg = hx_alloc(l->args_size ? l->args_size : 64);
	packet = hx_alloc(64);
	if (!kernarg || !packet)
		goto out;
	if (l->args_size)
		memcpy(kernarg, l->args, l->args_size);
	d.gfx_target_version = l->gfx;
	d.gb_addr_config = l->gb_addr_config;
	d.mem = hx_mem();
	d.kernel_object = l->kd;
	d.kernarg_address = (uint64_t)(uintptr_t)kernarg;
	d.dispatch_packet = (uint64_t)(uintptr_t)packet;
	d.dispatch_id = 1;
	d.interrupt = l->interrupt;
	/* no test kernel runs this long: a hang becomes an error */
	d.wave_instruction_limit = l->watchdog ? l->watchdog : 50u * 1000 * 1000;
	d.interrupt_ctx = l->interrupt_ctx;
	d.preempt = &hx_no_preempt;
	for (int i = 0; i < 3; i++) {
		d.grid_size[i] = l->grid[i] ? l->grid[i] : 1;
		d.workgroup_size[i] = l->wg[i] ? l->wg[i] : 1;
		nwg[i] = (d.grid_size[i] + d.workgroup_size[i] - 1) / d.workgroup_size[i];
	}
	/* AQL kernel dispatch packet (hsa_kernel_dispatch_packet_t). */
	{
		uint16_t hdr = 2 /* KERNEL_DISPATCH */, setup = 3;
		uint32_t kd_lds;
		memcpy(packet + 0, &hdr, 2);
		memcpy(packet + 2, &setup, 2);
		for (int i = 0; i < 3; i++) {
			memcpy(packet + 4 + 2 * i, &d.workgroup_size[i], 2);
			memcpy(packet + 12 + 4 * i, &d.grid_size[i], 4);
		}
		memcpy(&kd_lds, (void *)(uintptr_t)l->kd, 4);
		d.group_segment_size = kd_lds + l->dyn_lds;
		memcpy(packet + 28, &d.group_segment_size, 4);
		memcpy(packet + 32, &l->kd, 8);
		memcpy(packet + 40, &d.kernarg_address, 8);
	}
	{
		uint32_t kd_priv;
		memcpy(&kd_priv, (void *)(uintptr_t)(l->kd + 4), 4);
		d.private_segment_size = l->private_size ? l->private_size : kd_priv;
		memcpy(packet + 24, &d.private_segment_size, 4);
	}
	d.gws = l->gws;
	d.gws_base = l->gws_base;
	d.gws_size = l->gws_size;
	/* Apertures: any 4 GiB-aligned ranges that no host pointer uses. */
	d.apertures.shared_base = 0x1000000000000ull;
	d.apertures.private_base = 0x2000000000000ull;
	p = kemu_isa_program_get(&d, err);
	if (!p)
		goto out;
	if (d.private_segment_size || kemu_isa_scratch_wave_bytes(p, &d) > 0) {
		uint64_t per_wg = (uint64_t)kemu_isa_waves_per_workgroup(&d) *
				  kemu_isa_scratch_wave_bytes(p, &d) *
				  (l->gws ? (uint64_t)nwg[0] * nwg[1] * nwg[2]
					  : l->threads ? l->threads : 1);
		if (per_wg) {
			scratch = hx_alloc(per_wg);
			if (!scratch) {
				kemu_isa_program_put(p);
				goto out;
			}
			d.scratch.base_va = (uint64_t)(uintptr_t)scratch;
			d.scratch.size = per_wg;
		}
	}
	hx_last.packet = d.dispatch_packet;
	hx_last.kernarg = d.kernarg_address;
	hx_last.scratch = d.scratch.base_va;
	kemu_isa_scratch_srd(d.scratch.base_va, d.scratch.size, hx_last.srd);
	rc = 0;
	if (l->gws) {
		rc = hx_run_gws(l, p, &d, nwg, err);
		kemu_isa_program_put(p);
		goto out;
	}
	if (l->threads > 1) {
		struct hx_pool pl;
		pthread_t th[64];
		struct hx_worker wk[64];
		unsigned nt = l->threads > 64 ? 64 : l->threads;
		memset(&pl, 0, sizeof(pl));
		pl.p = p;
		pl.d = &d;
		memcpy(pl.nwg, nwg, sizeof(nwg));
		pl.total = (uint64_t)nwg[0] * nwg[1] * nwg[2];
		pthread_mutex_init(&pl.lock, NULL);
		for (unsigned i = 0; i < nt; i++) {
			wk[i].pool = &pl;
			wk[i].slot = i;
			pthread_create(&th[i], NULL, hx_worker_main, &wk[i]);
		}
		for (unsigned i = 0; i < nt; i++)
			pthread_join(th[i], NULL);
		pthread_mutex_destroy(&pl.lock);
		if (atomic_load(&pl.failed)) {
			if (err)
				*err = pl.err;
			rc = -1;
		}
		kemu_isa_program_put(p);
		goto out;
	}
	uint64_t after = hx_preempt_after();
	for (uint32_t z = 0; z < nwg[2] && !rc; z++)
		for (uint32_t y = 0; y < nwg[1] && !rc; y++)
			for (uint32_t x = 0; x < nwg[0] && !rc; x++)
				rc = after ? hx_run_preempted(p, &d, x, y, z, after, err)
					   : kemu_isa_run_workgroup(p, &d, x, y, z, err);
	kemu_isa_program_put(p);
out:
	hx_free(scratch);
	hx_free(kernarg);
	hx_free(packet);
	return rc;
}

const char *hx_kernel_dir(void)
{
	const char *e = getenv("ISA_KERNEL_DIR");
#ifdef ISA_KERNEL_DIR
	if (!e)
		e = ISA_KERNEL_DIR;
#endif
	return e ? e : ".";
}

const char *hx_kernel_path(const char *stem, uint32_t gfx, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s-%s.co", hx_kernel_dir(), stem,
		 gfx == KEMU_ISA_GFX942 ? "gfx942" : "gfx90a");
	return access(buf, R_OK) == 0 ? buf : NULL;
}

int hx_target_expected(uint32_t gfx)
{
#if defined(ISA_HAVE_GFX90A) && defined(ISA_HAVE_GFX942)
	return gfx == KEMU_ISA_GFX942 ? ISA_HAVE_GFX942 : ISA_HAVE_GFX90A;
#else
	(void)gfx;
	return 0;
#endif
}

uint32_t hx_ulp32(float a, float b)
{
	int32_t x, y;
	if (isnan(a) && isnan(b))
		return 0;
	memcpy(&x, &a, 4);
	memcpy(&y, &b, 4);
	if (x < 0)
		x = INT32_MIN - x;
	if (y < 0)
		y = INT32_MIN - y;
	return x > y ? (uint32_t)x - (uint32_t)y : (uint32_t)y - (uint32_t)x;
}

uint64_t hx_ulp64(double a, double b)
{
	int64_t x, y;
	if (isnan(a) && isnan(b))
		return 0;
	memcpy(&x, &a, 8);
	memcpy(&y, &b, 8);
	if (x < 0)
		x = INT64_MIN - x;
	if (y < 0)
		y = INT64_MIN - y;
	return x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
}
