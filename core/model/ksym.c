/*
 * kallsyms for the sandbox (ksym.h). The loaded object that holds an address is found
 * with dl_iterate_phdr(); its symbol table is read once from its file (the executable is
 * /proc/self/exe), sorted, and kept for the process's life. A table that cannot be read
 * is remembered as empty, so a stripped program prints addresses, as a kernel without
 * kallsyms does.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/ksym.h"

struct sym {
	uintptr_t start;          /* as in the file: add the object's load bias */
	unsigned long size;
	unsigned name, file;      /* offsets in the string table; file 0: none */
	bool var;                 /* a variable in a writable section */
};

struct table {
	struct table *next;
	char *path;
	struct sym *syms;
	size_t n;
	char *strings;
};

static struct table *tables; /* one per object file, never freed */

/* ======================================================================== the object */

struct where {
	uintptr_t addr;
	const char *path;
	uintptr_t bias;
	uintptr_t relro, relro_end; /* made read-only after relocation (PT_GNU_RELRO) */
};

static int holds(struct dl_phdr_info *info, size_t size, void *data)
{
	struct where *w = data;
	bool found = false;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t from = info->dlpi_addr + ph->p_vaddr;
		found |= ph->p_type == PT_LOAD && w->addr >= from && w->addr - from < ph->p_memsz;
		if (ph->p_type == PT_GNU_RELRO) {
			w->relro = from;
			w->relro_end = from + ph->p_memsz;
		}
	}
	if (!found) {
		w->relro = w->relro_end = 0;
		return 0;
	}
	w->path = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : "/proc/self/exe";
	w->bias = info->dlpi_addr;
	return 1;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* ====================================================================== the file */

/* The whole file in memory; Return: NULL if it cannot be read. */
static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len == cap) {
			unsigned char *more = realloc(data, cap = cap ? cap * 2 : 1 << 20);
			if (!more)
				break;
			data = more;
		}
		size_t got = fread(data + *len, 1, cap - *len, f);
		*len += got;
		if (got == 0)
			break;
	}
	fclose(f);
	return data;
}

static int by_start(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* The section of type @type (SHT_SYMTAB, else the caller tries SHT_DYNSYM), checked to
 * lie in the file with its string table. */
static const Elf64_Shdr *section(const unsigned char *data, size_t len, unsigned type,
				 const Elf64_Shdr **strtab)
{
	const Elf64_Ehdr *eh = (const void *)data;
	if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > len ||
	    (len - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum)
		return NULL;
	const Elf64_Shdr *sh = (const void *)(data + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != type || sh[i].sh_link >= eh->e_shnum)
			continue;
		const Elf64_Shdr *st = &sh[sh[i].sh_link];
		if (sh[i].sh_offset > len || len - sh[i].sh_offset < sh[i].sh_size ||
		    st->sh_offset > len || len - st->sh_offset < st->sh_size)
			return NULL;
		*strtab = st;
		return &sh[i];
	}
	return NULL;
}

/* Functions and data of the symbol table, each local one with the file it came from. */
static void read_symbols(struct table *t, const unsigned char *data, size_t len)
{
	const Elf64_Shdr *strtab = NULL, *symtab = section(data, len, SHT_SYMTAB, &strtab);

	if (!symtab)
		symtab = section(data, len, SHT_DYNSYM, &strtab);
	if (!symtab)
		return;
	t->strings = malloc(strtab->sh_size + 1);
	size_t count = symtab->sh_size / sizeof(Elf64_Sym);
	t->syms = malloc((count ? count : 1) * sizeof(*t->syms));
	if (!t->strings || !t->syms)
		return;
	memcpy(t->strings, data + strtab->sh_offset, strtab->sh_size);
	t->strings[strtab->sh_size] = '\0';
	const Elf64_Sym *s = (const void *)(data + symtab->sh_offset);
	const Elf64_Ehdr *eh = (const void *)data;
	const Elf64_Shdr *sh = (const void *)(data + eh->e_shoff);
	unsigned file = 0;
	for (size_t i = 0; i < count; i++) {
		unsigned type = ELF64_ST_TYPE(s[i].st_info);
		if (s[i].st_name >= strtab->sh_size)
			continue;
		if (type == STT_FILE)
			file = s[i].st_name;
		if ((type != STT_FUNC && type != STT_OBJECT) || s[i].st_shndx == SHN_UNDEF ||
		    !s[i].st_value)
			continue;
		bool local = ELF64_ST_BIND(s[i].st_info) == STB_LOCAL;
		bool var = type == STT_OBJECT && s[i].st_shndx < eh->e_shnum &&
			   (sh[s[i].st_shndx].sh_flags & SHF_WRITE);
		t->syms[t->n++] = (struct sym){ s[i].st_value, s[i].st_size, s[i].st_name,
						local ? file : 0, var };
	}
	qsort(t->syms, t->n, sizeof(*t->syms), by_start);
}

static struct table *table_of(const char *path)
{
	for (struct table *t = tables; t; t = t->next)
		if (strcmp(t->path, path) == 0)
			return t;
	struct table *t = calloc(1, sizeof(*t));
	if (!t || !(t->path = strdup(path))) {
		free(t);
		return NULL;
	}
	size_t len;
	unsigned char *data = slurp(path, &len);
	if (data && len >= sizeof(Elf64_Ehdr) && memcmp(data, ELFMAG, SELFMAG) == 0 &&
	    data[EI_CLASS] == ELFCLASS64)
		read_symbols(t, data, len);
	free(data);
	t->next = tables;
	tables = t;
	return t;
}

/* ==================================================================== the lookup */

/* The symbols of the loaded object that holds @addr; Return: them, or NULL. */
static const struct table *table_holding(const void *addr, struct where *w)
{
	*w = (struct where){ (uintptr_t)addr, NULL, 0, 0, 0 };
#ifdef __EMSCRIPTEN__
	(void)holds;
	(void)table_of;
	return NULL; /* WebAssembly has no ELF image: addresses print as without kallsyms */
#else
	if (!addr || !dl_iterate_phdr(holds, w))
		return NULL;
	return table_of(w->path);
#endif
}

size_t kobj_ksym_file_vars(const void *anchor, const char *file, const char *except,
			   struct kobj_ksym_var **out)
{
	struct where w;
	const struct table *t = table_holding(anchor, &w);
	size_t n = 0;

	*out = NULL;
	for (size_t i = 0; t && i < t->n; i++) {
		const struct sym *s = &t->syms[i];
		if (!s->var || !s->file || !s->size ||
		    strcmp(base_name(t->strings + s->file), file) != 0 ||
		    strcmp(t->strings + s->name, except) == 0)
			continue;
		uintptr_t at = w.bias + s->start;
		if (at < w.relro_end && at + s->size > w.relro)
			continue; /* a constant the loader wrote: read-only now */
		struct kobj_ksym_var *more = realloc(*out, (n + 1) * sizeof(**out));
		if (!more)
			break;
		*out = more;
		(*out)[n++] = (struct kobj_ksym_var){ (void *)at, s->size };
	}
	return n;
}

bool kobj_ksym_lookup(const void *addr, struct kobj_ksym *sym)
{
	struct where w;
	const struct table *t = table_holding(addr, &w);

	if (!t)
		return false;
	if (!t->n)
		return false;
	uintptr_t at = w.addr - w.bias;
	size_t lo = 0, hi = t->n; /* the last symbol starting at or before @at */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->syms[mid].start <= at)
			lo = mid;
		else
			hi = mid;
	}
	const struct sym *s = &t->syms[lo];
	if (s->start > at || (at - s->start >= s->size && at != s->start))
		return false;
	sym->name = t->strings + s->name;
	sym->offset = at - s->start;
	sym->size = s->size;
	sym->module = s->file ? kobj_kmodule_of_file(base_name(t->strings + s->file)) : NULL;
	return true;
}
