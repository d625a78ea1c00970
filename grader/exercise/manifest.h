/*
 * The workbook's manifest (workbook.json): every lesson and exercise in
 * course order, with all that the grader and the TUI need to know of each.
 */
#ifndef CUDALINGS_MANIFEST_H
#define CUDALINGS_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "harness/protocol.h"

#define MANIFEST_MAX_CASES 24

enum item_kind { ITEM_EXERCISE, ITEM_DEMO, ITEM_LESSON };

struct exercise_hint {
	char *when; /* the stage or diagnosis it answers: compile, correctness, performance, race, … */
	char *text;
};

/* A limit on a figure of how the kernels use memory (grader/exercise/budget.h names them). */
struct budget {
	char *name; /* sectors_per_request, bank_conflicts_per_request, global_reads_per_thread */
	double limit;
};

/* A pointer parameter of the launcher: one buffer of the check, in order. */
struct buffer_param {
	char *text;  /* "const unsigned char *pixels", as the signature spells it */
	uint32_t dtype; /* enum dtype (harness/dtype.h) of what it points to */
	bool is_const;
};

/* A mutant of the solution (grader/mutants/mutants.h) that no check can kill: it computes the same, or only a GPU sees it. */
struct equivalent_mutant {
	char *mutant; /* its id, "bound_guard@27" */
	char *why;
};

struct gpu_threshold {
	char *device; /* as cudaGetDeviceProperties names it */
	double us;
};

struct exercise {
	char *name;
	enum item_kind kind;
	char *title;
	char *lesson;        /* slides/NAME.md */
	char *file;          /* exercises/NAME.cu, NULL for a lesson */
	char *solution;      /* solutions/NAME.cu */
	char *check;         /* harness/checks/CHECK.cpp: the item's own name, or an earlier item's with its launcher */
	char *dir;           /* the folder those are in, relative to the root: "" but for a course of its own */
	char *launcher;      /* the full C signature */
	char *launcher_name; /* the identifier in it */
	struct buffer_param params[PROTO_MAX_BUFFERS]; /* its pointer parameters: the check's buffers, in order */
	int nparams;
	char *dim_names[PROTO_MAX_DIMS];
	int ndims;
	int ncases;
	int cases[MANIFEST_MAX_CASES][PROTO_MAX_DIMS];
	bool has_timed;
	int timed[PROTO_MAX_DIMS];
	double rtol, atol;   /* NAN where workbook.json gives none: each float type's default (harness/dtype.h) */
	double threshold_ratio;
	struct gpu_threshold *absolute;
	int nabsolute;
	struct exercise_hint *hints;
	int nhints;
	struct budget *budgets;
	int nbudgets;
	bool budgets_on_gpu; /* the budgets decide on a GPU too, measured by Nsight Compute on the timed case */
	char **allow; /* calls the inspection would refuse that this exercise permits */
	int nallow;
	bool timing_ways; /* a demo whose runs time the kernel the right way and the wrong ways (--timing-ways) */
	struct equivalent_mutant *equivalents; /* mutants of the solution its checks cannot kill, and why */
	int nequivalents;
};

struct manifest {
	char *title;
	struct exercise *items;
	int count;
};

/* Load the workbook.json in use (util.h's workbook_file); on a mistake print where and return -1. */
int manifest_load(struct manifest *m);
struct exercise *manifest_find(struct manifest *m, const char *name);
/* The closest name, for "did you mean", or NULL when none is close. */
const char *manifest_suggest(const struct manifest *m, const char *name);
const char *manifest_item_kind_name(enum item_kind kind);
/*
 * Whether the item's solution can be read here: the student copy (make dist)
 * ships no exercise's solution, only a demo's source, so a front end offers
 * "show the solution" only where this is true.
 */
bool manifest_item_solution_present(const struct exercise *e);
/* "31x33" */
void manifest_case_label(const int *dims, int ndims, char *out, size_t size);

/*
 * The check's buffers (the judge's case info) against the launcher's signature in workbook.json, in
 * order and by type. NULL when they agree, else the sentence (you own it).
 */
char *manifest_buffers_disagree(const struct exercise *e, const struct proto_case_info *info);

#endif
