/*
 * screen: the one place that draws with curses (see screen.h): colours,
 * clipped text, the bars, questions on the bottom line, and a terminal given
 * back as it was on any exit.
 */
#include "tui/screen.h"

#include <curses.h>
#include <term.h>
/* term.h names the terminal's capabilities as macros: this one would take struct doc's lines */
#undef lines
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/exit.h"
#include "lib/util.h"

bool screen_ascii, screen_color;
volatile int screen_stop_signal;
static bool active;

enum { C_RED = 1, C_GREEN, C_YELLOW, C_BLUE, C_MAGENTA, C_CYAN, C_TITLE, C_CODE };

void
screen_exit(void)
{
	if (active && !isendwin())
		endwin();
	active = false;
}

static void
on_stop(int sig)
{
	/* the main loop sees it when poll() returns EINTR, and quits cleanly */
	screen_stop_signal = sig;
}

static void
on_crash(int sig)
{
	/* not async-signal-safe, but a terminal left raw is worse than the risk */
	if (active)
		endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
set_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	/* no SA_RESTART: poll() must wake up */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

void
screen_init(void)
{
	const char *nc = getenv("NO_COLOR");
	const char *term = getenv("TERM") ? getenv("TERM") : "";

	setlocale(LC_ALL, "");
	screen_ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	if (!isatty(0) || !isatty(1))
		die(EXIT_FATAL, "cudalings-tui needs a terminal (stdin and stdout); 'cudalings list' and 'cudalings grade' work without one");
	/* newterm() returns where initscr() would exit with ncurses' own message */
	if (!newterm(NULL, stdout, stdin))
		die(EXIT_FATAL, "cannot use the terminal type '%s' (is TERM right? try TERM=xterm-256color)", term);
	active = true;
	if (!cursor_address || cursor_address == (char *)-1) {
		screen_exit();
		die(EXIT_FATAL, "the terminal type '%s' cannot move the cursor: a full-screen view needs one that can "
		    "(try TERM=xterm-256color, or 'cudalings list' and 'cudalings grade NAME')", term);
	}
	die_hook = screen_exit;
	atexit(screen_exit);
	set_signals();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	/* https://no-color.org: present and not empty means no colour */
	screen_color = has_colors() && !(nc && *nc);
	if (screen_color) {
		start_color();
		use_default_colors();
		init_pair(C_RED, COLOR_RED, -1);
		init_pair(C_GREEN, COLOR_GREEN, -1);
		init_pair(C_YELLOW, COLOR_YELLOW, -1);
		init_pair(C_BLUE, COLOR_BLUE, -1);
		init_pair(C_MAGENTA, COLOR_MAGENTA, -1);
		init_pair(C_CYAN, COLOR_CYAN, -1);
		init_pair(C_TITLE, COLOR_WHITE, COLOR_BLUE);
		init_pair(C_CODE, COLOR_GREEN, -1);
	}
}

void
screen_suspend(void)
{
	def_prog_mode();
	endwin();
}

void
screen_resume(void)
{
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
}

int
screen_attr(unsigned style)
{
	/* colour, then the attribute that still says it without colour */
	static const struct { short pair; int attr; } look[S_NCLASSES] = {
		[S_PLAIN] = { 0, 0 },
		[S_CODE] = { C_CODE, 0 },
		[S_H1] = { C_YELLOW, A_BOLD },
		[S_H2] = { C_CYAN, A_BOLD },
		[S_H3] = { 0, A_BOLD },
		[S_RULE] = { C_BLUE, 0 },
		[S_QUOTE] = { C_CYAN, 0 },
		[S_BULLET] = { C_YELLOW, 0 },
		[S_CODEBLOCK] = { 0, 0 },
		[S_KEYWORD] = { C_BLUE, A_BOLD },
		[S_CUDA] = { C_MAGENTA, A_BOLD },
		[S_COMMENT] = { C_CYAN, A_DIM },
		[S_STRING] = { C_GREEN, 0 },
		[S_NUMBER] = { C_CYAN, 0 },
		[S_TABLE_HEAD] = { 0, A_BOLD },
		[S_TABLE_BORDER] = { C_BLUE, 0 },
		[S_PASS] = { C_GREEN, A_BOLD },
		[S_FAIL] = { C_RED, A_BOLD },
		[S_WARN] = { C_YELLOW, A_BOLD },
		[S_DIM] = { 0, A_DIM },
		[S_ERROR] = { C_RED, 0 },
		[S_TITLE] = { C_TITLE, A_REVERSE },
		[S_BAR_GOOD] = { C_GREEN, 0 },
		[S_BAR_BAD] = { C_RED, 0 },
		[S_BAR_REF] = { C_BLUE, 0 },
		[S_BAR_LIMIT] = { C_YELLOW, 0 },
		[S_SELECTED] = { 0, A_REVERSE },
	};
	unsigned cls = S_CLASS(style);
	int attr = cls < S_NCLASSES ? look[cls].attr : 0;

	if (screen_color && cls < S_NCLASSES && look[cls].pair) {
		attr |= COLOR_PAIR(look[cls].pair);
		if (cls == S_TITLE)
			attr &= ~A_REVERSE;
	}
	if (style & F_EM)
		attr |= A_ITALIC;
	if (style & F_STRONG)
		attr |= A_BOLD;
	if (style & F_LINK)
		attr |= A_UNDERLINE;
	if (style & F_STRIKE)
		attr |= A_DIM;
	return attr;
}

int
screen_text(int y, int x, int maxw, const char *text, int attr)
{
	char *ascii = screen_ascii ? translit_ascii(text, strlen(text)) : NULL;
	const char *s = ascii ? ascii : text;
	size_t n = utf8_fit(s, strlen(s), maxw > 0 ? maxw : 0);
	int w = utf8_width(s, n);

	if (n) {
		attrset(attr);
		mvaddnstr(y, x, s, (int)n);
		attrset(A_NORMAL);
	}
	free(ascii);
	return w;
}

int
screen_doc_line(int y, int x, int maxw, const struct doc_line *l)
{
	int used = 0;

	for (int i = 0; i < l->n && used < maxw; i++)
		used += screen_text(y, x + used, maxw - used, l->spans[i].text, screen_attr(l->spans[i].style));
	return used;
}

int
screen_text_cut(int y, int x, int maxw, const char *text, int attr)
{
	char *ascii = screen_ascii ? translit_ascii(text, strlen(text)) : NULL;
	int ew = screen_ascii ? 3 : 1, used;
	bool fits = utf8_width(ascii ? ascii : text, strlen(ascii ? ascii : text)) <= maxw;

	free(ascii);
	if (fits || maxw <= ew)
		return screen_text(y, x, maxw, text, attr);
	/* cut where it says so: an ellipsis, never a word that just stops */
	used = screen_text(y, x, maxw - ew, text, attr);
	return used + screen_text(y, x + used, ew, "…", attr);
}

void
screen_bar(int y, const char *left, const char *right, int attr)
{
	int rw = right ? utf8_width(right, strlen(right)) : 0;

	attrset(attr);
	mvhline(y, 0, ' ', COLS);
	attrset(A_NORMAL);
	screen_text_cut(y, 0, COLS - rw - 1, left, attr);
	if (right && rw < COLS)
		screen_text(y, COLS - rw, rw, right, attr);
}

/*
 * Wait for a key, blocking, while the rest of the program waits too. ERR when a signal to stop came, or
 * when the terminal is gone (a blocking read that ends with nothing: no other signal is caught); the
 * latter counts as the hangup that may never reach us, so the main loop quits after the question.
 */
static int
wait_key(void)
{
	int ch;

	nodelay(stdscr, FALSE);
	ch = getch();
	nodelay(stdscr, TRUE);
	if (ch == ERR && !screen_stop_signal)
		screen_stop_signal = SIGHUP;
	return ch;
}

bool
screen_confirm(const char *question)
{
	struct doc q;
	int ch, rows;

	/* the whole question, on as many of the bottom lines as it takes (three at most): cut, it asks another */
	doc_init(&q, screen_ascii);
	doc_wrap_text(&q, S_WARN, question, COLS - 5, "", "");
	rows = q.n < 1 ? 1 : q.n > 3 ? 3 : q.n;
	for (int i = 0; i < rows; i++) {
		screen_bar(LINES - rows + i, "", i == rows - 1 ? "y/n " : NULL, screen_attr(S_WARN));
		screen_doc_line(LINES - rows + i, 0, COLS - 5, &q.lines[i]);
	}
	doc_free(&q);
	refresh();
	do
		ch = wait_key();
	while (ch == KEY_RESIZE);
	return ch == 'y' || ch == 'Y';
}

bool
screen_prompt(const char *prompt, char *buf, size_t size)
{
	size_t len = 0;
	int ch;

	buf[0] = '\0';
	curs_set(1);
	for (;;) {
		char line[512];

		snprintf(line, sizeof(line), "%s%s", prompt, buf);
		screen_bar(LINES - 1, line, NULL, A_NORMAL);
		move(LINES - 1, utf8_width(line, strlen(line)) < COLS - 1 ? utf8_width(line, strlen(line)) : COLS - 1);
		refresh();
		ch = wait_key();
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
			break;
		if (ch == 27 || ch == ERR) {
			curs_set(0);
			return false;
		}
		if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len) {
			/* drop a whole UTF-8 character */
			do
				len--;
			while (len && ((unsigned char)buf[len] & 0xc0) == 0x80);
			buf[len] = '\0';
		} else if (ch >= ' ' && ch < 256 && len + 1 < size) {
			buf[len++] = (char)ch;
			buf[len] = '\0';
		}
	}
	curs_set(0);
	return true;
}
