/*
 * The machine code of the student's kernels (`cudalings grade --sass`,
 * `cudalings sass`): the file built by nvcc with -lineinfo for one GPU
 * architecture, as PTX (nvcc -ptx) and SASS (nvdisasm -gi), every
 * instruction under the source line it came from, with the heat map's
 * figures beside the lines when they were measured. Needs nvcc, no GPU.
 */
#ifndef CUDALINGS_SASS_H
#define CUDALINGS_SASS_H

#include <stdbool.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "grader/sass/lines.h"
#include "grader/exercise/manifest.h"
#include "lib/util.h"

struct sass_instruction {
	unsigned address; /* SASS: its offset in the kernel */
	char *text;
};

struct sass_line {
	int line; /* of the student's file; 0: code the line table gives no line of it */
	struct sass_instruction *ptx, *sass;
	int nptx, nsass;
};

struct sass_kernel {
	char *mangled, *name;
	int registers, barriers;        /* from ptxas -v; -1 when it did not say */
	long shared_bytes, stack_bytes, spill_stores, spill_loads;
	struct sass_line *lines;        /* in source order */
	int nlines;
	struct sass_label {             /* a branch target, ".L_x_3", at the address of the instruction after it */
		char *name;
		unsigned address;
	} *labels;
	int nlabels;
};

struct sass_listing {
	char arch[16];   /* sm_90 */
	char *arch_why;  /* "this GPU", "no GPU here: sm_90 by default", … */
	char *file;      /* as the student named it */
	char *text;      /* its text as built, for the source lines */
	char *no_sass;   /* why there is no SASS (nvdisasm missing, or it failed), or NULL */
	char *no_figures; /* why no heat map sits beside the lines, or NULL */
	struct sass_kernel *kernels;
	int nkernels;
};

/*
 * The architecture to build for: `asked` (sm_XX, from --arch) when given,
 * else CUDALINGS_ARCH when it names one, else this machine's GPU, else sm_90.
 * Fills l->arch and l->arch_why. Returns -1 with a message in err when
 * `asked` is not an architecture's name.
 */
int sass_choose_arch(struct sass_listing *l, const char *asked, struct buf *err);

/*
 * Build `path` (the student's file, named `display`) for l->arch with e's
 * public header, and read its PTX and SASS into l. Returns 0; 1 when the
 * file does not compile (nvcc's messages in err); 3 when nvcc is not
 * there. A missing nvdisasm is not an error: l->no_sass says it.
 */
int sass_build(struct sass_listing *l, const struct exercise *e, const char *path, const char *display,
	       struct buf *err);

/* The parsers, for the tests: nvcc's PTX (with .loc and .file), nvdisasm -gi's text, ptxas -v's lines. */
void sass_read_ptx(struct sass_listing *l, const char *ptx, const char *const *paths);
void sass_read_nvdisasm(struct sass_listing *l, const char *text, const char *const *paths);
void sass_read_ptxas(struct sass_listing *l, const char *text);

/* The listing at most `width` columns wide (80 for a terminal; at least SASS_MIN_WIDTH), figures (or NULL)
 * beside the lines they measured. */
#define SASS_MIN_WIDTH 60
void sass_print_text(FILE *out, const struct sass_listing *l, const struct line_map *figures, bool color, int width);
/* The `machine_code` object of the JSON report; you own it. */
cJSON *sass_json(const struct sass_listing *l, const struct line_map *figures);
void sass_release(struct sass_listing *l);

/*
 * For `cudalings grade --sass` (and `sass`): before the grading, the
 * architecture (`arch` from --arch, or NULL) and nvcc (0, or the exit status
 * after saying, as `who`, what is wrong: 2 a bad --arch, 3 no nvcc); after it, the listing of
 * `path` with the grading's figures, into `json` (its machine_code) when
 * given, else as text on out. Returns sass_build's status.
 */
int sass_grade_begin(struct sass_listing *l, const char *arch, const char *who);
int sass_grade_end(struct sass_listing *l, const struct exercise *e, const char *path, const char *display,
		   const struct line_map *figures, cJSON *json, FILE *out, bool color, int width);

#endif
