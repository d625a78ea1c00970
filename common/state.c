/*
 * state.c — the student's progress file, shared by the grader (which records
 * every grading of an exercise's own file) and the workbook (lessons read,
 * hints seen). It uses the utility layer (lib/), which both programs link.
 */
#include "common/state.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

/* Names in the file; stable, as other versions of the TUI read it. */
static const char *const status_keys[] = {
	[STATUS_NOT_STARTED] = "not_started",
	[STATUS_FAILING] = "failing",
	[STATUS_SIM] = "correct_on_sim",
	[STATUS_GPU] = "passed_on_gpu",
	[STATUS_READ] = "read",
};

const char *
status_label(enum status s)
{
	static const char *const labels[] = {
		[STATUS_NOT_STARTED] = "not started",
		[STATUS_FAILING] = "failing",
		[STATUS_SIM] = "correct on the simulator",
		[STATUS_GPU] = "passed on the GPU",
		[STATUS_READ] = "read",
	};

	return labels[s];
}

bool
status_done(enum status s)
{
	return s == STATUS_SIM || s == STATUS_GPU || s == STATUS_READ;
}

static cJSON *
fresh_root(void)
{
	cJSON *root = cJSON_CreateObject();

	cJSON_AddNumberToObject(root, "version", 1);
	cJSON_AddObjectToObject(root, "items");
	return root;
}

/* Keep a file we cannot read as state.json.corrupt (or .corrupt-N) and say so. */
static void
set_aside(struct state *st, const char *why)
{
	char *dest = xasprintf("%s.corrupt", st->path);
	const char *name;

	for (int i = 1; access(dest, F_OK) == 0 && i < 1000; i++) {
		free(dest);
		dest = xasprintf("%s.corrupt-%d", st->path, i);
	}
	/* the student knows the workbook: name the files from its root */
	name = strstr(dest, ".cudalings/") ? strstr(dest, ".cudalings/") : dest;
	if (rename(st->path, dest) == 0)
		st->note = xasprintf("progress file .cudalings/state.json %s: kept it as %s and started afresh",
				     why, name);
	else
		st->note = xasprintf("progress file %s %s (and cannot move it aside: %s); starting afresh",
				     st->path, why, strerror(errno));
	free(dest);
}

/* Which version of the file is there: a save renames a new file over it, with a new inode. */
static long long
stamp(const char *path)
{
	struct stat sb;

	if (stat(path, &sb) < 0)
		return 0;
	return (long long)sb.st_ino * 1000003 ^ ((long long)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec) ^
	       (long long)sb.st_size;
}

/* The file's root if it is whole (an object with items), else NULL. */
static cJSON *
read_root(const char *path)
{
	size_t len;
	char *text = read_file(path, &len);
	cJSON *root = text ? cJSON_ParseWithLength(text, len) : NULL;

	free(text);
	if (root && (!cJSON_IsObject(root) || !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "items")))) {
		cJSON_Delete(root);
		root = NULL;
	}
	return root;
}

void
state_load(struct state *st, const char *root)
{
	size_t len;
	char *text;
	cJSON *items;

	memset(st, 0, sizeof(*st));
	st->path = xasprintf("%s/.cudalings/state.json", root);
	st->changed = cJSON_CreateObject();
	st->seen = stamp(st->path);
	text = read_file(st->path, &len);
	if (!text) {
		if (errno != ENOENT)
			st->note = xasprintf("cannot read progress file %s: %s; starting afresh",
					     st->path, strerror(errno));
		st->root = fresh_root();
		return;
	}
	st->root = cJSON_ParseWithLength(text, len);
	free(text);
	if (!st->root || !cJSON_IsObject(st->root)) {
		cJSON_Delete(st->root);
		set_aside(st, st->root ? "is not a JSON object" : "is not valid JSON");
		st->root = fresh_root();
		return;
	}
	items = cJSON_GetObjectItemCaseSensitive(st->root, "items");
	if (!cJSON_IsObject(items)) {
		/* the rest of the file may still be good: only the items restart */
		cJSON_DeleteItemFromObjectCaseSensitive(st->root, "items");
		cJSON_AddObjectToObject(st->root, "items");
	}
}

void
state_free(struct state *st)
{
	cJSON_Delete(st->root);
	cJSON_Delete(st->changed);
	free(st->path);
	free(st->note);
	memset(st, 0, sizeof(*st));
}

static int
fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -1;
	ret = fsync(fd);
	close(fd);
	return ret;
}

/* Make dir, and its parent if need be. */
static int
make_dir(const char *dir)
{
	char *copy;
	int ret;

	if (mkdir(dir, 0777) == 0 || errno == EEXIST)
		return 0;
	if (errno != ENOENT)
		return -1;
	copy = xstrdup(dir);
	ret = mkdir(dirname(copy), 0777) < 0 && errno != EEXIST ? -1 : mkdir(dir, 0777);
	free(copy);
	return ret < 0 && errno != EEXIST ? -1 : 0;
}

/* Write text to path atomically: a temp file, fsync, rename, fsync of the directory. */
static int
write_atomic(const char *path, const char *text)
{
	char *dir_copy = xstrdup(path), *dir = dirname(dir_copy);
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	size_t len = strlen(text), done = 0;
	int fd = -1, ret = -1;

	if (make_dir(dir) < 0) {
		error("cannot create '%s': %s", dir, strerror(errno));
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		error("cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error("cannot write '%s': %s", tmp, strerror(errno));
			goto out;
		}
		done += (size_t)n;
	}
	/* the data must be on disk before the rename makes it the file */
	if (fsync(fd) < 0 || close(fd) < 0) {
		fd = -1;
		error("cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		error("cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
		goto out;
	}
	fsync_dir(dir);
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (ret)
		unlink(tmp);
	free(tmp);
	free(dir_copy);
	return ret;
}

/* Copy the items named in `changed` from one root into another. */
static void
carry_changes(cJSON *to, const cJSON *from, const cJSON *changed)
{
	cJSON *to_items = cJSON_GetObjectItemCaseSensitive(to, "items");
	const cJSON *name;

	cJSON_ArrayForEach(name, changed) {
		cJSON *mine = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(from, "items"),
							       name->string);
		cJSON_DeleteItemFromObjectCaseSensitive(to_items, name->string);
		if (mine)
			cJSON_AddItemToObject(to_items, name->string, cJSON_Duplicate(mine, 1));
	}
}

int
state_save(struct state *st)
{
	char *dir_copy = xstrdup(st->path), *dir = dirname(dir_copy), *lock_path = xasprintf("%s/state.lock", dir);
	int lock = -1, ret = -1;

	if (make_dir(dir) < 0) {
		error("cannot create '%s': %s", dir, strerror(errno));
		goto out;
	}
	/* another process (the grader, or a second workbook) may save at the same moment */
	lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (lock >= 0)
		while (flock(lock, LOCK_EX) < 0 && errno == EINTR)
			;
	cJSON *disk = read_root(st->path);
	if (disk)
		carry_changes(disk, st->root, st->changed);
	char *text = cJSON_Print(disk ? disk : st->root);
	char *line = xasprintf("%s\n", text);
	ret = write_atomic(st->path, line);
	free(line);
	free(text);
	if (ret == 0) {
		if (disk) {
			cJSON_Delete(st->root);
			st->root = disk;
			disk = NULL;
		}
		cJSON_Delete(st->changed);
		st->changed = cJSON_CreateObject();
		st->seen = stamp(st->path);
	}
	cJSON_Delete(disk);
out:
	if (lock >= 0)
		close(lock);
	free(lock_path);
	free(dir_copy);
	return ret;
}

bool
state_reload(struct state *st)
{
	long long now = stamp(st->path);
	cJSON *disk;

	if (now == st->seen || !(disk = read_root(st->path)))
		return false;
	carry_changes(disk, st->root, st->changed);
	cJSON_Delete(st->root);
	st->root = disk;
	st->seen = now;
	return true;
}

/* Where the last report of name is kept, or NULL for a name that is no file name. */
static char *
report_path(const struct state *st, const char *name)
{
	char *dir, *path;

	if (!*name || strchr(name, '/') || name[0] == '.')
		return NULL;
	dir = xstrdup(st->path);
	path = xasprintf("%s/reports/%s.json", dirname(dir), name);
	free(dir);
	return path;
}

int
state_save_report(struct state *st, const char *name, const char *json)
{
	char *path = report_path(st, name);
	int ret;

	if (!path)
		return error("cannot keep the report of '%s': not a file name", name);
	ret = write_atomic(path, json);
	free(path);
	return ret;
}

char *
state_load_report(const struct state *st, const char *name)
{
	char *path = report_path(st, name), *text;

	if (!path)
		return NULL;
	text = read_file(path, NULL);
	free(path);
	return text;
}

long long
state_report_saved(const struct state *st, const char *name)
{
	char *path = report_path(st, name);
	struct stat sb;
	long long saved = 0;

	if (path && stat(path, &sb) == 0)
		saved = (long long)sb.st_mtim.tv_sec * 1000 + sb.st_mtim.tv_nsec / 1000000;
	free(path);
	return saved;
}

static cJSON *
item(const struct state *st, const char *name, bool create)
{
	cJSON *items = cJSON_GetObjectItemCaseSensitive(st->root, "items");
	cJSON *it = cJSON_GetObjectItemCaseSensitive(items, name);

	if (!it && create)
		it = cJSON_AddObjectToObject(items, name);
	else if (it && !cJSON_IsObject(it) && create)
		/* a damaged entry: start it again rather than fail */
		it = cJSON_ReplaceItemInObjectCaseSensitive(items, name, cJSON_CreateObject())
			? cJSON_GetObjectItemCaseSensitive(items, name) : NULL;
	return cJSON_IsObject(it) ? it : NULL;
}

enum status
state_status(const struct state *st, const char *name)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item(st, name, false), "status"));

	for (size_t i = 0; s && i < ARRAY_SIZE(status_keys); i++)
		if (!strcmp(s, status_keys[i]))
			return (enum status)i;
	return STATUS_NOT_STARTED;
}

static void
set(cJSON *obj, const char *key, cJSON *value)
{
	if (cJSON_GetObjectItemCaseSensitive(obj, key))
		cJSON_ReplaceItemInObjectCaseSensitive(obj, key, value);
	else
		cJSON_AddItemToObject(obj, key, value);
}

/* The item of name, made if need be, marked to be saved. */
static cJSON *
changing(struct state *st, const char *name)
{
	if (!cJSON_GetObjectItemCaseSensitive(st->changed, name))
		cJSON_AddTrueToObject(st->changed, name);
	return item(st, name, true);
}

void
state_set_status(struct state *st, const char *name, enum status s)
{
	set(changing(st, name), "status", cJSON_CreateString(status_keys[s]));
}

enum status
state_status_of(bool pass, const char *backend)
{
	if (!pass)
		return STATUS_FAILING;
	return backend && !strcmp(backend, "gpu") ? STATUS_GPU : STATUS_SIM;
}

/* FNV-1a, 64 bits, as hex: enough to tell an edited file from the one graded. */
static void
text_hash(const char *text, size_t length, char out[17])
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < length; i++)
		h = (h ^ (unsigned char)text[i]) * 0x100000001b3ull;
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

void
state_set_graded(struct state *st, const char *name, const char *text, size_t length)
{
	char hash[17];

	text_hash(text, length, hash);
	set(changing(st, name), "graded", cJSON_CreateString(hash));
}

bool
state_changed_since_graded(const struct state *st, const char *name, const char *path)
{
	const char *graded = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item(st, name, false), "graded"));
	size_t length;
	char *text, hash[17];
	bool changed;

	if (!graded)
		return false;
	text = read_file(path, &length);
	if (!text)
		return true;
	text_hash(text, length, hash);
	changed = strcmp(hash, graded) != 0;
	free(text);
	return changed;
}

int
state_hints(const struct state *st, const char *name, const char *stage)
{
	cJSON *hints = cJSON_GetObjectItemCaseSensitive(item(st, name, false), "hints");
	cJSON *n = cJSON_GetObjectItemCaseSensitive(hints, stage);

	return cJSON_IsNumber(n) && n->valueint > 0 ? n->valueint : 0;
}

void
state_set_hints(struct state *st, const char *name, const char *stage, int n)
{
	cJSON *it = changing(st, name);
	cJSON *hints = cJSON_GetObjectItemCaseSensitive(it, "hints");

	if (!cJSON_IsObject(hints)) {
		hints = cJSON_CreateObject();
		set(it, "hints", hints);
	}
	set(hints, stage, cJSON_CreateNumber(n));
}

void
state_forget_report(struct state *st, const char *name)
{
	char *path = report_path(st, name);

	if (path)
		unlink(path);
	free(path);
}
