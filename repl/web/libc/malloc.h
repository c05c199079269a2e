/*
 * glibc's mallinfo2() in the browser's build: repl/limits.c measures the C heap with it
 * to hold the core's memory to the cap. Emscripten's C library (dlmalloc) has the same
 * counts in the older mallinfo(), with int fields (mallinfo2.c copies them).
 */
#ifndef KOBJ_WEB_MALLOC_H
#define KOBJ_WEB_MALLOC_H

#include_next <malloc.h>

struct mallinfo2 {
	size_t arena;    /* non-mmapped space allocated from the system */
	size_t ordblks;  /* free chunks */
	size_t smblks;
	size_t hblks;
	size_t hblkhd;   /* space in mmapped regions */
	size_t usmblks;
	size_t fsmblks;
	size_t uordblks; /* space allocated */
	size_t fordblks; /* space free */
	size_t keepcost;
};

struct mallinfo2 mallinfo2(void);

#endif
