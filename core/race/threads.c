/*
 * Host threads that carry simulated threads, one CPU between them. Each simulated thread
 * runs on a host thread of its own, so that it keeps its C stack (a call suspended at a
 * scheduling point deep in the model) while another runs; a semaphore per thread is the
 * baton, and only its holder runs (cpu.c hands the CPU's state over with it). The
 * browser, which has no host threads, carries them on fibers instead (fibers.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "core/race/race_internal.h"

static void sem_take(sem_t *s)
{
	while (sem_wait(s) != 0 && errno == EINTR)
		;
}

void race_pass(struct race *r, unsigned from, unsigned to)
{
	race_hand_over(r, from, to);
	sem_post(to ? &r->t[to].go : &r->done);
}

void race_wait(struct race *r, unsigned me)
{
	sem_take(me ? &r->t[me].go : &r->done);
}

/* A host thread: each time it gets the CPU with no body running, it starts one. */
static void *host_main(void *arg)
{
	struct race_thread *t = arg;
	struct race *r = t->race;

	for (;;) {
		race_wait(r, t->id);
		if (r->quit)
			return NULL;
		r->p->thread(r->p->ctx, t->id);
		race_thread_exit(r, t->id);
	}
}

int race_threads_start(struct race *r, char *err, size_t size)
{
	sigset_t all, old;
	int rc = 0;

	if (sem_init(&r->done, 0, 0) != 0) {
		snprintf(err, size, "cannot make a semaphore: %s", strerror(errno));
		return -1;
	}
	/* Signals go to the caller's thread, whose handlers expect it. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (unsigned i = 1; i <= r->p->nthreads && rc == 0; i++) {
		struct race_thread *t = &r->t[i];
		t->race = r;
		t->id = i;
		if (sem_init(&t->go, 0, 0) != 0) {
			rc = errno;
			break;
		}
		rc = pthread_create(&t->host, NULL, host_main, t);
		t->started = rc == 0;
		if (!t->started)
			sem_destroy(&t->go);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc == 0)
		return 0;
	snprintf(err, size, "cannot start a host thread for a simulated thread: %s",
		 strerror(rc));
	race_threads_stop(r);
	return -1;
}

void race_threads_stop(struct race *r)
{
	r->quit = true;
	for (unsigned i = 1; i <= KOBJ_RACE_MAX_THREADS; i++) {
		struct race_thread *t = &r->t[i];
		if (!t->started)
			continue;
		sem_post(&t->go);
		pthread_join(t->host, NULL);
		sem_destroy(&t->go);
		t->started = false;
	}
	sem_destroy(&r->done);
}
