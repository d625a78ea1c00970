/*
 * batch_late: a class's deadline. --deadline TIME and each submission's
 * time, from the file's modification time or from a CSV the instructor
 * gives (--submitted FILE: student,time per line, as a learning system
 * exports it), and whether it is late; the rows and the gradebook say
 * which time they used.
 */
#ifndef CUDALINGS_BATCH_LATE_H
#define CUDALINGS_BATCH_LATE_H

#include <stdbool.h>
#include <time.h>

/*
 * "2026-11-27 23:59", "2026-11-27T23:59:30", with "Z" or "+01:00" for a
 * zone (else local time), or "@SECONDS" since 1970: the time, or -1 when
 * it is none of these.
 */
time_t batch_late_parse_time(const char *text);
/* The time as the rows write it: "2026-11-27T22:59:00Z". */
void batch_late_format_time(time_t t, char *out, size_t size);

struct late_times {
	char **students;
	time_t *times;
	int n;
};

/* The CSV's student,time lines (a header line "student,…" skipped). 0, or -1 naming the line. */
int batch_late_read_csv(const char *path, struct late_times *t);
/* The time the CSV gives `student`, or -1. */
time_t batch_late_lookup(const struct late_times *t, const char *student);
void batch_late_free(struct late_times *t);

#endif
