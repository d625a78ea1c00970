/*
 * Diagnoses in the lessons' terms: what a finding of the simulator's checks
 * or of compute-sanitizer means for the student's arrays, and how the
 * student's kernels used memory (sectors per request, bank conflicts,
 * global reads per thread), judged against the exercise's budgets
 * (diagnose_memory.c).
 */
#ifndef CUDALINGS_DIAGNOSE_H
#define CUDALINGS_DIAGNOSE_H

#include <stdbool.h>
#include "grader/result.h"
#include "harness/protocol.h"

/* A new diagnostic at the end of r's list, which takes message; NULL (and
 * message freed) when the list is full. */
struct diagnostic *diagnose_add(struct grade_result *r, const char *kind, char *message);
bool diagnose_has(const struct grade_result *r, const char *kind);
/* "exercises/x.cu:27" into its file (yours) and line; false when it names no line. */
bool diagnose_split_where(const char *where, char **file, int *line);

/* The arrays of a case: what the judge declared, and where the runner put them. */
struct case_arrays {
	const struct proto_case_info *info;
	const uint64_t *addrs; /* PROTO_MAX_BUFFERS device addresses */
};

/*
 * Add the diagnostic of a finding and return its sentence (you own it),
 * naming the array nearest its address among the arrays of the cases given.
 */
char *diagnose_finding(struct grade_result *r, const struct proto_finding *f, const struct case_arrays *cases,
		       int ncases);

/* text (length bytes) with the simulator's "the word at byte B of the N-byte allocation at 0x… (… element E)"
 * named as the case's array where it is one (sums[E]); you own the result. */
char *diagnose_name_words(const char *text, size_t length, const struct case_arrays *cases, int ncases);

/*
 * A wrong output that holds the right values in the wrong places: each
 * square tile of it transposed (a tile written back as it was read). Adds
 * the diagnostic and returns true when so.
 */
bool diagnose_layout(struct grade_result *r, const char *name, const void *actual, uint32_t dtype,
		     const struct proto_expect *expected,
		     size_t rows, size_t cols);
/* A runner's error text in the lessons' terms: barrier divergence, a deadlock at a warp function. */
void diagnose_error(struct grade_result *r, const char *text, size_t length);

/* Put the diagnoses that name a mistake before those that may only follow from one
 * (a read of an unloaded tile element follows from a tile written back untransposed). */
void diagnose_order(struct grade_result *r);

void diagnose_counts_add(struct proto_counts *sum, const struct proto_counts *c);
void diagnose_figures(const struct proto_counts *c, const char *source, struct memory_figures *out);
/* A diagnostic for each budget of e that r->figures misses; the first one's message, or NULL. */
const char *diagnose_budgets(const struct exercise *e, struct grade_result *r);
/*
 * A kernel too slow though its figures meet every budget: say what was
 * measured, and that the time goes elsewhere (the "slow" diagnosis).
 */
void diagnose_slow(struct grade_result *r);
/*
 * A kernel too slow on a GPU that no memory diagnosis explains: the student's file at path and the
 * exercise's reference solution built for this GPU, their loads in flight compared (grader/sass/sass_loads.h).
 * When the student's threads have fewer together, a "slow" diagnosis says so with both figures (Nsight
 * Compute's kept where it measured, its list of possible causes replaced), first, with its hint. Needs nvcc,
 * nvdisasm and the reference's source; without them nothing changes.
 */
void diagnose_slow_loads(struct grade_result *r, const struct exercise *e, const char *path);

/* compute-sanitizer's text report: up to max findings, the first of each kind. */
int diagnose_parse_sanitizer(const char *text, struct proto_finding *out, int max);
/* The metrics Nsight Compute is asked for, comma-separated; the core ones
 * (sectors and bank conflicts) again where a version lacks one of the rest. */
extern const char diagnose_ncu_metrics[];
extern const char diagnose_ncu_core_metrics[];
/* What the exercise's budgets need of Nsight Compute, and no more. */
extern const char diagnose_ncu_budget_metrics[];
/* Nsight Compute's --csv --print-units base report, summed over its kernels: how many kernels it
 * measured, or -1 when none is in it. The first kernel, when it is named skip_first (alone, or with its
 * parameters after it), is left out; NULL: none is. */
int diagnose_parse_ncu(const char *text, const char *skip_first, struct proto_counts *c, double *dram_gbps);

/* The simulator found a result that depends on the order of threads or blocks (its words in text, n
   bytes): the diagnosis of that kind of race in case `case_name`, in the lessons' terms. */
void diagnose_race(struct grade_result *r, const char *case_name, const char *text, size_t n);

#endif
