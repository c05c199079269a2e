/*
 * The operations an input is made of. Each reads its arguments from the input: slots of
 * the pool (s0..s7), names, types, counts. A slot may be empty (the call gets NULL) or
 * stale (its memory was freed: only calls that take the pointer are made with it, as a
 * buggy caller would; none that write into it).
 */
#include <errno.h>
#include <string.h>

#include "tests/fuzz/core_fuzz.h"
#include "tests/fuzz/core_types.h"

#define TRACE(...)                                                                     \
	do {                                                                           \
		if (fz.trace) {                                                        \
			fprintf(fz.trace, "%*s", 2 * (int)fz.depth, "");               \
			fprintf(fz.trace, __VA_ARGS__);                                \
			fputc('\n', fz.trace);                                         \
		}                                                                      \
	} while (0)

static const char *const names[] = {
	"a", "b", "a", "eth0", "x/y", "", "nineteen_characters", "twenty_characters_20",
	"a_name_that_is_much_longer_than_the_twenty_characters_name_holds_in_2_6_0_style",
	"kernel", "grp", "alpha",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

/* =================================================================== arguments */

static unsigned arg_slot(void)
{
	return fz_byte() % FZ_SLOTS;
}

static const char *arg_name(void)
{
	return names[fz_byte() % NNAMES];
}

static struct fz_block *block_of(unsigned s)
{
	return fz.slot[s].block ? &fz.blocks[fz.slot[s].block - 1] : NULL;
}

/* The slot's kobject even if stale (only its address is passed on); NULL when empty. */
static struct kobject *any_kobj(unsigned s)
{
	return fz.slot[s].kobj;
}

struct kobject *fz_live_kobj(unsigned s)
{
	const struct fz_block *b = block_of(s);
	return b && b->freed ? NULL : fz.slot[s].kobj;
}

/* The slot's kset, for slots that hold one (stale ones included); else NULL. */
static struct kset *any_kset(unsigned s)
{
	enum fz_kind k = fz.slot[s].kind;
	bool kset = k == FZ_KSET || k == FZ_SUBSYS || k == FZ_DYN_KSET;
	return kset ? container_of(fz.slot[s].kobj, struct kset, kobj) : NULL;
}

static struct subsystem *any_subsys(unsigned s)
{
	return fz.slot[s].kind == FZ_SUBSYS ? container_of(any_kset(s), struct subsystem, kset)
					     : NULL;
}

static void fill(unsigned s, enum fz_kind kind, void *mem, size_t size, struct kobject *kobj,
		 bool core)
{
	fz.slot[s] = (struct fz_slot){ kind, mem ? fz_block_new(mem, size, kobj, kind, core) : 0,
				      kobj };
	if (!kobj)
		fz.slot[s].kind = FZ_EMPTY;
}

/* ================================================================== new objects */

static void op_new_thing(void)
{
	unsigned s = arg_slot(), t = fz_byte() % FZ_KTYPES;
	TRACE("s%u = kzalloc(thing); s%u->ktype = &ktype%u;", s, s, t);
	struct fz_thing *thing = kzalloc(sizeof(*thing), GFP_KERNEL);
	if (thing)
		thing->kobj.ktype = &fz_ktypes[t];
	fill(s, FZ_THING, thing, sizeof(*thing), thing ? &thing->kobj : NULL, false);
}

/* A kset in zeroed memory: today's (its kobject has a ktype) or the article's, with
 * events of its era, and maybe a ktype for its members. */
static void op_new_kset(void)
{
	unsigned s = arg_slot(), how = fz_byte();
	TRACE("s%u = kzalloc(kset) /* %s */;", s, how & 1 ? "today's" : "2.6.0");
	struct kset *kset = kzalloc(sizeof(*kset), GFP_KERNEL);
	if (kset && how & 1) {
		kset->kobj.ktype = &fz_kset_ktype;
		kset->uevent_ops = how & 2 ? &fz_uevent_ops : NULL;
	} else if (kset) {
		kset->ktype = how & 2 ? &fz_ktypes[how / 4 % FZ_KTYPES] : NULL;
		kset->hotplug_ops = how & 4 ? &fz_hotplug_ops : NULL;
	}
	fill(s, FZ_KSET, kset, sizeof(*kset), kset ? &kset->kobj : NULL, false);
}

static void op_new_subsys(void)
{
	unsigned s = arg_slot(), how = fz_byte();
	TRACE("s%u = kzalloc(subsystem);", s);
	struct subsystem *sub = kzalloc(sizeof(*sub), GFP_KERNEL);
	if (sub) {
		sub->kset.ktype = how & 1 ? &fz_ktypes[how / 2 % FZ_KTYPES] : NULL;
		sub->kset.hotplug_ops = how & 8 ? &fz_hotplug_ops : NULL;
	}
	fill(s, FZ_SUBSYS, sub, sizeof(*sub), sub ? &sub->kset.kobj : NULL, false);
}

static void op_create_and_add(void)
{
	unsigned s = arg_slot(), p = arg_slot();
	const char *name = arg_name();
	TRACE("s%u = kobject_create_and_add(\"%s\", s%u);", s, name, p);
	struct kobject *k = kobject_create_and_add(name, any_kobj(p));
	fill(s, FZ_DYN, k, sizeof(*k), k, true);
}

static void op_kset_create_and_add(void)
{
	unsigned s = arg_slot(), p = arg_slot(), ops = fz_byte();
	const char *name = arg_name();
	TRACE("s%u = kset_create_and_add(\"%s\", %s, s%u);", s, name, ops & 1 ? "ops" : "NULL",
	      p);
	struct kset *k = kset_create_and_add(name, ops & 1 ? &fz_uevent_ops : NULL, any_kobj(p));
	fill(s, FZ_DYN_KSET, k, sizeof(*k), k ? &k->kobj : NULL, true);
}

static void op_builtin(void)
{
	unsigned s = arg_slot(), which = fz_byte() % KOBJ_BUILTIN_COUNT;
	TRACE("s%u = builtin%u;", s, which);
	struct kobject *k = kobj_builtin_kobj((enum kobj_builtin)which);
	fill(s, FZ_BUILTIN, k, sizeof(*k), k, true);
}

/* ============================================================ fields (writes) */

/* Would @p under @k make a loop of parents? Lua refuses that assignment too. */
static bool makes_cycle(const struct kobject *k, const struct kobject *p)
{
	for (unsigned n = 0; p && n < 64; p = p->parent, n++)
		if (p == k)
			return true;
	return p != NULL;
}

/* An object may be re-parented only out of sysfs, as the Lua bindings insist. */
static bool movable(struct kobject *k)
{
	const struct kobj_record *r = k ? kobj_record_of(fz.w, k) : NULL;
	return k && !(r && !r->released && r->in_sysfs);
}

static void op_set_parent(void)
{
	unsigned s = arg_slot(), p = arg_slot();
	struct kobject *k = fz_live_kobj(s), *parent = fz_live_kobj(p);
	if (!movable(k) || makes_cycle(k, parent))
		return;
	TRACE("s%u->parent = s%u;", s, p);
	k->parent = parent;
}

static void op_set_kset(void)
{
	unsigned s = arg_slot(), p = arg_slot();
	struct kobject *k = fz_live_kobj(s);
	struct kset *kset = fz_live_kobj(p) ? any_kset(p) : NULL;
	if (!movable(k) || (kset && makes_cycle(k, &kset->kobj)))
		return;
	TRACE("s%u->kset = s%u;", s, p);
	k->kset = kset;
}

static void op_set_subsys(void)
{
	unsigned s = arg_slot(), p = arg_slot();
	struct kset *kset = fz_live_kobj(s) ? any_kset(s) : NULL;
	if (!kset || !movable(&kset->kobj))
		return;
	TRACE("to_kset(s%u)->subsys = s%u;", s, p);
	kset->subsys = fz_live_kobj(p) ? any_subsys(p) : NULL;
}

static void op_suppress(void)
{
	unsigned s = arg_slot();
	struct kobject *k = fz_live_kobj(s);
	if (!k)
		return;
	TRACE("s%u->uevent_suppress ^= 1;", s);
	k->uevent_suppress = !k->uevent_suppress;
}

/* ========================================================= init and naming */

static void op_init(void)
{
	unsigned s = arg_slot();
	struct kobject *k = fz_live_kobj(s);
	if (!k && any_kobj(s))
		return;
	if (any_subsys(s)) {
		TRACE("subsystem_init(s%u);", s);
		subsystem_init(any_subsys(s));
	} else if (any_kset(s) && fz_byte() % 2) {
		TRACE("kset_init(s%u);", s);
		kset_init(any_kset(s));
	} else {
		TRACE("kobject_init(s%u);", s);
		kobject_init(k);
	}
}

static void op_init_today(void)
{
	unsigned s = arg_slot(), t = fz_byte() % (FZ_KTYPES + 1);
	struct kobject *k = fz_live_kobj(s);
	if ((!k && any_kobj(s)) || any_kset(s))
		return; /* a kset's kobject keeps the kset's own ktype */
	TRACE("kobject_init(s%u, ktype%u);", s, t);
	kobject_init(k, t < FZ_KTYPES ? &fz_ktypes[t] : NULL);
}

static void op_set_name(void)
{
	unsigned s = arg_slot();
	const char *name = arg_name();
	struct kobject *k = fz_live_kobj(s);
	if (!k && any_kobj(s))
		return;
	TRACE("kobject_set_name(s%u, \"%%s\", \"%s\");", s, name);
	kobject_set_name(k, "%s", name);
}

static void op_rename(void)
{
	unsigned s = arg_slot();
	const char *name = arg_name();
	TRACE("kobject_rename(s%u, \"%s\");", s, name);
	kobject_rename(any_kobj(s), name);
}

static void op_init_and_add(void)
{
	unsigned s = arg_slot(), t = fz_byte() % FZ_KTYPES, p = arg_slot();
	const char *name = arg_name();
	struct kobject *k = fz_live_kobj(s);
	if ((!k && any_kobj(s)) || any_kset(s))
		return;
	TRACE("kobject_init_and_add(s%u, ktype%u, s%u, \"%s\");", s, t, p, name);
	kobject_init_and_add(k, &fz_ktypes[t], any_kobj(p), "%s", name);
}

/* ====================================================== references, add, del */

static void op_get(void)
{
	unsigned s = arg_slot();
	TRACE("kobject_get(s%u);", s);
	kobject_get(any_kobj(s));
}

static void op_put(void)
{
	unsigned s = arg_slot();
	TRACE("kobject_put(s%u);", s);
	kobject_put(any_kobj(s));
}

static void op_get_unless_zero(void)
{
	unsigned s = arg_slot();
	TRACE("kobject_get_unless_zero(s%u);", s);
	kobject_get_unless_zero(any_kobj(s));
}

static void op_add(void)
{
	unsigned s = arg_slot();
	TRACE("kobject_add(s%u);", s);
	kobject_add(any_kobj(s));
}

static void op_add_named(void)
{
	unsigned s = arg_slot(), p = arg_slot();
	const char *name = arg_name();
	struct kobject *k = fz_live_kobj(s);
	if (!k && any_kobj(s))
		return; /* it names the object: a write */
	TRACE("kobject_add(s%u, s%u, \"%s\");", s, p, name);
	kobject_add(k, any_kobj(p), "%s", name);
}

static void op_del(void)
{
	unsigned s = arg_slot();
	TRACE("kobject_del(s%u);", s);
	kobject_del(any_kobj(s));
}

/* register initialises: never on freed memory. */
static void op_register(void)
{
	unsigned s = arg_slot();
	if (!fz_live_kobj(s) && any_kobj(s))
		return;
	if (any_subsys(s)) {
		TRACE("subsystem_register(s%u);", s);
		subsystem_register(any_subsys(s));
	} else if (any_kset(s)) {
		TRACE("kset_register(s%u);", s);
		kset_register(any_kset(s));
	} else {
		TRACE("kobject_register(s%u);", s);
		kobject_register(any_kobj(s));
	}
}

static void op_unregister(void)
{
	unsigned s = arg_slot();
	if (any_subsys(s)) {
		TRACE("subsystem_unregister(s%u);", s);
		subsystem_unregister(any_subsys(s));
	} else if (any_kset(s)) {
		TRACE("kset_unregister(s%u);", s);
		kset_unregister(any_kset(s));
	} else {
		TRACE("kobject_unregister(s%u);", s);
		kobject_unregister(any_kobj(s));
	}
}

static void op_kset_add(void)
{
	unsigned s = arg_slot();
	TRACE("kset_add(s%u);", s);
	kset_add(any_kset(s));
}

static void op_kset_get_put(void)
{
	unsigned s = arg_slot(), how = fz_byte() % 4;
	static const char *const calls[] = { "kset_get", "kset_put", "subsys_get", "subsys_put" };
	TRACE("%s(s%u);", calls[how], s);
	switch (how) {
	case 0:
		kset_get(any_kset(s));
		break;
	case 1:
		kset_put(any_kset(s));
		break;
	case 2:
		subsys_get(any_subsys(s));
		break;
	default:
		subsys_put(any_subsys(s));
		break;
	}
}

static void op_find(void)
{
	unsigned s = arg_slot();
	const char *name = arg_name();
	TRACE("kset_find_obj(s%u, \"%s\");", s, name);
	kset_find_obj(any_kset(s), name);
}

static void op_move(void)
{
	unsigned s = arg_slot(), p = arg_slot();
	TRACE("kobject_move(s%u, s%u);", s, p);
	kobject_move(any_kobj(s), any_kobj(p));
}

static void op_get_path(void)
{
	unsigned s = arg_slot();
	TRACE("kfree(kobject_get_path(s%u, GFP_KERNEL));", s);
	kfree(kobject_get_path(any_kobj(s), GFP_KERNEL));
}

/* kfree() of what a slot holds, live or not: reported, kept or freed. */
static void op_kfree(void)
{
	unsigned s = arg_slot();
	struct fz_block *b = block_of(s);
	if (!b || b->core)
		return; /* the core's memory is not the caller's to free */
	TRACE("kfree(s%u);", s);
	kfree(b->mem);
	const struct kobj_record *r = kobj_record_of(fz.w, fz.slot[s].kobj);
	if (!b->freed && (!r || r->released))
		fz_block_freed(b->mem);
}

/* ========================================================================= events */

static void op_uevent(void)
{
	unsigned s = arg_slot(), action = fz_byte() % 9; /* 8 is no action */
	TRACE("kobject_uevent(s%u, %u);", s, action);
	kobject_uevent(any_kobj(s), (enum kobject_action)action);
}

static void op_uevent_env(void)
{
	unsigned s = arg_slot(), many = fz_byte() % 2;
	static char var[] = "EXTRA=1";
	char *envp[UEVENT_NUM_ENVP + 2];
	size_t n = many ? UEVENT_NUM_ENVP + 1 : 1;
	for (size_t i = 0; i < n; i++)
		envp[i] = var;
	envp[n] = NULL;
	TRACE("kobject_uevent_env(s%u, KOBJ_CHANGE, /* %zu variables */);", s, n);
	kobject_uevent_env(any_kobj(s), KOBJ_CHANGE, envp);
}

/* ========================================================================== sysfs */

static void op_file(void)
{
	unsigned s = arg_slot(), a = fz_byte();
	struct attribute *attr = &fz_kattrs[a / 2 % FZ_ATTRS].attr;
	TRACE("sysfs_%s_file(s%u, attr%u);", a & 1 ? "remove" : "create", s, a / 2 % FZ_ATTRS);
	if (a & 1)
		sysfs_remove_file(any_kobj(s), attr);
	else
		sysfs_create_file(any_kobj(s), attr);
}

static void op_group(void)
{
	unsigned s = arg_slot(), g = fz_byte();
	const struct attribute_group *grp = &fz_groups[g / 2 % FZ_GROUPS];
	TRACE("sysfs_%s_group(s%u, group%u);", g & 1 ? "remove" : "create", s, g / 2 % FZ_GROUPS);
	if (g & 1)
		sysfs_remove_group(any_kobj(s), grp);
	else
		sysfs_create_group(any_kobj(s), grp);
}

static void op_groups(void)
{
	static const struct attribute_group *list[] = { &fz_groups[0], &fz_groups[1],
							&fz_groups[2], NULL };
	unsigned s = arg_slot(), remove = fz_byte() % 2;
	TRACE("sysfs_%s_groups(s%u, groups);", remove ? "remove" : "create", s);
	if (remove)
		sysfs_remove_groups(any_kobj(s), list);
	else
		sysfs_create_groups(any_kobj(s), list);
}

static void op_link(void)
{
	unsigned s = arg_slot(), t = arg_slot(), remove = fz_byte() % 2;
	const char *name = arg_name();
	TRACE("sysfs_%s_link(s%u, s%u, \"%s\");", remove ? "remove" : "create", s, t, name);
	if (remove)
		sysfs_remove_link(any_kobj(s), name);
	else
		sysfs_create_link(any_kobj(s), any_kobj(t), name);
}

/* Reads or writes a file of the slot's object, found by its path as user space would. */
static void op_read_write(void)
{
	unsigned s = arg_slot(), a = fz_byte();
	char path[512], buf[64];
	const struct kobj_record *r = fz_live_kobj(s) ? kobj_record_of(fz.w, any_kobj(s)) : NULL;
	if (!r || r->released || !r->dir)
		return;
	size_t n = sysfs_dirent_path(r->dir, path, sizeof(path));
	const char *file = a & 4 ? "grp/alpha" : fz_kattrs[a / 8 % FZ_ATTRS].attr.name;
	if (n >= sizeof(path) - 16)
		return;
	snprintf(path + n, sizeof(path) - n, "/%s", file);
	TRACE("sysfs_%s(\"%s\");", a & 1 ? "write" : "read", path);
	if (a & 1)
		sysfs_write(fz.w, path, a & 2 ? "12" : "junk", a & 2 ? 2 : 4);
	else
		sysfs_read(fz.w, path, buf, sizeof(buf));
}

/* ======================================================= the world and modules */

static void op_fail_alloc(void)
{
	unsigned n = 1 + fz_byte() % 8;
	TRACE("kobj_world_fail_alloc(w, %u);", n);
	kobj_world_fail_alloc(fz.w, n);
}

static void op_debug(void)
{
	unsigned flags = fz_byte() % 4;
	TRACE("kobj_world_set_debug(w, %u);", flags);
	kobj_world_set_debug(fz.w, flags);
}

static void op_advance(void)
{
	unsigned long ticks = (unsigned long)(fz_byte() % 16) * 25;
	TRACE("kobj_world_advance(w, %lu);", ticks);
	kobj_world_advance(fz.w, ticks);
}

static void op_module(void)
{
	static const char *const mods[FZ_MODULES] = { "m0", "m1", "m0" };
	unsigned m = fz_byte() % FZ_MODULES, how = fz_byte() % 4;
	static const char *const calls[] = { "module_load", "try_module_get", "module_put",
					     "module_unload" };
	TRACE("%s(m%u);", calls[how], m);
	switch (how) {
	case 0:
		fz.mod[m] = module_load(mods[m], NULL);
		break;
	case 1:
		try_module_get(fz.mod[m]);
		break;
	case 2:
		module_put(fz.mod[m]);
		break;
	default:
		module_unload(fz.mod[m]);
		break;
	}
}

/* ========================================================================= decode */

static void (*const ops[])(void) = {
	op_new_thing, op_new_kset, op_new_subsys, op_create_and_add, op_kset_create_and_add,
	op_builtin, op_set_parent, op_set_kset, op_set_subsys, op_suppress, op_init,
	op_init_today, op_set_name, op_rename, op_init_and_add, op_get, op_put,
	op_get_unless_zero, op_add, op_add_named, op_del, op_register, op_unregister,
	op_kset_add, op_kset_get_put, op_find, op_move, op_get_path, op_kfree, op_uevent,
	op_uevent_env, op_file, op_group, op_groups, op_link, op_read_write, op_fail_alloc,
	op_debug, op_advance, op_module,
};

void fz_op(void)
{
	ops[fz_byte() % (sizeof(ops) / sizeof(ops[0]))]();
}

/* The harness's blocks go back with kfree(), live or not; the core's stay its own. */
void fz_pool_free(void)
{
	for (size_t i = 0; i < fz.nblocks; i++)
		if (!fz.blocks[i].core && !fz.blocks[i].freed)
			kfree(fz.blocks[i].mem);
}
