/*
 * The heat map (grader/sass/lines.h), collected: per-line figures from the
 * simulator's reports or from Nsight Compute's source page. What they mean
 * and how they are shown (the hot lines, the annotated source, the JSON) is
 * lines_report.c's.
 *
 * A line is hot when its requests of one kind take more sectors (or
 * wavefronts) than the bytes they ask for need, beyond the budgets'
 * tolerance (more than 1.25 × the fewest + 0.5 per request), and the excess
 * is at least a twentieth of all the kernel's sectors (or wavefronts): the
 * lines a student should fix first, not merely the busiest ones. Where
 * Nsight Compute sampled the warps, each line's share of the samples (where
 * the time went) is shown beside it, but it does not make a line hot: a
 * load's wait is sampled at the instruction that uses its value.
 */
#include "grader/sass/lines.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

#define MAX_LINES 4096

struct line_figures *
lines_at(struct line_map *m, const char *file, int line)
{
	for (int i = 0; i < m->n; i++)
		if (m->lines[i].line == line && !strcmp(m->lines[i].file, file))
			return &m->lines[i];
	if (m->n == MAX_LINES)
		return NULL;
	if (m->n == m->cap) {
		m->cap = m->cap * 2 + 16;
		m->lines = xrealloc(m->lines, sizeof(*m->lines) * (size_t)m->cap);
	}
	struct line_figures *l = &m->lines[m->n++];
	memset(l, 0, sizeof(*l));
	l->file = xstrdup(file);
	l->line = line;
	return l;
}

void
lines_add_access(struct line_figures *l, int kind, uint64_t requests, uint64_t units, uint64_t ideal)
{
	struct line_access *a = &l->kind[kind];
	a->requests += requests;
	a->units += units;
	a->ideal += ideal;
}

/* "file:line" into its parts; false when it is not one. */
static bool
split_where(const char *where, char *file, size_t n, int *line)
{
	const char *colon = strrchr(where, ':');
	if (!colon || colon == where || !isdigit((unsigned char)colon[1]))
		return false;
	long v = strtol(colon + 1, NULL, 10);
	if (v < 1 || v > INT_MAX || (size_t)(colon - where) >= n)
		return false;
	snprintf(file, n, "%.*s", (int)(colon - where), where);
	*line = (int)v;
	return true;
}

void
lines_add_proto(struct line_map *m, const void *payload, size_t length)
{
	for (size_t at = 0; at + sizeof(struct proto_line) <= length; at += sizeof(struct proto_line)) {
		struct proto_line p;
		char file[sizeof(p.where)];
		int line;
		memcpy(&p, (const char *)payload + at, sizeof(p));
		p.where[sizeof(p.where) - 1] = 0;
		/* the runner holds the student's code: a figure past any kernel's reach is not one */
		if (!split_where(p.where, file, sizeof(file), &line) || p.requests > (1ull << 48) ||
		    p.units > (1ull << 53) || p.ideal > p.units + p.requests * 64)
			continue;
		struct line_figures *l = lines_at(m, file, line);
		if (!l)
			continue;
		int kind = p.shared ? (p.write ? LINE_SHARED_STORE : LINE_SHARED_LOAD)
				    : (p.write ? LINE_GLOBAL_STORE : LINE_GLOBAL_LOAD);
		lines_add_access(l, kind, p.requests, p.units, p.ideal);
		m->source = "simulator";
	}
}

/* ------------------------------------------------------------------ Nsight Compute's source page */

/* The fields of one CSV record ("a","b ""c""",1) into cells; returns how many (at most max). */
static int
csv_cells(const char *line, const char *end, char **cells, int max)
{
	int n = 0;
	const char *p = line;
	while (p <= end && n < max) {
		struct buf cell = BUF_INIT;
		buf_addstr(&cell, "");
		if (p < end && *p == '"') {
			for (p++; p < end; p++) {
				if (*p == '"' && p + 1 < end && p[1] == '"')
					buf_add(&cell, p++, 1);
				else if (*p == '"')
					break;
				else
					buf_add(&cell, p, 1);
			}
			if (p < end)
				p++; /* the closing quote */
		}
		for (; p < end && *p != ','; p++)
			buf_add(&cell, p, 1);
		cells[n++] = buf_detach(&cell);
		if (p >= end)
			break;
		p++; /* the comma */
	}
	return n;
}

static double
number(const char *cell)
{
	char digits[64];
	size_t k = 0;
	for (const char *q = cell; *q && k + 1 < sizeof(digits); q++)
		if (*q != ',' && *q != ' ')
			digits[k++] = *q; /* "16,777,216" */
	digits[k] = 0;
	char *stop;
	double v = strtod(digits, &stop);
	return stop == digits || v < 0 ? 0 : v;
}

/* The SASS instruction's kind of memory access, from Nsight's columns or its opcode; -1: none. */
static int
access_kind(const char *space, const char *operation, const char *sass)
{
	while (*sass == ' ' || *sass == '\t')
		sass++;
	if (*sass == '@') /* a predicate, @P0 or @!P0 */
		while (*sass && *sass != ' ')
			sass++;
	while (*sass == ' ')
		sass++;
	char op[16];
	size_t k = 0;
	for (; sass[k] && sass[k] != '.' && sass[k] != ' ' && k + 1 < sizeof(op); k++)
		op[k] = (char)toupper((unsigned char)sass[k]);
	op[k] = 0;
	bool load;
	if (*operation && strcmp(operation, "-"))
		load = !strncasecmp(operation, "load", 4);
	else
		load = !strncmp(op, "LD", 2);
	if (*space && strcmp(space, "-")) {
		if (!strncasecmp(space, "shared", 6))
			return load ? LINE_SHARED_LOAD : LINE_SHARED_STORE;
		if (!strncasecmp(space, "local", 5))
			return load ? LINE_LOCAL_LOAD : LINE_LOCAL_STORE;
		if (!strncasecmp(space, "global", 6) || !strncasecmp(space, "generic", 7))
			return load ? LINE_GLOBAL_LOAD : LINE_GLOBAL_STORE;
		return -1;
	}
	static const struct { const char *op; int kind; } ops[] = {
		{ "LDG", LINE_GLOBAL_LOAD }, { "LDGSTS", LINE_GLOBAL_LOAD }, { "LD", LINE_GLOBAL_LOAD },
		{ "STG", LINE_GLOBAL_STORE }, { "ST", LINE_GLOBAL_STORE }, { "RED", LINE_GLOBAL_STORE },
		{ "ATOMG", LINE_GLOBAL_STORE }, { "ATOM", LINE_GLOBAL_STORE },
		{ "LDS", LINE_SHARED_LOAD }, { "LDSM", LINE_SHARED_LOAD }, { "STS", LINE_SHARED_STORE },
		{ "ATOMS", LINE_SHARED_STORE }, { "LDL", LINE_LOCAL_LOAD }, { "STL", LINE_LOCAL_STORE },
	};
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(op, ops[i].op))
			return ops[i].kind;
	return -1;
}

bool
lines_same_file(const char *reported, const char *const *paths)
{
	char a[PATH_MAX], b[PATH_MAX];
	bool resolved = realpath(reported, a) != NULL;
	for (const char *const *p = paths; p && *p; p++) {
		if (!strcmp(reported, *p))
			return true;
		if (resolved && realpath(*p, b) && !strcmp(a, b))
			return true;
		/* one named relative to somewhere else: the same path's end, at a folder's edge */
		size_t x = strlen(reported), y = strlen(*p);
		const char *longer = x > y ? reported : *p, *shorter = x > y ? *p : reported;
		size_t lo = x > y ? x : y, sh = x > y ? y : x;
		if (sh > 3 && !strcmp(longer + lo - sh, shorter) && longer[lo - sh - 1] == '/')
			return true;
	}
	return false;
}

enum { COL_LINE, COL_CUDA, COL_ADDRESS, COL_SASS, COL_SPACE, COL_OPERATION, COL_EXECUTED, COL_SECTORS,
       COL_SECTORS_IDEAL, COL_LOCAL_SECTORS, COL_WAVEFRONTS, COL_WAVEFRONTS_IDEAL, COL_SAMPLES, NCOLS };

static const char *const column_names[NCOLS] = {
	[COL_LINE] = "Line No", [COL_ADDRESS] = "Address", [COL_SPACE] = "Address Space",
	[COL_OPERATION] = "Access Operation", [COL_EXECUTED] = "Instructions Executed",
	[COL_SECTORS] = "L2 Theoretical Sectors Global", [COL_SECTORS_IDEAL] = "L2 Theoretical Sectors Global Ideal",
	[COL_LOCAL_SECTORS] = "L2 Theoretical Sectors Local", [COL_WAVEFRONTS] = "L1 Wavefronts Shared",
	[COL_WAVEFRONTS_IDEAL] = "L1 Wavefronts Shared Ideal", [COL_SAMPLES] = "Warp Stall Sampling (All Samples)",
};

/* The columns of a header row; false when it is not one. */
static bool
header_columns(char **cells, int n, int *col)
{
	for (int c = 0; c < NCOLS; c++)
		col[c] = -1;
	for (int i = 0; i < n; i++) {
		const char *name = cells[i];
		if (!strcmp(name, "# Address"))
			name = "Address";
		if (!strcmp(name, "Source")) {
			/* cuda,sass: the CUDA line's text comes first, the instruction last */
			if (col[COL_CUDA] < 0 && col[COL_ADDRESS] < 0)
				col[COL_CUDA] = i;
			col[COL_SASS] = i;
			continue;
		}
		if (!strcmp(name, "# Samples") && col[COL_SAMPLES] < 0)
			col[COL_SAMPLES] = i;
		for (int c = 0; c < NCOLS; c++)
			if (column_names[c] && !strcmp(name, column_names[c]))
				col[c] = i;
	}
	return col[COL_ADDRESS] >= 0 && col[COL_SASS] >= 0;
}

static const char *
cell(char **cells, int n, int c)
{
	return c >= 0 && c < n ? cells[c] : "";
}

/* One SASS row of the source page, to its line's figures; false past MAX_LINES. */
static bool
take_row(struct line_map *m, const char *display, int line, char **cells, int n, const int *col)
{
	struct line_figures *l = lines_at(m, display, line);
	if (!l)
		return false;
	double samples = number(cell(cells, n, col[COL_SAMPLES]));
	l->samples += samples;
	m->total_samples += samples;
	int kind = access_kind(cell(cells, n, col[COL_SPACE]), cell(cells, n, col[COL_OPERATION]),
			       cell(cells, n, col[COL_SASS]));
	uint64_t executed = (uint64_t)number(cell(cells, n, col[COL_EXECUTED]));
	if (kind < 0 || !executed)
		return true;
	bool shared = lines_kind_is_shared(kind), local = lines_kind_is_local(kind);
	uint64_t units = (uint64_t)number(cell(cells, n, col[shared ? COL_WAVEFRONTS : local ? COL_LOCAL_SECTORS
										  : COL_SECTORS]));
	/* Nsight names no ideal for local memory: a spill has none */
	uint64_t ideal = local ? 0 : (uint64_t)number(cell(cells, n, col[shared ? COL_WAVEFRONTS_IDEAL
										  : COL_SECTORS_IDEAL]));
	lines_add_access(l, kind, executed, units, ideal);
	return true;
}

int
lines_parse_ncu(struct line_map *m, const char *csv, const char *const *paths, const char *display)
{
	enum { MAX_CELLS = 256 };
	char *cells[MAX_CELLS], file[PATH_MAX] = "";
	int col[NCOLS], taken = 0, line = 0;
	bool header = false, mine = false;
	for (const char *p = csv; p && *p;) {
		const char *end = strchrnul(p, '\n');
		const char *stop = end > p && end[-1] == '\r' ? end - 1 : end;
		const char *next = *end ? end + 1 : NULL;
		if (*p != '"') { /* ==PROF== lines */
			p = next;
			continue;
		}
		int n = csv_cells(p, stop, cells, MAX_CELLS);
		p = next;
		if (n >= 2 && (!strcmp(cells[0], "File Path") || !strcmp(cells[0], "File Name"))) {
			snprintf(file, sizeof(file), "%s", cells[1]);
			mine = lines_same_file(file, paths);
			line = 0;
		} else if (n >= 1 && (!strcmp(cells[0], "Function Name") || !strcmp(cells[0], "Kernel Name"))) {
			line = 0;
		} else if (n >= 1 && (!strcmp(cells[0], "Line No") || !strcmp(cells[0], "Address") ||
				      !strcmp(cells[0], "# Address")) && header_columns(cells, n, col)) {
			header = true;
		} else if (header) {
			const char *number_text = cell(cells, n, col[COL_LINE]);
			const char *address = cell(cells, n, col[COL_ADDRESS]);
			if (isdigit((unsigned char)*number_text) && strncmp(address, "0x", 2))
				line = (int)strtol(number_text, NULL, 10);
			else if (!strncmp(address, "0x", 2) && mine && line > 0 && take_row(m, display, line, cells, n, col))
				taken++;
		}
		for (int i = 0; i < n; i++)
			free(cells[i]);
	}
	if (!header)
		return -1;
	/* a page that names no line of the file measured nothing of it: the caller says why */
	if (taken)
		m->source = "nsight compute";
	return taken;
}

void
lines_release(struct line_map *m)
{
	for (int i = 0; i < m->n; i++) {
		free(m->lines[i].file);
		free(m->lines[i].source);
	}
	free(m->lines);
	free(m->note);
	free(m->why);
	free(m->text);
	free(m->file);
	memset(m, 0, sizeof(*m));
}
