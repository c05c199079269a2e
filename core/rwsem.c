/*
 * Reader/writer semaphores on a mutex and a condition variable. Each thread remembers
 * which ones it holds, as lockdep does, so that taking one twice is reported instead
 * of hanging the sandbox.
 */
#include <errno.h>

#include "core/world_internal.h"

#define MAX_HELD 16

static _Thread_local const struct rw_semaphore *held[MAX_HELD];
static _Thread_local int nheld;

int rwsem_is_held(const struct rw_semaphore *sem)
{
	for (int i = 0; i < nheld; i++)
		if (held[i] == sem)
			return 1;
	return 0;
}

static void note_held(const struct rw_semaphore *sem)
{
	if (nheld < MAX_HELD)
		held[nheld++] = sem;
}

static void note_released(const struct rw_semaphore *sem)
{
	for (int i = nheld - 1; i >= 0; i--) {
		if (held[i] == sem) {
			held[i] = held[--nheld];
			return;
		}
	}
}

void init_rwsem(struct rw_semaphore *sem)
{
	pthread_mutex_init(&sem->lock, NULL);
	pthread_cond_init(&sem->changed, NULL);
	sem->readers = 0;
	sem->writer = 0;
	sem->acquired = 0;
}

static int refuse_recursion(const struct rw_semaphore *sem, const char *op)
{
	struct kobj_world *w = kobj_world_current();
	struct kobj_origin o = kobj_take_origin(w);
	char where[256];

	if (!rwsem_is_held(sem))
		return 0;
	kobj_diag_add(w, KOBJ_DIAG_RECURSIVE_LOCK, 0, o,
		      kobj_xasprintf("WARNING: possible recursive locking detected\n"
				     "%s() is trying to acquire a lock the task already holds.",
				     op),
		      kobj_xasprintf("%s() at %s: this code already holds the semaphore; "
				     "taking it again would wait forever for itself. The "
				     "sandbox refused (-EDEADLK).", op, kobj_where(o, where)));
	return -EDEADLK;
}

int down_read(struct rw_semaphore *sem)
{
	if (refuse_recursion(sem, "down_read"))
		return -EDEADLK;
	pthread_mutex_lock(&sem->lock);
	while (sem->writer)
		pthread_cond_wait(&sem->changed, &sem->lock);
	sem->readers++;
	sem->acquired++;
	pthread_mutex_unlock(&sem->lock);
	note_held(sem);
	return 0;
}

int down_write(struct rw_semaphore *sem)
{
	if (refuse_recursion(sem, "down_write"))
		return -EDEADLK;
	pthread_mutex_lock(&sem->lock);
	while (sem->writer || sem->readers)
		pthread_cond_wait(&sem->changed, &sem->lock);
	sem->writer = 1;
	sem->acquired++;
	pthread_mutex_unlock(&sem->lock);
	note_held(sem);
	return 0;
}

int down_read_trylock(struct rw_semaphore *sem)
{
	int ok;
	if (rwsem_is_held(sem))
		return 0;
	pthread_mutex_lock(&sem->lock);
	ok = !sem->writer;
	if (ok) {
		sem->readers++;
		sem->acquired++;
	}
	pthread_mutex_unlock(&sem->lock);
	if (ok)
		note_held(sem);
	return ok;
}

int down_write_trylock(struct rw_semaphore *sem)
{
	int ok;
	if (rwsem_is_held(sem))
		return 0;
	pthread_mutex_lock(&sem->lock);
	ok = !sem->writer && !sem->readers;
	if (ok) {
		sem->writer = 1;
		sem->acquired++;
	}
	pthread_mutex_unlock(&sem->lock);
	if (ok)
		note_held(sem);
	return ok;
}

/* Releasing a semaphore this thread does not hold is ignored: counts never go wrong. */
void up_read(struct rw_semaphore *sem)
{
	if (!rwsem_is_held(sem))
		return;
	note_released(sem);
	pthread_mutex_lock(&sem->lock);
	if (sem->readers > 0)
		sem->readers--;
	pthread_cond_broadcast(&sem->changed);
	pthread_mutex_unlock(&sem->lock);
}

void up_write(struct rw_semaphore *sem)
{
	if (!rwsem_is_held(sem))
		return;
	note_released(sem);
	pthread_mutex_lock(&sem->lock);
	sem->writer = 0;
	pthread_cond_broadcast(&sem->changed);
	pthread_mutex_unlock(&sem->lock);
}
