/*
 * The framing's limits (grader/engine/session.c reads every message through them):
 * the largest payload each message may carry, by who sends it, so that a
 * lying header cannot make the grader allocate, and a message a sender may
 * not send is read whole only where it is to be named as forged.
 */
#include "grader/engine/session.h"

#include "harness/plan.h"

/* The largest payload a message of this type may carry, so a lying header cannot make us allocate. */
uint64_t
session_payload_limit(const struct session *s, const struct proto_header *h, enum session_source from)
{
	bool judge = from == FROM_JUDGE;
	if (h->case_index > (uint32_t)s->ncases || h->aux >= 64)
		return 0;
	/* a plan is the capture process's alone; what else it sends is read whole, to be named if forged */
	if (h->type == MSG_PLAN)
		return from == FROM_CAPTURE ? PLAN_MAX_BYTES : 0;
	switch (h->type) {
	case MSG_EXPECTED:
		return judge ? (uint64_t)1 << 40 : 0;
	case MSG_SAMPLE:
		return judge ? sizeof(struct proto_chunk) * PROTO_SAMPLE_CHUNKS : 0;
	case MSG_CASE_INFO:
		return judge ? sizeof(struct proto_case_info) : 0;
	case MSG_OUTPUT:
	case MSG_REPOISONED: {
		const struct case_state *x = h->case_index < (uint32_t)s->ncases ? &s->cases[h->case_index] : NULL;
		if (judge || !x || h->aux >= PROTO_MAX_BUFFERS || !x->values[h->aux])
			return 0;
		return x->count[h->aux] * dtype_size(x->info.buffers[h->aux].dtype);
	}
	case MSG_HELLO:
		return sizeof(struct proto_device);
	case MSG_TIMING:
		return sizeof(struct proto_timing);
	case MSG_INPUT_CHANGED:
		return sizeof(uint64_t);
	case MSG_ROUND_DIFFERS:
		return judge ? 0 : sizeof(struct proto_round_differs);
	case MSG_ERROR:
	case MSG_STAGE:
	case MSG_REFUSED:
		return 4096;
	case MSG_BUFFERS:
		return judge ? 0 : sizeof(uint64_t) * PROTO_MAX_BUFFERS;
	case MSG_FINDING:
		return judge ? 0 : sizeof(struct proto_finding);
	case MSG_COUNTS:
		return judge ? 0 : sizeof(struct proto_counts);
	case MSG_LAUNCH:
		return judge ? 0 : sizeof(struct proto_launch);
	case MSG_LINES:
		return judge ? 0 : sizeof(struct proto_line) * PROTO_MAX_LINES;
	case MSG_WAYS:
		return judge ? 0 : sizeof(struct proto_way) * PROTO_MAX_WAYS;
	case MSG_CASE_BEGIN:
	case MSG_DONE:
	default:
		return 0;
	}
}
