/* Checking launch plans (harness/plan.c): what the capture process may ask the measuring runner to replay. */
#include <criterion/criterion.h>
#include <string.h>

#include "lib/buf.h"
#include "harness/plan.h"

static void
record(struct buf *plan, uint32_t kind, const void *body, size_t n)
{
	struct plan_record h = { kind, (uint32_t)((n + 7) & ~(size_t)7) };
	static const char zeros[8];
	buf_add(plan, &h, sizeof(h));
	buf_add(plan, body, n);
	buf_add(plan, zeros, h.length - n);
}

static void
launch(struct buf *plan, uint32_t grid_x, uint32_t block_x, struct plan_ref to)
{
	struct {
		struct plan_launch l;
		struct plan_param p;
		struct plan_reloc r;
		uint64_t arg;
	} body = { .l = { .name = "_Z1kPf", .grid = { grid_x, 1, 1 }, .block = { block_x, 1, 1 }, .nparams = 1,
			  .nrelocs = 1, .args_bytes = 8 },
		   .p = { 0, 8 }, .r = { .at = 0, .to = to } };
	record(plan, PLAN_LAUNCH, &body, sizeof(body));
}

/* A state of one case of one 1024-byte buffer. */
static struct plan_state
one_buffer(void)
{
	struct plan_state st;
	memset(&st, 0, sizeof(st));
	st.nbuffers = 1;
	st.buffer_bytes[0] = 1024;
	return st;
}

static int
check(struct buf *plan, struct plan_state *st, char *why)
{
	return plan_check(plan->data, plan->len, st, why, 512);
}

Test(plan, a_launch_on_the_case_array_passes)
{
	struct buf p = BUF_INIT;
	struct plan_state st = one_buffer();
	char why[512] = "";
	launch(&p, 4, 256, (struct plan_ref){ PLAN_CASE_BUFFER, 0, 0 });
	cr_assert_eq(check(&p, &st, why), 0, "%s", why);
	buf_free(&p);
}

Test(plan, a_scratch_buffer_kept_across_cases_stays_reachable_until_freed)
{
	struct buf first = BUF_INIT, second = BUF_INIT, third = BUF_INIT;
	struct plan_state st = one_buffer();
	char why[512] = "";
	struct plan_alloc a = { 0, 0, 4096 };
	record(&first, PLAN_ALLOC, &a, sizeof(a));
	launch(&first, 1, 32, (struct plan_ref){ PLAN_OWN, 0, 4096 });
	cr_assert_eq(check(&first, &st, why), 0, "%s", why);
	/* the next case's plan names it without allocating it again */
	launch(&second, 1, 32, (struct plan_ref){ PLAN_OWN, 0, 8 });
	struct plan_free f = { 0, 0 };
	record(&second, PLAN_FREE, &f, sizeof(f));
	cr_assert_eq(check(&second, &st, why), 0, "%s", why);
	launch(&third, 1, 32, (struct plan_ref){ PLAN_OWN, 0, 8 });
	cr_assert_eq(check(&third, &st, why), -1);
	cr_assert_not_null(strstr(why, "neither the case's arrays nor one of the launcher's own allocations"), "%s", why);
	buf_free(&first);
	buf_free(&second);
	buf_free(&third);
}

Test(plan, shapes_outside_a_gpus_limits_are_refused)
{
	struct buf p = BUF_INIT, q = BUF_INIT;
	struct plan_state st = one_buffer();
	char why[512] = "";
	launch(&p, 0, 32, (struct plan_ref){ PLAN_CASE_BUFFER, 0, 0 });
	cr_assert_eq(check(&p, &st, why), -1);
	cr_assert_not_null(strstr(why, "grid of 0 x 1 x 1"), "%s", why);
	launch(&q, 1, 2048, (struct plan_ref){ PLAN_CASE_BUFFER, 0, 0 });
	cr_assert_eq(check(&q, &st, why), -1);
	cr_assert_not_null(strstr(why, "blocks of 2048"), "%s", why);
	buf_free(&p);
	buf_free(&q);
}

Test(plan, what_the_capture_refused_is_the_verdicts_reason)
{
	struct buf p = BUF_INIT;
	struct plan_state st = one_buffer();
	char why[512] = "";
	const char text[] = "copied device memory to k: only constants from the host\x01 may be copied";
	record(&p, PLAN_REFUSED, text, sizeof(text) - 1);
	cr_assert_eq(check(&p, &st, why), -1);
	cr_assert_str_eq(why, "the launcher copied device memory to k: only constants from the host may be copied");
	buf_free(&p);
}

Test(plan, torn_records_and_unknown_kinds_are_refused)
{
	struct buf p = BUF_INIT, q = BUF_INIT;
	struct plan_state st = one_buffer();
	char why[512] = "";
	struct plan_record h = { PLAN_SYNC, 64 };
	buf_add(&p, &h, sizeof(h));
	cr_assert_eq(check(&p, &st, why), -1);
	cr_assert_not_null(strstr(why, "torn"), "%s", why);
	h = (struct plan_record){ 99, 0 };
	buf_add(&q, &h, sizeof(h));
	cr_assert_eq(check(&q, &st, why), -1);
	cr_assert_not_null(strstr(why, "unknown kind"), "%s", why);
	buf_free(&p);
	buf_free(&q);
}

Test(plan, only_the_shared_memory_attributes_may_be_set)
{
	struct buf p = BUF_INIT, q = BUF_INIT;
	struct plan_state st = one_buffer();
	char why[512] = "";
	struct plan_attribute t = { .name = "_Z1kPf", .attribute = PLAN_ATTR_MAX_DYNAMIC_SHARED, .value = 100000 };
	record(&p, PLAN_ATTRIBUTE, &t, sizeof(t));
	cr_assert_eq(check(&p, &st, why), 0, "%s", why);
	t.attribute = 3;
	record(&q, PLAN_ATTRIBUTE, &t, sizeof(t));
	cr_assert_eq(check(&q, &st, why), -1);
	buf_free(&p);
	buf_free(&q);
}
