/*
 * Simulated locks. The running simulated thread is the world's (sched.h; thread 0 when
 * there is no scheduler). A lock another thread holds makes the caller wait through the
 * scheduler; one the caller already holds is refused with lockdep's words.
 */
#include <errno.h>

#include "core/model/model_internal.h"
#include "core/model/sched.h"

static unsigned current_thread(void)
{
	return kobj_world_current()->thread;
}

static unsigned bit(unsigned thread)
{
	return 1u << (thread % 32);
}

int rwsem_is_held(const struct rw_semaphore *sem)
{
	unsigned t = current_thread();
	return sem->writer == t + 1 || (sem->readers & bit(t));
}

void init_rwsem(struct rw_semaphore *sem)
{
	*sem = (struct rw_semaphore)RWSEM_INITIALIZER;
}

static int refuse_recursion(struct kcall *c, const char *what)
{
	char where[256];
	kobj_diagnose(c, KOBJ_DIAG_RECURSIVE_LOCK, 0,
		    kobj_xasprintf("WARNING: possible recursive locking detected\n%s() is trying "
				   "to acquire a lock the task already holds.", c->op),
		    kobj_xasprintf("%s() at %s: this code already holds %s; taking it again "
				   "would wait forever for itself. The sandbox refused "
				   "(-EDEADLK).", c->op, kobj_site_where(c->w, c->site, where),
				   what));
	return -EDEADLK;
}

static bool read_free(const void *p)
{
	return !((const struct rw_semaphore *)p)->writer;
}

static bool write_free(const void *p)
{
	const struct rw_semaphore *sem = p;
	return !sem->writer && !sem->readers;
}

static unsigned rwsem_holders(const void *p)
{
	const struct rw_semaphore *sem = p;
	return sem->readers | (sem->writer ? bit(sem->writer - 1) : 0);
}

/* The lock changes hands: the explorer orders steps that do this to one lock. */
static void touch(const void *lock)
{
	kobj_sched_touch(KOBJ_RES_ADDRESS, (uintptr_t)lock, true);
}

int (down_read)(struct rw_semaphore *sem)
{
	struct kcall c = kobj_call("down_read");
	if (rwsem_is_held(sem))
		return refuse_recursion(&c, "the semaphore");
	if (kobj_sched_wait(&c, sem, read_free, rwsem_holders))
		return -EDEADLK;
	touch(sem);
	sem->readers |= bit(c.w->thread);
	sem->acquired++;
	return 0;
}

int (down_write)(struct rw_semaphore *sem)
{
	struct kcall c = kobj_call("down_write");
	if (rwsem_is_held(sem))
		return refuse_recursion(&c, "the semaphore");
	if (kobj_sched_wait(&c, sem, write_free, rwsem_holders))
		return -EDEADLK;
	touch(sem);
	sem->writer = c.w->thread + 1;
	sem->acquired++;
	return 0;
}

int down_read_trylock(struct rw_semaphore *sem)
{
	touch(sem);
	if (rwsem_is_held(sem) || !read_free(sem))
		return 0;
	sem->readers |= bit(current_thread());
	sem->acquired++;
	return 1;
}

int down_write_trylock(struct rw_semaphore *sem)
{
	touch(sem);
	if (rwsem_is_held(sem) || !write_free(sem))
		return 0;
	sem->writer = current_thread() + 1;
	sem->acquired++;
	return 1;
}

void (up_read)(struct rw_semaphore *sem)
{
	struct kcall c = kobj_call("up_read");
	if (!(sem->readers & bit(c.w->thread)))
		return;
	touch(sem);
	sem->readers &= ~bit(c.w->thread);
	kobj_sched_point(&c, KOBJ_SCHED_UNLOCK);
}

void (up_write)(struct rw_semaphore *sem)
{
	struct kcall c = kobj_call("up_write");
	if (sem->writer != c.w->thread + 1)
		return;
	touch(sem);
	sem->writer = 0;
	kobj_sched_point(&c, KOBJ_SCHED_UNLOCK);
}

/* ========================================================================= spinlocks */

void spin_lock_init(spinlock_t *lock)
{
	lock->holder = 0;
}

static bool spin_free(const void *p)
{
	return !((const spinlock_t *)p)->holder;
}

static unsigned spin_holders(const void *p)
{
	unsigned holder = ((const spinlock_t *)p)->holder;
	return holder ? bit(holder - 1) : 0;
}

void (spin_lock)(spinlock_t *lock)
{
	struct kcall c = kobj_call("spin_lock");
	if (lock->holder == c.w->thread + 1) {
		refuse_recursion(&c, "the spinlock");
		return;
	}
	if (kobj_sched_wait(&c, lock, spin_free, spin_holders))
		return;
	touch(lock);
	lock->holder = c.w->thread + 1;
}

void (spin_unlock)(spinlock_t *lock)
{
	struct kcall c = kobj_call("spin_unlock");
	if (lock->holder != c.w->thread + 1)
		return;
	touch(lock);
	lock->holder = 0;
	kobj_sched_point(&c, KOBJ_SCHED_UNLOCK);
}

int spin_is_locked(const spinlock_t *lock)
{
	return lock->holder != 0;
}
