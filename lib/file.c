/* file: reading and writing whole files, folders, paths (see file.h). */
#include "lib/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/xalloc.h"

char *
read_file(const char *path, size_t *length)
{
	/* O_NONBLOCK: opening a FIFO would wait for a writer; a regular file reads as ever */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	struct stat st;
	/* a FIFO or a device would block, or never end */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		int why = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		errno = why;
		return NULL;
	}
	struct buf b = BUF_INIT;
	char chunk[65536];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		buf_add(&b, chunk, (size_t)n);
	}
	int saved = errno;
	close(fd);
	if (n < 0) {
		buf_free(&b);
		errno = saved;
		return NULL;
	}
	if (length)
		*length = b.len;
	return buf_detach(&b);
}

int
write_file_atomic(const char *path, const char *data, size_t length)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	size_t done = 0;
	while (done < length) {
		ssize_t n = write(fd, data + done, length - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	int ok = done == length && fsync(fd) == 0;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path)) {
		int saved = errno;
		unlink(tmp);
		free(tmp);
		errno = saved;
		return -1;
	}
	free(tmp);
	return 0;
}

int
write_file_if_changed(const char *path, const char *data, size_t length)
{
	size_t old_length;
	char *old = read_file(path, &old_length);
	int same = old && old_length == length && !memcmp(old, data, length);
	free(old);
	return same ? 0 : write_file_atomic(path, data, length);
}

int
mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(tmp, 0755) && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(tmp, 0755) && errno != EEXIST ? -1 : 0;
}

void
remove_files_in(const char *dir, bool (*keep)(const char *name, void *ctx), void *ctx)
{
	DIR *d = opendir(dir);
	for (struct dirent *entry; d && (entry = readdir(d));) {
		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, "..") || (keep && keep(entry->d_name, ctx)))
			continue;
		char *file = xasprintf("%s/%s", dir, entry->d_name);
		unlink(file);
		free(file);
	}
	if (d)
		closedir(d);
}

int
remove_dir(const char *path)
{
	remove_files_in(path, NULL, NULL);
	return rmdir(path);
}

bool
file_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

bool
is_directory(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int64_t
file_mtime(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return -1;
	return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

char *
path_join(const char *a, const char *b)
{
	if (b[0] == '/' || !a || !*a)
		return xstrdup(b);
	return xasprintf("%s%s%s", a, a[strlen(a) - 1] == '/' ? "" : "/", b);
}

char *
path_search(const char *name)
{
	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? xstrdup(name) : NULL;
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : "");
	char *found = NULL;
	for (char *dir = strtok(copy, ":"); dir && !found; dir = strtok(NULL, ":")) {
		char *candidate = path_join(*dir ? dir : ".", name);
		if (access(candidate, X_OK) == 0 && !is_directory(candidate))
			found = candidate;
		else
			free(candidate);
	}
	free(copy);
	return found;
}
