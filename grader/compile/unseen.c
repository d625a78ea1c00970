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
 * statement's text with a line "#APP") and g++'s last GIMPLE dump (every
 * call the compiled functions make).
 */
#include "grader/compile/unseen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/root.h"
#include "lib/file.h"
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

int
unseen_check(const struct student_build *s, struct buf *why)
{
	if (s->backend != BACKEND_SIM)
		return 0;
	int problems = check_listing(s, why, 0);
	problems = check_dump(s, why, problems);
	return problems ? -1 : 0;
}
