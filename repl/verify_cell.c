/*
 * A graded cell's process: the second line of defence. The sandbox's own limits (the
 * instruction budget, the memory cap) should stop any student's code; if a hole let
 * code past them, the operating system's limits set here still hold: CPU time, address
 * space, open files, no file writes, and no new processes (seccomp), while the parent
 * kills the cell's process group at the wall-clock limit. The verdict leaves on a pipe
 * that nothing the student's code can reach writes to, as a fixed-size record.
 */
#define _GNU_SOURCE /* setpgid, prctl, CLONE_THREAD */
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "repl/kobj.h"
#include "repl/verify.h"

#if defined(__x86_64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_AARCH64
#endif

#define FILES_PER_CELL 32

/* Address space per cell: the sanitizers reserve terabytes up front, so not with them. */
#if defined(__SANITIZE_ADDRESS__)
#define ADDRESS_SPACE_LIMITED false
#else
#define ADDRESS_SPACE_LIMITED true
#endif

#define DENY(nr) \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

/* The low 32 bits of a system call's first argument (clone's flags). */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG0_LOW offsetof(struct seccomp_data, args[0])
#else
#define ARG0_LOW (offsetof(struct seccomp_data, args[0]) + 4)
#endif

/*
 * fork, exec and friends fail with EPERM from here on. Threads stay allowed: the race
 * explorer runs each simulated thread on one. clone() is allowed with CLONE_THREAD only;
 * clone3() passes its flags in memory a filter cannot read, so it fails with ENOSYS and
 * the C library falls back to clone(). Return: 0 or -1.
 */
static int forbid_new_processes(void)
{
#ifdef AUDIT_ARCH_HERE
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_HERE, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef __NR_fork
		DENY(__NR_fork),
#endif
#ifdef __NR_vfork
		DENY(__NR_vfork),
#endif
#ifdef __NR_clone3
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
#endif
		DENY(__NR_execve),
		DENY(__NR_execveat),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
	};
	struct sock_fprog prog = { sizeof(filter) / sizeof(filter[0]), filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0)
		return 0;
#endif
	return -1;
}

static void set_limit(int resource, rlim_t soft, rlim_t hard)
{
	struct rlimit r = { soft, hard };

	if (setrlimit(resource, &r) != 0)
		fprintf(stderr, "kobj: a limit of the cell could not be set: %s\n",
			strerror(errno));
}

static void os_limits(const struct verify_opts *o)
{
	set_limit(RLIMIT_CPU, o->seconds, o->seconds + 1);
	set_limit(RLIMIT_NOFILE, FILES_PER_CELL, FILES_PER_CELL);
	set_limit(RLIMIT_FSIZE, 0, 0);
	set_limit(RLIMIT_CORE, 0, 0);
	set_limit(RLIMIT_NPROC, 0, 0);
	if (ADDRESS_SPACE_LIMITED && o->cell_memory_mib)
		set_limit(RLIMIT_AS, (rlim_t)o->cell_memory_mib << 20,
			  (rlim_t)o->cell_memory_mib << 20);
	if (forbid_new_processes() != 0)
		fprintf(stderr, "kobj: new processes could not be forbidden: %s\n",
			strerror(errno));
}

void cell_limits_text(const struct verify_opts *o, char *buf, size_t size)
{
	char memory[64];

	if (!ADDRESS_SPACE_LIMITED)
		snprintf(memory, sizeof(memory), "address space not limited (sanitizer build)");
	else if (o->cell_memory_mib)
		snprintf(memory, sizeof(memory), "%zu MiB of address space", o->cell_memory_mib);
	else
		snprintf(memory, sizeof(memory), "address space not limited");
	snprintf(buf, size, "Each cell: %u s (wall and CPU), %s, %d open files, no file "
		 "writes, no new processes.", o->seconds, memory, FILES_PER_CELL);
}

/* Everything but 0, 1, 2 and the verdict, which moves to 3, is closed: other cells'
 * pipes are none of its business. Return: the verdict's descriptor. */
static int close_others(int verdict)
{
	long max = sysconf(_SC_OPEN_MAX);

	if (verdict != 3) {
		dup2(verdict, 3);
		close(verdict);
	}
#ifdef SYS_close_range
	if (syscall(SYS_close_range, 4U, ~0U, 0U) == 0)
		return 3;
#endif
	for (int fd = 4; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
		close(fd);
	return 3;
}

void cell_run(lua_State *L, const struct lesson *l, const char *file, int out, int verdict,
	      const struct verify_opts *o)
{
	struct kobj_limits *lim = limits_of(L);
	struct cell_verdict v = { .magic = CELL_VERDICT_MAGIC };
	int null = open("/dev/null", O_RDONLY);

	setpgid(0, 0);
	dup2(null, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(out, STDERR_FILENO);
	verdict = close_others(verdict);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	os_limits(o);

	struct verdict got = lesson_check(L, l, file);
	fflush(stdout);
	fflush(stderr);
	v.passed = got.passed;
	v.failed = got.failed;
	v.lua_error = got.lua_error;
	v.stop = (int32_t)lim->first_stop;
	v.instructions = lim->total;
	snprintf(v.error, sizeof(v.error), "%s", got.error);
	if (write(verdict, &v, sizeof(v)) != (ssize_t)sizeof(v))
		_exit(3);
	_exit(0);
}
