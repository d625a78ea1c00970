/*
 * unseen.c — on the simulator, machine code of a submission that g++'s
 * instrumentation did not make, whose memory accesses the simulator's
 * checks and counts would never see: inline assembly (a load written as
 * `movss`, a function or bytes of code placed by a file-scope `asm`) and the
 * target's builtins (`__builtin_ia32_*`: the intrinsics of <immintrin.h>, a
 * masked or gathered load, a non-temporal store, which the compiler expands
 * after the instrumentation has run). Read from what the compile itself
 * wrote, never from the source, so no macro, pasted name, `_Pragma` or
 * included header hides them: the assembler's listing (g++ marks every asm
 * statement's text with a line "#APP"), g++'s last GIMPLE dump (every
 * call the compiled functions make) and the object's sections (bytes of a
 * variable placed among the instructions, called as code).
 */
#include "grader/compile/unseen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/root.h"
#include "lib/file.h"
#include "lib/run.h"
#include "lib/util.h"
#include "lib/xalloc.h"

/* The target's builtins that touch no memory and that system headers use in code a submission may call. */
static bool
harmless_builtin(const char *name, size_t n)
{
	static const char *const names[] = { "__builtin_ia32_pause", "__builtin_ia32_lfence", "__builtin_ia32_mfence",
					     "__builtin_ia32_sfence", "__builtin_aarch64_isb" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && !strncmp(name, names[i], n))
			return true;
	return false;
}

/* The source line g++ names after an asm statement's "#APP" ("# 12 "file.cu" 1"), or 0. */
static long
asm_line(const char *after)
{
	const char *hash = after ? strchr(after, '#') : NULL;
	return hash && isdigit((unsigned char)hash[2]) && hash[1] == ' ' ? strtol(hash + 2, NULL, 10) : 0;
}

/* Inline assembly: a line "#APP" in the listing, which g++ writes before every asm statement's text. */
static int
check_listing(const struct student_build *s, struct buf *why, int problems)
{
	char *path = xasprintf("%s/%s%s", workbook_root(), s->object, SUBMISSION_LISTING);
	char *text = read_file(path, NULL);
	free(path);
	if (!text) {
		buf_addf(why, "%sthe assembler's listing of the compile is missing: the simulator cannot tell whether "
			 "the file holds inline assembly", problems++ ? "\n" : "");
		return problems;
	}
	for (char *line = text; line && *line;) {
		char *next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		/* "  12              	#APP": the listing's line number, no bytes, the assembly line */
		char *tab = strchr(line, '\t');
		if (tab && !strcmp(tab + 1, "#APP")) {
			long at = asm_line(next);
			if (at > 0)
				buf_addf(why, "%suses inline assembly (an asm statement, at line %ld): on the simulator "
					 "its loads and stores would pass unseen by the checks of every access and by the "
					 "figures that judge your memory accesses; a CUDA kernel needs none (nvcc's "
					 "inline PTX cannot run here either)", problems++ ? "\n" : "", at);
			else
				buf_addf(why, "%suses inline assembly (an asm statement): on the simulator its loads and "
					 "stores would pass unseen by the checks of every access and by the figures that "
					 "judge your memory accesses; a CUDA kernel needs none", problems++ ? "\n" : "");
			break;
		}
		line = next;
	}
	free(text);
	return problems;
}

/* The target's builtins, called by the compiled functions (intrinsics inlined): g++'s last GIMPLE dump. */
static int
check_dump(const struct student_build *s, struct buf *why, int problems)
{
	char *path = xasprintf("%s/%s%s", workbook_root(), s->object, SUBMISSION_DUMP);
	char *text = read_file(path, NULL);
	free(path);
	if (!text) {
		buf_addf(why, "%sthe compiler's dump of the compiled code is missing: the simulator cannot tell "
			 "whether the file calls the target's builtins", problems++ ? "\n" : "");
		return problems;
	}
	static const char *const prefixes[] = { "__builtin_ia32_", "__builtin_aarch64_" };
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
		for (const char *p = strstr(text, prefixes[i]); p; p = strstr(p + 1, prefixes[i])) {
			if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
				continue;
			size_t n = 0;
			while (isalnum((unsigned char)p[n]) || p[n] == '_')
				n++;
			if (harmless_builtin(p, n))
				continue;
			buf_addf(why, "%scalls the processor's builtin '%.*s' (an x86 intrinsic, from <immintrin.h> or "
				 "its kind): what such builtins read or write passes unseen by the simulator's checks "
				 "and figures; a CUDA kernel has no x86 intrinsics", problems++ ? "\n" : "", (int)n, p);
			free(text);
			return problems;
		}
	}
	free(text);
	return problems;
}

/*
 * Bytes placed among the instructions as data (`__attribute__((section(".text"))) const unsigned char
 * code[] = { … }`, called through a cast pointer): machine code no compiler made, so no instrumentation.
 * readelf names every section's flags and every symbol's type and section: a variable's symbol in a
 * section that holds instructions is refused.
 */
static int
check_code_sections(const struct student_build *s, struct buf *why, int problems)
{
	struct buf out = BUF_INIT;
	char *object = xasprintf("%s/%s", workbook_root(), s->object);
	char *argv[] = { "readelf", "-W", "-S", "-s", object, NULL };
	if (!run_command(argv, workbook_root(), 60, &out)) {
		buf_addf(why, "%scannot read the sections of the compiled file (is binutils installed?)",
			 problems++ ? "\n" : "");
		free(object);
		buf_free(&out);
		return problems;
	}
	free(object);
	/* the sections that hold code, by index (a file may have many: every inline function's own) */
	bool *code = NULL;
	size_t ncode = 0;
	for (char *line = strtok(out.data, "\n"); line; line = strtok(NULL, "\n")) {
		int index;
		char name[256], type[32], flags[16] = "";
		/* "  [ 2] .text  PROGBITS  0000000000000000 00004c 0000ab 00  AX  0   0  1" */
		if (sscanf(line, " [%d] %255s %31s %*s %*s %*s %*s %15s", &index, name, type, flags) == 4) {
			if (index >= 0 && index < 1 << 24 && strchr(flags, 'X') && isupper((unsigned char)flags[0])) {
				if ((size_t)index >= ncode) {
					size_t n = (size_t)index * 2 + 64;
					code = xrealloc(code, n * sizeof(*code));
					memset(code + ncode, 0, (n - ncode) * sizeof(*code));
					ncode = n;
				}
				code[index] = true;
			}
			continue;
		}
		/* "     3: 0000000000000098     5 OBJECT  LOCAL  DEFAULT    2 _ZL4code" */
		char kind[32], bind[32], vis[32], ndx[32];
		unsigned long long size;
		if (sscanf(line, " %*d: %*s %llu %31s %31s %31s %31s %255s", &size, kind, bind, vis, ndx, name) != 6 ||
		    !isdigit((unsigned char)ndx[0]))
			continue;
		index = atoi(ndx);
		bool data = !strcmp(kind, "OBJECT") || !strcmp(kind, "TLS") || !strcmp(kind, "COMMON") ||
			    (!strcmp(kind, "NOTYPE") && size > 0);
		if (data && index > 0 && (size_t)index < ncode && code[index]) {
			buf_addf(why, "%sputs the variable '%s' among its instructions (a section that holds code): "
				 "bytes run as machine code that no compiler made, whose loads and stores would pass "
				 "unseen by the simulator's checks and figures", problems++ ? "\n" : "", name);
			break;
		}
	}
	free(code);
	buf_free(&out);
	return problems;
}

int
unseen_check(const struct student_build *s, struct buf *why)
{
	if (s->backend != BACKEND_SIM)
		return 0;
	int problems = check_listing(s, why, 0);
	problems = check_dump(s, why, problems);
	problems = check_code_sections(s, why, problems);
	return problems ? -1 : 0;
}
