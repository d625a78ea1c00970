/* Helpers shared by the simulator's Criterion tests (sim_test.h; no tests of its own). */
#include <stdio.h>
#include <string.h>

#include "cudasim.h"
#include "tests/sim/sim_test.h"

int
mark_line(const char *path, const char *name)
{
	char line[1024], tag[128];
	FILE *f = fopen(path, "r");
	int n = 0, found = -1;

	if (!f)
		return -1;
	snprintf(tag, sizeof(tag), "MARK:%s", name);
	while (found < 0 && fgets(line, sizeof(line), f)) {
		n++;
		if (strstr(line, tag))
			found = n;
	}
	fclose(f);
	return found;
}

int
detail_names_mark(const char *path, const char *name)
{
	char want[512];

	snprintf(want, sizeof(want), "%s:%d", path, mark_line(path, name));
	return strstr(cudasimLastErrorDetail(), want) != NULL;
}
