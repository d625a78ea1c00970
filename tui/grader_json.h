/*
 * grader_json: what the grader says, read from its JSON: the final report of
 * `cudalings grade NAME --json` and the progress lines of --progress.  Pure.
 */
#ifndef TUI_GRADER_JSON_H
#define TUI_GRADER_JSON_H

#include <stdbool.h>

struct grade_case {
	char *name;
	bool passed;
	long mismatches;
	char *message;		/* "" when none */
};

struct grade_diag {
	char *kind;
	char *message;
};

/* Missing numbers are NAN. */
struct grade_timing {
	double median_us, threshold_us, reference_us, copy_us;
	double gbps, copy_gbps, peak_gbps, ratio, threshold_ratio;
	/* the hardware's limit: the physical reference (a copy, cuBLAS SGEMM) timed in the same run */
	double limit_pct, physical_us, gold_us;
};

struct result {
	/* strings are never NULL: a missing one is "" */
	char *exercise, *file, *backend, *device, *verdict, *stage, *message;
	char *note, *compile_output, *program_output, *performance;
	char *tier;		/* a pass on a GPU: "pass", "near_gold" or "gold"; else "" */
	char *physical;		/* what the limit is: "device-to-device copy", "cuBLAS SGEMM"; or "" */
	char *estimate;		/* the simulator's estimate of the time on a GPU, in words; or "" */
	bool pass;
	struct grade_case *cases;
	int ncases;
	bool has_timing;
	struct grade_timing timing;
	struct grade_diag *diags;
	int ndiags;
	/* filled by grade.c, not by the JSON */
	int exit_status;	/* the grader's, or -1 when killed */
	char *stderr_text;	/* its stderr lines that were not progress events */
	bool earlier;		/* kept from an earlier session of the workbook */
	long long saved;	/* kept: when it was saved (ms since the epoch); 0 for this session's own */
	bool changed;		/* the file changed since this grading (the view says, before it renders) */
	long long elapsed_ms;	/* how long the grading took, start to verdict; -1 when not known */
};

/* Parse the report; -1 with error() set when it is not the grader's JSON. */
int result_parse(const char *json, struct result *r);
void result_free(struct result *r);

enum grade_event_type { EVENT_STAGE, EVENT_CASE };

struct grade_event {
	enum grade_event_type type;
	char *stage;		/* EVENT_STAGE: "compile", "run", "timing" */
	char *message;		/* EVENT_STAGE; "" when none */
	int index, count;	/* EVENT_CASE: 1-based index of count */
	char *name;		/* EVENT_CASE */
	bool passed;		/* EVENT_CASE */
};

/* Parse one stderr line; -1 when it is not a progress event (plain text). */
int event_parse(const char *line, struct grade_event *ev);
void event_free(struct grade_event *ev);

#endif
