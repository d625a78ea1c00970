/*
 * batch_find: who the students of a folder of submissions are, and what
 * each one gave: a .cu to grade, or the reason there is nothing to grade
 * (which becomes that student's row). Also where the results may go.
 */
#include "grader/batch/batch_find.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lib/util.h"
#include "grader/compile/gradable.h"

/* A .cu file, whatever the case of its extension (BOB.CU is Bob's submission too). */
static bool
ends_with_cu(const char *name)
{
	size_t n = strlen(name);
	return n > 3 && !strcasecmp(name + n - 3, ".cu");
}

static int
compare_submissions(const void *a, const void *b)
{
	return strcmp(((const struct submission *)a)->student, ((const struct submission *)b)->student);
}

/* The .cu in a student's folder: the only one, or the one named after the exercise. */
static void
find_in_folder(struct submission *s, const char *folder, const char *exercise)
{
	DIR *d = opendir(folder);
	int found = 0;
	char *only = NULL, *named = NULL, *want = xasprintf("%s.cu", exercise);
	for (struct dirent *entry; d && (entry = readdir(d));) {
		if (entry->d_name[0] == '.' || !ends_with_cu(entry->d_name))
			continue;
		found++;
		char *path = xasprintf("%s/%s", folder, entry->d_name);
		if (!strcmp(entry->d_name, want)) {
			free(named);
			named = xstrdup(path);
		}
		free(only);
		only = path;
	}
	if (d)
		closedir(d);
	if (named) {
		s->path = named;
		named = NULL;
	} else if (found == 1) {
		s->path = only;
		only = NULL;
	} else if (!d) {
		s->problem = xasprintf("cannot read the folder '%s': %s", s->entry, strerror(errno));
	} else {
		s->problem = found ? xasprintf("the folder '%s' holds %d .cu files and none is named %s", s->entry,
					       found, want)
				   : xasprintf("the folder '%s' holds no .cu file", s->entry);
	}
	free(only);
	free(named);
	free(want);
}

/* What one entry of the folder is: a submission to grade, or the reason it cannot be one. */
static void
look_at(struct submission *s, const char *dir, const char *name, const char *exercise)
{
	char *path = xasprintf("%s/%s", dir, name);
	s->entry = xstrdup(name);
	if (name[0] == '.') {
		s->student = xstrdup(name);
		s->problem = xasprintf("'%s' is hidden (its name starts with a dot), and the batch grades nothing "
				       "hidden: rename it if it is a submission", name);
	} else if (is_directory(path)) {
		s->student = xstrdup(name);
		find_in_folder(s, path, exercise);
	} else if (ends_with_cu(name)) {
		s->student = xasprintf("%.*s", (int)strlen(name) - 3, name);
		s->path = xstrdup(path);
	} else {
		s->student = xstrdup(name);
		s->problem = xasprintf("'%s' is not a .cu file", name);
	}
	if (s->path) {
		/* named as the class folder names it, not by the batch's absolute path */
		char *shown = is_directory(path) ? xasprintf("%s/%s", name, strrchr(s->path, '/') + 1) : xstrdup(name);
		/* a link anywhere below the class folder (a student's folder, their file) is refused */
		s->shown_at = strlen(dir) + 1;
		s->problem = gradable_linked_reason(s->path, s->shown_at, shown);
		s->link = s->problem != NULL;
		if (!s->problem)
			s->problem = gradable_reason(s->path, shown);
		free(shown);
		if (s->problem) {
			free(s->path);
			s->path = NULL;
		}
	}
	free(path);
}

int
batch_find_submissions(const char *dir_arg, const char *out_arg, const char *exercise, struct submission **subs,
		       int *count)
{
	char dir[PATH_MAX], out[PATH_MAX];
	DIR *d = realpath(dir_arg, dir) ? opendir(dir) : NULL;
	if (!realpath(out_arg, out))
		out[0] = 0;
	if (!d)
		return error("cannot read the folder of submissions '%s': %s", dir_arg, strerror(errno)), 2;
	int cap = 0;
	*subs = NULL;
	*count = 0;
	for (struct dirent *entry; (entry = readdir(d));) {
		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
			continue;
		/* absolute: the gradings run in the workbook's folder */
		char *path = xasprintf("%s/%s", dir, entry->d_name);
		bool results = !strcmp(path, out);
		free(path);
		if (results)
			continue;
		if (*count == cap) {
			cap = cap ? 2 * cap : 32;
			*subs = xrealloc(*subs, sizeof(**subs) * (size_t)cap);
		}
		struct submission *s = &(*subs)[(*count)++];
		memset(s, 0, sizeof(*s));
		look_at(s, dir, entry->d_name, exercise);
	}
	closedir(d);
	if (!*count)
		return error("'%s' holds no submissions (a .cu file, or a folder per student holding one)", dir_arg), 2;
	qsort(*subs, (size_t)*count, sizeof(**subs), compare_submissions);
	/* ann.cu beside a folder ann/: one student gave two submissions, and their row says so */
	int kept = 0;
	for (int i = 0; i < *count; i++) {
		struct submission *s = &(*subs)[i], *last = kept ? &(*subs)[kept - 1] : NULL;
		if (last && !strcmp(last->student, s->student)) {
			char *why = xasprintf("two submissions have this name ('%s' and '%s'): keep one", last->entry,
					      s->entry);
			free(last->path);
			free(last->problem);
			last->path = NULL;
			last->problem = why;
			batch_find_free(s, 1);
			continue;
		}
		(*subs)[kept++] = *s;
	}
	*count = kept;
	return 0;
}

void
batch_find_free(struct submission *subs, int count)
{
	for (int i = 0; i < count; i++) {
		free(subs[i].student);
		free(subs[i].entry);
		free(subs[i].path);
		free(subs[i].problem);
		free(subs[i].csv);
		free(subs[i].hash);
	}
}

/* The absolute, resolved form of a path that may not exist yet: its deepest existing folder resolved. */
static char *
resolved_path(const char *path)
{
	char buf[PATH_MAX], *copy = xstrdup(path), *rest = NULL;
	for (;;) {
		if (realpath(copy, buf)) {
			char *r = rest ? xasprintf("%s/%s", buf, rest) : xstrdup(buf);
			free(copy);
			free(rest);
			return r;
		}
		char *slash = strrchr(copy, '/');
		char *tail = xstrdup(slash ? slash + 1 : copy);
		char *joined = rest ? xasprintf("%s/%s", tail, rest) : xstrdup(tail);
		free(tail);
		free(rest);
		rest = joined;
		if (!slash) {
			free(copy);
			copy = xstrdup(".");
		} else if (slash == copy) {
			copy[1] = 0;
		} else {
			*slash = 0;
		}
	}
}

int
batch_check_out(const char *out, const char *dir)
{
	if (!*out)
		return error("batch: --out is empty: name a folder for the results, e.g. --out results/");
	char *o = resolved_path(out), *d = resolved_path(dir);
	size_t n = strlen(d);
	int status = 0;
	if (!strcmp(o, "/"))
		status = error("batch: --out '%s' is the root folder: name a folder of its own for the results", out);
	else if (!strncmp(o, d, n) && (o[n] == '/' || o[n] == 0))
		status = error("batch: --out '%s' is inside the submissions folder '%s': its files would be taken "
			       "for submissions", out, dir);
	else if (mkdir_p(o) || access(o, W_OK))
		status = error("batch: cannot write the results to '%s': %s", out, strerror(errno ? errno : EACCES));
	free(o);
	free(d);
	return status;
}
