#include "grader/exercise/scaffold.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/json.h"
#include "common/root.h"
#include "grader/exercise/starter.h"

#define MAX_NAME 40

bool
scaffold_valid_name(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > MAX_NAME || !islower((unsigned char)name[0]))
		return false;
	for (const char *p = name; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_')
			return false;
	return true;
}

/* ------------------------------------------------------------ printing workbook.json */

static void
print_string(struct buf *out, const char *s)
{
	buf_addstr(out, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_addf(out, "\\%c", *p);
		else if (*p == '\n')
			buf_addstr(out, "\\n");
		else if (*p == '\t')
			buf_addstr(out, "\\t");
		else if (*p < 0x20)
			buf_addf(out, "\\u%04x", *p);
		else
			buf_add(out, p, 1); /* UTF-8 stays as written: the hints hold × and ≥ */
	}
	buf_addstr(out, "\"");
}

/* The shortest text that reads back as the same double, exponent as people write it (1e-5). */
static void
print_number(struct buf *out, double v)
{
	char text[40];
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		snprintf(text, sizeof(text), "%.0f", v);
	} else {
		for (int digits = 1; digits <= 17; digits++) {
			snprintf(text, sizeof(text), "%.*g", digits, v);
			if (strtod(text, NULL) == v)
				break;
		}
		char *e = strchr(text, 'e');
		if (e) {
			char *digits = e + 1 + (e[1] == '-' || e[1] == '+');
			char *first = digits;
			while (*first == '0' && first[1])
				first++;
			memmove(e[1] == '+' ? e + 1 : digits, first, strlen(first) + 1);
		}
	}
	buf_addstr(out, text);
}

static bool
is_scalar(const cJSON *v)
{
	return !cJSON_IsArray(v) && !cJSON_IsObject(v);
}

/* An array on one line: plain values, or arrays of them ("cases": [[1, 1], [31, 33]]). */
static bool
array_fits_line(const cJSON *a)
{
	const cJSON *v;
	cJSON_ArrayForEach(v, a) {
		if (cJSON_IsObject(v))
			return false;
		if (cJSON_IsArray(v)) {
			const cJSON *w;
			cJSON_ArrayForEach(w, v)
				if (!is_scalar(w))
					return false;
		}
	}
	return true;
}

/* Inside an item, an object of plain values is one line ({ "rtol": 1e-5, "atol": 0 }). */
static bool
object_fits_line(const cJSON *o, int depth)
{
	if (depth < 3)
		return false;
	const cJSON *v;
	cJSON_ArrayForEach(v, o)
		if (!is_scalar(v))
			return false;
	return true;
}

static void
indent(struct buf *out, int depth)
{
	for (int i = 0; i < depth; i++)
		buf_addstr(out, "  ");
}

static void
print_value(struct buf *out, const cJSON *v, int depth)
{
	const cJSON *c;
	if (cJSON_IsString(v)) {
		print_string(out, v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		print_number(out, v->valuedouble);
	} else if (cJSON_IsBool(v)) {
		buf_addstr(out, cJSON_IsTrue(v) ? "true" : "false");
	} else if (cJSON_IsNull(v)) {
		buf_addstr(out, "null");
	} else if (!v->child) {
		buf_addstr(out, cJSON_IsArray(v) ? "[]" : "{}");
	} else if (cJSON_IsArray(v) && array_fits_line(v)) {
		buf_addstr(out, "[");
		cJSON_ArrayForEach(c, v) {
			print_value(out, c, depth + 1);
			if (c->next)
				buf_addstr(out, ", ");
		}
		buf_addstr(out, "]");
	} else if (cJSON_IsObject(v) && object_fits_line(v, depth)) {
		buf_addstr(out, "{ ");
		cJSON_ArrayForEach(c, v) {
			print_string(out, c->string);
			buf_addstr(out, ": ");
			print_value(out, c, depth + 1);
			buf_addstr(out, c->next ? ", " : " ");
		}
		buf_addstr(out, "}");
	} else {
		bool array = cJSON_IsArray(v);
		buf_addstr(out, array ? "[\n" : "{\n");
		cJSON_ArrayForEach(c, v) {
			indent(out, depth + 1);
			if (!array) {
				print_string(out, c->string);
				buf_addstr(out, ": ");
			}
			print_value(out, c, depth + 1);
			buf_addstr(out, c->next ? ",\n" : "\n");
		}
		indent(out, depth);
		buf_addstr(out, array ? "]" : "}");
	}
}

char *
scaffold_print_workbook(const cJSON *root)
{
	struct buf out = BUF_INIT;
	print_value(&out, root, 0);
	buf_addstr(&out, "\n");
	return buf_detach(&out);
}

/* ------------------------------------------------------------ the templates */

/*
 * The scaffold is a working exercise of one of two shapes — a vector in,
 * a vector out of the same length (1-D, `n`), or a matrix in and out
 * (2-D, `rows`, `cols`, row-major) — whose check asks for twice the input
 * while the solution copies it: the instructor replaces both, and until
 * the solution does what the check computes, `cudalings check` says so.
 * The shape's parts fill the templates' numbered holes.
 */
struct shape {
	const char *params;      /* %2$s: the sizes in the launcher's signature */
	const char *doc;         /* %3$s: what the solution's comment says of the buffers */
	const char *index;       /* %4$s: the solution's thread index and bound */
	const char *index_start; /* %5$s: the starter's */
	const char *element;     /* %6$s: the element a thread writes */
	const char *launch;      /* %7$s: the solution's launch shape */
	const char *launch_start;/* %8$s: the starter's */
	const char *args;        /* %9$s: the sizes the launch passes */
	const char *check_shape; /* the check's %3$s: rows and cols of a buffer */
	const char *check_args;  /* the check's %4$s: its sizes passed to the launcher */
	const char *dims, *cases, *timed, *block_hint;
};

static const struct shape shape_1d = {
	"int n", "`in` and `out` hold n floats. Any n ≥ 1 must work.",
	"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i >= n)\n        return;\n",
	"    // int i = 0;\n", "i",
	"    int threads = 256;\n    int blocks = (n + threads - 1) / threads;\n",
	"    // int threads = 1;\n    // int blocks = 1;\n", "n",
	"1, c->dims[0]", "c->dims[0]",
	"[\"n\"]", "[[1], [31], [33], [1000], [4097]]", "[16777216]",
	"A thread whose index is past n must do nothing: test i < n before touching memory.",
};

static const struct shape shape_2d = {
	"int rows, int cols",
	"`in` and `out` hold rows × cols floats, row-major: element (r, c) is at r * cols + c.\n"
	" * Any rows, cols ≥ 1 must work.",
	"    int col = blockIdx.x * blockDim.x + threadIdx.x;\n    int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
	"    if (row >= rows || col >= cols)\n        return;\n    size_t i = (size_t)row * cols + col;\n",
	"    // size_t i = 0;\n", "i",
	"    dim3 threads(32, 8);\n    dim3 blocks((cols + threads.x - 1) / threads.x, (rows + threads.y - 1) / threads.y);\n",
	"    // dim3 threads(1, 1);\n    // dim3 blocks(1, 1);\n", "rows, cols",
	"c->dims[0], c->dims[1]", "c->dims[0], c->dims[1]",
	"[\"rows\", \"cols\"]", "[[1, 1], [31, 33], [33, 31], [1000, 1], [1, 1000], [257, 1000]]", "[4096, 4096]",
	"A thread whose row or column is past the matrix's must do nothing: test both before touching memory.",
};

static const char solution_template[] =
	"/*\n"
	" * %1$s — TODO(instructor): say in two or three lines what the student writes.\n"
	" *\n"
	" * %3$s Lesson: slides/%1$s.md\n"
	" */\n"
	"#include \"cudalings/%1$s.h\"\n"
	"\n"
	"__global__ void %1$s_kernel(const float *in, float *out, %2$s)\n"
	"{\n"
	"    // BEGIN SOLUTION: give each thread its own element, and let threads past the last one stop\n"
	"%4$s"
	"    // STARTER\n"
	"%5$s"
	"    // END SOLUTION\n"
	"\n"
	"    // BEGIN SOLUTION: write out[%6$s] (TODO(instructor): say what it is)\n"
	"    // TODO(instructor): the reference kernel. This copy is not what the check computes\n"
	"    // (twice the input), so the solution fails until it is written.\n"
	"    out[%6$s] = in[%6$s];\n"
	"    // END SOLUTION\n"
	"}\n"
	"\n"
	"void %1$s_launch(const float *in, float *out, %2$s)\n"
	"{\n"
	"    // BEGIN SOLUTION: one thread per element, enough blocks to cover every one\n"
	"%7$s"
	"    // STARTER\n"
	"%8$s"
	"    // END SOLUTION\n"
	"    %1$s_kernel<<<blocks, threads>>>(in, out, %9$s);\n"
	"}\n";

static const char check_template[] =
	"/* %1$s: dims are %2$s. TODO(instructor): the buffers, the CPU reference, the bytes and flops. */\n"
	"#include \"harness/check.h\"\n"
	"#include \"cudalings/%1$s.h\"\n"
	"\n"
	"static void\n"
	"buffers(struct check_case *c)\n"
	"{\n"
	"\tcheck_buffer(c, \"in\", BUFFER_IN, %3$s);\n"
	"\tcheck_buffer(c, \"out\", BUFFER_OUT, %3$s);\n"
	"}\n"
	"\n"
	"/* In double precision; .bound is the magnitude float32 rounding error grows with. */\n"
	"static void\n"
	"reference(const struct check_case *c, const void *const *in, struct proto_expect *const *out)\n"
	"{\n"
	"\tconst float *x = (const float *)in[0]; /* each input as its type lays it out */\n"
	"\tsize_t n = check_elements(&c->spec[0]);\n"
	"\t#pragma omp parallel for\n"
	"\tfor (size_t i = 0; i < n; i++) {\n"
	"\t\tdouble v = 2.0 * x[i];\n"
	"\t\tout[1][i].value = v;\n"
	"\t\tout[1][i].bound = fabs(v);\n"
	"\t}\n"
	"}\n"
	"\n"
	"static void\n"
	"launch(const void *fn, const struct check_case *c, void *const *b)\n"
	"{\n"
	"\t((%1$s_launch_t *)fn)((const float *)b[0], (float *)b[1], %4$s);\n"
	"}\n"
	"\n"
	"/* Each input read once, each output written once. */\n"
	"static double\n"
	"bytes(const struct check_case *c)\n"
	"{\n"
	"\treturn 8.0 * check_elements(&c->spec[0]);\n"
	"}\n"
	"\n"
	"static double\n"
	"flops(const struct check_case *c)\n"
	"{\n"
	"\treturn check_elements(&c->spec[0]);\n"
	"}\n"
	"\n"
	"const struct check check_definition = { buffers, reference, launch, bytes, flops };\n";

static const char slides_template[] =
	"# %2$s\n"
	"\n"
	"## The idea\n"
	"\n"
	"TODO(instructor): what the student learns here, with a measured number if there is one.\n"
	"\n"
	"## Your task\n"
	"\n"
	"Open `exercises/%1$s.cu`. Write every element of `out`.\n"
	"\n"
	"## Check it\n"
	"\n"
	"```sh\n"
	"make grade EX=%1$s\n"
	"```\n";

/*
 * The workbook entry, as JSON text parsed once: one call whose result is
 * checked, rather than thirty whose failures would drop a key unseen. The
 * name is a C identifier (scaffold_valid_name), so it needs no escaping.
 * The cases sit on both sides of the block edge, one short of a warp, and
 * at a size no block divides; rtol is the README's float32 default.
 */
static const char entry_template[] =
	"{ \"name\": \"%1$s\", \"kind\": \"exercise\", \"title\": \"TODO(instructor): the title of %1$s\","
	"  \"lesson\": \"slides/%1$s.md\", \"launcher\": \"void %1$s_launch(const float *in, float *out, %2$s)\","
	"  \"dims\": %3$s, \"cases\": %4$s, \"timed\": %5$s,"
	"  \"tolerance\": { \"rtol\": 1e-5, \"atol\": 0 }, \"threshold_ratio\": 1.25,"
	"  \"hints\": ["
	"    { \"when\": \"correctness\", \"text\": \"%6$s\" },"
	"    { \"when\": \"performance\", \"text\": \"Let threadIdx.x pick neighbouring elements, so a warp "
	"reads 32 neighbouring floats.\" } ] }";

/* The new item's entry; NULL after saying why (it cannot happen with a valid name). */
static cJSON *
entry_for(const char *name, const struct shape *sh)
{
	char *text = xasprintf(entry_template, name, sh->params, sh->dims, sh->cases, sh->timed, sh->block_hint);
	cJSON *o = cJSON_Parse(text);
	if (!o)
		error("the entry for '%s' is not JSON (a fault of the scaffold): %s", name, text);
	free(text);
	return o;
}

/* ------------------------------------------------------------ writing */

/* Create `rel` with `text`; never over a file that exists. */
static int
create_file(const char *rel, const char *text, struct buf *written)
{
	char *path = root_path(rel), *dir = xstrdup(path);
	*strrchr(dir, '/') = 0;
	int status = 0;
	if (mkdir_p(dir))
		status = error("cannot create '%s': %s", dir, strerror(errno));
	else if (file_exists(path))
		status = error("'%s' appeared while the exercise was being written; it was left alone", rel);
	else if (write_file_atomic(path, text, strlen(text)))
		status = error("cannot write '%s': %s", rel, strerror(errno));
	else
		buf_addf(written, "%s\n", rel);
	free(dir);
	free(path);
	return status;
}

/* Undo: remove every file listed in `written`. */
static void
remove_written(struct buf *written)
{
	for (char *line = written->data; line && *line;) {
		char *end = strchrnul(line, '\n');
		char *rel = xasprintf("%.*s", (int)(end - line), line);
		char *path = root_path(rel);
		unlink(path);
		free(path);
		free(rel);
		line = *end ? end + 1 : end;
	}
	buf_reset(written);
}

/* workbook.json parsed, with its "items" array; NULL after saying why. */
static cJSON *
load_workbook(cJSON **items)
{
	char *path = xstrdup(workbook_file());
	size_t length;
	char *text = read_file(path, &length);
	cJSON *root = text ? cJSON_ParseWithLength(text, length) : NULL;
	*items = root ? cJSON_GetObjectItemCaseSensitive(root, "items") : NULL;
	if (!text)
		error("cannot read '%s': %s", path, strerror(errno));
	else if (!root || !cJSON_IsArray(*items))
		error("'%s' is not a workbook (no \"items\" list): fix it before adding to it", path);
	if (root && !cJSON_IsArray(*items)) {
		cJSON_Delete(root);
		root = NULL;
	}
	free(text);
	free(path);
	return root;
}

static int
item_index(const cJSON *items, const char *name)
{
	int i = 0;
	const cJSON *item;
	cJSON_ArrayForEach(item, items) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(item, "name");
		if (cJSON_IsString(n) && !strcmp(n->valuestring, name))
			return i;
		i++;
	}
	return -1;
}

/*
 * Put the entry of `name` at position `at` of `items` and write the
 * workbook; an edit that did not happen (the entry not where it was put)
 * is an error, never "wrote". 0, or -1 after saying why.
 */
static int
add_entry(cJSON *root, cJSON *items, const char *name, const struct shape *sh, int at, struct buf *written)
{
	cJSON *entry = entry_for(name, sh);
	if (!entry)
		return -1;
	if (!json_insert(items, at, entry)) {
		cJSON_Delete(entry);
		return error("cannot add '%s' to the workbook's items at position %d (cJSON refused the edit)",
			     name, at + 1);
	}
	if (item_index(items, name) != at)
		return error("the workbook's entry for '%s' is not where it was put (position %d): nothing was written",
			     name, at + 1);
	int status = 0;
	char *text = scaffold_print_workbook(root), *path = xstrdup(workbook_file());
	if (write_file_atomic(path, text, strlen(text)))
		status = error("cannot write '%s': %s", path, strerror(errno));
	else
		buf_addf(written, "%sworkbook.json\n", workbook_dir());
	free(path);
	free(text);
	return status;
}

int
scaffold_new(const char *name, const char *after, bool two_d, struct buf *written)
{
	const struct shape *sh = two_d ? &shape_2d : &shape_1d;
	if (!scaffold_valid_name(name))
		return error("'%s' cannot name an exercise: use lower-case letters, digits and '_', starting "
			     "with a letter, at most %d characters (it becomes part of C names)", name, MAX_NAME), -2;
	cJSON *items, *root = load_workbook(&items);
	if (!root)
		return -1;
	int status = 0, at = -1;
	/* beside the workbook.json in use: the root's, or a course folder's of its own */
	const char *dir = workbook_dir();
	char *files[4] = {
		xasprintf("%ssolutions/%s.cu", dir, name), xasprintf("%sharness/checks/%s.cpp", dir, name),
		xasprintf("%sslides/%s.md", dir, name), xasprintf("%sexercises/%s.cu", dir, name),
	};
	if (item_index(items, name) >= 0)
		status = (error("workbook.json already has '%s'; choose another name", name), -2);
	else if (after && (at = item_index(items, after)) < 0)
		status = (error("--after '%s': workbook.json has no such item", after), -2);
	for (int i = 0; i < 4 && !status; i++) {
		char *path = root_path(files[i]);
		if (file_exists(path))
			status = (error("'%s' exists already: an exercise '%s' was begun; remove the file or "
					"choose another name", files[i], name), -2);
		free(path);
	}
	char *title = xasprintf("TODO(instructor): the title of %s", name);
	char *texts[3] = {
		xasprintf(solution_template, name, sh->params, sh->doc, sh->index, sh->index_start, sh->element, sh->launch,
			  sh->launch_start, sh->args),
		xasprintf(check_template, name, two_d ? "rows and cols" : "n", sh->check_shape, sh->check_args),
		xasprintf(slides_template, name, title),
	};
	for (int i = 0; i < 3 && !status; i++)
		status = create_file(files[i], texts[i], written);
	char *starter = NULL;
	if (!status) {
		struct buf err = BUF_INIT;
		starter = starter_from_solution(texts[0], files[0], &err);
		status = starter ? create_file(files[3], starter, written) : error("%s", err.data);
		buf_free(&err);
	}
	/* the manifest last: the exercise appears in the list only once its files are there */
	if (!status) {
		status = add_entry(root, items, name, sh, at >= 0 ? at + 1 : cJSON_GetArraySize(items), written);
	}
	if (status == -1)
		remove_written(written);
	free(starter);
	for (int i = 0; i < 3; i++)
		free(texts[i]);
	for (int i = 0; i < 4; i++)
		free(files[i]);
	free(title);
	cJSON_Delete(root);
	return status;
}
