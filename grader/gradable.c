/* gradable: what makes a file impossible to grade, before any compiler sees it (see gradable.h). */
#include "gradable.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/util.h"

char *
ungradable_reason(const char *path, const char *name)
{
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
