/* The one table of the words a grading ends with (common/outcome.c). */
#include <criterion/criterion.h>

#include "common/outcome.h"

Test(outcome, every_name_of_the_contract_and_back)
{
	cr_assert_str_eq(verdict_name(VERDICT_PASS), "pass");
	cr_assert_str_eq(verdict_name(VERDICT_FAIL), "fail");
	const char *stages[] = { "compile", "run", "correctness", "performance", "submission" };
	for (int s = STAGE_COMPILE; s <= STAGE_SUBMISSION; s++) {
		cr_assert_str_eq(stage_name(s), stages[s - STAGE_COMPILE]);
		cr_assert_eq(stage_from_name(stages[s - STAGE_COMPILE]), s);
	}
	cr_assert_null(stage_name(STAGE_NONE), "a pass has a null stage in the JSON");
	cr_assert_eq(stage_from_name(NULL), STAGE_NONE);
	cr_assert_eq(stage_from_name("timing"), -1);
	cr_assert_str_eq(performance_name(PERFORMANCE_NOT_MEASURED), "not_measured");
	cr_assert_str_eq(tier_name(TIER_NEAR_GOLD), "near_gold");
	cr_assert_null(tier_name(TIER_NONE));
	cr_assert_null(stage_name((enum stage)99));
}

Test(outcome, zero_is_a_failure)
{
	enum verdict v = 0;
	cr_assert_eq(v, VERDICT_FAIL, "a result nobody decided must never read as a pass");
}
