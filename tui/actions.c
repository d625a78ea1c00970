/* actions: what the keys start, on the app they are given (see actions.h). */
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tui/actions.h"
#include "tui/hint.h"
#include "tui/screen.h"
#include "lib/util.h"

/* The current item if it is an exercise; else say why not and NULL. */
static const struct item *
exercise(struct app *a, const char *what)
{
	const struct item *it = app_item(a, a->cur);

	if (app_is_exercise(a, a->cur))
		return it;
	app_message(a, S_WARN, "%s is a %s: there is nothing to %s", it->title, it->kind, what);
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
	for (size_t i = 0; i < ARRAY_SIZE(fallbacks); i++)
		if (on_path(fallbacks[i]))
			return fallbacks[i];
	return NULL;
}

/* Run the editor on path in the foreground, as git does: sh -c '$EDITOR "$@"'. */
static int
run_editor(const char *editor, const char *path)
{
	char *cmd = xasprintf("%s \"$@\"", editor);
	char *argv[] = { "/bin/sh", "-c", cmd, (char *)editor, (char *)path, NULL };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	/* the terminal's while it runs: its keys, in our process group */
	struct spawn_options o = { .foreground = true };
	struct child c = { .label = "editor" };
	int status = -1;

	/* Ctrl-C is the editor's while it runs, not ours (the spawner gives it the default back) */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	if (child_spawn(&c, argv, &o) == 0) {
		child_wait(&c);
		status = WIFEXITED(c.status) ? WEXITSTATUS(c.status) : -1;
	} else {
		error("cannot start the editor: %s", last_error());
	}
	child_release(&c);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	free(cmd);
	return status;
}

void
action_edit(struct app *a)
{
	const struct item *it = exercise(a, "edit");
	const char *editor = pick_editor();
	char *path;
	int status;

	if (!it)
		return;
	if (!editor) {
		app_message(a, S_FAIL, "no editor found: set EDITOR (e.g. export EDITOR=nano)");
		return;
	}
	path = app_path(a, it->file);
	screen_suspend();
	status = run_editor(editor, path);
	screen_resume();
	if (status < 0)
		app_message(a, S_FAIL, "%s", last_error());
	else if (status)
		app_message(a, S_FAIL, "the editor '%s' exited with status %d", editor, status);
	else
		app_message(a, S_PLAIN, "back from editing %s: c grades it", it->file);
	free(path);
	app_refresh(a, a->cur);
}

static void
grade_item(struct app *a, int i)
{
	const struct item *it = app_item(a, i);
	bool demo = !strcmp(it->kind, "demo");
	int ret;

	if (a->grading_item >= 0)
		action_cancel(a);
	/* a demo's table as wide as the results page's text (pager_reset: a column of margin each side) */
	ret = demo ? grade_start_demo(&a->grading, a->grader, a->wb.root, it->name, COLS - 3)
		   : grade_start(&a->grading, a->grader, a->wb.root, it->name);
	if (ret < 0) {
		app_message(a, S_FAIL, "%s", last_error());
		return;
	}
	a->grading_item = i;
	app_refresh(a, i);
}

void
action_grade(struct app *a)
{
	/* c on a demo runs its variants: the nearest thing to grading it */
	if (strcmp(app_item(a, a->cur)->kind, "demo") && !exercise(a, "grade"))
		return;
	grade_item(a, a->cur);
	app_show(a, &results_ops);
}

void
action_cancel(struct app *a)
{
	int i = a->grading_item;

	if (i < 0)
		return;
	/* its whole process group, the grader's runners with it (they die with the grader too) */
	grade_cancel(&a->grading);
	app_message(a, S_WARN, "%s %s cancelled", a->grading.demo ? "running" : "grading", app_item(a, i)->name);
	grade_free(&a->grading);
	a->grading_item = -1;
	app_refresh(a, i);
}

static void
finish_demo(struct app *a, int i)
{
	const struct item *it = app_item(a, i);
	struct demo_run *run = &a->runs[i];

	free(run->output);
	run->output = grade_demo_output(&a->grading);
	run->status = a->grading.job.status;
	grade_free(&a->grading);
	a->grading_item = -1;
	/* a demo is done once seen, as a lesson is once read */
	state_set_status(&a->state, it->name, STATUS_READ);
	if (state_save(&a->state) < 0)
		app_message(a, S_FAIL, "%s", last_error());
	else if (run->status)
		app_message(a, S_FAIL, "the run of %s failed (exit %d)", it->name, run->status);
	else
		app_message(a, S_PASS, "%s ran: compare its variants", it->name);
	app_refresh(a, i);
}

void
action_grade_pump(struct app *a)
{
	int i = a->grading_item, before = a->grading.nsteps;
	const struct item *it;
	struct result *r;
	char *json;

	if (i < 0)
		return;
	if (!grade_pump(&a->grading)) {
		if (a->grading.nsteps != before)
			app_refresh(a, i);
		return;
	}
	it = app_item(a, i);
	if (a->grading.demo) {
		finish_demo(a, i);
		return;
	}
	r = xcalloc(1, sizeof(*r));
	grade_result(&a->grading, r);
	json = buf_detach(&a->grading.job.out_text);
	grade_free(&a->grading);
	a->grading_item = -1;
	app_set_result(a, i, r);
	/* a grader that could not grade (exit 2 or 3) says nothing about the student's code */
	if (r->exit_status == 0 || r->exit_status == 1) {
		/* the grader has recorded it (with what it graded); a grader that could not is made up for */
		state_reload(&a->state);
		state_set_status(&a->state, it->name, state_status_of(r->pass, r->backend));
		if (state_save(&a->state) < 0 || state_save_report(&a->state, it->name, json) < 0)
			app_message(a, S_FAIL, "%s", last_error());
		else if (r->pass)
			app_message(a, S_PASS, "%s: %s (graded in %.1f s). n goes to the next one", it->name,
				    app_status_label(a, i, false), r->elapsed_ms / 1000.0);
		else
			app_message(a, S_FAIL, "%s: failing%s%s (graded in %.1f s). h shows a hint", it->name,
				    *r->stage ? " at " : "", r->stage, r->elapsed_ms / 1000.0);
	} else {
		app_message(a, S_FAIL, "the grader could not grade %s (exit %d)", it->name, r->exit_status);
	}
	free(json);
	app_refresh(a, i);
}

void
action_watch_toggle(struct app *a)
{
	const struct item *it;
	char *path;

	if (watch_active(&a->watch)) {
		app_message(a, S_PLAIN, "stopped watching %s", app_item(a, a->watch_item)->file);
		watch_stop(&a->watch);
		a->watch_due = 0;
		return;
	}
	if (!(it = exercise(a, "watch")))
		return;
	path = app_path(a, it->file);
	if (watch_start(&a->watch, path) < 0) {
		app_message(a, S_FAIL, "%s", last_error());
	} else {
		a->watch_item = a->cur;
		/* an edit made before w is graded now, not at the next save */
		if (app_changed_since_graded(a, a->cur))
			a->watch_due = now_ms();
		app_message(a, S_PLAIN, "watching %s: %severy save grades it (w stops)", it->file,
			    a->watch_due ? "changed since graded, so graded now; " : "");
	}
	free(path);
}

void
action_watch_event(struct app *a)
{
	if (watch_changed(&a->watch))
		/* editors write in several steps: grade once they are quiet */
		a->watch_due = now_ms() + 300;
	if (a->watch_due && now_ms() >= a->watch_due) {
		a->watch_due = 0;
		grade_item(a, a->watch_item);
		/* the student is at the editor: what the save did shows here, unless they moved on */
		if (a->cur == a->watch_item && app_view(a)->ops != &results_ops && a->grading_item >= 0)
			app_show(a, &results_ops);
	}
}

void
action_hint(struct app *a)
{
	const struct item *it = exercise(a, "hint at");
	const struct hint **hints;
	const char *key;
	int n, shown;

	if (!it)
		return;
	if (app_result(a, a->cur) && app_result(a, a->cur)->pass) {
		app_message(a, S_PASS, "%s passes: nothing to hint at", it->title);
		return;
	}
	n = hint_list(it, app_result(a, a->cur), &hints, &key);
	free(hints);
	shown = state_hints(&a->state, it->name, key);
	if (!n) {
		app_message(a, S_WARN, "%s has no hints for this", it->title);
		return;
	}
	if (shown >= n) {
		app_message(a, S_WARN, "that was the last hint for %s", it->title);
	} else {
		state_set_hints(&a->state, it->name, key, shown + 1);
		if (state_save(&a->state) < 0)
			app_message(a, S_FAIL, "%s", last_error());
	}
	app_show(a, &results_ops);
	app_refresh(a, a->cur);
	/* the newest hint is at the end */
	app_view(a)->top = 1 << 30;
}

void
action_solution(struct app *a)
{
	const struct item *it = exercise(a, "solve");
	enum status s;
	char question[256];

	if (!it)
		return;
	if (!it->solution) {
		app_message(a, S_WARN, "%s has no solution to show", it->title);
		return;
	}
	s = state_status(&a->state, it->name);
	snprintf(question, sizeof(question), "You have not passed %s yet. Show the solution anyway?", it->title);
	if (s != STATUS_SIM && s != STATUS_GPU && !screen_confirm(question))
		return;
	app_show(a, &solution_ops);
}

void
action_reset(struct app *a)
{
	const struct item *it = exercise(a, "reset");
	char question[256], *last;
	char *argv[] = { a->grader, "reset", NULL, NULL };
	struct spawn_options o = { .cwd = a->wb.root, .death_signal = SIGTERM };
	struct buf out = BUF_INIT, err = BUF_INIT;
	int status;

	if (!it)
		return;
	snprintf(question, sizeof(question), "Reset %s to its starter? Your version is kept as a backup.", it->file);
	if (!screen_confirm(question))
		return;
	if (a->grading_item == a->cur)
		action_cancel(a);
	argv[2] = it->name;
	status = run_capture(argv, &o, &out, &err);
	/* the grader's own words: where the backup went, or why it could not (or why it did not start) */
	last = status ? err.data : out.data;
	while (*last && last[strlen(last) - 1] == '\n')
		last[strlen(last) - 1] = '\0';
	if (strrchr(last, '\n'))
		last = strrchr(last, '\n') + 1;
	if (status) {
		app_message(a, S_FAIL, "cudalings reset %s failed: %s", it->name, *last ? last : "(no message)");
	} else {
		app_message(a, S_PLAIN, "%s", *last ? last : "reset to the starter");
		state_set_status(&a->state, it->name, STATUS_NOT_STARTED);
		app_set_result(a, a->cur, NULL);
		state_forget_report(&a->state, it->name);
		a->looked[a->cur] = true;
		if (state_save(&a->state) < 0)
			app_message(a, S_FAIL, "%s", last_error());
	}
	buf_free(&out);
	buf_free(&err);
	app_refresh(a, a->cur);
}

void
action_move(struct app *a, int delta)
{
	int to = a->cur + delta;

	if (to < 0 || to >= a->wb.n) {
		app_message(a, S_WARN, to < 0 ? "this is the first one" : "this is the last one");
		return;
	}
	a->cur = to;
	if (a->nviews == 1)
		return;
	/* from any page of an item, to the next one's lesson: where working on it starts */
	while (a->nviews > 1)
		app_close(a);
	app_show(a, &lesson_ops);
}

void
action_switch(struct app *a)
{
	app_show(a, app_view(a)->ops == &results_ops ? &lesson_ops : &results_ops);
}

void
action_back(struct app *a, bool quit)
{
	if (a->nviews > 1)
		app_close(a);
	else if (quit)
		a->quit = true;
}

void
action_escape(struct app *a)
{
	if (a->grading_item >= 0)
		action_cancel(a);
	else
		app_close(a);
}
