/*
 * Schedules as text: the thread that took each step, one digit per step. A run's
 * schedule ends at its last decision that differs from the rule (the same thread on,
 * else the lowest that can run), so a failure found early reads short (scheduler.c
 * keeps that length as it goes).
 */
#include <string.h>

#include "core/race/race_internal.h"

char *race_schedule_text(const unsigned char *choices, size_t n)
{
	char *s = kobj_xmalloc(n + 1);
	for (size_t k = 0; k < n; k++)
		s[k] = (char)('0' + choices[k]);
	s[n] = '\0';
	return s;
}

const char *kobj_race_check_schedule(const char *s, unsigned nthreads)
{
	for (const char *c = s; *c; c++) {
		if (*c < '0' || *c > '9')
			return "has a character that is not a thread number: a schedule is the "
			       "thread of each step, one digit per step, such as 1121";
		if (*c == '0' || (unsigned)(*c - '0') > nthreads)
			return "names a thread that does not exist";
	}
	return NULL;
}
