/*
 * The model's invariants, checked after every step: the counts the ledger explains, the
 * references objects hold, the sysfs tree against the records, kset lists, freed memory
 * left alone, diagnostics that say something; and the views, which must print.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/pictures/pictures.h"
#include "core/report/report.h"
#include "tests/fuzz/core_fuzz.h"

#define MAX_REFS 1024

static const char *name_of(const struct kobj_record *r)
{
	return r->name[0] ? r->name : "(unnamed)";
}

/* A count refcount_t left saturated: the ledger no longer explains it. */
static bool saturated(const struct kobj_record *r)
{
	return r->era == KOBJ_ERA_TODAY && (r->refcount < 0 || r->refcount > INT_MAX / 2);
}

/* Does object @holder hold a reference of @kind on @obj? */
static bool holds(unsigned obj, unsigned holder, enum kobj_ref_kind kind)
{
	static struct kobj_ref refs[MAX_REFS];
	size_t n = kobj_refs_of(fz.w, obj, refs, MAX_REFS);
	for (size_t i = 0; i < n && i < MAX_REFS; i++)
		if (refs[i].kind == kind && refs[i].holder == holder)
			return true;
	return false;
}

/* The references on @r that count (a queued release does not). */
static int counted_refs(const struct kobj_record *r)
{
	static struct kobj_ref refs[MAX_REFS];
	size_t n = kobj_refs_of(fz.w, r->id, refs, MAX_REFS);
	int counted = 0;
	for (size_t i = 0; i < n && i < MAX_REFS; i++)
		counted += refs[i].kind != KOBJ_REF_PENDING;
	return counted;
}

/* What a live object holds is alive, and held through the ledger. */
static void check_holds(const struct kobj_record *r)
{
	const struct kobj_record *p = kobj_record_by_id(fz.w, r->parent);
	const struct kobj_record *k = kobj_record_by_id(fz.w, r->kset);

	if (r->parent && (!p || p->released))
		fz_fail("'%s' (id %u) holds parent %u, which is released", name_of(r), r->id,
			r->parent);
	/* today's kobject_del() drops the kset reference but leaves kobj->kset naming it */
	const bool holds_kset = r->kset && (r->in_sysfs || r->kset_ref);
	if (holds_kset && (!k || k->released))
		fz_fail("'%s' (id %u) holds kset %u, which is released", name_of(r), r->id, r->kset);
	if (r->parent && !holds(r->parent, r->id, KOBJ_REF_PARENT))
		fz_fail("'%s' (id %u) has parent %u but no parent reference in the ledger",
			name_of(r), r->id, r->parent);
	if (holds_kset && !holds(r->kset, r->id, KOBJ_REF_KSET))
		fz_fail("'%s' (id %u) has kset %u but no kset reference in the ledger", name_of(r),
			r->id, r->kset);
}

static void check_live(const struct kobj_record *r)
{
	int refs = counted_refs(r);
	if (!saturated(r) && r->refcount != refs)
		fz_fail("'%s' (id %u) has refcount %d but %d references in the ledger", name_of(r),
			r->id, r->refcount, refs);
	if (r->release_pending && r->refcount != 0 && !saturated(r))
		fz_fail("'%s' (id %u) waits for its release with refcount %d", name_of(r), r->id,
			r->refcount);
	if (r->memory_gone)
		fz_fail("'%s' (id %u) is live but its memory is gone", name_of(r), r->id);
	check_holds(r);
	/* in sysfs without a directory: an ancestor's del took it, as kernfs does */
	if (r->dir && !r->in_sysfs)
		fz_fail("'%s' (id %u) has a directory but is not in sysfs", name_of(r), r->id);
	if (r->dir && (sysfs_dirent_obj(r->dir) != r->id || !sysfs_dirent_is_object(r->dir)))
		fz_fail("'%s' (id %u): its directory belongs to object %u", name_of(r), r->id,
			sysfs_dirent_obj(r->dir));
	const struct kobject *k = r->kind == KOBJ_KIND_MODULE ? NULL : r->ptr;
	if (k && (k->kobj_id != r->id || (k->refcount != r->refcount && !saturated(r))))
		fz_fail("'%s' (id %u): the kobject says id %u refcount %d, the record %d",
			name_of(r), r->id, k->kobj_id, k->refcount, r->refcount);
}

static void check_released(const struct kobj_record *r)
{
	if (r->in_sysfs || r->dir || r->parent_ref || r->kset_ref || r->sysfs_ref)
		fz_fail("'%s' (id %u) is released but still in sysfs or holding references",
			name_of(r), r->id);
	if (r->kind != KOBJ_KIND_MODULE && kobj_refs_count(fz.w, r->id))
		fz_fail("'%s' (id %u) is released with %zu references outstanding", name_of(r),
			r->id, kobj_refs_count(fz.w, r->id));
}

/* ======================================================================== sysfs */

/* Every object directory belongs to a live record that says it is there; files and
 * links belong to live objects. Return: the number of object directories. */
static size_t check_dir(const struct sysfs_dirent *d, unsigned depth)
{
	const struct sysfs_dirent **list;
	size_t n = sysfs_children(d, 0, &list), dirs = 0;

	if (depth > 4096)
		fz_fail("the sysfs tree is deeper than 4096 levels: a loop?");
	for (size_t i = 0; i < n; i++) {
		const struct sysfs_dirent *c = list[i];
		const struct kobj_record *r = kobj_record_by_id(fz.w, sysfs_dirent_obj(c));
		if (sysfs_dirent_obj(c) && (!r || r->released))
			fz_fail("/sys entry '%s' belongs to object %u, which is released",
				sysfs_dirent_name(c), sysfs_dirent_obj(c));
		if (sysfs_dirent_is_object(c)) {
			if (!r->in_sysfs || r->dir != c)
				fz_fail("the directory '%s' is not the one '%s' (id %u) knows",
					sysfs_dirent_name(c), name_of(r), r->id);
			dirs++;
		}
		if (sysfs_dirent_type(c) == SYSFS_DIR)
			dirs += check_dir(c, depth + 1);
	}
	free(list);
	return dirs;
}

/* ========================================================================= ksets */

/* A live kset's list holds exactly its members in sysfs, each once. */
static void check_kset(const struct kobj_record *kr, size_t in_sysfs_members)
{
	const struct kset *kset = container_of(kr->ptr, struct kset, kobj);
	size_t n = 0;

	for (const struct list_head *p = kset->list.next; p != &kset->list; p = p->next) {
		const struct kobject *k = list_entry(p, struct kobject, entry);
		const struct kobj_record *r = kobj_record_of(fz.w, k);
		if (!r || r->released || !r->in_sysfs || r->kset != kr->id)
			fz_fail("kset '%s' (id %u) lists an object that is not its member in sysfs",
				name_of(kr), kr->id);
		if (++n > in_sysfs_members)
			fz_fail("kset '%s' (id %u) lists more members than it has", name_of(kr),
				kr->id);
	}
	if (n != in_sysfs_members)
		fz_fail("kset '%s' (id %u) lists %zu members; %zu are in sysfs", name_of(kr), kr->id,
			n, in_sysfs_members);
}

static void check_ksets(size_t nrec)
{
	size_t *members = calloc(nrec + 1, sizeof(*members));
	if (!members)
		abort();
	for (unsigned id = 1; id <= nrec; id++) {
		const struct kobj_record *r = kobj_record_by_id(fz.w, id);
		if (!r->released && r->in_sysfs && r->kset)
			members[r->kset]++;
	}
	for (unsigned id = 1; id <= nrec; id++) {
		const struct kobj_record *r = kobj_record_by_id(fz.w, id);
		bool kset = r->kind == KOBJ_KIND_KSET || r->kind == KOBJ_KIND_SUBSYSTEM;
		if (kset && !r->released)
			check_kset(r, members[id]);
		else if (members[id])
			fz_fail("'%s' (id %u) has members in sysfs but is no live kset",
				name_of(r), id);
	}
	free(members);
}

/* ================================================================ freed memory */

static void check_freed(void)
{
	for (size_t i = 0; i < fz.nblocks; i++) {
		const struct fz_block *b = &fz.blocks[i];
		if (b->snapshot && memcmp(b->mem, b->snapshot, b->size) != 0)
			fz_fail("memory freed at an earlier step was written to since");
	}
}

/* ========================================================================== all */

static size_t diags_seen;

static void check_diags(void)
{
	size_t n = kobj_diag_count(fz.w);
	if (n < diags_seen)
		diags_seen = 0; /* a new world */
	for (; diags_seen < n; diags_seen++) {
		const struct kobj_diag *d = kobj_diag_at(fz.w, diags_seen);
		if (!d->message[0] || !d->explanation[0] || strstr(d->explanation, "(null)"))
			fz_fail("diagnostic %zu says nothing clear: '%s' / '%s'", diags_seen,
				d->message, d->explanation);
	}
}

void fz_check(void)
{
	size_t nrec = kobj_record_count(fz.w), with_dir = 0;

	for (unsigned id = 1; id <= nrec; id++) {
		const struct kobj_record *r = kobj_record_by_id(fz.w, id);
		if (r->released)
			check_released(r);
		else
			check_live(r);
		with_dir += !r->released && r->dir;
	}
	size_t dirs = check_dir(sysfs_root(fz.w), 0);
	if (dirs != with_dir)
		fz_fail("%zu object directories in /sys, %zu objects with one", dirs, with_dir);
	check_ksets(nrec);
	check_freed();
	check_diags();
	static FILE *null;
	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	if (sysfs_print_tree(fz.w, "/sys", null) != 0)
		fz_fail("the tree of /sys does not print");
	kobj_leak_count(fz.w);
}

void fz_views(FILE *out)
{
	const struct kobj_dot_options dot = { .at_exit = true, .legend = true };

	kobj_log_print(fz.w, 0, out);
	for (size_t i = 0; i < kobj_diag_count(fz.w); i++)
		kobj_diag_print(kobj_diag_at(fz.w, i), out);
	kobj_leak_report(fz.w, out);
	if (sysfs_print_tree(fz.w, "/sys", out) != 0 || kobj_dot(fz.w, &dot, out) != 0)
		fz_fail("the tree or the picture of /sys does not print");
	for (size_t i = 0; i < kobj_hotplug_count(fz.w); i++)
		kobj_hotplug_print(kobj_hotplug_at(fz.w, i), out);
	kobj_trace_print(fz.w, out);
}
