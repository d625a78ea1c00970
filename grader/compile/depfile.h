/*
 * depfile: a compiler's dependency file (-MD -MF FILE) read in place (depfile.c): the target, a colon,
 * the files it read; -MP's phony targets after them.
 */
#ifndef CUDALINGS_DEPFILE_H
#define CUDALINGS_DEPFILE_H

/* Where a .d file's text lists its files (after the target's colon). */
char *depfile_list(char *text);
/* The next file of that list, cut out of *cursor in place; NULL at its end. */
char *depfile_next(char **cursor);

#endif
