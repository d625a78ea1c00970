/* What the spawner's and the pool's tests ask of processes: gone yet, a pid said on a pipe, a fresh path. */
#include "tests/lib/children.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/util.h"

/* A fresh path in /tmp that does not exist yet; you own it. */
char *
fresh_path(void)
{
	char path[] = "/tmp/cudalings-run-XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	unlink(path);
	return xstrdup(path);
}

/* Whether the process is gone (a zombie nobody reaps yet counts as gone: it runs nothing). */
bool
gone(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	char *text = read_file(path, NULL);
	char *close = text ? strrchr(text, ')') : NULL;
	bool dead = !close || close[2] == 'Z' || close[2] == 'X';
	free(text);
	return dead;
}

bool
gone_within(pid_t pid, double seconds)
{
	for (double until = now_seconds() + seconds; now_seconds() < until; usleep(10000))
		if (gone(pid))
			return true;
	return gone(pid);
}

/* Whether a process of the group runs (a zombie does not). */
static bool
group_runs(pid_t group)
{
	DIR *proc = opendir("/proc");
	bool runs = false;
	for (struct dirent *e; proc && !runs && (e = readdir(proc));) {
		char path[300], *text, *close;
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (!(text = read_file(path, NULL)))
			continue;
		/* after the name: the state, the parent, the group */
		char state;
		int parent, pgrp;
		close = strrchr(text, ')');
		runs = close && sscanf(close + 1, " %c %d %d", &state, &parent, &pgrp) == 3 && pgrp == (int)group &&
		       state != 'Z' && state != 'X';
		free(text);
	}
	if (proc)
		closedir(proc);
	return runs;
}

bool
group_gone_within(pid_t group, double seconds)
{
	for (double until = now_seconds() + seconds; now_seconds() < until; usleep(10000))
		if (!group_runs(group))
			return true;
	return !group_runs(group);
}

/* Read a pid a helper wrote on a pipe. */
pid_t
read_pid(int fd)
{
	pid_t pid = 0;
	cr_assert_eq(read(fd, &pid, sizeof(pid)), (ssize_t)sizeof(pid));
	return pid;
}
