/* watch: inotify on a file's directory, for the saves of any editor (see watch.h). */
#include "tui/watch.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "lib/util.h"

int
watch_start(struct watch *w, const char *path)
{
	char *copy = xstrdup(path), *dir;
	char *copy2 = xstrdup(path);

	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->fd < 0) {
		free(copy);
		free(copy2);
		return error("cannot watch '%s': %s", path, strerror(errno));
	}
	dir = dirname(copy);
	/* a write that ends, or a file renamed in its place */
	if (inotify_add_watch(w->fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
		int saved = errno;

		close(w->fd);
		w->fd = -1;
		free(copy);
		free(copy2);
		return error("cannot watch '%s': %s", dir, strerror(saved));
	}
	w->base = xstrdup(basename(copy2));
	free(copy);
	free(copy2);
	return 0;
}

void
watch_stop(struct watch *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	free(w->base);
	w->base = NULL;
}

bool
watch_active(const struct watch *w)
{
	return w->fd >= 0;
}

bool
watch_changed(struct watch *w)
{
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool changed = false;
	ssize_t n;

	while (w->fd >= 0 && (n = read(w->fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *ev = (struct inotify_event *)p;

			if (ev->len && !strcmp(ev->name, w->base))
				changed = true;
			p += sizeof(*ev) + ev->len;
		}
	}
	return changed;
}
