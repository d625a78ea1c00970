/*
 * depfile: a compiler's dependency file (-MD, -MF FILE) read: the files it
 * lists, in place. The grader's build step asks whether any is newer than
 * what it made; the include check, whether a submission read any it may not.
 */
#include "grader/compile/depfile.h"

#include <ctype.h>
#include <string.h>

/*
 * The files a .d file's text lists, one at a time: each call cuts the next
 * path out of *cursor in place and returns it, or NULL at the end (-MP's
 * phony targets end the list).
 */
char *
depfile_next(char **cursor)
{
	char *p = *cursor;
	if (!*p)
		return NULL;
	while (*p && (isspace((unsigned char)*p) || (*p == '\\' && isspace((unsigned char)p[1]))))
		p++;
	char *start = p;
	while (*p && !isspace((unsigned char)*p) && !(*p == '\\' && isspace((unsigned char)p[1])))
		p++;
	if (p == start || p[-1] == ':')
		return NULL;
	*cursor = *p ? p + 1 : p;
	*p = 0;
	return start;
}

/* The text after the target of a .d file: where its list begins. */
char *
depfile_list(char *text)
{
	char *colon = strchr(text, ':');
	return colon ? colon + 1 : text;
}
