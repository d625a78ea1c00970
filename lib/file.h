/* file: whole files read and written safely, folders, paths. */
#ifndef LIB_FILE_H
#define LIB_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A whole regular file; NULL with errno set on failure (EISDIR, EINVAL for a FIFO…). You own it. */
char *read_file(const char *path, size_t *length);
/* Write through a temporary file and rename, so a reader never sees half a file. -1 with errno. */
int write_file_atomic(const char *path, const char *data, size_t length);
/* The same, only when the content differs: an unchanged file keeps its mtime (build caching). */
int write_file_if_changed(const char *path, const char *data, size_t length);
/* Create a folder and its parents; 0 when it exists already. */
int mkdir_p(const char *path);
/* Remove a folder of plain files (a temporary or private build folder) and what it holds; -1 when the
   folder stays (it held a folder, say). */
int remove_dir(const char *path);
/* Remove the files of a folder but those `keep` (NULL: none) keeps, given each one's name. */
void remove_files_in(const char *dir, bool (*keep)(const char *name, void *ctx), void *ctx);
bool file_exists(const char *path);
bool is_directory(const char *path);
/* Modification time in nanoseconds, or -1 when the file is missing. */
int64_t file_mtime(const char *path);
/* a/b, or b alone when it is absolute or a is empty; you own the result. */
char *path_join(const char *a, const char *b);
/* The program `name` as a shell finds it on $PATH (a name with a '/': itself); NULL when none is. You own it. */
char *path_search(const char *name);

#endif
