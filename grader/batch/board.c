/*
 * The class board (grader/batch/board.h): the grade JSONs of batch folders, ranked
 * per exercise, as a terminal table and a static HTML page.
 *
 * Ranked: the students with a median time measured on a GPU whose kernel was
 * right (a pass, or a failure at performance: too slow, but a time), fastest
 * first, ties sharing a rank. Then, unranked, everyone else: passes without
 * a time (the simulator times nothing) before failures, and failures in the
 * order of how far they got (performance, correctness, run, compile, no
 * submission, a grader error); names in order within each.
 */
#include "grader/batch/board.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/exit.h"
#include "lib/color.h"
#include "lib/util.h"

#define SALT_FILE ".board-salt"
#define NAME_COLUMNS 18

struct entry {
	char *student;   /* the name, or its pseudonym */
	char *exercise;
	char *device;
	bool pass, timed;
	char *stage;     /* where a failure stopped; NULL for a pass */
	char *backend;
	double us, limit_pct; /* < 0: not measured */
	char *tier;      /* pass, near_gold, gold; NULL */
	int rank;        /* 0: not ranked */
};

struct board {
	struct entry *e;
	int n, cap;
};

/* ------------------------------------------------------------------ pseudonyms */

static const char *const adjectives[] = {
	"amber", "azure", "bold", "brisk", "calm", "clever", "coral", "crisp", "dapper", "eager", "fleet", "gentle",
	"golden", "hardy", "indigo", "jolly", "keen", "lively", "lucid", "mellow", "nimble", "olive", "plucky",
	"quiet", "rapid", "rustic", "sable", "silver", "steady", "sunny", "swift", "tidy",
};
static const char *const animals[] = {
	"badger", "bison", "crane", "dingo", "eagle", "ferret", "finch", "gecko", "heron", "ibis", "jackal", "koala",
	"lemur", "lynx", "marten", "narwhal", "ocelot", "otter", "panda", "puffin", "quokka", "raven", "seal",
	"stoat", "tapir", "toucan", "urchin", "vole", "walrus", "wombat", "yak", "zebra",
};

char *
board_pseudonym(const char *salt, const char *student, bool longer)
{
	/* the salt on both sides of the name, so that neither a prefix nor a suffix of it gives the hash away */
	uint64_t h = hash_bytes(salt, strlen(salt), 0);
	h = hash_bytes("\n", 1, h);
	h = hash_bytes(student, strlen(student), h);
	h = hash_bytes("\n", 1, h);
	h = hash_bytes(salt, strlen(salt), h);
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	/* 26 bits: two of 300 students share one with a chance under 1 in 1000; the board then says 8 more */
	if (longer)
		return xasprintf("%s-%s-%04x%08x", adjectives[h % 32], animals[(h >> 5) % 32], (unsigned)((h >> 10) & 0xffff),
				 (unsigned)(h >> 26 & 0xffffffff));
	return xasprintf("%s-%s-%04x", adjectives[h % 32], animals[(h >> 5) % 32], (unsigned)((h >> 10) & 0xffff));
}

/* The salt kept in the first out folder, made from the system's randomness on first use; NULL after an error. */
static char *
kept_salt(const char *out)
{
	char *path = xasprintf("%s/%s", out, SALT_FILE);
	char *salt = read_file(path, NULL);
	if (salt) {
		salt[strcspn(salt, "\r\n")] = 0;
		if (*salt) {
			free(path);
			return salt;
		}
		free(salt);
	}
	unsigned char bytes[16];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	bool got = fd >= 0 && read(fd, bytes, sizeof(bytes)) == (ssize_t)sizeof(bytes);
	if (fd >= 0)
		close(fd);
	if (!got) {
		error("cannot draw a salt for the pseudonyms from /dev/urandom (give one with --salt)");
		free(path);
		return NULL;
	}
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < sizeof(bytes); i++)
		buf_addf(&b, "%02x", bytes[i]);
	buf_addstr(&b, "\n");
	mode_t old = umask(077);
	int status = write_file_atomic(path, b.data, b.len);
	umask(old);
	if (status) {
		error("cannot keep the pseudonyms' salt in '%s': %s (give one with --salt)", path, strerror(errno));
		buf_free(&b);
		free(path);
		return NULL;
	}
	free(path);
	b.data[b.len - 1] = 0;
	return buf_detach(&b);
}

/* Every name its pseudonym: the short ones, unless two different names would share one. */
static void
give_pseudonyms(struct board *b, const char *salt)
{
	char **alias = xcalloc((size_t)b->n + 1, sizeof(char *));
	bool longer = false;
	for (int round = 0; round < 2; round++) {
		bool clash = false;
		for (int i = 0; i < b->n; i++) {
			free(alias[i]);
			alias[i] = board_pseudonym(salt, b->e[i].student, longer);
			for (int k = 0; k < i && !clash; k++)
				clash = !strcmp(alias[k], alias[i]) && strcmp(b->e[k].student, b->e[i].student);
		}
		if (!clash)
			break;
		longer = true;
	}
	for (int i = 0; i < b->n; i++) {
		free(b->e[i].student);
		b->e[i].student = alias[i];
	}
	free(alias);
}

/* ------------------------------------------------------------------ reading */

static const char *
string_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double
number_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble >= 0 ? v->valuedouble : -1;
}

static char *
copy_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* One grade JSON, if it is one: a verdict and an exercise. */
static bool
read_entry(struct entry *x, const char *student, const char *text)
{
	cJSON *j = cJSON_Parse(text);
	const char *verdict = string_of(j, "verdict"), *exercise = string_of(j, "exercise");
	/* a student gone from the class's folder (the batch marks their row withdrawn) is not ranked */
	const cJSON *record = cJSON_GetObjectItemCaseSensitive(j, "batch");
	if (!verdict || !exercise || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(record, "withdrawn"))) {
		cJSON_Delete(j);
		return false;
	}
	memset(x, 0, sizeof(*x));
	x->student = xstrdup(student);
	x->exercise = xstrdup(exercise);
	x->pass = !strcmp(verdict, "pass");
	x->stage = x->pass ? NULL : xstrdup(string_of(j, "stage") ? string_of(j, "stage") : "error");
	x->backend = xstrdup(string_of(j, "backend") ? string_of(j, "backend") : "");
	x->device = xstrdup(string_of(j, "device") ? string_of(j, "device") : "");
	x->tier = copy_or_null(x->pass ? string_of(j, "tier") : NULL);
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "timing");
	x->us = cJSON_IsObject(t) ? number_of(t, "median_us") : -1;
	x->limit_pct = cJSON_IsObject(t) ? number_of(t, "limit_pct") : -1;
	/* a time counts when the kernel was right: a failure at correctness may have been timed replaying */
	x->timed = x->us > 0 && (x->pass || (x->stage && !strcmp(x->stage, "performance")));
	cJSON_Delete(j);
	return true;
}

static int
read_folder(struct board *b, const char *out)
{
	DIR *d = opendir(out);
	if (!d)
		return error("cannot read the batch results in '%s': %s", out, strerror(errno));
	int found = 0;
	for (struct dirent *entry; (entry = readdir(d));) {
		size_t n = strlen(entry->d_name);
		if (entry->d_name[0] == '.' || n < 6 || strcmp(entry->d_name + n - 5, ".json"))
			continue;
		char *path = xasprintf("%s/%s", out, entry->d_name);
		struct stat st;
		char *text = stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (16 << 20) ? read_file(path, NULL)
												      : NULL;
		char *student = xasprintf("%.*s", (int)(n - 5), entry->d_name);
		if (b->n == b->cap) {
			b->cap = b->cap * 2 + 16;
			b->e = xrealloc(b->e, sizeof(*b->e) * (size_t)b->cap);
		}
		if (text && read_entry(&b->e[b->n], student, text)) {
			b->n++;
			found++;
		}
		free(student);
		free(text);
		free(path);
	}
	closedir(d);
	if (!found)
		return error("'%s' holds no results of 'cudalings batch' (STUDENT.json files with a verdict)", out);
	return 0;
}

/* ------------------------------------------------------------------ ranking */

static int
stage_order(const struct entry *x)
{
	static const char *const order[] = { "performance", "correctness", "run", "compile", "submission", "error" };
	if (x->pass)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (!strcmp(x->stage, order[i]))
			return (int)i + 1;
	return 7;
}

static int
by_standing(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->exercise, y->exercise);
	if (c)
		return c;
	if (x->timed != y->timed)
		return x->timed ? -1 : 1;
	if (x->timed && x->us != y->us)
		return x->us < y->us ? -1 : 1;
	if (!x->timed && stage_order(x) != stage_order(y))
		return stage_order(x) - stage_order(y);
	return strcmp(x->student, y->student);
}

/* Competition ranking per exercise: equal times share a rank, and after two second places comes the fourth. */
static void
rank(struct board *b)
{
	qsort(b->e, (size_t)b->n, sizeof(*b->e), by_standing);
	int place = 0;
	for (int i = 0; i < b->n; i++) {
		struct entry *x = &b->e[i], *before = i ? &b->e[i - 1] : NULL;
		if (!before || strcmp(before->exercise, x->exercise))
			place = 0;
		if (!x->timed)
			continue;
		place++;
		x->rank = before && before->rank && !strcmp(before->exercise, x->exercise) && before->us == x->us
				  ? before->rank : place;
	}
}

/* ------------------------------------------------------------------ showing */

static const char *
tier_text(const struct entry *x)
{
	if (!x->tier)
		return "-";
	if (!strcmp(x->tier, "gold"))
		return "gold";
	if (!strcmp(x->tier, "near_gold"))
		return "near gold";
	return "pass";
}

/* The tier as a CSS class: one of four known words, whatever the file said. */
static const char *
tier_class(const struct entry *x)
{
	const char *t = tier_text(x);
	return !strcmp(t, "gold") ? "gold" : !strcmp(t, "near gold") ? "near-gold" : !strcmp(t, "pass") ? "pass" : "none";
}

static char *
verdict_text(const struct entry *x)
{
	/* at most 20 columns, so that a row keeps to 80 */
	if (x->pass)
		return xstrdup(x->timed ? "pass" : !strcmp(x->backend, "sim") ? "pass, not timed (sim)" : "pass, not timed");
	if (!strcmp(x->stage, "submission"))
		return xstrdup("nothing to grade");
	if (!strcmp(x->stage, "error"))
		return xstrdup("grader failed");
	return xasprintf("fail at %s", x->stage);
}

/* The devices the ranked times of exercise [from, to) come from, "" when one. */
static char *
devices_note(const struct board *b, int from, int to)
{
	const char *first = NULL;
	bool several = false;
	for (int i = from; i < to; i++)
		if (b->e[i].timed && *b->e[i].device) {
			if (!first)
				first = b->e[i].device;
			else if (strcmp(first, b->e[i].device))
				several = true;
		}
	if (several)
		return xstrdup("; timed on several GPU models: the % of the limit compares them better than the µs");
	return first ? xasprintf(" on %s", first) : xstrdup("");
}

/* `s` cut to `columns` characters (UTF-8 counted as characters), padded. */
static void
print_cell(FILE *out, const char *s, int columns)
{
	int used = 0;
	const char *p = s;
	for (; *p && used < columns; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80) {
			if (used == columns - 1 && strlen(p) > 1 && p[1]) {
				/* the last column of a name that goes on */
				bool more = false;
				for (const char *q = p + 1; *q && !more; q++)
					more = ((unsigned char)*q & 0xc0) != 0x80;
				if (more) {
					fputs("…", out);
					used++;
					p = "";
					break;
				}
			}
			used++;
		}
		/* a control character would move the cursor: a name is not trusted */
		fputc((unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p, out);
	}
	/* the rest of a character cut above */
	while (*p && ((unsigned char)*p & 0xc0) == 0x80)
		fputc(*p++, out);
	for (; used < columns; used++)
		fputc(' ', out);
}

static void
print_table(FILE *out, const struct board *b, bool color)
{
	for (int from = 0; from < b->n;) {
		int to = from, timed = 0;
		while (to < b->n && !strcmp(b->e[to].exercise, b->e[from].exercise))
			timed += b->e[to++].timed;
		char *note = devices_note(b, from, to);
		fprintf(out, "%s%s%s  %d student%s, %d timed%s\n", paint(color, COLOR_BOLD), b->e[from].exercise,
			paint(color, COLOR_RESET), to - from, to - from == 1 ? "" : "s", timed, note);
		free(note);
		fprintf(out, "  rank  %-*s   time µs  limit  tier       verdict\n", NAME_COLUMNS, "student");
		for (int i = from; i < to; i++) {
			const struct entry *x = &b->e[i];
			if (i > from && !x->timed && b->e[i - 1].timed)
				fprintf(out, "        (not ranked: no time on a GPU, or a wrong result)\n");
			char rank_text[16] = "-", us[32] = "-", pct[16] = "-";
			if (x->rank)
				snprintf(rank_text, sizeof(rank_text), "%d", x->rank);
			if (x->timed)
				snprintf(us, sizeof(us), "%.1f", x->us);
			if (x->timed && x->limit_pct >= 0)
				snprintf(pct, sizeof(pct), "%.0f%%", x->limit_pct);
			char *verdict = verdict_text(x);
			fprintf(out, "  %4s  ", rank_text);
			print_cell(out, x->student, NAME_COLUMNS);
			fprintf(out, "  %8s  %5s  %-9s  %s\n", us, pct, tier_text(x), verdict);
			free(verdict);
		}
		fputc('\n', out);
		from = to;
	}
}

static void
html_escaped(struct buf *h, const char *s)
{
	for (const char *p = s; *p; p++) {
		switch (*p) {
		case '&': buf_addstr(h, "&amp;"); break;
		case '<': buf_addstr(h, "&lt;"); break;
		case '>': buf_addstr(h, "&gt;"); break;
		case '"': buf_addstr(h, "&quot;"); break;
		case '\'': buf_addstr(h, "&#39;"); break;
		default:
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				buf_addstr(h, "?");
			else
				buf_add(h, p, 1);
		}
	}
}

static const char page_style[] =
	"body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;color:#222}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em}p.note{color:#666;font-size:.9em}"
	"table{border-collapse:collapse;width:100%}th,td{padding:.3em .6em;text-align:left;"
	"border-bottom:1px solid #ddd}th{background:#f4f4f4}td.n{text-align:right;font-variant-numeric:tabular-nums}"
	"tr.unranked td{color:#777}.bar{display:inline-block;height:.7em;background:#4a8;margin-right:.4em;"
	"vertical-align:middle}.tier-gold{color:#a70;font-weight:bold}.tier-near-gold{color:#a70}"
	".fail{color:#b33}";

static char *
html_page(const struct board *b, bool pseudonyms)
{
	struct buf h = BUF_INIT;
	char when[64];
	time_t now = time(NULL);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M", localtime(&now));
	buf_addf(&h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		 "<title>cudalings class board</title>\n<style>%s</style>\n</head>\n<body>\n"
		 "<h1>cudalings class board</h1>\n<p class=\"note\">%s; %s. Ranked by the median time of each "
		 "kernel on the GPU. The %% of the limit is how near that time comes to the hardware's: the time of a "
		 "device-to-device copy of the same bytes (cuBLAS for matmul) over the kernel's.</p>\n", page_style, when,
		 pseudonyms ? "students by pseudonym" : "students by name");
	for (int from = 0; from < b->n;) {
		int to = from;
		while (to < b->n && !strcmp(b->e[to].exercise, b->e[from].exercise))
			to++;
		buf_addstr(&h, "<h2>");
		html_escaped(&h, b->e[from].exercise);
		buf_addstr(&h, "</h2>\n");
		char *note = devices_note(b, from, to);
		if (*note) {
			buf_addstr(&h, "<p class=\"note\">Times");
			html_escaped(&h, note);
			buf_addstr(&h, ".</p>\n");
		}
		free(note);
		buf_addstr(&h, "<table>\n<tr><th>rank</th><th>student</th><th>time (µs)</th><th>% of the limit</th>"
			       "<th>tier</th><th>verdict</th></tr>\n");
		for (int i = from; i < to; i++) {
			const struct entry *x = &b->e[i];
			buf_addf(&h, "<tr%s><td class=\"n\">", x->rank ? "" : " class=\"unranked\"");
			if (x->rank)
				buf_addf(&h, "%d", x->rank);
			else
				buf_addstr(&h, "–");
			buf_addstr(&h, "</td><td>");
			html_escaped(&h, x->student);
			buf_addstr(&h, "</td><td class=\"n\">");
			if (x->timed)
				buf_addf(&h, "%.1f", x->us);
			buf_addstr(&h, "</td><td>");
			if (x->timed && x->limit_pct >= 0)
				buf_addf(&h, "<span class=\"bar\" style=\"width:%.1fem\"></span>%.0f%%",
					 fmin(x->limit_pct, 100) / 20, x->limit_pct);
			buf_addf(&h, "</td><td class=\"tier-%s\">%s</td><td%s>", tier_class(x), tier_text(x),
				 x->pass ? "" : " class=\"fail\"");
			char *verdict = verdict_text(x);
			html_escaped(&h, verdict);
			free(verdict);
			buf_addstr(&h, "</td></tr>\n");
		}
		buf_addstr(&h, "</table>\n");
		from = to;
	}
	buf_addstr(&h, "</body>\n</html>\n");
	return buf_detach(&h);
}

static void
release(struct board *b)
{
	for (int i = 0; i < b->n; i++) {
		free(b->e[i].student);
		free(b->e[i].exercise);
		free(b->e[i].device);
		free(b->e[i].stage);
		free(b->e[i].backend);
		free(b->e[i].tier);
	}
	free(b->e);
}

int
board_run(const struct board_options *o, FILE *out)
{
	struct board b = { 0 };
	int status = 0;
	for (int i = 0; i < o->nouts && !status; i++) {
		if (!is_directory(o->outs[i])) {
			error("'%s' is not a folder of batch results", o->outs[i]);
			status = EXIT_USAGE;
		} else if (read_folder(&b, o->outs[i])) {
			status = EXIT_USAGE;
		}
	}
	char *salt = NULL;
	if (!status && o->pseudonyms) {
		salt = o->salt ? xstrdup(o->salt) : kept_salt(o->outs[0]);
		if (!salt)
			status = EXIT_ENVIRONMENT;
	}
	if (!status && salt)
		give_pseudonyms(&b, salt);
	if (!status) {
		rank(&b);
		print_table(out, &b, o->color);
	}
	if (!status && o->html) {
		char *page = html_page(&b, o->pseudonyms);
		if (write_file_atomic(o->html, page, strlen(page))) {
			error("cannot write the board to '%s': %s", o->html, strerror(errno));
			status = EXIT_ENVIRONMENT;
		} else {
			fprintf(out, "board: %s\n", o->html);
		}
		free(page);
	}
	free(salt);
	release(&b);
	return status;
}
