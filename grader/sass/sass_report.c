/*
 * The machine code shown (grader/sass/sass.h): what each instruction is (a load,
 * a store, a shared access, a barrier…, and its width), the listing as
 * text under the source lines with the heat map beside, and as JSON. Building
 * it and reading nvcc's and nvdisasm's output is sass.c's.
 */
#include "grader/sass/sass.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "lib/color.h"
#include "lib/util.h"

/* ------------------------------------------------------------------ what an instruction is */

enum sass_class { C_OTHER, C_GLOBAL_LOAD, C_GLOBAL_STORE, C_SHARED_LOAD, C_SHARED_STORE, C_LOCAL_LOAD, C_LOCAL_STORE,
		  C_SHUFFLE, C_BARRIER, C_ATOMIC, C_FMA, C_CLASSES };

/* The opcode of a SASS instruction (its predicate skipped), into op; its width in bits when it says one. */
static enum sass_class
classify(const char *text, int *bits)
{
	const char *p = text;
	if (*p == '@')
		while (*p && *p != ' ')
			p++;
	while (*p == ' ')
		p++;
	char op[48];
	size_t k = 0;
	while (p[k] && p[k] != ' ' && k + 1 < sizeof(op)) {
		op[k] = p[k];
		k++;
	}
	op[k] = 0;
	*bits = strstr(op, ".128") ? 128 : strstr(op, ".64") ? 64 : 0;
	static const struct { const char *prefix; enum sass_class c; } table[] = {
		{ "LDGSTS", C_GLOBAL_LOAD }, { "LDGDEPBAR", C_OTHER }, { "LDG", C_GLOBAL_LOAD }, { "STG", C_GLOBAL_STORE },
		{ "LDSM", C_SHARED_LOAD }, { "LDS", C_SHARED_LOAD }, { "STS", C_SHARED_STORE },
		{ "LDL", C_LOCAL_LOAD }, { "STL", C_LOCAL_STORE }, { "SHFL", C_SHUFFLE }, { "BAR", C_BARRIER },
		{ "RED", C_ATOMIC }, { "ATOM", C_ATOMIC }, { "FFMA", C_FMA },
	};
	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		size_t n = strlen(table[i].prefix);
		if (!strncmp(op, table[i].prefix, n) && (!op[n] || op[n] == '.'))
			return table[i].c;
	}
	return C_OTHER;
}

/* What a lesson would call it, or NULL. */
static char *
note_of(const char *text)
{
	int bits;
	enum sass_class c = classify(text, &bits);
	const char *width = bits == 128 ? ", 128-bit" : bits == 64 ? ", 64-bit" : "";
	switch (c) {
	case C_GLOBAL_LOAD: return xasprintf("global load%s", width);
	case C_GLOBAL_STORE: return xasprintf("global store%s", width);
	case C_SHARED_LOAD: return xasprintf("shared load%s", width);
	case C_SHARED_STORE: return xasprintf("shared store%s", width);
	case C_LOCAL_LOAD: return xstrdup("local memory load");
	case C_LOCAL_STORE: return xstrdup("local memory store");
	case C_SHUFFLE: return xstrdup("warp shuffle");
	case C_BARRIER: return xstrdup("barrier");
	case C_ATOMIC: return xstrdup("atomic");
	default: return NULL;
	}
}

/* ------------------------------------------------------------------ showing it */


/* `text` cut to `width` columns (tabs as four spaces; a cut ends in …), as a new string. */
static char *
fit(const char *text, int width)
{
	struct buf b = BUF_INIT;
	int cols = 0;
	buf_addstr(&b, "");
	for (const char *p = text ? text : ""; *p; p++) {
		int w = *p == '\t' ? 4 : ((unsigned char)*p & 0xc0) == 0x80 ? 0 : 1;
		if (cols + w > width - 1 && p[1]) {
			buf_addstr(&b, "…");
			break;
		}
		if (*p == '\t')
			buf_addstr(&b, "    ");
		else
			buf_add(&b, p, 1);
		cols += w;
	}
	return buf_detach(&b);
}

/* `text` after `prefix` (`more` on the lines after the first), wrapped at spaces to `width` columns. */
static void
print_wrapped(FILE *out, int width, const char *prefix, const char *more, const char *text, const char *style,
	      bool color)
{
	const char *p = text;
	for (const char *lead = prefix; *p; lead = more) {
		int room = width - (int)strlen(lead), n = (int)strlen(p);
		if (n > room) {
			n = room;
			while (n > room / 2 && p[n] != ' ')
				n--;
		}
		fprintf(out, "%s%s%.*s%s\n", lead, paint(color, style), n, p, paint(color, COLOR_RESET));
		p += n;
		while (*p == ' ')
			p++;
	}
}

static void
print_counts(FILE *out, int width, const struct sass_kernel *k)
{
	int count[C_CLASSES] = { 0 }, vector = 0, total = 0;
	for (int i = 0; i < k->nlines; i++)
		for (int j = 0; j < k->lines[i].nsass; j++) {
			int bits;
			enum sass_class c = classify(k->lines[i].sass[j].text, &bits);
			count[c]++;
			total++;
			vector += bits == 128 && (c == C_GLOBAL_LOAD || c == C_GLOBAL_STORE);
		}
	struct buf b = BUF_INIT;
	buf_addstr(&b, "");
	if (k->registers >= 0)
		buf_addf(&b, "%d registers", k->registers);
	if (k->shared_bytes > 0)
		buf_addf(&b, "%s%ld bytes of shared memory", b.len ? ", " : "", k->shared_bytes);
	if (k->spill_stores > 0 || k->spill_loads > 0)
		buf_addf(&b, "%s%ld bytes spilled, %ld read back", b.len ? ", " : "", k->spill_stores, k->spill_loads);
	else if (k->spill_stores == 0)
		buf_addf(&b, "%sno spills", b.len ? ", " : "");
	if (total) {
		buf_addf(&b, "%s%d SASS instructions", b.len ? "; " : "", total);
		static const struct { enum sass_class c; const char *what; } kinds[] = {
			{ C_GLOBAL_LOAD, "global loads" }, { C_GLOBAL_STORE, "global stores" },
			{ C_SHARED_LOAD, "shared loads" }, { C_SHARED_STORE, "shared stores" }, { C_SHUFFLE, "shuffles" },
			{ C_BARRIER, "barriers" }, { C_ATOMIC, "atomics" }, { C_LOCAL_LOAD, "local memory loads" },
			{ C_LOCAL_STORE, "local memory stores" }, { C_FMA, "FFMA" },
		};
		for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
			if (count[kinds[i].c])
				buf_addf(&b, ", %s %d", kinds[i].what, count[kinds[i].c]);
		if (vector)
			buf_addf(&b, " (%d of the global ones 128-bit)", vector);
	}
	print_wrapped(out, width, "  ", "  ", b.data, COLOR_DIM, false);
	buf_free(&b);
}

void
sass_print_text(FILE *out, const struct sass_listing *l, const struct line_map *figures, bool color, int width)
{
	/* a source line's text, a PTX instruction's and a SASS one's (or its room beside its note) */
	width = width < SASS_MIN_WIDTH ? SASS_MIN_WIDTH : width;
	int source_room = width - 11, ptx_room = width - 18, sass_room = width - 22;
	char *title = xasprintf("machine code of %s for %s (%s)", l->file, l->arch, l->arch_why ? l->arch_why : "");
	print_wrapped(out, width, "", "  ", title, COLOR_BOLD, color);
	free(title);
	print_wrapped(out, width, "  ", "  ", "nvcc -O3 -lineinfo; PTX from nvcc, SASS from nvdisasm; each under its line",
		      "", false);
	if (l->no_sass)
		print_wrapped(out, width, "  ", "  ", l->no_sass, COLOR_RED, color);
	if (l->no_figures)
		print_wrapped(out, width, "  ", "  ", l->no_figures, COLOR_DIM, color);
	if (!l->nkernels)
		fprintf(out, "  the file defines no kernel\n");
	for (int i = 0; i < l->nkernels; i++) {
		const struct sass_kernel *k = &l->kernels[i];
		fprintf(out, "\n%skernel %s%s\n", paint(color, COLOR_BOLD), k->name, paint(color, COLOR_RESET));
		print_counts(out, width, k);
		for (int j = 0; j < k->nlines; j++) {
			const struct sass_line *sl = &k->lines[j];
			const struct line_figures *f = figures && sl->line ? lines_find(figures, l->file, sl->line) : NULL;
			char *source = sl->line ? lines_text_line(l->text, sl->line) : NULL;
			char *shown = fit(sl->line ? source : "(no line of your file: the kernel's start, or a header)",
					    source_room);
			if (sl->line)
				fprintf(out, "%s%2s %5d | %s%s\n", f && f->hot ? paint(color, COLOR_RED COLOR_BOLD) : "", f && f->hot ? "!!" : "",
					sl->line, shown, f && f->hot ? paint(color, COLOR_RESET) : "");
			else
				fprintf(out, "         | %s%s%s\n", paint(color, COLOR_DIM), shown, paint(color, COLOR_RESET));
			free(shown);
			free(source);
			if (f) {
				char *summary = lines_summary(f, figures);
				print_wrapped(out, width, "         | heat  ", "         |       ", summary, f->hot ? COLOR_RED : COLOR_DIM,
					      color);
				free(summary);
			}
			for (int n = 0; n < sl->nptx; n++) {
				char *t = fit(sl->ptx[n].text, ptx_room);
				fprintf(out, "         | %sptx%s   %s\n", paint(color, COLOR_DIM), paint(color, COLOR_RESET), t);
				free(t);
			}
			for (int n = 0; n < sl->nsass; n++) {
				/* the notes in a column where the instruction leaves room */
				char *note = note_of(sl->sass[n].text);
				int room = note ? sass_room - 1 - (int)strlen(note) : sass_room;
				char *t = fit(sl->sass[n].text, room);
				int pad = !note ? 0 : room < 36 ? room : 36;
				fprintf(out, "         | sass %04x  %-*s%s%s%s%s\n", sl->sass[n].address, pad, t, note ? " " : "",
					paint(color, COLOR_CYAN), note ? note : "", paint(color, COLOR_RESET));
				free(t);
				free(note);
			}
		}
	}
}

static cJSON *
instructions_json(const struct sass_instruction *v, int n, bool sass)
{
	cJSON *list = cJSON_CreateArray();
	for (int i = 0; i < n; i++) {
		if (!sass) {
			cJSON_AddItemToArray(list, cJSON_CreateString(v[i].text));
			continue;
		}
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "address", v[i].address);
		cJSON_AddStringToObject(o, "text", v[i].text);
		char *note = note_of(v[i].text);
		if (note)
			cJSON_AddStringToObject(o, "note", note);
		else
			cJSON_AddNullToObject(o, "note");
		free(note);
		cJSON_AddItemToArray(list, o);
	}
	return list;
}

static void
add_count(cJSON *o, const char *name, long value)
{
	if (value >= 0)
		cJSON_AddNumberToObject(o, name, (double)value);
	else
		cJSON_AddNullToObject(o, name);
}

cJSON *
sass_json(const struct sass_listing *l, const struct line_map *figures)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "file", l->file ? l->file : "");
	cJSON_AddStringToObject(o, "arch", l->arch);
	cJSON_AddStringToObject(o, "arch_why", l->arch_why ? l->arch_why : "");
	if (l->no_sass)
		cJSON_AddStringToObject(o, "no_sass", l->no_sass);
	else
		cJSON_AddNullToObject(o, "no_sass");
	cJSON *kernels = cJSON_AddArrayToObject(o, "kernels");
	for (int i = 0; i < l->nkernels; i++) {
		const struct sass_kernel *k = &l->kernels[i];
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "name", k->name);
		cJSON_AddStringToObject(j, "mangled", k->mangled);
		add_count(j, "registers", k->registers);
		add_count(j, "shared_bytes", k->shared_bytes);
		add_count(j, "spill_stores", k->spill_stores);
		add_count(j, "spill_loads", k->spill_loads);
		cJSON *lines = cJSON_AddArrayToObject(j, "lines");
		for (int n = 0; n < k->nlines; n++) {
			const struct sass_line *sl = &k->lines[n];
			cJSON *x = cJSON_CreateObject();
			if (sl->line) {
				cJSON_AddNumberToObject(x, "line", sl->line);
				char *source = lines_text_line(l->text, sl->line);
				if (source)
					cJSON_AddStringToObject(x, "source", source);
				else
					cJSON_AddNullToObject(x, "source");
				free(source);
			} else {
				cJSON_AddNullToObject(x, "line");
				cJSON_AddNullToObject(x, "source");
			}
			const struct line_figures *f = figures && sl->line ? lines_find(figures, l->file, sl->line) : NULL;
			if (f) {
				char *summary = lines_summary(f, figures);
				cJSON_AddStringToObject(x, "figures", summary);
				free(summary);
			} else {
				cJSON_AddNullToObject(x, "figures");
			}
			cJSON_AddBoolToObject(x, "hot", f && f->hot);
			cJSON_AddItemToObject(x, "ptx", instructions_json(sl->ptx, sl->nptx, false));
			cJSON_AddItemToObject(x, "sass", instructions_json(sl->sass, sl->nsass, true));
			cJSON_AddItemToArray(lines, x);
		}
		cJSON_AddItemToArray(kernels, j);
	}
	return o;
}
