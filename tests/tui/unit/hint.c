#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tui/unit/helpers.h"
#include "tui/hint.h"
#include "lib/util.h"

static struct hint hints[] = {
	{ "compile", "compile 1" },
	{ "race", "race 1: a question" },
	{ "correctness", "correctness 1" },
	{ "race", "race 2: the idea" },
	{ "fail", "fail 1" },
	{ "correctness", "correctness 2" },
	{ "refused", "refused 1" },
	{ "out_of_bounds", "bounds 1" },
	{ "race", "race 3: the line" },
};

static struct item item = { .name = "col_sums", .kind = "exercise", .title = "Column sums",
			    .hints = hints, .nhints = ARRAY_SIZE(hints) };

static struct grade_diag diags[2];

static struct result
failing(const char *stage, int ndiags)
{
	return (struct result){ .verdict = "fail", .stage = (char *)stage, .diags = diags, .ndiags = ndiags };
}

/* The texts of the hints hint_list gives, joined by "|". */
static const char *
order(const struct result *r, const char **key)
{
	static char buf[1024];
	const struct hint **h;
	int n = hint_list(&item, r, &h, key);

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? "|" : "", h[i]->text);
	free(h);
	return buf;
}

Test(hint, a_diagnosis_first_in_the_workbooks_order_then_the_stage_then_any_failure, .timeout = 10)
{
	struct result r;
	const char *key;

	diags[0] = (struct grade_diag){ "race", "threads 0 and 32" };
	r = failing("correctness", 1);
	cr_assert_str_eq(order(&r, &key), "race 1: a question|race 2: the idea|race 3: the line|"
			 "correctness 1|correctness 2|fail 1");
	/* the hints seen are counted for the diagnosis: a new one starts from its first */
	cr_assert_str_eq(key, "race");
	diags[0] = (struct grade_diag){ "out_of_bounds", "sums[1000]" };
	diags[1] = (struct grade_diag){ "race", "threads 0 and 32" };
	r = failing("run", 2);
	cr_assert_str_eq(order(&r, &key), "bounds 1|race 1: a question|race 2: the idea|race 3: the line|fail 1");
	cr_assert_str_eq(key, "out_of_bounds");
}

Test(hint, without_a_diagnosis_the_stage_counts, .timeout = 10)
{
	struct result r = failing("compile", 0);
	const char *key;

	cr_assert_str_eq(order(&r, &key), "compile 1|fail 1");
	cr_assert_str_eq(key, "compile");
	/* a diagnosis with no hints of its own leaves the count to the stage */
	diags[0] = (struct grade_diag){ "uncoalesced", "32 sectors" };
	r = failing("correctness", 1);
	cr_assert_str_eq(order(&r, &key), "correctness 1|correctness 2|fail 1");
	cr_assert_str_eq(key, "correctness");
}

Test(hint, a_refused_call_gets_no_hints_of_its_stage, .timeout = 10)
{
	struct result r;
	const char *key;

	diags[0] = (struct grade_diag){ "refused", "calls 'fopen'" };
	r = failing("compile", 1);
	cr_assert_str_eq(order(&r, &key), "refused 1|fail 1");
	cr_assert_str_eq(key, "refused");
}

Test(hint, before_any_grading_the_hints_for_writing_it, .timeout = 10)
{
	struct result pass = { .verdict = "pass", .stage = "", .pass = true };
	const char *key;

	cr_assert_str_eq(order(NULL, &key), "correctness 1|correctness 2|fail 1");
	cr_assert_str_eq(key, "correctness");
	cr_assert_str_eq(order(&pass, &key), "");
}

/* The runs of text as "plain[code]plain". */
static const char *
marked(const char *text)
{
	static char buf[2048];
	struct doc_span *runs;
	int n = hint_runs(text, &runs);

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), runs[i].style == S_CODE ? "[%s]" : "%s",
			 runs[i].text);
	spans_free(runs, n);
	return buf;
}

Test(hint, bare_formulas_are_code, .timeout = 10)
{
	cr_assert_str_eq(marked("Element (r, c) is a[r * cols + c]: the row index times the columns."),
			 "Element (r, c) is [a[r * cols + c]]: the row index times the columns.");
	cr_assert_str_eq(marked("The last column is cols - 1."), "The last column is [cols - 1].");
	cr_assert_str_eq(marked("Test row < rows && col < cols before reading."),
			 "Test [row < rows && col < cols] before reading.");
	cr_assert_str_eq(marked("out[(bx*32 + ty) * rows + by*32 + tx] = tile[tx][ty] on the way out"),
			 "[out[(bx*32 + ty) * rows + by*32 + tx] = tile[tx][ty]] on the way out");
	cr_assert_str_eq(marked("(cols + block.x - 1) / block.x blocks across"),
			 "[(cols + block.x - 1) / block.x] blocks across");
	cr_assert_str_eq(marked("wait with __syncthreads()."), "wait with [__syncthreads()].");
	cr_assert_str_eq(marked("*sum arrives filled with NaN"), "[*sum] arrives filled with NaN");
	cr_assert_str_eq(marked("zero it with cudaMemsetAsync(sum, 0, sizeof(float)) first"),
			 "zero it with [cudaMemsetAsync(sum, 0, sizeof(float))] first");
	cr_assert_str_eq(marked("Declare the tile [32][33]: the spare float"), "Declare the tile [[32][33]]: the spare float");
	cr_assert_str_eq(marked("threadIdx.x walks along a row"), "[threadIdx.x] walks along a row");
	cr_assert_str_eq(marked("Threads past the end (i >= n) add 0"), "Threads past the end [(i >= n)] add 0");
	cr_assert_str_eq(marked("for (i, i + gridDim.x * 256, …)"), "for (i, [i + gridDim.x * 256], …)");
	cr_assert_str_eq(marked("or elements past 0..n-1 are lost"), "or elements past [0..n-1] are lost");
}

Test(hint, prose_stays_prose, .timeout = 10)
{
	const char *prose[] = {
		"with < and not <=.",
		"a half-loaded tile, read/write, 1-2 hints, 55% of a copy",
		"the halo (3 on each side), e.g. a block of 256, i.e. 8 warps",
		"in 2.5 s at 3000 GB/s: 32 sectors (4 is ideal)",
		"x * y",	/* the prose test is the words: single letters are names */
		"what C++ adds; the tile's rows",
		"*emphasis* is not Markdown here",
	};
	const char *as[] = {
		"with < and not <=.",
		"a half-loaded tile, read/write, 1-2 hints, 55% of a copy",
		"the halo (3 on each side), e.g. a block of 256, i.e. 8 warps",
		"in 2.5 s at 3000 GB/s: 32 sectors (4 is ideal)",
		"[x * y]",
		"what C++ adds; the tile's rows",
		"[*emphasis]* is not Markdown here",
	};

	for (size_t i = 0; i < ARRAY_SIZE(prose); i++)
		cr_assert_str_eq(marked(prose[i]), as[i], "%s", prose[i]);
}

Test(hint, code_spans_lose_their_backticks, .timeout = 10)
{
	cr_assert_str_eq(marked("The guard is `if (col < cols)`; `col <= cols` lets one thread write sums[cols]."),
			 "The guard is [if (col < cols)]; [col <= cols] lets one thread write [sums[cols]].");
	/* an unclosed backtick is a backtick */
	cr_assert_str_eq(marked("a ` alone"), "a ` alone");
}

/*
 * Every hint the workbook ships: no character lost, every * kept, and each of
 * these formulas, where a hint has it, one piece of code (the lessons' hints
 * change: a formula no hint has any more is not looked for).
 */
Test(hint, the_workbooks_own_hints, .timeout = 10)
{
	char *json = read_file("workbook.json", NULL);
	cJSON *root = cJSON_Parse(json), *item, *h;
	const char *whole[] = {
		"a[r * cols + col]", "row < rows && col < cols", "(cols + block.x - 1) / block.x",
		"col = blockIdx.x * blockDim.x + threadIdx.x", "tile[tx][ty]", "tile[t + 6]",
		"a[row * k + i]", "b[i * n + col]", "(n + 15) / 16", "*sum", "i + gridDim.x * 256",
		"out[(bx*32 + ty) * rows + by*32 + tx] = tile[tx][ty]",
	};
	bool found[ARRAY_SIZE(whole)] = { false }, present[ARRAY_SIZE(whole)] = { false };
	int checked = 0;

	cr_assert_not_null(root);
	cJSON_ArrayForEach(item, cJSON_GetObjectItem(root, "items"))
	cJSON_ArrayForEach(h, cJSON_GetObjectItem(item, "hints")) {
		const char *text = cJSON_GetStringValue(cJSON_GetObjectItem(h, "text"));
		struct doc_span *runs;
		int n = hint_runs(text, &runs);
		struct buf shown = BUF_INIT, want = BUF_INIT;

		for (const char *p = text; *p; p++)
			if (*p != '`')
				buf_add(&want, p, 1);
		for (size_t k = 0; k < ARRAY_SIZE(whole); k++)
			present[k] |= strstr(text, whole[k]) != NULL;
		for (int i = 0; i < n; i++) {
			buf_addstr(&shown, runs[i].text);
			for (size_t k = 0; k < ARRAY_SIZE(whole); k++)
				found[k] |= runs[i].style == S_CODE && strstr(runs[i].text, whole[k]);
		}
		cr_assert_str_eq(shown.data, want.data, "%s", text);
		buf_free(&shown);
		buf_free(&want);
		spans_free(runs, n);
		checked++;
	}
	cr_assert_gt(checked, 20);
	for (size_t k = 0; k < ARRAY_SIZE(whole); k++)
		cr_assert(found[k] || !present[k], "'%s' is in a hint but not as one piece of code", whole[k]);
	cJSON_Delete(root);
	free(json);
}
