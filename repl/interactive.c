/*
 * The REPL loop, after lua.c's doREPL: read a line; try it as `return <line>` so that an
 * expression prints its value; else compile it as a statement, and while the only error
 * is an unexpected <eof>, read more lines with the second prompt. A line that starts with
 * ':' is a command (commands.c).
 *
 * On a terminal lines come from GNU readline through its callback interface, so that
 * Ctrl-C at the prompt only clears the line; history persists in
 * $XDG_STATE_HOME/kobj/history (default ~/.local/state/kobj/history). Otherwise lines
 * come from getline() and no prompt is printed.
 */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include <lauxlib.h>
#include <lua.h>

#include "core/report/report.h"
#include "core/world/world.h"
#include "lua_bindings/kobject_lua.h"
#include "repl/kobj.h"

#define HISTORY_SIZE 1000

/* What loadline() got besides a Lua status. */
enum { LINE_EOF = -1, LINE_SKIP = -2, LINE_QUIT = -3 };

static bool use_readline;

/* ============================================================================ history */

static char *history_path; /* NULL: no history file */

/* Creates @dir and its parents (mode 0700); Return: 0 or -1. */
static int make_dirs(char *dir)
{
	char *p;

	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(dir, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

static void history_warn(const char *what)
{
	char msg[600];

	snprintf(msg, sizeof(msg), "warning: history %s %s: %s (history not saved)", what,
		 history_path, strerror(errno));
	kobj_message(KOBJ_PROGNAME, msg);
	free(history_path);
	history_path = NULL;
}

static void history_open(void)
{
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	char dir[4096];
	int n;

	using_history();
	stifle_history(HISTORY_SIZE);
	history_comment_char = '#';     /* timestamps mark where each entry starts... */
	history_write_timestamps = 1;
	history_multiline_entries = 1;  /* ...so multi-line statements come back whole */
	if (state && state[0] == '/')
		n = snprintf(dir, sizeof(dir), "%s/kobj", state);
	else if (home && home[0])
		n = snprintf(dir, sizeof(dir), "%s/.local/state/kobj", home);
	else
		return;
	if (n < 0 || (size_t)n + sizeof("/history") > sizeof(dir))
		return;
	history_path = malloc((size_t)n + sizeof("/history"));
	if (!history_path)
		return;
	memcpy(history_path, dir, (size_t)n);
	memcpy(history_path + n, "/history", sizeof("/history"));
	if (make_dirs(dir) != 0) {
		history_warn("directory for");
		return;
	}
	errno = read_history(history_path);
	if (errno == ENOENT)
		errno = write_history(history_path); /* append_history needs the file */
	if (errno)
		history_warn("file");
}

static void history_keep(const char *text)
{
	HIST_ENTRY *last;

	if (!use_readline || text[0] == '\0')
		return;
	last = history_get(history_base + history_length - 1);
	if (last && strcmp(last->line, text) == 0)
		return;
	add_history(text);
	if (history_path && (errno = append_history(1, history_path)) != 0)
		history_warn("file");
}

static void history_close(void)
{
	if (history_path) {
		write_history(history_path);
		free(history_path);
		history_path = NULL;
	}
	clear_history();
}

/* ====================================================================== reading lines */

static volatile sig_atomic_t prompt_sigint;
static volatile sig_atomic_t prompt_sigwinch;
static char *got_line;
static bool line_done;

static void on_prompt_signal(int sig)
{
	if (sig == SIGINT)
		prompt_sigint = 1;
	else
		prompt_sigwinch = 1;
}

static void on_line(char *line)
{
	got_line = line;
	line_done = true;
	rl_callback_handler_remove();
}

/* Ctrl-C at the prompt: drop what was typed, show "^C", and give up this line. */
static void cancel_line(void)
{
	rl_free_line_state();
	rl_callback_sigcleanup();
	rl_point = rl_end;
	rl_redisplay();
	fputs("^C", rl_outstream);
	rl_crlf();
	rl_replace_line("", 1);
	rl_callback_handler_remove();
	fflush(rl_outstream);
}

/*
 * One line through readline's callback interface, waiting in pselect() so that SIGINT
 * (blocked outside the wait) is seen without a race.
 * Return: the line (malloc'd), or NULL at end of input or when *@cancelled.
 */
static char *read_tty(const char *prompt, bool *cancelled)
{
	struct sigaction sa, old_int, old_winch;
	sigset_t block, orig, wait_mask;
	int fd = fileno(rl_instream ? rl_instream : stdin);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_prompt_signal;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGWINCH);
	sigprocmask(SIG_BLOCK, &block, &orig);
	wait_mask = orig;
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGWINCH);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGWINCH, &sa, &old_winch);

	prompt_sigint = 0;
	got_line = NULL;
	line_done = false;
	*cancelled = false;
	fflush(stdout);
	rl_callback_handler_install(prompt, on_line);
	while (!line_done) {
		fd_set in;
		int r;

		FD_ZERO(&in);
		FD_SET(fd, &in);
		r = pselect(fd + 1, &in, NULL, NULL, NULL, &wait_mask);
		if (prompt_sigint) {
			cancel_line();
			*cancelled = true;
			break;
		}
		if (prompt_sigwinch) {
			prompt_sigwinch = 0;
			rl_resize_terminal();
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rl_callback_handler_remove();
			break;
		}
		rl_callback_read_char();
	}
	sigaction(SIGWINCH, &old_winch, NULL);
	sigaction(SIGINT, &old_int, NULL);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return got_line;
}

/* One line from a pipe or file, without its newline. Return: malloc'd, or NULL at EOF. */
static char *read_plain(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n = getline(&line, &cap, stdin);

	if (n < 0) {
		free(line);
		return NULL;
	}
	if (n > 0 && line[n - 1] == '\n')
		line[n - 1] = '\0';
	return line;
}

/* Line @lineno of the session. Return: a malloc'd line, or NULL at end of input or
 * after Ctrl-C (*@cancelled). */
static char *read_input(lua_State *L, bool first, int lineno, bool *cancelled)
{
	char *line;

	*cancelled = false;
	if (!use_readline)
		return read_plain();
	complete_set_continuation(!first);
	line = read_tty(chunk_push_prompt(L, first, lineno), cancelled);
	lua_pop(L, 1);
	return line;
}

/* ====================================================================== compiling lines */

/* Lines typed so far: each statement is compiled as if it followed them all, so the
 * origins the log and diagnostics show (stdin:12) count the session's lines. */
static int lines_typed;

static void typed(const char *text)
{
	lines_typed += chunk_count_lines(text);
}

static int load_numbered(lua_State *L, const char *text, size_t len)
{
	return chunk_load_numbered(L, text, len, lines_typed);
}

/* The line on top as "return <line>;". Return: its status; on success the function
 * replaces the line. */
static int addreturn(lua_State *L)
{
	const char *line = lua_tostring(L, -1);
	const char *retline = lua_pushfstring(L, "return %s;", line);
	int status = load_numbered(L, retline, strlen(retline));

	if (status == LUA_OK) {
		lua_remove(L, -2); /* the modified line */
		history_keep(line);
		typed(line);
		lua_remove(L, -2); /* the line */
	} else {
		lua_pop(L, 2); /* the error and the modified line */
	}
	return status;
}

/* The line on top as a statement, reading continuation lines while it is incomplete.
 * Return: its status (function or error on top, the text removed), or LINE_SKIP. */
static int multiline(lua_State *L)
{
	for (;;) {
		size_t len;
		const char *text = lua_tolstring(L, -1, &len);
		int status = load_numbered(L, text, len);
		bool cancelled;
		char *more;

		if (!chunk_incomplete(L, status)) {
			history_keep(text);
			typed(text);
			lua_remove(L, -2);
			return status;
		}
		more = read_input(L, false, lines_typed + chunk_count_lines(text) + 1, &cancelled);
		if (!more) {
			if (cancelled) {
				lua_pop(L, 1);
				return LINE_SKIP;
			}
			history_keep(text);
			typed(text);
			status = load_numbered(L, text, len);
			lua_remove(L, -2);
			return status;
		}
		lua_pushliteral(L, "\n");
		lua_pushstring(L, more);
		free(more);
		lua_concat(L, 3);
	}
}

static bool is_command(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return line[0] == ':' && line[1] != ':';
}

/* Reads and compiles one statement, or runs one command.
 * Return: a Lua status with the function or error on top, or a LINE_* value. */
static int loadline(lua_State *L)
{
	bool cancelled;
	char *line = read_input(L, true, lines_typed + 1, &cancelled);
	int status;

	if (!line)
		return cancelled ? LINE_SKIP : LINE_EOF;
	if (is_command(line)) {
		enum command_result r;

		history_keep(line);
		typed(line);
		r = commands_run(L, line);
		free(line);
		return r == COMMAND_QUIT ? LINE_QUIT : LINE_SKIP;
	}
	lua_pushstring(L, line);
	free(line);
	status = addreturn(L);
	if (status != LUA_OK)
		status = multiline(L);
	return status;
}

/* ============================================================================ the loop */

/* Each diagnostic as it is recorded, the way dmesg would show it, then explained,
 * wrapped to the terminal. */
static void show_diag(const struct kobj_diag *d, void *ctx)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	(void)ctx;
	fflush(stdout);
	if (kobj_color_stderr)
		fputs("\x1b[33m", stderr);
	if (mem) {
		kobj_diag_print(d, mem);
		fclose(mem);
		wrap_fputs(text, wrap_width(STDERR_FILENO), stderr);
		free(text);
	} else {
		kobj_diag_print(d, stderr);
	}
	if (kobj_color_stderr)
		fputs("\x1b[0m", stderr);
	fflush(stderr);
}

int repl_run(lua_State *L)
{
	int base = lua_gettop(L);
	int status;

	use_readline = isatty(STDIN_FILENO);
	kobj_lua_on_diag(L, show_diag, NULL);
	if (use_readline) {
		/* between the prompt and a running statement (a command printing, a line
		 * compiling) Ctrl-C is ignored rather than fatal */
		signal(SIGINT, SIG_IGN);
		setlocale(LC_CTYPE, "");
		rl_readline_name = KOBJ_PROGNAME;
		rl_catch_signals = 0;  /* read_tty() handles SIGINT itself */
		rl_catch_sigwinch = 0; /* and SIGWINCH */
		history_open();
		complete_init(L);
		printf("%s %s (%s), the kobject sandbox. :help lists the commands, "
		       "Ctrl-D leaves.\n", KOBJ_PROGNAME, KOBJ_VERSION, LUA_VERSION);
	}
	while ((status = loadline(L)) != LINE_EOF && status != LINE_QUIT) {
		if (status == LUA_OK)
			status = kobj_docall(L, 0, LUA_MULTRET);
		if (status == LUA_OK)
			chunk_print_results(L, base);
		else if (status != LINE_SKIP)
			chunk_report_error(L);
		lua_settop(L, base);
	}
	lua_settop(L, base);
	if (use_readline) {
		history_close(); /* readline ended the line at Ctrl-D already */
		signal(SIGINT, SIG_DFL);
	}
	chunk_forget_error();
	fflush(stdout);
	return KOBJ_EXIT_OK;
}
