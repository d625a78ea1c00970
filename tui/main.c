/*
 * cudalings-tui: the workbook in the terminal.  Reads the workbook through
 * the grader (`cudalings list --json`), then loops: draw, wait in poll() for
 * a key, the grader's output, a save in watch mode, or a signal; act.
 */
#include <curses.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "screen.h"
#include "common/exit.h"
#include "lib/util.h"

struct app app;

struct view *
app_view(void)
{
	return &app.views[app.nviews - 1];
}

const struct item *
app_item(int i)
{
	return &app.wb.items[i];
}

char *
app_path(const char *rel)
{
	return path_join(app.wb.root, rel);
}

struct grade_result *
app_result(int i)
{
	char *json;
	struct grade_result *r;

	if (app.results[i] || app.looked[i])
		return app.results[i];
	app.looked[i] = true;
	json = state_load_report(&app.state, app_item(i)->name);
	if (!json)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	if (result_parse(json, r) < 0) {
		/* a damaged report is only a lost view of the past: no more than that */
		free(r);
		free(json);
		return NULL;
	}
	r->earlier = true;
	r->exit_status = r->pass ? 0 : 1;
	app.results[i] = r;
	free(json);
	return r;
}

char *
app_read(const char *rel)
{
	char *path = app_path(rel), *text = read_file(path, NULL);
	int saved = errno;

	free(path);
	errno = saved;
	return text;
}

const char *
app_status_label(int i)
{
	const struct item *it = app_item(i);
	enum status s = state_status(&app.state, it->name);

	if (strcmp(it->kind, "exercise"))
		return s == STATUS_READ ? "read" : "not read";
	if (s != STATUS_NOT_STARTED && it->file && app.grading_item != i) {
		char *path = app_path(it->file);
		bool changed = state_changed_since_graded(&app.state, it->name, path);

		free(path);
		if (changed)
			return "changed since graded";
	}
	return status_label(s);
}

void
app_message(unsigned style, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(app.message, sizeof(app.message), fmt, ap);
	va_end(ap);
	app.message_style = style;
}

static void
view_set(struct view *v, const struct view_ops *ops, int item)
{
	if (v->ops != ops || v->item != item)
		v->top = 0;
	v->ops = ops;
	v->item = item;
	v->width = 0;
}

void
app_show(const struct view_ops *ops)
{
	struct view *v = app_view();

	if (v->ops == ops) {
		view_set(v, ops, app.cur);
		return;
	}
	/* Tab between the lesson and the results goes back, not deeper */
	if (app.nviews > 1 && app.views[app.nviews - 2].ops == ops) {
		app_close();
		view_set(app_view(), ops, app.cur);
		return;
	}
	if (app.nviews == MAX_VIEWS)
		app_close();
	v = &app.views[app.nviews++];
	doc_init(&v->doc, screen_ascii);
	v->ops = NULL;
	view_set(v, ops, app.cur);
}

void
app_close(void)
{
	if (app.nviews <= 1)
		return;
	doc_free(&app_view()->doc);
	app.nviews--;
}

void
app_refresh(int item)
{
	for (int i = 0; i < app.nviews; i++)
		if (item < 0 || app.views[i].item == item)
			app.views[i].width = 0;
}

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

static void
load_workbook(void)
{
	char *root = workbook_find_root();
	char *argv[] = { app.grader, "list", "--json", NULL };
	struct spawn_options o = { .cwd = root, .timeout_s = 60 };
	struct buf out = BUF_INIT, err = BUF_INIT;
	int status;

	if (!root)
		die(EXIT_FATAL, "%s", last_error());
	if (access(app.grader, X_OK) < 0)
		die(EXIT_FATAL, "cannot run the grader '%s': %s (make builds it)", app.grader, strerror(errno));
	status = run_capture(argv, &o, &out, &err);
	if (status)
		die(EXIT_FATAL, "'%s list --json' failed with status %d: %s", app.grader, status, buf_str(&err));
	if (workbook_parse(buf_str(&out), &app.wb) < 0)
		die(EXIT_FATAL, "%s", last_error());
	if (!app.wb.n)
		die(EXIT_FATAL, "the workbook in '%s' has no lessons or exercises", root);
	if (!app.wb.root)
		app.wb.root = xstrdup(root);
	free(root);
	buf_free(&out);
	buf_free(&err);
}

static void
draw(void)
{
	struct view *v = app_view();
	char left[256], right[128] = "";
	static const char spin[] = "|/-\\";
	struct doc msg;
	int rows;

	if (v->width != COLS)
		v->ops->open(v);
	erase();
	if (app.nviews == 1)
		snprintf(left, sizeof(left), " cudalings · %d lessons and exercises", app.wb.n);
	else if (v->ops == &help_ops)
		snprintf(left, sizeof(left), " cudalings · help");
	else
		snprintf(left, sizeof(left), " cudalings · %s · %d. %s", v->ops->name,
			 app_item(v->item)->order, app_item(v->item)->title);
	if (app.grading_item >= 0) {
		long long ms = now_ms() - app.grading.job.started_ms;

		snprintf(right, sizeof(right), "%s %s %llds %c ", app.grading.demo ? "running" : "grading",
			 app_item(app.grading_item)->name, ms / 1000, spin[ms / 250 % 4]);
	} else if (watch_active(&app.watch)) {
		snprintf(right, sizeof(right), "watching %s ", app_item(app.watch_item)->name);
	}
	screen_bar(0, left, right, screen_attr(S_TITLE));
	/* a long message takes up to three lines from the view rather than be cut */
	doc_init(&msg, screen_ascii);
	if (*app.message)
		doc_wrap_text(&msg, app.message_style, app.message, COLS - 1, "", "");
	rows = msg.n < 1 ? 1 : msg.n > 3 ? 3 : msg.n;
	v->ops->draw(v, 1, LINES - 1 - rows);
	if (*app.message)
		for (int i = 0; i < rows; i++) {
			screen_bar(LINES - rows + i, "", NULL, A_NORMAL);
			screen_doc_line(LINES - rows + i, 0, COLS, &msg.lines[i]);
		}
	else {
		snprintf(right, sizeof(right), "%s%s? help", v->where, *v->where ? "  " : "");
		screen_bar(LINES - 1, app.grading_item >= 0 ? "Esc cancels" : v->ops->keys,
			   right, screen_attr(S_DIM));
	}
	doc_free(&msg);
	refresh();
}

static void
handle_key(int key)
{
	struct view *v = app_view();

	if (key == KEY_RESIZE) {
		app_refresh(-1);
		return;
	}
	app.message[0] = '\0';
	/* keys typed ahead act on the page as it is now, not as last drawn */
	if (v->width != COLS)
		v->ops->open(v);
	if (v->ops->key(v, key))
		return;
	switch (key) {
	case 'q':
	case KEY_LEFT:
		if (app.nviews > 1)
			app_close();
		else if (key == 'q')
			app.quit = true;
		break;
	case 27:
		if (app.grading_item >= 0)
			action_cancel();
		else
			app_close();
		break;
	case 'Q': app.quit = true; break;
	case '?': app_show(&help_ops); break;
	case 'e': action_edit(); break;
	case 'c': action_grade(); break;
	case 'w': action_watch_toggle(); break;
	case 'h': action_hint(); break;
	case 's': action_solution(); break;
	case 'R': action_reset(); break;
	case 'n': action_move(1); break;
	case 'p': action_move(-1); break;
	case '\t':
	case 'r':
		app_show(v->ops == &results_ops ? &lesson_ops : &results_ops);
		break;
	case 'L' & 0x1f:
		clearok(curscr, TRUE);
		break;
	default:
		if (key < 256 && key > ' ')
			app_message(S_WARN, "'%c' does nothing here: ? shows the keys", key);
		break;
	}
}

/* The next item to do: the first not done, in course order. */
static int
first_to_do(void)
{
	for (int i = 0; i < app.wb.n; i++)
		if (!status_done(state_status(&app.state, app.wb.items[i].name)))
			return i;
	return app.wb.n - 1;
}

/* Progress saved by another process: the reports kept are read again when next shown. */
static void
forget_results(void)
{
	for (int i = 0; i < app.wb.n; i++) {
		if (app.results[i]) {
			result_free(app.results[i]);
			free(app.results[i]);
			app.results[i] = NULL;
		}
		app.looked[i] = false;
	}
	app_refresh(-1);
}

static void
loop(void)
{
	while (!app.quit && !screen_stop_signal) {
		struct pollfd fds[4];
		int n = 0, timeout = -1, key;

		draw();
		fds[n++] = (struct pollfd){ .fd = 0, .events = POLLIN };
		if (app.grading_item >= 0) {
			n += job_pollfds(&app.grading.job, fds + n);
			timeout = 250;	/* the spinner, and a child that exits with its pipes held */
		}
		if (watch_active(&app.watch))
			fds[n++] = (struct pollfd){ .fd = app.watch.fd, .events = POLLIN };
		if (app.watch_due) {
			long long left = app.watch_due - now_ms();

			left = left < 0 ? 0 : left;
			timeout = timeout < 0 || left < timeout ? (int)left : timeout;
		}
		/* a make grade in another terminal shows here within a second */
		if (timeout < 0 || timeout > 1000)
			timeout = 1000;
		if (poll(fds, (nfds_t)n, timeout) < 0 && errno != EINTR)
			die(EXIT_FATAL, "poll: %s", strerror(errno));
		if (app.grading_item < 0 && state_reload(&app.state))
			forget_results();
		if (app.grading_item >= 0)
			action_grade_pump();
		if (watch_active(&app.watch))
			action_watch_event();
		/* keys, and KEY_RESIZE after a SIGWINCH interrupted poll() */
		while (!app.quit && (key = getch()) != ERR)
			handle_key(key);
	}
}

int
main(int argc, char **argv)
{
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
	error_set_print(false);
	app.grader = find_grader();
	app.grading_item = -1;
	app.watch = (struct watch)WATCH_INIT;
	load_workbook();
	state_load(&app.state, app.wb.root);
	app.results = xcalloc((size_t)app.wb.n, sizeof(*app.results));
	app.runs = xcalloc((size_t)app.wb.n, sizeof(*app.runs));
	app.looked = xcalloc((size_t)app.wb.n, sizeof(*app.looked));
	app.cur = first_to_do();
	screen_init();
	app.nviews = 1;
	doc_init(&app.views[0].doc, screen_ascii);
	app.views[0].ops = &list_ops;
	if (app.state.note)
		app_message(S_WARN, "%s", app.state.note);
	loop();
	action_cancel();
	watch_stop(&app.watch);
	screen_exit();
	if (screen_stop_signal)
		return 128 + screen_stop_signal;
	return 0;
}
