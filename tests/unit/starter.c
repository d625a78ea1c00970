#include <criterion/criterion.h>
#include <stdlib.h>

#include "grader/exercise/starter.h"

Test(starter, blocks_become_todos_with_the_starter_lines, .timeout = 5)
{
	const char *solution =
		"int f(int x)\n"
		"{\n"
		"    // BEGIN SOLUTION: return twice x\n"
		"    return 2 * x;\n"
		"    // STARTER\n"
		"    // return 0;\n"
		"    // END SOLUTION\n"
		"}\n";
	struct buf err = BUF_INIT;
	char *starter = starter_from_solution(solution, "s.cu", &err);
	cr_assert_not_null(starter, "%s", err.data);
	cr_assert_str_eq(starter, "int f(int x)\n{\n    // TODO: return twice x\n    return 0;\n}\n");
	free(starter);
}

Test(starter, a_block_without_starter_lines_leaves_only_the_todo, .timeout = 5)
{
	struct buf err = BUF_INIT;
	char *starter = starter_from_solution("a\n  // BEGIN SOLUTION\n  b\n  // END SOLUTION\nc\n", "s.cu", &err);
	cr_assert_str_eq(starter, "a\n  // TODO\nc\n");
	free(starter);
}

Test(starter, malformed_markers_name_the_line, .timeout = 5)
{
	struct buf err = BUF_INIT;
	cr_assert_null(starter_from_solution("x\n// BEGIN SOLUTION\ny\n", "s.cu", &err));
	cr_assert_str_eq(err.data, "s.cu:2: the BEGIN SOLUTION block is never closed");
	buf_free(&err);
	cr_assert_null(starter_from_solution("// END SOLUTION\n", "s.cu", &err));
	cr_assert_str_eq(err.data, "s.cu:1: END SOLUTION without a BEGIN SOLUTION");
	buf_free(&err);
	cr_assert_null(starter_from_solution("// BEGIN SOLUTION\n// BEGIN SOLUTION\n", "s.cu", &err));
	cr_assert_str_eq(err.data, "s.cu:2: BEGIN SOLUTION inside the block opened at line 1");
	buf_free(&err);
	cr_assert_null(starter_from_solution("// BEGIN SOLUTION\n// STARTER\nint x;\n// END SOLUTION\n", "s.cu", &err));
	cr_assert_str_eq(err.data, "s.cu:3: a STARTER line must be a // comment");
	buf_free(&err);
}
