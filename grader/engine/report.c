#include "grader/engine/report.h"

#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "lib/color.h"
#include "lib/util.h"
#include "grader/exercise/manifest.h"
#include "grader/sass/lines.h"


static void
print_indented(FILE *out, const char *text, const char *prefix, int max_lines)
{
	int lines = 0;
	for (const char *line = text; line && *line && lines < max_lines; lines++) {
		const char *end = strchrnul(line, '\n');
		fprintf(out, "%s%.*s\n", prefix, (int)(end - line), line);
		line = *end ? end + 1 : NULL;
		if (lines + 1 == max_lines && line && *line)
			fprintf(out, "%s…\n", prefix);
	}
}

/*
 * Where the kernel stands: its share of what this GPU can do for the same
 * work (the physical reference, timed in the same rounds), and, for a pass,
 * its tier against the gold solution.
 */
static void
print_standing(FILE *out, const struct grade_result *r)
{
	const struct timing_result *t = &r->timing;
	bool sgemm = t->physical && strstr(t->physical, "SGEMM");
	if (t->physical_us > 0 && sgemm)
		fprintf(out, "  %-10s %.0f%% of what this GPU can do: cuBLAS SGEMM (FP32) computes the same product in %.1f µs\n",
			"hardware", t->limit_pct, t->physical_us);
	else if (t->physical_us > 0)
		fprintf(out, "  %-10s %.0f%% of what this GPU can do: a device-to-device copy of the bytes your kernel must "
			"move takes %.1f µs\n", "hardware", t->limit_pct, t->physical_us);
	if (r->tier == TIER_NONE)
		return;
	if (t->gold_us <= 0)
		fprintf(out, "  %-10s pass (this exercise has no gold solution to compare with)\n", "tier");
	else if (r->tier == TIER_GOLD)
		fprintf(out, "  %-10s gold: as fast as the gold solution (%.1f µs) or faster\n", "tier", t->gold_us);
	else if (r->tier == TIER_NEAR_GOLD)
		fprintf(out, "  %-10s near gold: within %.1f× of the gold solution (%.1f µs)\n", "tier", NEAR_GOLD_RATIO,
			t->gold_us);
	else
		fprintf(out, "  %-10s pass: the gold solution takes %.1f µs, yours %.2f× that; within %.1f× is near gold\n",
			"tier", t->gold_us, t->median_us / t->gold_us, NEAR_GOLD_RATIO);
}

static void
print_timing(FILE *out, const struct grade_result *r, bool color)
{
	const struct timing_result *t = &r->timing;
	fprintf(out, "  %-10s %s%.1f µs%s median of %d rounds; threshold %.1f µs%s\n", "time", paint(color, COLOR_BOLD),
		t->median_us, paint(color, COLOR_RESET), t->rounds, t->threshold_us,
		t->absolute ? " (this course's figure for this GPU)" : "");
	if (!t->absolute)
		fprintf(out, "  %-10s reference %.1f µs; yours is %.2f× (95%% interval %.2f-%.2f), limit %.2f×\n", "",
			t->reference_us, t->ratio, t->ratio_lo, t->ratio_hi, t->threshold_ratio);
	/* a matrix product is bound by its arithmetic: its bytes per second say nothing of it */
	if (t->physical && strstr(t->physical, "SGEMM"))
		fprintf(out, "  %-10s %.1f TFLOP/s\n", "", t->gflops / 1e3);
	else
		fprintf(out, "  %-10s %.0f GB/s: %.0f%% of a device-to-device copy (%.0f GB/s), %.0f%% of the nominal peak "
			"(%.0f GB/s)\n", "", t->gbps, t->copy_gbps > 0 ? 100 * t->gbps / t->copy_gbps : 0, t->copy_gbps,
			t->peak_gbps > 0 ? 100 * t->gbps / t->peak_gbps : 0, t->peak_gbps);
	print_standing(out, r);
	if (t->noise)
		fprintf(out, "  %-10s %s\n", "noise", t->noise);
}

/* The ways of timing a kernel that the "Measure it" demo shows, by enum proto_way_kind: one table. */
static const struct {
	const char *key;   /* in the JSON */
	const char *how;   /* how it was timed */
	const char *why;   /* what the figure is, and what is wrong with it */
} ways[WAY_KINDS] = {
	[WAY_RIGHT] = { "right", "events around the kernel, warm, L2 flushed, median",
			"the right way: the kernel alone on the GPU's clock, after a warm-up, each launch "
			"from a cold L2, the median of many (this is how the grader times)" },
	[WAY_FIRST_LAUNCH] = { "first_launch", "the same events around its first launch",
			       "the first launch in a process also loads the kernel's code onto the GPU "
			       "and sets up what the driver prepares on first use: time it, and you time that" },
	[WAY_LAUNCH_ONLY] = { "launch_only", "a host clock around the launch call",
			      "a launch returns once the kernel is queued, before it runs: this is the cost "
			      "of launching, whatever the kernel does" },
	[WAY_HOST_CLOCK] = { "host_clock", "a host clock around launch and synchronize",
			     "the kernel plus the launch and the host waking up from cudaDeviceSynchronize(): "
			     "a few µs more, which matter for a short kernel" },
	[WAY_NO_WARMUP] = { "no_warmup", "events, L2 flushed, first after 1 s idle",
			    "no warm-up: an idle GPU may have lowered its clocks (the SM clock beside it, as "
			    "NVML read it just before), and its first launches pay for waking up" },
	[WAY_WARM_CACHE] = { "warm_cache", "events, warm, no flush between launches",
			     "a cache that stays warm: each launch finds the last one's data in L2, so a "
			     "kernel whose data fit there looks faster than it is on fresh data" },
};

void
report_folded(FILE *out, const char *text, const char *prefix, int width)
{
	int room = width - (int)strlen(prefix);
	if (room < 10)
		room = 10;
	while (*text) {
		/* the bytes of the first `room` characters, then back to the last space among them */
		int n = 0, columns = 0;
		while (text[n] && (columns < room || ((unsigned char)text[n] & 0xc0) == 0x80))
			columns += ((unsigned char)text[n++] & 0xc0) != 0x80;
		if (text[n]) {
			int cut = n;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut)
				n = cut;
		}
		fprintf(out, "%s%.*s\n", prefix, n, text);
		text += n;
		while (*text == ' ')
			text++;
	}
}

void
report_timing_ways(FILE *out, const struct exercise *e, const struct grade_result *r)
{
	if (!e->timing_ways)
		return;
	if (!r->nways) {
		fprintf(out, "    on a GPU this demo times its kernel these ways, the wrong figures beside the right "
			"one:\n");
		for (int k = WAY_RIGHT; k < WAY_KINDS; k++) {
			fprintf(out, "    %s\n", ways[k].how);
			report_folded(out, ways[k].why, "        ", 80);
		}
		return;
	}
	const struct proto_way *right = NULL;
	for (int i = 0; i < r->nways; i++)
		if (r->ways[i].kind == WAY_RIGHT)
			right = &r->ways[i];
	/* µs and × are two bytes each for one column: the widths count bytes */
	fprintf(out, "    %-44s %10s %9s %8s\n", "the same kernel, timed", "µs", "× right", "SM MHz");
	for (int i = 0; i < r->nways; i++) {
		const struct proto_way *w = &r->ways[i];
		char mhz[16] = "-";
		if (w->sm_mhz)
			snprintf(mhz, sizeof(mhz), "%u", w->sm_mhz);
		fprintf(out, "    %-44s %9.1f %8.2f %8s\n", ways[w->kind].how, w->us,
			right && right->us > 0 ? w->us / right->us : 0, mhz);
		report_folded(out, ways[w->kind].why, "        ", 80);
		if (w->samples > 1)
			fprintf(out, "        %u launches: %.1f to %.1f µs\n", w->samples, w->low_us, w->high_us);
	}
}

static bool
report_any_ran(const struct grade_result *r)
{
	for (int i = 0; i < r->ncases; i++)
		if (r->cases[i].ran)
			return true;
	return false;
}

void
report_text(FILE *out, const struct grade_result *r, bool color)
{
	fprintf(out, "%s%s%s  %s on %s (%s backend%s%s)\n", paint(color, COLOR_BOLD), r->e->name, paint(color, COLOR_RESET),
		r->file, *r->device ? r->device : "no device", r->backend == BACKEND_GPU ? "gpu" : "sim",
		*r->arch ? ", built for " : "", r->arch);
	if (r->note)
		fprintf(out, "  %s%s%s\n", paint(color, COLOR_DIM), r->note, paint(color, COLOR_RESET));
	if (r->stage == STAGE_COMPILE) {
		fprintf(out, "  %-10s %sfailed%s\n", "compile", paint(color, COLOR_RED), paint(color, COLOR_RESET));
		print_indented(out, r->compile_output, "    ", 30);
	} else if (r->stage != STAGE_NONE || (r->ncases && !(r->verdict == VERDICT_FAIL && !report_any_ran(r)))) {
		/* not before an environment's error that came before any case ran: the compile may be what failed */
		fprintf(out, "  %-10s ok\n", "compile");
	}
	for (int i = 0; i < r->ncases; i++) {
		const struct case_result *c = &r->cases[i];
		if (!c->ran)
			continue;
		char label[80];
		snprintf(label, sizeof(label), "%s%s", c->name, c->timed ? " (timed)" : c->measured ? " (measured)" : "");
		fprintf(out, "  case %-16s %s%s%s\n", label, paint(color, c->passed ? COLOR_GREEN : COLOR_RED),
			c->passed ? "ok" : "FAIL", paint(color, COLOR_RESET));
		if (!c->passed && c->message)
			print_indented(out, c->message, "    ", 12);
	}
	if (r->timing.measured)
		print_timing(out, r, color);
	if (r->estimate.made && r->stage != STAGE_CORRECTNESS && r->stage != STAGE_RUN)
		fprintf(out, "  %-10s %s\n", "estimate", r->estimate.text);
	if (r->nways)
		report_timing_ways(out, r->e, r);
	for (int i = 0; i < r->ndiagnostics; i++)
		fprintf(out, "  %-10s %s\n", r->diagnostics[i].kind, r->diagnostics[i].message);
	if (r->program_output && *r->program_output) {
		fprintf(out, "  your program printed:\n");
		print_indented(out, r->program_output, "    | ", 20);
	}
	if (r->verdict == VERDICT_PASS)
		fprintf(out, "%sPASS%s  %s\n", paint(color, COLOR_GREEN COLOR_BOLD), paint(color, COLOR_RESET), r->message);
	else if (r->stage != STAGE_NONE)
		fprintf(out, "%sFAIL%s  at %s: %s\n", paint(color, COLOR_RED COLOR_BOLD), paint(color, COLOR_RESET), stage_name(r->stage),
			r->message);
	else
		fprintf(out, "%sERROR%s  %s\n", paint(color, COLOR_RED COLOR_BOLD), paint(color, COLOR_RESET), r->message);
	if (r->hint)
		fprintf(out, "%shint:%s %s\n", paint(color, COLOR_BOLD), paint(color, COLOR_RESET), r->hint);
}

static cJSON *
string_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* A figure, or null where there was nothing to measure. */
static void
add_figure(cJSON *o, const char *name, double value)
{
	if (value < 0)
		cJSON_AddNullToObject(o, name);
	else
		cJSON_AddNumberToObject(o, name, value);
}

static void
add_side(cJSON *o, const char *name, const struct estimate_side *s)
{
	cJSON *j = cJSON_AddObjectToObject(o, name);
	cJSON_AddNumberToObject(j, "us", s->us);
	cJSON_AddNumberToObject(j, "dram_us", s->dram_us);
	cJSON_AddNumberToObject(j, "l2_us", s->l2_us);
	cJSON_AddNumberToObject(j, "latency_us", s->latency_us);
	cJSON_AddNumberToObject(j, "l1_us", s->l1_us);
	cJSON_AddNumberToObject(j, "shared_us", s->shared_us);
	cJSON_AddNumberToObject(j, "launches", s->launches);
	cJSON_AddNumberToObject(j, "waves", s->waves);
	cJSON_AddNumberToObject(j, "rounds", s->rounds);
	cJSON_AddNumberToObject(j, "lines", s->lines);
	cJSON_AddNumberToObject(j, "wavefronts", s->wavefronts);
	cJSON_AddNumberToObject(j, "sms", s->sms);
}

/* The simulator's estimate of the time on a GPU: null where none was made (a GPU's grading, a wrong kernel). */
static void
add_estimate(cJSON *o, const struct estimate *e)
{
	if (!e->made) {
		cJSON_AddNullToObject(o, "estimate");
		return;
	}
	cJSON *j = cJSON_AddObjectToObject(o, "estimate");
	cJSON_AddStringToObject(j, "gpu", e->gpu);
	cJSON_AddNumberToObject(j, "ratio", e->ratio);
	cJSON_AddNumberToObject(j, "threshold_ratio", e->threshold_ratio);
	cJSON_AddStringToObject(j, "bound", e->bound);
	cJSON_AddStringToObject(j, "text", e->text);
	add_side(j, "student", &e->student);
	add_side(j, "reference", &e->reference);
}

static void
add_figures(cJSON *o, const struct memory_figures *f)
{
	if (!f->measured) {
		cJSON_AddNullToObject(o, "figures");
		return;
	}
	cJSON *j = cJSON_AddObjectToObject(o, "figures");
	cJSON_AddStringToObject(j, "source", f->source);
	add_figure(j, "load_sectors_per_request", f->load_sectors_per_request);
	add_figure(j, "store_sectors_per_request", f->store_sectors_per_request);
	add_figure(j, "bank_conflicts_per_request", f->bank_conflicts_per_request);
	add_figure(j, "sectors_per_request", f->sectors_per_request);
	add_figure(j, "global_reads_per_thread", f->global_reads_per_thread);
	add_figure(j, "global_reads_per_output", f->global_reads_per_output);
	add_figure(j, "global_writes_per_thread", f->global_writes_per_thread);
	add_figure(j, "dram_gbps", f->dram_gbps);
}

cJSON *
report_json(const struct grade_result *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "exercise", r->e->name);
	cJSON_AddStringToObject(o, "file", r->file);
	cJSON_AddStringToObject(o, "backend", r->backend == BACKEND_GPU ? "gpu" : "sim");
	cJSON_AddStringToObject(o, "device", r->device ? r->device : "");
	cJSON_AddStringToObject(o, "arch", r->arch);
	cJSON_AddStringToObject(o, "verdict", verdict_name(r->verdict));
	cJSON_AddItemToObject(o, "stage", string_or_null(stage_name(r->stage)));
	cJSON_AddStringToObject(o, "message", r->message ? r->message : "");
	cJSON_AddItemToObject(o, "note", string_or_null(r->note));
	cJSON_AddStringToObject(o, "compile_output", r->compile_output ? r->compile_output : "");
	cJSON_AddStringToObject(o, "program_output", r->program_output ? r->program_output : "");
	cJSON *cases = cJSON_AddArrayToObject(o, "cases");
	for (int i = 0; i < r->ncases; i++) {
		const struct case_result *c = &r->cases[i];
		if (!c->ran)
			continue;
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "name", c->name);
		cJSON_AddBoolToObject(j, "timed", c->timed);
		cJSON_AddBoolToObject(j, "measured", c->measured);
		cJSON_AddBoolToObject(j, "passed", c->passed);
		cJSON_AddNumberToObject(j, "mismatches", (double)c->mismatches);
		cJSON_AddStringToObject(j, "message", c->message ? c->message : "");
		cJSON_AddItemToArray(cases, j);
	}
	cJSON_AddStringToObject(o, "performance", performance_name(r->performance));
	if (r->tier != TIER_NONE)
		cJSON_AddStringToObject(o, "tier", tier_name(r->tier));
	else
		cJSON_AddNullToObject(o, "tier");
	if (r->timing.measured) {
		const struct timing_result *t = &r->timing;
		cJSON *j = cJSON_AddObjectToObject(o, "timing");
		cJSON_AddNumberToObject(j, "median_us", t->median_us);
		cJSON_AddNumberToObject(j, "threshold_us", t->threshold_us);
		cJSON_AddNumberToObject(j, "reference_us", t->reference_us);
		cJSON_AddNumberToObject(j, "copy_us", t->copy_us);
		cJSON_AddNumberToObject(j, "wall_us", t->wall_us);
		cJSON_AddNumberToObject(j, "gbps", t->gbps);
		cJSON_AddNumberToObject(j, "copy_gbps", t->copy_gbps);
		cJSON_AddNumberToObject(j, "peak_gbps", t->peak_gbps);
		cJSON_AddNumberToObject(j, "gflops", t->gflops);
		cJSON_AddNumberToObject(j, "ratio", t->ratio);
		cJSON_AddNumberToObject(j, "ratio_lo", t->ratio_lo);
		cJSON_AddNumberToObject(j, "ratio_hi", t->ratio_hi);
		cJSON_AddNumberToObject(j, "threshold_ratio", t->threshold_ratio);
		cJSON_AddBoolToObject(j, "absolute", t->absolute);
		cJSON_AddNumberToObject(j, "rounds", t->rounds);
		cJSON_AddNumberToObject(j, "measurements", t->measurements);
		cJSON_AddNumberToObject(j, "limit_pct", t->limit_pct);
		cJSON_AddNumberToObject(j, "physical_us", t->physical_us);
		cJSON_AddStringToObject(j, "physical", t->physical ? t->physical : "device-to-device copy");
		if (t->gold_us > 0)
			cJSON_AddNumberToObject(j, "gold_us", t->gold_us);
		else
			cJSON_AddNullToObject(j, "gold_us");
		if (t->clocks_known) {
			cJSON *c = cJSON_AddObjectToObject(j, "sm_mhz");
			cJSON_AddNumberToObject(c, "first", t->sm_mhz_first);
			cJSON_AddNumberToObject(c, "last", t->sm_mhz_last);
			cJSON_AddNumberToObject(c, "low", t->sm_mhz_low);
			cJSON_AddNumberToObject(c, "high", t->sm_mhz_high);
		} else {
			cJSON_AddNullToObject(j, "sm_mhz");
		}
		if (t->noise)
			cJSON_AddStringToObject(j, "noise", t->noise);
		else
			cJSON_AddNullToObject(j, "noise");
	} else {
		cJSON_AddNullToObject(o, "timing");
	}
	cJSON *diags = cJSON_AddArrayToObject(o, "diagnostics");
	for (int i = 0; i < r->ndiagnostics; i++) {
		const struct diagnostic *d = &r->diagnostics[i];
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "kind", d->kind);
		cJSON_AddStringToObject(j, "message", d->message);
		if (d->file) {
			cJSON_AddStringToObject(j, "file", d->file);
			cJSON_AddNumberToObject(j, "line", d->line);
		}
		if (d->other_file) {
			cJSON_AddStringToObject(j, "other_file", d->other_file);
			cJSON_AddNumberToObject(j, "other_line", d->other_line);
		}
		for (int k = 0; k < d->nfigures; k++)
			cJSON_AddNumberToObject(j, d->figures[k].name, d->figures[k].value);
		cJSON_AddItemToArray(diags, j);
	}
	add_figures(o, &r->figures);
	if (r->point.state == POINT_NONE) {
		cJSON_AddNullToObject(o, "point");
	} else {
		/* whether the exercise's budgets judged this kernel: on a GPU only with Nsight Compute */
		cJSON *j = cJSON_AddObjectToObject(o, "point");
		cJSON_AddBoolToObject(j, "checked", r->point.state == POINT_CHECKED);
		cJSON_AddItemToObject(j, "by", string_or_null(r->point.by));
		cJSON_AddItemToObject(j, "why_not", string_or_null(r->point.why_not));
		if (r->point.kernels)
			cJSON_AddNumberToObject(j, "kernels", r->point.kernels);
		else
			cJSON_AddNullToObject(j, "kernels");
	}
	add_estimate(o, &r->estimate);
	lines_add_json(o, &r->lines);
	if (r->e->timing_ways) {
		cJSON *list = cJSON_AddArrayToObject(o, "timing_ways");
		for (int i = 0; i < r->nways; i++) {
			const struct proto_way *w = &r->ways[i];
			cJSON *j = cJSON_CreateObject();
			cJSON_AddStringToObject(j, "way", ways[w->kind].key);
			cJSON_AddStringToObject(j, "how", ways[w->kind].how);
			cJSON_AddNumberToObject(j, "us", w->us);
			cJSON_AddNumberToObject(j, "low_us", w->low_us);
			cJSON_AddNumberToObject(j, "high_us", w->high_us);
			cJSON_AddNumberToObject(j, "samples", w->samples);
			if (w->sm_mhz)
				cJSON_AddNumberToObject(j, "sm_mhz", w->sm_mhz);
			else
				cJSON_AddNullToObject(j, "sm_mhz");
			cJSON_AddItemToArray(list, j);
		}
	}
	cJSON_AddItemToObject(o, "hint", string_or_null(r->hint));
	return o;
}

void
report_print_json(FILE *out, cJSON *json)
{
	char *text = json_print(json, true);
	fprintf(out, "%s\n", text);
	free(text);
}
