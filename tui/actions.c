/* actions: what the keys start: edit, grade, watch, hints, solution, reset, next/previous. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app.h"
#include "screen.h"
#include "lib/util.h"

/* The current item if it is an exercise; else say why not and NULL. */
static const struct item *
exercise(const char *what)
{
	const struct item *it = app_item(app.cur);

	if (!strcmp(it->kind, "exercise") && it->file)
		return it;
	app_message(S_WARN, "%s is a %s: there is nothing to %s", it->title, it->kind, what);
	return NULL;
}

static bool
on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	bool found = false;

	if (!path)
		return false;
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *file = path_join(*dir ? dir : ".", prog);

		found = access(file, X_OK) == 0;
		free(file);
	}
	free(copy);
	return found;
}

static const char *
pick_editor(void)
{
	static const char *const fallbacks[] = { "sensible-editor", "nano", "vi" };
	const char *e = getenv("VISUAL");

	if (!e || !*e)
		e = getenv("EDITOR");
	if (e && *e)
		return e;
	for (size_t i = 0; i < sizeof(fallbacks) / sizeof(fallbacks[0]); i++)
		if (on_path(fallbacks[i]))
			return fallbacks[i];
	return NULL;
}

/* Run the editor on path in the foreground, as git does: sh -c '$EDITOR "$@"'. */
static int
run_editor(const char *editor, const char *path)
{
	char *cmd = xasprintf("%s \"$@\"", editor);
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	int status = -1;
	pid_t pid;

	/* Ctrl-C is the editor's while it runs, not ours */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cmd, editor, path, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	free(cmd);
	if (pid < 0)
		return error("cannot start the editor: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void
action_edit(void)
{
	const struct item *it = exercise("edit");
	const char *editor = pick_editor();
	char *path;
	int status;

	if (!it)
		return;
	if (!editor) {
		app_message(S_FAIL, "no editor found: set EDITOR (e.g. export EDITOR=nano)");
		return;
	}
	path = app_path(it->file);
	screen_suspend();
	status = run_editor(editor, path);
	screen_resume();
	if (status < 0)
		app_message(S_FAIL, "%s", last_error());
	else if (status)
		app_message(S_FAIL, "the editor '%s' exited with status %d", editor, status);
	else
		app_message(S_PLAIN, "back from editing %s: c grades it", it->file);
	free(path);
	app_refresh(app.cur);
}

static void
grade_item(int i)
{
	const struct item *it = app_item(i);
	bool demo = !strcmp(it->kind, "demo");
	int ret;

	if (app.grading_item >= 0)
		action_cancel();
	ret = demo ? grade_start_demo(&app.grading, app.grader, app.wb.root, it->name)
		   : grade_start(&app.grading, app.grader, app.wb.root, it->name);
	if (ret < 0) {
		app_message(S_FAIL, "%s", last_error());
		return;
	}
	app.grading_item = i;
	app_refresh(i);
}

void
action_grade(void)
{
	/* c on a demo runs its variants: the nearest thing to grading it */
	if (strcmp(app_item(app.cur)->kind, "demo") && !exercise("grade"))
		return;
	grade_item(app.cur);
	app_show(&results_ops);
}

void
action_cancel(void)
{
	int i = app.grading_item;

	if (i < 0)
		return;
	grade_cancel(&app.grading);
	app_message(S_WARN, "%s %s cancelled", app.grading.demo ? "running" : "grading", app_item(i)->name);
	grade_free(&app.grading);
	app.grading_item = -1;
	app_refresh(i);
}

static enum status
status_of(const struct grade_result *r)
{
	return state_status_of(r->pass, r->backend);
}

static void
finish_demo(int i)
{
	const struct item *it = app_item(i);
	struct demo_run *run = &app.runs[i];

	free(run->output);
	run->output = grade_demo_output(&app.grading);
	run->status = app.grading.job.status;
	grade_free(&app.grading);
	app.grading_item = -1;
	/* a demo is done once seen, as a lesson is once read */
	state_set_status(&app.state, it->name, STATUS_READ);
	if (state_save(&app.state) < 0)
		app_message(S_FAIL, "%s", last_error());
	else if (run->status)
		app_message(S_FAIL, "the run of %s failed (exit %d)", it->name, run->status);
	else
		app_message(S_PASS, "%s ran: compare its variants", it->name);
	app_refresh(i);
}

void
action_grade_pump(void)
{
	int i = app.grading_item, before = app.grading.nsteps;
	const struct item *it;
	struct grade_result *r;
	char *json;

	if (i < 0)
		return;
	if (!grade_pump(&app.grading)) {
		if (app.grading.nsteps != before)
			app_refresh(i);
		return;
	}
	it = app_item(i);
	if (app.grading.demo) {
		finish_demo(i);
		return;
	}
	r = xcalloc(1, sizeof(*r));
	grade_result(&app.grading, r);
	json = buf_detach(&app.grading.job.out_text);
	grade_free(&app.grading);
	app.grading_item = -1;
	if (app.results[i]) {
		result_free(app.results[i]);
		free(app.results[i]);
	}
	app.results[i] = r;
	/* a grader that could not grade (exit 2 or 3) says nothing about the student's code */
	if (r->exit_status == 0 || r->exit_status == 1) {
		/* the grader has recorded it (with what it graded); a grader that could not is made up for */
		state_reload(&app.state);
		state_set_status(&app.state, it->name, status_of(r));
		if (state_save(&app.state) < 0 || state_save_report(&app.state, it->name, json) < 0)
			app_message(S_FAIL, "%s", last_error());
		else if (r->pass)
			app_message(S_PASS, "%s: %s. n goes to the next one", it->name, app_status_label(i));
		else
			app_message(S_FAIL, "%s: failing%s%s. h shows a hint", it->name,
				    *r->stage ? " at " : "", r->stage);
	} else {
		app_message(S_FAIL, "the grader could not grade %s (exit %d)", it->name, r->exit_status);
	}
	free(json);
	app_refresh(i);
}

void
action_watch_toggle(void)
{
	const struct item *it;
	char *path;

	if (watch_active(&app.watch)) {
		app_message(S_PLAIN, "stopped watching %s", app_item(app.watch_item)->file);
		watch_stop(&app.watch);
		app.watch_due = 0;
		return;
	}
	if (!(it = exercise("watch")))
		return;
	path = app_path(it->file);
	if (watch_start(&app.watch, path) < 0) {
		app_message(S_FAIL, "%s", last_error());
	} else {
		app.watch_item = app.cur;
		app_message(S_PLAIN, "watching %s: every save grades it (w stops)", it->file);
	}
	free(path);
}

void
action_watch_event(void)
{
	if (watch_changed(&app.watch))
		/* editors write in several steps: grade once they are quiet */
		app.watch_due = now_ms() + 300;
	if (app.watch_due && now_ms() >= app.watch_due) {
		app.watch_due = 0;
		grade_item(app.watch_item);
	}
}

void
action_hint(void)
{
	const struct item *it = exercise("hint at");
	const struct hint **hints;
	int n, shown;

	if (!it)
		return;
	n = report_hints(it, app_result(app.cur), &hints);
	free(hints);
	shown = state_hints(&app.state, it->name, report_hint_stage(app_result(app.cur)));
	if (!n) {
		app_message(S_WARN, "%s has no hints", it->title);
		return;
	}
	if (shown >= n) {
		app_message(S_WARN, "that was the last hint for %s", it->title);
	} else {
		state_set_hints(&app.state, it->name, report_hint_stage(app_result(app.cur)), shown + 1);
		if (state_save(&app.state) < 0)
			app_message(S_FAIL, "%s", last_error());
	}
	app_show(&results_ops);
	app_refresh(app.cur);
	/* the newest hint is at the end */
	app_view()->top = 1 << 30;
}

void
action_solution(void)
{
	const struct item *it = exercise("solve");
	enum status s;
	char question[256];

	if (!it)
		return;
	if (!it->solution) {
		app_message(S_WARN, "%s has no solution to show", it->title);
		return;
	}
	s = state_status(&app.state, it->name);
	snprintf(question, sizeof(question), "You have not passed %s yet. Show the solution anyway?", it->title);
	if (s != STATUS_SIM && s != STATUS_GPU && !screen_confirm(question))
		return;
	app_show(&solution_ops);
}

void
action_reset(void)
{
	const struct item *it = exercise("reset");
	char question[256], *last;
	char *argv[] = { app.grader, "reset", NULL, NULL };
	struct spawn_options o = { .cwd = app.wb.root, .death_signal = SIGTERM };
	struct buf out = BUF_INIT, err = BUF_INIT;
	int status;

	if (!it)
		return;
	snprintf(question, sizeof(question), "Reset %s to its starter? Your version is kept as a backup.", it->file);
	if (!screen_confirm(question))
		return;
	if (app.grading_item == app.cur)
		action_cancel();
	argv[2] = it->name;
	status = run_capture(argv, &o, &out, &err);
	/* the grader's own words: where the backup went, or why it could not (or why it did not start) */
	last = status ? err.data : out.data;
	if (!last)
		last = "";
	while (*last && last[strlen(last) - 1] == '\n')
		last[strlen(last) - 1] = '\0';
	if (strrchr(last, '\n'))
		last = strrchr(last, '\n') + 1;
	if (status) {
		app_message(S_FAIL, "cudalings reset %s failed: %s", it->name, *last ? last : "(no message)");
	} else {
		app_message(S_PLAIN, "%s", *last ? last : "reset to the starter");
		state_set_status(&app.state, it->name, STATUS_NOT_STARTED);
		if (app.results[app.cur]) {
			result_free(app.results[app.cur]);
			free(app.results[app.cur]);
			app.results[app.cur] = NULL;
		}
		state_forget_report(&app.state, it->name);
		app.looked[app.cur] = true;
		if (state_save(&app.state) < 0)
			app_message(S_FAIL, "%s", last_error());
	}
	buf_free(&out);
	buf_free(&err);
	app_refresh(app.cur);
}

void
action_move(int delta)
{
	int to = app.cur + delta;

	if (to < 0 || to >= app.wb.n) {
		app_message(S_WARN, to < 0 ? "this is the first one" : "this is the last one");
		return;
	}
	app.cur = to;
	/* the solution of one exercise is no page to land on for the next */
	if (app_view()->ops == &solution_ops)
		app_close();
	for (int i = 1; i < app.nviews; i++) {
		app.views[i].item = to;
		app.views[i].top = 0;
		app.views[i].width = 0;
	}
}
