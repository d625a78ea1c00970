/*
 * cudalings-tui: the workbook in the terminal.  main owns the start (finding
 * the grader and the workbook), the loop (draw, wait in poll() for a key, the
 * grader's output, a save in watch mode, or a signal; act) and the title and
 * status bars.  What a key does is keys.c's.
 */
#include <curses.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/actions.h"
#include "tui/app.h"
#include "tui/keys.h"
#include "tui/screen.h"
#include "lib/exit.h"
#include "common/json.h"
#include "lib/util.h"

/* The grader: $CUDALINGS_GRADER, else cudalings beside this program. */
static char *
find_grader(void)
{
	const char *env = getenv("CUDALINGS_GRADER");
	char self[PATH_MAX];
	ssize_t n;

	if (env && *env)
		return xstrdup(env);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		die(EXIT_FATAL, "cannot find where cudalings-tui is: %s", strerror(errno));
	self[n] = '\0';
	return path_join(dirname(self), "cudalings");
}

/* The workbook, as the grader lists it; dies (curses not started yet) when it cannot. */
static void
load_workbook(const char *grader, struct workbook *wb)
{
	char *root = workbook_find_root();
	char *argv[] = { (char *)grader, "list", "--json", NULL };
	struct spawn_options o = { .cwd = root, .timeout_s = 60 };
	struct buf out = BUF_INIT, err = BUF_INIT;
	int status;

	if (!root)
		die(EXIT_FATAL, "%s", last_error());
	if (access(grader, X_OK) < 0)
		die(EXIT_FATAL, "cannot run the grader '%s': %s (make builds it)", grader, strerror(errno));
	status = run_capture(argv, &o, &out, &err);
	if (status)
		die(EXIT_FATAL, "'%s list --json' failed with status %d: %s", grader, status, buf_str(&err));
	if (workbook_parse(buf_str(&out), wb) < 0)
		die(EXIT_FATAL, "%s", last_error());
	if (!wb->n)
		die(EXIT_FATAL, "the workbook in '%s' has no lessons or exercises", root);
	if (!wb->root)
		wb->root = xstrdup(root);
	free(root);
	buf_free(&out);
	buf_free(&err);
}

static void
draw(struct app *a)
{
	struct view *v = app_view(a);
	char left[512], right[128] = "", *bar;
	static const char spin[] = "|/-\\";
	struct doc msg;
	int rows;

	if (v->width != COLS)
		v->ops->open(v);
	erase();
	if (v->ops->per_item)
		snprintf(left, sizeof(left), " cudalings · %s · %d. %s", v->ops->name,
			 app_item(a, v->item)->order, app_item(a, v->item)->name);
	else if (a->nviews > 1)
		snprintf(left, sizeof(left), " cudalings · %s", v->ops->name);
	else
		snprintf(left, sizeof(left), " cudalings · %d lessons and exercises", a->wb.n);
	if (a->grading_item >= 0) {
		long long ms = now_ms() - a->grading.job.started_ms;

		snprintf(right, sizeof(right), "%s %s… %llds %c ", a->grading.demo ? "running" : "grading",
			 app_item(a, a->grading_item)->name, ms / 1000, spin[ms / 250 % 4]);
	} else if (watch_active(&a->watch)) {
		snprintf(right, sizeof(right), "watching %s ", app_item(a, a->watch_item)->name);
	}
	/* the item's title where it fits whole: cut, it would say something else */
	if (v->ops->per_item && utf8_width(left, strlen(left)) + 3 + utf8_width(app_item(a, v->item)->title,
		strlen(app_item(a, v->item)->title)) + utf8_width(right, strlen(right)) < COLS)
		snprintf(left + strlen(left), sizeof(left) - strlen(left), " · %s", app_item(a, v->item)->title);
	screen_bar(0, left, right, screen_attr(S_TITLE));
	/* a long message takes up to three lines from the view rather than be cut */
	doc_init(&msg, screen_ascii);
	if (*a->message)
		doc_wrap_text(&msg, a->message_style, a->message, COLS - 1, "", "");
	rows = msg.n < 1 ? 1 : msg.n > 3 ? 3 : msg.n;
	v->ops->draw(v, 1, LINES - 1 - rows);
	if (*a->message) {
		for (int i = 0; i < rows; i++) {
			screen_bar(LINES - rows + i, "", NULL, A_NORMAL);
			screen_doc_line(LINES - rows + i, 0, COLS, &msg.lines[i]);
		}
	} else {
		snprintf(right, sizeof(right), "%s%s? help", v->where, *v->where ? "  " : "");
		bar = a->grading_item >= 0 ? xstrdup("Esc cancels")
					   : keys_bar(a, v, COLS - utf8_width(right, strlen(right)) - 2);
		screen_bar(LINES - 1, bar, right, screen_attr(S_DIM));
		free(bar);
	}
	doc_free(&msg);
	refresh();
}

static void
handle_key(struct app *a, int key)
{
	struct view *v = app_view(a);

	if (key == KEY_RESIZE) {
		app_refresh(a, -1);
		return;
	}
	a->message[0] = '\0';
	/* keys typed ahead act on the page as it is now, not as last drawn */
	if (v->width != COLS)
		v->ops->open(v);
	if (v->ops->key(v, key) || keys_run(a, key))
		return;
	if (key < 256 && key > ' ')
		app_message(a, S_WARN, "'%c' does nothing here: ? shows the keys", key);
}

static void
loop(struct app *a)
{
	while (!a->quit && !screen_stop_signal) {
		struct pollfd fds[4];
		int n = 0, timeout = -1, key;

		draw(a);
		fds[n++] = (struct pollfd){ .fd = 0, .events = POLLIN };
		if (a->grading_item >= 0) {
			n += job_pollfds(&a->grading.job, fds + n);
			timeout = 250;	/* the spinner, and a child that exits with its pipes held */
		}
		if (watch_active(&a->watch))
			fds[n++] = (struct pollfd){ .fd = a->watch.fd, .events = POLLIN };
		if (a->watch_due) {
			long long left = a->watch_due - now_ms();

			left = left < 0 ? 0 : left;
			timeout = timeout < 0 || left < timeout ? (int)left : timeout;
		}
		/* a make grade in another terminal shows here within a second */
		if (timeout < 0 || timeout > 1000)
			timeout = 1000;
		if (poll(fds, (nfds_t)n, timeout) < 0 && errno != EINTR)
			die(EXIT_FATAL, "poll: %s", strerror(errno));
		/*
		 * The terminal went away (its window closed, ssh dropped). The hangup signal goes to the
		 * session's leader, which is make itself under `xterm -e make tui`; we may never get it, and
		 * a terminal that is gone is always readable: quit as on SIGHUP, or spin.
		 */
		if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
			screen_stop_signal = SIGHUP;
			break;
		}
		if (a->grading_item < 0 && state_reload(&a->state))
			app_forget_results(a);
		if (a->grading_item >= 0)
			action_grade_pump(a);
		if (watch_active(&a->watch))
			action_watch_event(a);
		/* keys, and KEY_RESIZE after a SIGWINCH interrupted poll() */
		while (!a->quit && (key = getch()) != ERR)
			handle_key(a, key);
	}
}

int
main(int argc, char **argv)
{
	static struct app app;
	struct workbook wb;
	char *grader;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: cudalings-tui\n\nOpens the workbook found from the current directory upward\n"
		       "(or in $CUDALINGS_ROOT). Press ? inside for the keys.\n");
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "usage: cudalings-tui (no arguments; see --help)\n");
		return 2;
	}
	/* the screen shows errors itself (last_error()); only die() prints, after leaving curses */
	error_set_program("cudalings-tui");
	json_init();
	error_set_print(false);
	grader = find_grader();
	load_workbook(grader, &wb);
	/* curses first: whether the screen is ASCII decides how the views are laid out */
	screen_init();
	app_init(&app, &wb, grader, &list_ops);
	free(grader);
	loop(&app);
	/* whatever still runs (a grading, the watch) ends with us, before the terminal is given back */
	action_cancel(&app);
	app_free(&app);
	screen_exit();
	if (screen_stop_signal)
		return 128 + screen_stop_signal;
	return 0;
}
