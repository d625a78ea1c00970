/* Options as data (grader/cmd/options.c): reading them with getopt_long, their messages, their usage text. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "grader/cmd/options.h"

static const struct option_spec specs[] = {
	OPT_VALUE("file", "PATH", "the file"),
	OPT_SWITCH("json", "as JSON"),
	OPT_REQUIRED("out", "OUT", "where"),
	OPTIONS_END,
};

static int
parse(struct parsed_args *a, int argc, char **argv)
{
	error_set_print(false);
	return options_parse("grade", specs, argc, argv, a);
}

Test(options, options_anywhere_operands_in_order)
{
	char *argv[] = { "grade", "col_sums", "--file", "x.cu", "--out=o", "extra", "--json", NULL };
	struct parsed_args a;
	cr_assert_eq(parse(&a, 7, argv), 0);
	cr_assert_str_eq(options_value(&a, "file"), "x.cu");
	cr_assert_str_eq(options_value(&a, "out"), "o");
	cr_assert(options_given(&a, "json"));
	cr_assert_null(options_value(&a, "json"));
	cr_assert_eq(a.noperands, 2);
	cr_assert_str_eq(a.operands[0], "col_sums");
	cr_assert_str_eq(a.operands[1], "extra");
}

Test(options, after_a_double_dash_everything_is_an_operand)
{
	char *argv[] = { "grade", "--out", "o", "--", "--json", NULL };
	struct parsed_args a;
	cr_assert_eq(parse(&a, 5, argv), 0);
	cr_assert_not(options_given(&a, "json"));
	cr_assert_eq(a.noperands, 1);
	cr_assert_str_eq(a.operands[0], "--json");
}

Test(options, each_mistake_names_the_option)
{
	struct parsed_args a;
	char *missing[] = { "grade", "--out", "o", "col_sums", "--file", NULL };
	cr_assert_eq(parse(&a, 5, missing), -1);
	cr_assert_str_eq(last_error(), "grade: '--file' needs a value (cudalings help grade)");
	char *unknown[] = { "grade", "--out", "o", "col_sums", "--fast", NULL };
	cr_assert_eq(parse(&a, 5, unknown), -1);
	cr_assert_str_eq(last_error(), "grade: unknown option '--fast' (cudalings help grade)");
	char *valued[] = { "grade", "--json=yes", "--out", "o", NULL };
	cr_assert_eq(parse(&a, 4, valued), -1);
	cr_assert_str_eq(last_error(), "grade: '--json' takes no value (cudalings help grade)");
	char *letter[] = { "grade", "--out", "o", "-q", NULL };
	cr_assert_eq(parse(&a, 4, letter), -1);
	cr_assert_str_eq(last_error(), "grade: unknown option '-q' (cudalings help grade)");
	char *without[] = { "grade", "col_sums", NULL };
	cr_assert_eq(parse(&a, 2, without), -1);
	cr_assert_str_eq(last_error(), "grade: '--out OUT' is needed (cudalings help grade)");
}

Test(options, help_is_asked_for_by_name)
{
	struct parsed_args a;
	char *argv[] = { "grade", "col_sums", "--help", NULL };
	cr_assert_eq(parse(&a, 3, argv), 1);
}

Test(options, the_usage_is_made_from_the_table)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	options_synopsis(out, specs, 4, 30);
	fputc('|', out);
	options_describe(out, specs);
	fclose(out);
	cr_assert_str_eq(text, " [--file PATH] [--json]\n     --out OUT|"
			       "  --file PATH        the file\n"
			       "  --json             as JSON\n"
			       "  --out OUT          where\n");
	free(text);
}
