/*
 * Reader/writer semaphores as a subsystem uses them to guard its kset lists, simulated:
 * no host lock, since one host thread at a time runs the core (world.h). Each simulated
 * kernel thread's holdings are tracked, as lockdep does, so that taking one twice is
 * reported instead of hanging; a semaphore held by another simulated thread makes the
 * caller wait (the scheduler switches threads, sched.h), and threads that wait for each
 * other are reported as a deadlock.
 */
#ifndef KOBJ_RWSEM_H
#define KOBJ_RWSEM_H

struct rw_semaphore {
	unsigned readers;       /* bit n: simulated thread n holds it for reading */
	unsigned writer;        /* thread + 1 holding it for writing, or 0 */
	unsigned long acquired; /* how many times it was taken, for lessons */
};

#define RWSEM_INITIALIZER { 0, 0, 0 }

void init_rwsem(struct rw_semaphore *sem);
/* Return: 0, or -EDEADLK (with a diagnostic) if this thread already holds @sem, or if
 * waiting for it can never end. */
int down_read(struct rw_semaphore *sem);
int down_write(struct rw_semaphore *sem);
/* Return: 1 if taken, 0 if it is busy. */
int down_read_trylock(struct rw_semaphore *sem);
int down_write_trylock(struct rw_semaphore *sem);
/* Releasing a semaphore this thread does not hold is ignored: counts never go wrong. */
void up_read(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);
/* rwsem_is_held() - 1 if the running simulated thread holds @sem. */
int rwsem_is_held(const struct rw_semaphore *sem);

/* A spinlock, today's guard of a kset's list: simulated the same way. */
typedef struct {
	unsigned holder; /* thread + 1 holding it, or 0 */
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name) { 0 }
#define DEFINE_SPINLOCK(name) spinlock_t name = __SPIN_LOCK_UNLOCKED(name)

void spin_lock_init(spinlock_t *lock);
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
int spin_is_locked(const spinlock_t *lock);

#endif
