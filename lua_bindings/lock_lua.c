/*
 * Locks from Lua, as kernel code takes them: a kset's list_lock (spin_lock(kset)), a
 * subsystem's rwsem (down_read(subsys)...), and locks of a program's own (new_spinlock,
 * new_rwsem). A simulated thread that wants a lock another holds waits (core/race).
 */
#include "lua_bindings/race_lua.h"

#define SPINLOCK_META "spinlock_t"
#define RWSEM_META "rw_semaphore"

static spinlock_t *check_spinlock(lua_State *L, const char *op)
{
	spinlock_t *lock = luaL_testudata(L, 1, SPINLOCK_META);
	struct kl_handle *h = lock ? NULL : kl_tohandle(L, 1);
	if (lock)
		return lock;
	if (!h || h->type != KL_KSET)
		luaL_error(L, "%s: give a kset (its list_lock) or a lock from new_spinlock(), not "
			   "a %s", op, kl_typename(L, 1));
	return &((struct kset *)kl_view(kl_check(L, 1, KL_KSET, op), KL_KSET))->list_lock;
}

static struct rw_semaphore *check_rwsem(lua_State *L, const char *op)
{
	struct rw_semaphore *sem = luaL_testudata(L, 1, RWSEM_META);
	struct kl_handle *h = sem ? NULL : kl_tohandle(L, 1);
	if (sem)
		return sem;
	if (!h || h->type != KL_SUBSYS)
		luaL_error(L, "%s: give a subsystem (its rwsem) or a lock from new_rwsem(), not "
			   "a %s", op, kl_typename(L, 1));
	return &((struct subsystem *)kl_view(kl_check(L, 1, KL_SUBSYS, op), KL_SUBSYS))->rwsem;
}

static int l_spin_lock(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	spinlock_t *lock = check_spinlock(L, "spin_lock");
	kl_enter(L, ctx);
	(spin_lock)(lock);
	kl_leave(ctx);
	return 0;
}

static int l_spin_unlock(lua_State *L)
{
	struct kl_ctx *ctx = kl_getctx(L);
	spinlock_t *lock = check_spinlock(L, "spin_unlock");
	kl_enter(L, ctx);
	(spin_unlock)(lock);
	kl_leave(ctx);
	return 0;
}

/* down_read, down_write (0 or -EDEADLK), up_read, up_write of a subsystem or rwsem. */
static int rwsem_call(lua_State *L, const char *op, int (*take)(struct rw_semaphore *),
		      void (*give_back)(struct rw_semaphore *))
{
	struct kl_ctx *ctx = kl_getctx(L);
	struct rw_semaphore *sem = check_rwsem(L, op);
	int err = 0;
	kl_enter(L, ctx);
	if (take)
		err = take(sem);
	else
		give_back(sem);
	kl_leave(ctx);
	lua_pushinteger(L, err);
	return take ? 1 : 0;
}

static int l_down_read(lua_State *L)
{
	return rwsem_call(L, "down_read", (down_read), NULL);
}

static int l_down_write(lua_State *L)
{
	return rwsem_call(L, "down_write", (down_write), NULL);
}

static int l_up_read(lua_State *L)
{
	return rwsem_call(L, "up_read", NULL, (up_read));
}

static int l_up_write(lua_State *L)
{
	return rwsem_call(L, "up_write", NULL, (up_write));
}

/* lockdep_is_held(lock): whether the running thread holds @lock, a kset's list_lock, a
 * subsystem's rwsem or a lock of a program's own. */
static int l_lockdep_is_held(lua_State *L)
{
	struct kl_handle *h = kl_tohandle(L, 1);
	bool rwsem = luaL_testudata(L, 1, RWSEM_META) || (h && h->type == KL_SUBSYS);
	if (rwsem) {
		lua_pushboolean(L, rwsem_is_held(check_rwsem(L, "lockdep_is_held")));
	} else {
		const spinlock_t *lock = check_spinlock(L, "lockdep_is_held");
		lua_pushboolean(L, lock->holder && lock->holder == kobj_race_current() + 1);
	}
	return 1;
}

/* new_spinlock() and new_rwsem(): locks of a program's own, unlocked. */
static int l_new_spinlock(lua_State *L)
{
	spinlock_t *lock = lua_newuserdatauv(L, sizeof(*lock), 0);
	spin_lock_init(lock);
	luaL_setmetatable(L, SPINLOCK_META);
	return 1;
}

static int l_new_rwsem(lua_State *L)
{
	struct rw_semaphore *sem = lua_newuserdatauv(L, sizeof(*sem), 0);
	init_rwsem(sem);
	luaL_setmetatable(L, RWSEM_META);
	return 1;
}

static int spinlock_tostring(lua_State *L)
{
	const spinlock_t *lock = luaL_checkudata(L, 1, SPINLOCK_META);
	if (lock->holder)
		lua_pushfstring(L, "spinlock (held by thread %d)", (int)lock->holder - 1);
	else
		lua_pushliteral(L, "spinlock (free)");
	return 1;
}

static int rwsem_tostring(lua_State *L)
{
	const struct rw_semaphore *sem = luaL_checkudata(L, 1, RWSEM_META);
	if (sem->writer)
		lua_pushfstring(L, "rw_semaphore (held for writing by thread %d)",
				(int)sem->writer - 1);
	else if (sem->readers)
		lua_pushliteral(L, "rw_semaphore (held for reading)");
	else
		lua_pushliteral(L, "rw_semaphore (free)");
	return 1;
}

static const luaL_Reg lock_functions[] = {
	{ "spin_lock", l_spin_lock },
	{ "spin_unlock", l_spin_unlock },
	{ "down_read", l_down_read },
	{ "down_write", l_down_write },
	{ "up_read", l_up_read },
	{ "up_write", l_up_write },
	{ "lockdep_is_held", l_lockdep_is_held },
	{ "new_spinlock", l_new_spinlock },
	{ "new_rwsem", l_new_rwsem },
	{ NULL, NULL },
};

void kl_open_locks(lua_State *L)
{
	luaL_setfuncs(L, lock_functions, 0);
	if (luaL_newmetatable(L, SPINLOCK_META)) {
		lua_pushcfunction(L, spinlock_tostring);
		lua_setfield(L, -2, "__tostring");
	}
	lua_pop(L, 1);
	if (luaL_newmetatable(L, RWSEM_META)) {
		lua_pushcfunction(L, rwsem_tostring);
		lua_setfield(L, -2, "__tostring");
	}
	lua_pop(L, 1);
}
