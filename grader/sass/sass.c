/*
 * The machine code listing (grader/sass/sass.h): nvcc builds the student's file
 * for one architecture with -lineinfo, keeping its PTX; nvdisasm -gi prints
 * the SASS with the source line (and the line it was inlined at) of each
 * instruction; ptxas -v says the registers, shared memory and spills of
 * each kernel. Every instruction goes under the innermost line of the
 * student's file it came from, so a shuffle inside a helper function sits
 * under the helper's line. Showing the listing is sass_report.c's.
 */
#include "grader/sass/sass.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grader/compile/build.h"
#include "lib/exit.h"
#include "lib/run.h"
#include "common/root.h"

/* as grader/compile/build.c compiles the student's file for a GPU */
/* as the grader builds a .cu for the GPU (harness/runner.mk) */
#include "grader/runner_mk.h"
#define DEFAULT_ARCH "sm_90"
#define TOOL_LIMIT_S 120

/* ------------------------------------------------------------------ the architecture */

static bool
arch_name(const char *s)
{
	if (strncmp(s, "sm_", 3) || !isdigit((unsigned char)s[3]) || !isdigit((unsigned char)s[4]))
		return false;
	const char *p = s + 5;
	if (isdigit((unsigned char)*p))
		p++;
	if (*p == 'a' || *p == 'f')
		p++;
	return !*p;
}

/* This machine's first GPU as sm_XY, from nvidia-smi; false when there is none or it does not say. */
static bool
gpu_arch(char *out, size_t n)
{
	if (!toolchain_gpu_present())
		return false;
	char *argv[] = { "nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader", NULL };
	struct buf text = BUF_INIT;
	int major = 0, minor = 0;
	bool ok = run_command(argv, NULL, 10, &text) && sscanf(text.data, "%d.%d", &major, &minor) == 2 &&
		  major > 0 && major < 100 && minor >= 0 && minor < 10;
	if (ok)
		snprintf(out, n, "sm_%d%d", major, minor);
	buf_free(&text);
	return ok;
}

int
sass_choose_arch(struct sass_listing *l, const char *asked, struct buf *err)
{
	const char *env = getenv("CUDALINGS_ARCH");
	free(l->arch_why);
	l->arch_why = NULL;
	if (asked) {
		if (!arch_name(asked)) {
			buf_addf(err, "--arch takes a GPU architecture such as sm_90 or sm_80, not '%s'", asked);
			return -1;
		}
		snprintf(l->arch, sizeof(l->arch), "%s", asked);
		l->arch_why = xstrdup("as asked");
	} else if (env && arch_name(env)) {
		snprintf(l->arch, sizeof(l->arch), "%s", env);
		l->arch_why = xstrdup("from CUDALINGS_ARCH");
	} else if (gpu_arch(l->arch, sizeof(l->arch))) {
		l->arch_why = xstrdup("this machine's GPU");
	} else {
		snprintf(l->arch, sizeof(l->arch), DEFAULT_ARCH);
		l->arch_why = xstrdup("no GPU here: the H100's and H200's by default; --arch picks another");
	}
	return 0;
}

/* ------------------------------------------------------------------ kernels and lines */

/* A demangled name's readable part: _Z5naivePKfPfii is naive, _ZN2ns1kEv is ns::k. */
static char *
short_name(const char *mangled)
{
	const char *p = mangled;
	if (strncmp(p, "_Z", 2))
		return xstrdup(mangled);
	p += 2;
	bool nested = *p == 'N';
	if (nested)
		p++;
	struct buf b = BUF_INIT;
	buf_addstr(&b, "");
	while (isdigit((unsigned char)*p)) {
		char *end;
		long n = strtol(p, &end, 10);
		if (n <= 0 || (size_t)n > strlen(end))
			break;
		buf_addf(&b, "%s%.*s", b.len ? "::" : "", (int)n, end);
		p = end + n;
		if (!nested)
			break;
	}
	return b.len ? buf_detach(&b) : (buf_free(&b), xstrdup(mangled));
}

static struct sass_kernel *
kernel_named(struct sass_listing *l, const char *mangled)
{
	for (int i = 0; i < l->nkernels; i++)
		if (!strcmp(l->kernels[i].mangled, mangled))
			return &l->kernels[i];
	l->kernels = xrealloc(l->kernels, sizeof(*l->kernels) * (size_t)(l->nkernels + 1));
	struct sass_kernel *k = &l->kernels[l->nkernels++];
	memset(k, 0, sizeof(*k));
	k->mangled = xstrdup(mangled);
	k->name = short_name(mangled);
	k->registers = k->barriers = -1;
	k->shared_bytes = k->stack_bytes = k->spill_stores = k->spill_loads = -1;
	return k;
}

static struct sass_line *
line_of(struct sass_kernel *k, int line)
{
	int i = 0;
	while (i < k->nlines && k->lines[i].line < line)
		i++;
	if (i < k->nlines && k->lines[i].line == line)
		return &k->lines[i];
	k->lines = xrealloc(k->lines, sizeof(*k->lines) * (size_t)(k->nlines + 1));
	memmove(&k->lines[i + 1], &k->lines[i], sizeof(*k->lines) * (size_t)(k->nlines - i));
	k->nlines++;
	memset(&k->lines[i], 0, sizeof(k->lines[i]));
	k->lines[i].line = line;
	return &k->lines[i];
}

static void
add_instruction(struct sass_instruction **v, int *n, unsigned address, const char *text, size_t length)
{
	*v = xrealloc(*v, sizeof(**v) * (size_t)(*n + 1));
	/* one space for a run of blanks: PTX lines up its operands with tabs */
	struct buf b = BUF_INIT;
	buf_addstr(&b, "");
	for (size_t i = 0; i < length; i++) {
		bool blank = text[i] == ' ' || text[i] == '\t';
		if (blank && (!b.len || b.data[b.len - 1] == ' '))
			continue;
		buf_add(&b, blank ? " " : &text[i], 1);
	}
	while (b.len && (b.data[b.len - 1] == ' ' || b.data[b.len - 1] == ';'))
		b.data[--b.len] = 0;
	(*v)[(*n)++] = (struct sass_instruction){ address, buf_detach(&b) };
}

/* ------------------------------------------------------------------ PTX */

#define MAX_PTX_FILES 64

static const char *
skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* `.file 3 "path"`: whether file 3 is the student's. */
static void
ptx_file(const char *p, const char *end, bool *mine, const char *const *paths)
{
	char *stop;
	long n = strtol(p, &stop, 10);
	const char *q = memchr(stop, '"', (size_t)(end - stop));
	const char *r = q ? memchr(q + 1, '"', (size_t)(end - q - 1)) : NULL;
	if (n < 0 || n >= MAX_PTX_FILES || !r)
		return;
	char *path = xasprintf("%.*s", (int)(r - q - 1), q + 1);
	mine[n] = lines_same_file(path, paths);
	free(path);
}

/* `.loc 2 440 9, function_name $L__info_string1, inlined_at 1 11 9`: the student's line, or 0. */
static int
ptx_loc(const char *p, const bool *mine)
{
	char *stop;
	long file = strtol(p, &stop, 10), line = strtol(stop, &stop, 10);
	if (file >= 0 && file < MAX_PTX_FILES && mine[file] && line > 0 && line < INT_MAX)
		return (int)line;
	const char *at = strstr(stop, "inlined_at");
	if (at) {
		file = strtol(at + 10, &stop, 10);
		line = strtol(stop, NULL, 10);
		if (file >= 0 && file < MAX_PTX_FILES && mine[file] && line > 0 && line < INT_MAX)
			return (int)line;
	}
	return 0;
}

void
sass_read_ptx(struct sass_listing *l, const char *ptx, const char *const *paths)
{
	bool mine[MAX_PTX_FILES] = { false };
	/* the file table comes last */
	for (const char *p = ptx; p && *p;) {
		const char *end = strchrnul(p, '\n'), *q = skip_blanks(p, end);
		if (end - q > 6 && !strncmp(q, ".file", 5) && (q[5] == ' ' || q[5] == '\t'))
			ptx_file(q + 5, end, mine, paths);
		p = *end ? end + 1 : NULL;
	}
	struct sass_kernel *k = NULL;
	int line = 0;
	for (const char *p = ptx; p && *p;) {
		const char *end = strchrnul(p, '\n'), *q = skip_blanks(p, end);
		const char *next = *end ? end + 1 : NULL;
		size_t n = (size_t)(end - q);
		const char *entry = n > 7 ? memmem(q, n, ".entry ", 7) : NULL;
		const char *func = n > 6 && *q == '.' ? memmem(q, n, ".func ", 6) : NULL;
		if (entry || func) {
			/* `.visible .entry NAME(` or `.func (.param …) NAME(`: the name ends at the last '(' */
			const char *open = memrchr(q, '(', n), *name = open;
			while (name && name > q && !isspace((unsigned char)name[-1]) && name[-1] != ')')
				name--;
			if (open && name < open) {
				char *mangled = xasprintf("%.*s", (int)(open - name), name);
				k = kernel_named(l, mangled);
				free(mangled);
				line = 0;
			}
		} else if (n > 5 && !strncmp(q, ".loc", 4) && (q[4] == ' ' || q[4] == '\t')) {
			line = ptx_loc(q + 4, mine);
		} else if (k && n > 1 && q[n - 1] == ';' && *q != '.' && strncmp(q, "//", 2) && *q != '{' && *q != '}') {
			struct sass_line *sl = line_of(k, line);
			add_instruction(&sl->ptx, &sl->nptx, 0, q, n);
		}
		p = next;
	}
}

/* ------------------------------------------------------------------ SASS */

/* `//## File "A", line 11 inlined at "B", line 26`: the student's line in this frame, or 0. */
static int
sass_frame(const char *p, const char *end, const char *const *paths)
{
	int found = 0;
	for (int pass = 0; pass < 2 && !found; pass++) {
		const char *file = memmem(p, (size_t)(end - p), "\"", 1);
		if (pass == 1) {
			const char *at = memmem(p, (size_t)(end - p), "inlined at", 10);
			file = at ? memmem(at, (size_t)(end - at), "\"", 1) : NULL;
		}
		const char *close = file ? memchr(file + 1, '"', (size_t)(end - file - 1)) : NULL;
		const char *num = close ? memmem(close, (size_t)(end - close), "line ", 5) : NULL;
		if (!num)
			continue;
		char *path = xasprintf("%.*s", (int)(close - file - 1), file + 1);
		long line = strtol(num + 5, NULL, 10);
		if (lines_same_file(path, paths) && line > 0 && line < INT_MAX)
			found = (int)line;
		free(path);
	}
	return found;
}

void
sass_read_nvdisasm(struct sass_listing *l, const char *text, const char *const *paths)
{
	struct sass_kernel *k = NULL;
	int line = 0, frame_line = 0;
	bool in_frames = false, framed = false;
	for (const char *p = text; p && *p;) {
		const char *end = strchrnul(p, '\n'), *q = skip_blanks(p, end);
		const char *next = *end ? end + 1 : NULL;
		size_t n = (size_t)(end - q);
		bool frame = n > 7 && !strncmp(q, "//## File", 9);
		if (frame) {
			/* a block of frames, innermost first: the first that names the student's file wins */
			if (!in_frames)
				frame_line = 0;
			if (!frame_line)
				frame_line = sass_frame(q, end, paths);
			framed = true;
		} else if (n > 7 && !strncmp(q, ".text.", 6) && q[n - 1] == ':') {
			char *mangled = xasprintf("%.*s", (int)(n - 7), q + 6);
			k = kernel_named(l, mangled);
			free(mangled);
			line = 0;
			framed = false;
		} else if (k && n > 2 && q[0] == '.' && q[1] == 'L' && q[n - 1] == ':') {
			/* a branch target: the next instruction's address is its own */
			k->labels = xrealloc(k->labels, sizeof(*k->labels) * (size_t)(k->nlabels + 1));
			k->labels[k->nlabels++] = (struct sass_label){ xstrndup(q, n - 1), UINT_MAX };
		} else if (k && n > 8 && !strncmp(q, "/*", 2)) {
			/* an instruction: its offset in a comment, then its text and a semicolon */
			char *stop;
			unsigned long address = strtoul(q + 2, &stop, 16);
			const char *body = stop[0] == '*' && stop[1] == '/' ? skip_blanks(stop + 2, end) : NULL;
			for (int i = k->nlabels - 1; i >= 0 && k->labels[i].address == UINT_MAX; i--)
				k->labels[i].address = (unsigned)address;
			if (framed)
				line = frame_line;
			framed = false;
			if (body && body < end && strncmp(body, "NOP", 3)) {
				struct sass_line *sl = line_of(k, line);
				add_instruction(&sl->sass, &sl->nsass, (unsigned)address, body, (size_t)(end - body));
			}
		}
		in_frames = frame;
		p = next;
	}
}

void
sass_read_ptxas(struct sass_listing *l, const char *text)
{
	struct sass_kernel *k = NULL;
	for (const char *p = text; p && *p;) {
		const char *end = strchrnul(p, '\n');
		char row[1024];
		snprintf(row, sizeof(row), "%.*s", (int)(end - p), p);
		p = *end ? end + 1 : NULL;
		const char *quote = strchr(row, '\'');
		const char *named = strstr(row, "Compiling entry function '") ? quote
				    : strstr(row, "Function properties for ") ? strstr(row, "for ") + 3 : NULL;
		if (named) {
			char name[512];
			if (sscanf(named + 1, "%511[^' \n]", name) == 1)
				k = kernel_named(l, name);
			continue;
		}
		if (!k)
			continue;
		const char *s;
		if ((s = strstr(row, "bytes stack frame")))
			sscanf(row, " %ld bytes stack frame, %ld bytes spill stores, %ld bytes spill loads", &k->stack_bytes,
			       &k->spill_stores, &k->spill_loads);
		if ((s = strstr(row, "Used ")))
			sscanf(s, "Used %d registers", &k->registers);
		if ((s = strstr(row, "used ")) && strstr(s, "barriers"))
			sscanf(s, "used %d barriers", &k->barriers);
		if ((s = strstr(row, "bytes smem"))) {
			while (s > row && s[-1] == ' ')
				s--;
			while (s > row && isdigit((unsigned char)s[-1]))
				s--;
			k->shared_bytes = strtol(s, NULL, 10);
		} else if (strstr(row, "Used ") && k->shared_bytes < 0) {
			k->shared_bytes = 0;
		}
	}
}

/* ------------------------------------------------------------------ building */

static char *
find_tool(const char *name, const char *env)
{
	const char *given = getenv(env);
	if (given && *given)
		return access(given, X_OK) == 0 ? xstrdup(given) : NULL;
	char *beside = toolchain_cuda_tool(name);
	if (beside)
		return beside;
	const char *path = getenv("PATH");
	for (const char *p = path; p && *p;) {
		const char *colon = strchrnul(p, ':');
		char *candidate = xasprintf("%.*s/%s", (int)(colon - p), p, name);
		if (colon > p && access(candidate, X_OK) == 0)
			return candidate;
		free(candidate);
		p = *colon ? colon + 1 : NULL;
	}
	return NULL;
}

#define NO_NVCC "the machine code needs the CUDA compiler, and nvcc is not on PATH (install the CUDA toolkit, " \
		"or export PATH=$PATH:/usr/local/cuda/bin, or set CUDALINGS_NVCC)"

/* Whether nvcc is there to run (CUDALINGS_NVCC may name a program that is not). */
static bool
nvcc_here(void)
{
	const char *nvcc = toolchain_nvcc();
	return nvcc && access(nvcc, X_OK) == 0;
}

/* The build folder: nvcc's kept intermediates lie flat in it. */
static int
first_line(const struct sass_kernel *k)
{
	for (int i = 0; i < k->nlines; i++)
		if (k->lines[i].line)
			return k->lines[i].line;
	return INT_MAX;
}

/* Kernels in the order the file defines them. */
static int
by_first_line(const void *a, const void *b)
{
	int x = first_line(a), y = first_line(b);
	return (x > y) - (x < y);
}

int
sass_build(struct sass_listing *l, const struct exercise *e, const char *path, const char *display, struct buf *err)
{
	const char *nvcc = toolchain_nvcc();
	if (!nvcc_here()) {
		buf_addstr(err, NO_NVCC);
		return EXIT_ENVIRONMENT;
	}
	free(l->file);
	l->file = xstrdup(display);
	free(l->text);
	l->text = read_file(path, NULL);
	char real[PATH_MAX];
	if (!l->text || !realpath(path, real)) {
		buf_addf(err, "cannot read '%s': %s", display, strerror(errno));
		return EXIT_FAIL;
	}
	char tmp[] = "/tmp/cudalings-sass-XXXXXX";
	if (!mkdtemp(tmp)) {
		buf_addf(err, "cannot make a folder in /tmp: %s", strerror(errno));
		return EXIT_ENVIRONMENT;
	}
	/* a plain name for nvcc, whatever the student called the file; what it includes beside it stays reachable */
	char *source = xasprintf("%s/source.cu", tmp), *cubin = xasprintf("%s/source.cubin", tmp);
	char *ptx = xasprintf("%s/source.ptx", tmp), *arch = xasprintf("-arch=%s", l->arch);
	char *folder = xstrdup(real), *slash = strrchr(folder, '/');
	*slash = 0;
	char *public = xasprintf("-I%s/" BUILD_DIR "/gen/public/%s", workbook_root(), e->name);
	char *beside = xasprintf("-I%s", *folder ? folder : "/");
	const char *const paths[] = { source, real, NULL };
	int status = symlink(real, source) ? EXIT_ENVIRONMENT : EXIT_PASS;
	struct buf out = BUF_INIT;
	if (status) {
		buf_addf(err, "cannot link '%s' into '%s': %s", display, tmp, strerror(errno));
	} else {
		char *argv[] = { (char *)nvcc, NVCC_FLAGS, arch, "-cubin", "-Xptxas", "-v", "--keep", "--keep-dir",
				 tmp, public, beside, "-o", cubin, source, NULL };
		if (!run_command(argv, tmp, TOOL_LIMIT_S, &out)) {
			/* nvcc's messages name the file as the student does */
			for (const char *p = out.len ? out.data : "nvcc failed"; *p;) {
				const char *at = strstr(p, source);
				size_t n = at ? (size_t)(at - p) : strlen(p);
				buf_add(err, p, n);
				if (at)
					buf_addstr(err, display);
				p += n + (at ? strlen(source) : 0);
			}
			status = EXIT_FAIL;
		}
	}
	if (!status) {
		sass_read_ptxas(l, out.data);
		char *text = read_file(ptx, NULL);
		if (text)
			sass_read_ptx(l, text, paths);
		free(text);
		char *nvdisasm = find_tool("nvdisasm", "CUDALINGS_NVDISASM");
		if (!nvdisasm) {
			l->no_sass = xstrdup("SASS needs nvdisasm, from the CUDA toolkit's binary utilities, beside nvcc or on "
					     "PATH (or CUDALINGS_NVDISASM)");
		} else {
			char *argv[] = { nvdisasm, "--print-line-info-inline", "--print-code", cubin, NULL };
			struct buf dis = BUF_INIT;
			if (run_command(argv, tmp, TOOL_LIMIT_S, &dis))
				sass_read_nvdisasm(l, dis.data, paths);
			else
				l->no_sass = xasprintf("nvdisasm failed: %.300s", dis.data);
			buf_free(&dis);
			free(nvdisasm);
		}
	}
	remove_dir(tmp);
	qsort(l->kernels, (size_t)l->nkernels, sizeof(*l->kernels), by_first_line);
	buf_free(&out);
	free(source), free(cubin), free(ptx), free(arch), free(folder), free(public), free(beside);
	return status;
}

int
sass_grade_begin(struct sass_listing *l, const char *arch, const char *who)
{
	struct buf err = BUF_INIT;
	int status = 0;
	if (sass_choose_arch(l, arch, &err)) {
		status = EXIT_USAGE;
		error("%s", err.data);
	} else if (!nvcc_here()) {
		status = EXIT_ENVIRONMENT;
		error("%s: %s", who, NO_NVCC);
	}
	buf_free(&err);
	return status;
}

int
sass_grade_end(struct sass_listing *l, const struct exercise *e, const char *path, const char *display,
	       const struct line_map *figures, cJSON *json, FILE *out, bool color, int width)
{
	struct buf err = BUF_INIT;
	int status = sass_build(l, e, path, display, &err);
	if (status && json) {
		cJSON *o = cJSON_AddObjectToObject(json, "machine_code");
		cJSON_AddStringToObject(o, "error", err.data);
	} else if (status) {
		fprintf(out, "machine code of %s: not built:\n%s\n", display, err.data);
	} else if (json) {
		cJSON_AddItemToObject(json, "machine_code", sass_json(l, figures));
	} else {
		sass_print_text(out, l, figures, color, width);
	}
	buf_free(&err);
	return status;
}

void
sass_release(struct sass_listing *l)
{
	for (int i = 0; i < l->nkernels; i++) {
		struct sass_kernel *k = &l->kernels[i];
		for (int j = 0; j < k->nlines; j++) {
			for (int n = 0; n < k->lines[j].nptx; n++)
				free(k->lines[j].ptx[n].text);
			for (int n = 0; n < k->lines[j].nsass; n++)
				free(k->lines[j].sass[n].text);
			free(k->lines[j].ptx);
			free(k->lines[j].sass);
		}
		free(k->lines);
		for (int j = 0; j < k->nlabels; j++)
			free(k->labels[j].name);
		free(k->labels);
		free(k->mangled);
		free(k->name);
	}
	free(l->kernels);
	free(l->arch_why);
	free(l->file);
	free(l->text);
	free(l->no_sass);
	free(l->no_figures);
	memset(l, 0, sizeof(*l));
}
