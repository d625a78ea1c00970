/*
 * watch: notice when a file is saved.  Watches its directory, not the file,
 * because many editors save by writing a new file and renaming it over the
 * old one, which a watch on the file itself would lose.  Pure: no curses.
 */
#ifndef TUI_WATCH_H
#define TUI_WATCH_H

#include <stdbool.h>

#define WATCH_INIT { -1, NULL }

struct watch {
	int fd;			/* inotify; -1 when not watching */
	char *base;		/* the file's name in its directory */
};

/* Watch path; -1 with error() set when inotify refuses. */
int watch_start(struct watch *w, const char *path);
void watch_stop(struct watch *w);
bool watch_active(const struct watch *w);
/* Read the pending events; true when one was about the file. */
bool watch_changed(struct watch *w);

#endif
