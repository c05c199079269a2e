/*
 * A real reader/writer semaphore, as a subsystem uses it to guard its kset lists.
 * Taking one the calling thread already holds would deadlock: it is refused with the
 * lockdep diagnostic instead, so a lesson cannot hang the sandbox.
 */
#ifndef KOBJ_RWSEM_H
#define KOBJ_RWSEM_H

#include <pthread.h>

struct rw_semaphore {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	int readers;            /* threads holding it for reading */
	int writer;             /* 1 while a thread holds it for writing */
	unsigned long acquired; /* how many times it was taken, for lessons */
};

#define RWSEM_INITIALIZER { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0 }

void init_rwsem(struct rw_semaphore *sem);
/* Return: 0, or -EDEADLK (with a diagnostic) if this thread already holds @sem. */
int down_read(struct rw_semaphore *sem);
int down_write(struct rw_semaphore *sem);
/* Return: 1 if taken, 0 if it is busy. */
int down_read_trylock(struct rw_semaphore *sem);
int down_write_trylock(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);
/* rwsem_is_held() - 1 if the calling thread holds @sem. */
int rwsem_is_held(const struct rw_semaphore *sem);

#endif
