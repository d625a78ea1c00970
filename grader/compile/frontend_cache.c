/*
 * frontend_cache: nvcc's front end, which judges every file graded on the
 * simulator (submission.c), costs 0.6 to 3 CPU seconds a file, and the same
 * file is graded again under other names and in other copies of the workbook
 * (bench/make-test.md). An accepted run is remembered in build/cache/frontend/,
 * in an entry named by a hash of its key and of the file:
 *   - the key: nvcc's command (the file and the list it writes left out), the
 *     size and time of nvcc, its helpers and the host compiler it runs, the
 *     variables that change what they read, and every name under the file's
 *     folder (a header added there could be found instead of another, or make
 *     a __has_include true);
 *   - every file nvcc read (its -MD list): the student's own file and those
 *     beside it, and the exercise's public header, whole, compared as text (no
 *     hash a submission could be made to match); the system's and the
 *     toolkit's headers by size and hash.
 * A grading is accepted without nvcc only when the entry is exactly what the
 * files are now. A file that reads anything else (a header elsewhere, a path
 * through ".."), or whose folder holds too much to list, is not remembered:
 * nvcc judges it every time, as before.
 */
#include "grader/compile/frontend_cache.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/root.h"
#include "grader/compile/depfile.h"
#include "grader/runner_mk.h"
#include "lib/util.h"

#define CACHE_DIR BUILD_DIR "/cache/frontend"
#define MAX_LISTED 400 /* names under the file's folder; a bigger folder is not remembered */

/* Whether `path` lies under the folder `dir` (as text: both absolute). */
static bool
lies_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return n && !strncmp(path, dir, n) && path[n] == '/';
}

static void
add_tool(struct buf *key, const char *path)
{
	struct stat st;
	if (path && stat(path, &st) == 0)
		buf_addf(key, "tool %s %lld %lld.%09ld\n", path, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
			 st.st_mtim.tv_nsec);
	else
		buf_addf(key, "tool %s none\n", path ? path : "?");
}

/* Every name under `dir` (relative to `top`), sorted; false when there are more than `*room` or one is unreadable. */
static bool
add_listing(struct buf *key, const char *top, const char *rel, int *room)
{
	char *dir = *rel ? path_join(top, rel) : xstrdup(top);
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	free(dir);
	if (n < 0)
		return false;
	bool ok = true;
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		if (ok && strcmp(name, ".") && strcmp(name, "..")) {
			char *sub = *rel ? xasprintf("%s/%s", rel, name) : xstrdup(name), *abs = path_join(top, sub);
			struct stat st;
			ok = --*room >= 0 && !strchr(name, '\n') && lstat(abs, &st) == 0;
			if (ok)
				buf_addf(key, "ls %s %c\n", sub, S_ISDIR(st.st_mode) ? 'd' : S_ISLNK(st.st_mode) ? 'l' : 'f');
			if (ok && S_ISDIR(st.st_mode))
				ok = add_listing(key, top, sub, room);
			free(sub);
			free(abs);
		}
		free(names[i]);
	}
	free(names);
	return ok;
}

/* Where the file lies and what its entry is keyed by; false when it is not one to remember. */
struct subject {
	char *source;  /* absolute */
	char *folder;  /* the source's folder, absolute */
	char *toolkit; /* nvcc's toolkit folder, resolved */
	struct buf key;
};

static void
subject_free(struct subject *j)
{
	free(j->source);
	free(j->folder);
	free(j->toolkit);
	buf_free(&j->key);
}

static bool
subject_of(const struct student_build *s, struct subject *j)
{
	memset(j, 0, sizeof(*j));
	buf_init(&j->key);
	char **argv = s->frontend_argv;
	int n = 0;
	while (argv && argv[n])
		n++;
	/* read through a link in the build folder, a file's folder is two folders: not remembered */
	if (n < 2 || s->nvcc_link || !s->frontend_deps)
		return false;
	const char *last = argv[n - 1];
	j->source = last[0] == '/' ? xstrdup(last) : root_path(last);
	j->folder = xstrdup(j->source);
	*strrchr(j->folder, '/') = 0;
	buf_addstr(&j->key, "cudalings nvcc front end 1\n");
	for (int i = 0; i < n - 1; i++) {
		if (strchr(argv[i], '\n'))
			return false;
		buf_addf(&j->key, "arg %s\n", i > 0 && !strcmp(argv[i - 1], "-MF") ? "(list)" : argv[i]);
	}
	char *nvcc = strchr(argv[0], '/') ? xstrdup(argv[0]) : path_search(argv[0]), resolved[PATH_MAX];
	if (!nvcc || !realpath(nvcc, resolved)) {
		free(nvcc);
		return false;
	}
	free(nvcc);
	*strrchr(resolved, '/') = 0; /* its bin/ */
	char *tools[] = { xasprintf("%s/nvcc", resolved), xasprintf("%s/cudafe++", resolved),
			  xasprintf("%s/ptxas", resolved), xasprintf("%s/../nvvm/bin/cicc", resolved),
			  path_search("gcc"), path_search("g++") };
	for (size_t i = 0; i < ARRAY_SIZE(tools); i++) {
		add_tool(&j->key, tools[i]);
		free(tools[i]);
	}
	*strrchr(resolved, '/') = 0;
	j->toolkit = xstrdup(resolved);
	static const char *const vars[] = { "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN", "PATH", "CPATH",
					    "CPLUS_INCLUDE_PATH", "C_INCLUDE_PATH", "GCC_EXEC_PREFIX" };
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		const char *v = getenv(vars[i]);
		if (v && strchr(v, '\n'))
			return false;
		buf_addf(&j->key, "env %s=%s\n", vars[i], v ? v : "(unset)");
	}
	int room = MAX_LISTED;
	return add_listing(&j->key, j->folder, "", &room);
}

/* The entry's file: named by a hash of the key and of the file's text. You own it. */
static char *
entry_path(const struct subject *j, const char *text, size_t len)
{
	uint64_t h = hash_bytes(j->key.data, j->key.len, 0);
	h = hash_bytes(text, len, h);
	return xasprintf("%s/" CACHE_DIR "/%016llx", workbook_root(), (unsigned long long)h);
}

/*
 * One file's record, as it is now: "S|D|P path size", then the text (the
 * source, a file beside it, the public header) or "H path size hash" (the
 * system's). False when it cannot be read.
 */
static bool
add_record(struct buf *entry, const struct subject *j, char kind, const char *path)
{
	char *abs = kind == 'S' ? xstrdup(j->source) : kind == 'D' ? path_join(j->folder, path)
					      : kind == 'P' ? root_path(path) : xstrdup(path);
	size_t len;
	char *text = read_file(abs, &len);
	free(abs);
	if (!text)
		return false;
	if (kind == 'H') {
		buf_addf(entry, "H %s %zu %016llx\n", path, len, (unsigned long long)hash_bytes(text, len, 0));
	} else {
		buf_addf(entry, "%c %s %zu\n", kind, path, len);
		buf_add(entry, text, len);
		buf_addstr(entry, "\n");
	}
	free(text);
	return true;
}

/* How the key names a file nvcc read (`dep` as its list gives it), or 0 when none of the kinds remembered. */
static char
classify(const struct student_build *s, const struct subject *j, const char *dep, char **name)
{
	char *abs = dep[0] == '/' ? xstrdup(dep) : root_path(dep), resolved[PATH_MAX];
	char *public = xasprintf("%s/" BUILD_DIR "/gen/public/%s", workbook_root(), s->e->name);
	char kind = 0;
	*name = NULL;
	if (!strcmp(abs, j->source)) {
		kind = 'S';
	} else if (strstr(abs, "/../") || strstr(abs, "/./")) {
		/* the toolkit's headers are named through its bin/..: those are the system's, resolved */
		static const char *const system[] = { "/usr/include", "/usr/lib/gcc" };
		if (realpath(abs, resolved) && (lies_under(resolved, j->toolkit) || lies_under(resolved, system[0]) ||
						lies_under(resolved, system[1])))
			kind = 'H', *name = xstrdup(resolved);
	} else if (lies_under(abs, j->folder)) {
		kind = 'D', *name = xstrdup(abs + strlen(j->folder) + 1);
	} else if (lies_under(abs, public)) {
		kind = 'P', *name = xstrdup(abs + strlen(workbook_root()) + 1);
	} else if ((lies_under(abs, "/usr/include") || lies_under(abs, "/usr/lib/gcc") || lies_under(abs, j->toolkit)) &&
		   !lies_under(abs, workbook_root())) {
		kind = 'H', *name = xstrdup(abs);
	}
	if (*name && strchr(*name, ' '))
		kind = 0;
	free(abs);
	free(public);
	return kind;
}

void
frontend_cache_remember(const struct student_build *s)
{
	struct subject j;
	struct buf entry = BUF_INIT;
	char *source = NULL, *list = NULL;
	size_t len;
	bool ok = subject_of(s, &j) && (source = read_file(j.source, &len)) != NULL;
	if (ok) {
		char *deps = root_path(s->frontend_deps);
		ok = (list = read_file(deps, NULL)) != NULL;
		free(deps);
	}
	if (ok) {
		buf_add(&entry, j.key.data, j.key.len);
		ok = add_record(&entry, &j, 'S', "-");
	}
	char *cursor = list ? depfile_list(list) : NULL;
	for (char *dep; ok && (dep = depfile_next(&cursor));) {
		char *name;
		char kind = classify(s, &j, dep, &name);
		ok = kind && (kind == 'S' || add_record(&entry, &j, kind, name));
		free(name);
	}
	if (ok) {
		char *path = entry_path(&j, source, len), *dir = xstrdup(path);
		*strrchr(dir, '/') = 0;
		if (mkdir_p(dir) == 0)
			write_file_atomic(path, entry.data, entry.len);
		free(dir);
		free(path);
	}
	subject_free(&j);
	free(list);
	free(source);
	buf_free(&entry);
}

bool
frontend_cache_accepts(const struct student_build *s)
{
	struct subject j;
	bool hit = false;
	if (subject_of(s, &j)) {
		size_t len, stored_len;
		char *source = read_file(j.source, &len), *path = source ? entry_path(&j, source, len) : NULL;
		char *stored = path ? read_file(path, &stored_len) : NULL;
		struct buf now = BUF_INIT;
		buf_add(&now, j.key.data, j.key.len);
		/* the records the entry holds, each made again from the file as it is now */
		bool ok = stored && stored_len > j.key.len && !memcmp(stored, j.key.data, j.key.len);
		for (char *p = stored ? stored + j.key.len : NULL; ok && p < stored + stored_len;) {
			char kind, name[PATH_MAX];
			size_t size;
			char *eol = memchr(p, '\n', (size_t)(stored + stored_len - p));
			ok = eol && eol - p < PATH_MAX && sscanf(p, "%c %4095s %zu", &kind, name, &size) == 3 &&
			     strchr("SDPH", kind) && add_record(&now, &j, kind, name);
			p = eol ? eol + 1 : p;
			if (ok && kind != 'H')
				p += size + 1 <= (size_t)(stored + stored_len - p) ? size + 1 : (size_t)(stored + stored_len - p);
		}
		hit = ok && now.len == stored_len && !memcmp(now.data, stored, stored_len);
		buf_free(&now);
		free(stored);
		free(path);
		free(source);
	}
	subject_free(&j);
	return hit;
}
