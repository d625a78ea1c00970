/* gradable: what makes a file impossible to grade, before any compiler sees it (see gradable.h). */
#include "grader/compile/gradable.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/util.h"

char *
gradable_linked_reason(const char *path, size_t from, const char *name)
{
	struct stat st;
	/* every folder below `from`, then the file: a link anywhere on the way reads what the grader may read */
	char *prefix = xstrdup(path), *why = NULL;
	for (char *slash = prefix + from; !why && (slash = strchr(slash, '/')); *slash++ = '/') {
		*slash = 0;
		if (slash > prefix && lstat(prefix, &st) == 0 && S_ISLNK(st.st_mode))
			why = xasprintf("'%s' lies under a symbolic link ('%s'): a submission must be a file of its own "
					"folder, not reached through a link", name, prefix + from);
	}
	free(prefix);
	if (!why && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		why = xasprintf("'%s' is a symbolic link: a submission must be the file itself, not a link to one", name);
	/* and where it really is: in the folder it was found in */
	char *dir = xstrdup(path), *slash = strrchr(dir, '/'), real[PATH_MAX], real_dir[PATH_MAX];
	if (slash)
		*slash = 0;
	if (!why && realpath(path, real) && realpath(slash ? (slash == dir ? "/" : dir) : ".", real_dir)) {
		size_t n = strlen(real_dir);
		char *last = strrchr(real, '/');
		if (strncmp(real, real_dir, n) || last != real + (n > 1 ? n : 0))
			why = xasprintf("'%s' is outside its folder: a submission must be a file of the folder it is "
					"found in", name);
	}
	free(dir);
	return why;
}

char *
gradable_reason(const char *path, const char *name)
{
	/* a path as the user wrote it: each of its folders; an absolute one (a batch's): the file alone */
	const char *base = strrchr(path, '/');
	char *linked = gradable_linked_reason(path, path[0] == '/' ? (size_t)(base - path) + 1 : 0, name);
	if (linked)
		return linked;
	if (is_directory(path))
		return xasprintf("'%s' is a directory: give the .cu file", name);
	struct stat st;
	/* a FIFO or a device would block the read below, or never end it */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return xasprintf("'%s' is not a regular file (a FIFO, a device…): give the .cu file", name);
	/* a huge file is refused by its size, not read whole first */
	if (stat(path, &st) == 0 && st.st_size > MAX_SUBMISSION_BYTES)
		return xasprintf("'%s' is %lld bytes; a submission may be at most 1 MB", name, (long long)st.st_size);
	size_t length;
	char *text = read_file(path, &length);
	if (!text)
		return xasprintf("cannot read '%s': %s", name, strerror(errno));
	char *why = NULL;
	if (length == 0)
		why = xasprintf("'%s' is empty", name);
	else if (length > MAX_SUBMISSION_BYTES)
		why = xasprintf("'%s' is %zu bytes; a submission may be at most 1 MB", name, length);
	else if (memchr(text, 0, length))
		why = xasprintf("'%s' is not a text file (it holds NUL bytes)", name);
	free(text);
	return why;
}
