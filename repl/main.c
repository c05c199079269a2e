/*
 * kobj: the kobject sandbox's program. Parses the command line (the usage text lives
 * here), makes a Lua state whose allocator enforces the memory cap, and runs the real
 * main, pmain(), under lua_pcall as lua.c does: the REPL, a script, -e snippets, or a
 * script on standard input.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"
#include "repl/lesson.h"

bool kobj_color_stdout;
bool kobj_color_stderr;

/* Returned by parse_args() when the program goes on. */
#define PARSE_CONTINUE (-1)

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: %s [options]                      the REPL (or run standard input if it is\n"
		"                                           not a terminal)\n"
		"       %s [options] run FILE [ARGS...]   run a Lua script ('-': standard input)\n"
		"       %s [options] -e CODE              run a snippet\n"
		"       %s lesson COMMAND [N]             the course: list, next, show N, run N,\n"
		"                                           edit N, check N, watch [N], hint N,\n"
		"                                           reset N, verify DIR ('%s lesson help')\n"
		"       %s real FILE.c                    kernel C in Linux 6.1 (QEMU) and in the\n"
		"                                           sandbox, side by side (and 'lesson real N')\n"
		"\n"
		"Options:\n"
		"  -e CODE                 run CODE (repeatable), in order, before any script\n"
		"  -i                      enter the REPL after the snippets and the script\n"
		"  --strict                exit with 3 if the run leaves a diagnostic or a leak\n"
		"  --no-report             do not print diagnostics and leaks at the end\n"
		"  --record FILE.html      write the run's timeline: a page that steps\n"
		"                          through every event with a picture\n"
		"  --dot FILE              write a picture of the world at the end\n"
		"                          (.svg, .png, .pdf, or .dot for the DOT text)\n"
		"  --write-dir DIR         the folder where a script's dot(\"name.svg\") may\n"
		"                          write (scripts write no files otherwise)\n"
		"  --schedule S            simulated threads follow schedule S (the thread\n"
		"                          of each step, such as 1121); explore() runs only S\n"
		"  --max-instructions N    VM instructions per run or REPL statement\n"
		"                          (default 100M; suffixes k, M, G; 0: no limit)\n"
		"  --max-memory MIB        memory the sandbox may hold in MiB, Lua's and the\n"
		"                          core's (default %d; suffix G for GiB; 0: no cap)\n"
		"  -h, --help              this text\n"
		"  -V, --version           the version\n"
		"\n"
		"Code runs in a sandbox: no io, os.execute, package, require, debug, dofile or\n"
		"loadfile; binary chunks are refused. A run ends with its diagnostics and leak\n"
		"report on stderr. A file in a lesson's folder (lessons/NN-name/demo.lua) runs\n"
		"with the lessons' vocabulary (step, show_tree, predict, ...).\n"
		"REPL commands: :help, :tree, :log, :dot, :leaks, :diag, :reset, :load,\n"
		":lesson, :trace, :quit. The prompt (kobj:N>) shows the number of the line it\n"
		"reads, as logs and diagnostics name it (stdin:N); _PROMPT replaces it.\n"
		"\n"
		"Exit status: 0 ok, 1 Lua error, 2 usage error or unreadable script,\n"
		"3 --strict found a diagnostic or leak.\n"
		"Environment: NO_COLOR turns colour off; the REPL's history is kept in\n"
		"$XDG_STATE_HOME/kobj/history (default ~/.local/state/kobj/history).\n",
		KOBJ_PROGNAME, KOBJ_PROGNAME, KOBJ_PROGNAME, KOBJ_PROGNAME, KOBJ_PROGNAME,
		KOBJ_PROGNAME, KOBJ_DEFAULT_MAX_MEMORY_MIB);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", KOBJ_PROGNAME);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", KOBJ_PROGNAME);
	return KOBJ_EXIT_USAGE;
}

/*
 * parse_number() - a count with an optional suffix from @units ("kMG" style pairs of a
 * letter and a multiplier index into @mult). Return: true and *@out, or false.
 */
static bool parse_number(const char *s, const char *units, const unsigned long long *mult,
			 unsigned long long *out)
{
	unsigned long long v, m = 1;
	const char *u;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return false;
	if (*end) {
		u = strchr(units, *end);
		if (!u || end[1])
			return false;
		m = mult[u - units];
	}
	if (m && v > ~0ULL / m)
		return false;
	*out = v * m;
	return true;
}

/* The value of an option given as "--opt VALUE" or "--opt=VALUE"; NULL if missing. */
static const char *option_value(int argc, char **argv, int *i, const char *opt)
{
	size_t len = strlen(opt);

	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static bool is_option(const char *arg, const char *opt)
{
	size_t len = strlen(opt);

	return strncmp(arg, opt, len) == 0 && (arg[len] == '\0' || arg[len] == '=');
}

static int parse_limit(int argc, char **argv, int *i, struct kobj_opts *o)
{
	static const unsigned long long imult[] = { 1000ULL, 1000ULL, 1000000ULL, 1000000000ULL };
	static const unsigned long long mmult[] = { 1ULL, 1024ULL };
	bool instr = is_option(argv[*i], "--max-instructions");
	const char *opt = instr ? "--max-instructions" : "--max-memory";
	const char *v = option_value(argc, argv, i, opt);
	unsigned long long n;

	if (!v)
		return usage_error("option '%s' needs a value", opt);
	if (instr) {
		if (!parse_number(v, "kKMG", imult, &n))
			return usage_error("--max-instructions wants a count such as 5000000 "
					   "or 50M (0: no limit), not '%s'", v);
		o->max_instructions = n;
	} else {
		if (!parse_number(v, "MG", mmult, &n) || n > SIZE_MAX / (1024 * 1024))
			return usage_error("--max-memory wants a size in MiB such as 256 "
					   "or 1G (0: no cap), not '%s'", v);
		o->max_memory_mib = (size_t)n;
	}
	return PARSE_CONTINUE;
}

/* Return: PARSE_CONTINUE, or the exit status (--help, --version, a usage error). */
static int parse_args(int argc, char **argv, struct kobj_opts *o)
{
	bool want_script = false;
	int i, r;

	memset(o, 0, sizeof(*o));
	o->report = true;
	o->max_instructions = KOBJ_DEFAULT_MAX_INSTRUCTIONS;
	o->max_memory_mib = KOBJ_DEFAULT_MAX_MEMORY_MIB;
	o->snippets = calloc((size_t)argc + 1, sizeof(*o->snippets));
	if (!o->snippets)
		return usage_error("%s", "out of memory");
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			print_usage(stdout);
			return KOBJ_EXIT_OK;
		} else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
			printf("%s %s (%s)\n", KOBJ_PROGNAME, KOBJ_VERSION, LUA_VERSION);
			return KOBJ_EXIT_OK;
		} else if (strcmp(a, "-e") == 0) {
			if (i + 1 >= argc)
				return usage_error("%s", "option '-e' needs the code to run");
			o->snippets[o->nsnippets++] = argv[++i];
		} else if (strcmp(a, "-i") == 0) {
			o->interactive = true;
		} else if (strcmp(a, "--strict") == 0) {
			o->strict = true;
		} else if (strcmp(a, "--no-report") == 0) {
			o->report = false;
		} else if (is_option(a, "--record") || is_option(a, "--dot")) {
			bool record = is_option(a, "--record");
			const char *v = option_value(argc, argv, &i, record ? "--record" : "--dot");
			if (!v)
				return usage_error("option '%s' needs a file name", a);
			*(record ? &o->record : &o->picture) = v;
		} else if (is_option(a, "--write-dir")) {
			struct stat st;
			if (!(o->write_dir = option_value(argc, argv, &i, "--write-dir")))
				return usage_error("%s", "option '--write-dir' needs a folder");
			if (stat(o->write_dir, &st) != 0 || !S_ISDIR(st.st_mode))
				return usage_error("--write-dir: '%s' is not a folder", o->write_dir);
		} else if (is_option(a, "--schedule")) {
			o->schedule = option_value(argc, argv, &i, "--schedule");
			if (!o->schedule)
				return usage_error("%s", "option '--schedule' needs a schedule, such "
						   "as 1121");
		} else if (is_option(a, "--max-instructions") || is_option(a, "--max-memory")) {
			if ((r = parse_limit(argc, argv, &i, o)) != PARSE_CONTINUE)
				return r;
		} else if (strcmp(a, "-") == 0 || (want_script && (a[0] != '-' || !a[1]))) {
			o->script = a;
			o->script_args = argv + i + 1;
			o->nscript_args = argc - i - 1;
			return PARSE_CONTINUE;
		} else if (a[0] == '-') {
			return usage_error("unknown option '%s'", a);
		} else if (strcmp(a, "lesson") == 0 && !want_script) {
			o->lesson_argc = argc - i;
			o->lesson_argv = argv + i;
			return PARSE_CONTINUE;
		} else if (strcmp(a, "run") == 0) {
			want_script = true;
		} else if (strlen(a) > 4 && strcmp(a + strlen(a) - 4, ".lua") == 0) {
			return usage_error("to run a script, say 'kobj run %s'", a);
		} else {
			return usage_error("unknown command '%s' (the command is 'run')", a);
		}
	}
	if (want_script)
		return usage_error("%s", "'run' needs the name of a Lua file");
	return PARSE_CONTINUE;
}

/* Seconds lua_close may take: finalizers run there with hooks off, so a script that
 * swaps in an endless __gc after setmetatable is stopped here instead. */
#define CLOSE_TIMEOUT 10

static void on_close_timeout(int sig)
{
	static const char msg[] = "kobj: a __gc metamethod did not finish at exit; stopped\n";
	ssize_t n;

	(void)sig;
	n = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)n;
	_exit(KOBJ_EXIT_LUA);
}

static int on_panic(lua_State *L)
{
	const char *msg = lua_tostring(L, -1);

	fprintf(stderr, "%s: PANIC: unprotected error in call to Lua API (%s)\n", KOBJ_PROGNAME,
		msg ? msg : "error object is not a string");
	return 0; /* abort */
}

/* The real main, protected: set up the host state, then dispatch. */
static int pmain(lua_State *L)
{
	const struct kobj_opts *o = lua_touserdata(L, 1);
	int status = KOBJ_EXIT_OK;

	limits_of(L)->main = L;
	const char *bad = o->schedule ? kobj_lua_set_schedule(L, o->schedule) : NULL;
	if (bad) {
		lua_pushinteger(L, usage_error("schedule '%s' %s", o->schedule, bad));
		return 1;
	}
	sandbox_open(L);
	if (o->write_dir)
		sandbox_set_write_dir(o->write_dir);
	limits_install(L);
	sandbox_new_env(L);
	lua_settop(L, 0);
	if (o->lesson_argv) {
		status = lesson_main(L, o->lesson_argc, o->lesson_argv, o);
	} else if (o->nsnippets > 0 || o->script) {
		if (lesson_script_vocabulary(L, o->script) == LUA_OK)
			status = run_batch(L, o);
		else
			status = KOBJ_EXIT_LUA;
		if (o->interactive && status != KOBJ_EXIT_USAGE)
			status = repl_run(L);
	} else if (o->interactive || isatty(STDIN_FILENO)) {
		status = repl_run(L);
	} else {
		struct kobj_opts stdin_run = *o;

		stdin_run.script = "-";
		status = run_batch(L, &stdin_run);
	}
	lua_pushinteger(L, status);
	return 1;
}

int main(int argc, char **argv)
{
	const char *no_color = getenv("NO_COLOR");
	struct kobj_limits lim;
	struct kobj_opts o;
	lua_State *L;
	int status, result;

	/* `bazel run //repl -- run lesson.lua` names files from where the user stands */
	if (getenv("BUILD_WORKING_DIRECTORY") && chdir(getenv("BUILD_WORKING_DIRECTORY")) != 0)
		perror("kobj: BUILD_WORKING_DIRECTORY");
	if (argc >= 2 && (strcmp(argv[1], "real") == 0 ||
			  (argc >= 3 && strcmp(argv[1], "lesson") == 0 && strcmp(argv[2], "real") == 0)))
		return real_main(argc - 1, argv + 1); /* QEMU and the sandbox: no Lua state */
	result = parse_args(argc, argv, &o);
	if (result != PARSE_CONTINUE) {
		free(o.snippets);
		return result;
	}
	kobj_color_stdout = isatty(STDOUT_FILENO) && !(no_color && *no_color);
	kobj_color_stderr = isatty(STDERR_FILENO) && !(no_color && *no_color);
	limits_init(&lim, o.max_memory_mib, o.max_instructions);
	L = lua_newstate(limits_alloc, &lim);
	if (!L) {
		fprintf(stderr, "%s: cannot create the Lua state: not enough memory\n",
			KOBJ_PROGNAME);
		free(o.snippets);
		return KOBJ_EXIT_LUA;
	}
	lua_atpanic(L, on_panic);
	lua_pushcfunction(L, pmain);
	lua_pushlightuserdata(L, &o);
	status = lua_pcall(L, 1, 1, 0);
	if (status == LUA_OK) {
		result = (int)lua_tointeger(L, -1);
	} else {
		kobj_report(L, status, KOBJ_PROGNAME);
		result = KOBJ_EXIT_LUA;
	}
	limits_arm(&lim); /* a script's __gc that runs at close is held to the limits too */
	signal(SIGALRM, on_close_timeout);
	alarm(CLOSE_TIMEOUT);
	lua_close(L);
	alarm(0);
	if (lim.fatal != KOBJ_FATAL_NONE) {
		char buf[160];

		kobj_message(KOBJ_PROGNAME, limits_message(&lim, buf, sizeof(buf)));
		result = KOBJ_EXIT_LUA; /* a finalizer at exit was stopped */
	}
	free(o.snippets);
	return result;
}
