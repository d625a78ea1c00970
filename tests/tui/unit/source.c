#include <criterion/criterion.h>
#include <string.h>

#include "tests/tui/unit/helpers.h"
#include "tui/source.h"
#include "lib/util.h"

static const char solution[] =
	"__global__ void k(float *out, int n)\n"
	"{\n"
	"    // BEGIN SOLUTION: one thread per element\n"
	"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"    // STARTER\n"
	"    // int i = 0;\n"
	"    // END SOLUTION\n"
	"    if (i < n)\n"
	"        // BEGIN SOLUTION\n"
	"        out[i] = 2 * i;\n"
	"        // END SOLUTION\n"
	"}\n";

Test(source, a_solution_reads_as_the_student_would_write_it, .timeout = 10)
{
	struct doc d;
	int answers, i;

	doc_init(&d, false);
	answers = source_solution(&d, solution, 70);
	cr_assert_eq(answers, 2);
	cr_assert_eq(d.n, 7);
	for (i = 0; i < d.n; i++) {
		cr_assert_null(strstr(line_text(&d, i), "SOLUTION"), "%s", line_text(&d, i));
		cr_assert_null(strstr(line_text(&d, i), "STARTER"), "%s", line_text(&d, i));
		cr_assert_null(strstr(line_text(&d, i), "int i = 0"), "the starter's line: %s", line_text(&d, i));
	}
	cr_assert_str_eq(line_text(&d, 0), "  __global__ void k(float *out, int n)");
	/* the TODO the starter had stays, as a comment */
	cr_assert_str_eq(line_text(&d, 2), "      // one thread per element");
	cr_assert_eq(S_CLASS(style_of(&d, 2, "one thread")), S_COMMENT);
	/* the answers are marked in the gutter, and coloured as code */
	cr_assert_str_eq(line_text(&d, 3), "┃     int i = blockIdx.x * blockDim.x + threadIdx.x;");
	cr_assert_eq(S_CLASS(style_of(&d, 3, "┃")), S_PASS);
	cr_assert_eq(S_CLASS(style_of(&d, 3, "blockIdx")), S_CUDA);
	cr_assert_str_eq(line_text(&d, 4), "      if (i < n)");
	cr_assert_str_eq(line_text(&d, 5), "┃         out[i] = 2 * i;");
	cr_assert_str_eq(line_text(&d, 6), "  }");
	doc_free(&d);
}

Test(source, a_long_line_wraps_at_a_space_under_its_code, .timeout = 10)
{
	struct doc d;

	doc_init(&d, false);
	source_solution(&d, "    // BEGIN SOLUTION\n"
			    "    float s = a[0] + a[1] + a[2] + a[3] + a[4];\n"
			    "    // END SOLUTION\n", 30);
	cr_assert_str_eq(line_text(&d, 0), "┃     float s = a[0] + a[1] +");
	cr_assert_str_eq(line_text(&d, 1), "┃           a[2] + a[3] +");
	cr_assert_str_eq(line_text(&d, 2), "┃           a[4];");
	for (int i = 0; i < d.n; i++)
		cr_assert_leq(doc_line_width(&d.lines[i]), 30);
	doc_free(&d);
}

Test(source, a_file_without_markers_is_all_as_it_is, .timeout = 10)
{
	struct doc d;

	doc_init(&d, true);
	cr_assert_eq(source_solution(&d, "int x;\n\tint y; // ×\n", 40), 0);
	cr_assert_str_eq(line_text(&d, 0), "  int x;");
	/* tabs to four columns; ASCII where there is no UTF-8 */
	cr_assert_str_eq(line_text(&d, 1), "      int y; // x");
	doc_free(&d);
}
