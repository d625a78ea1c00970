#include <criterion/criterion.h>
#include <string.h>

#include "tests/tui/unit/helpers.h"
#include "tui/markdown.h"
#include "lib/util.h"

static const char lesson[] =
	"# Column sums — why *coalescing* matters\n"
	"\n"
	"A warp of 32 threads reads **32 consecutive floats** in one transaction: "
	"that is the whole idea of `coalesced` access &amp; why it pays.\n"
	"\n"
	"## Steps\n"
	"\n"
	"1. Read the starter.\n"
	"2. Find the TODO, a rather long list item that must wrap onto the next line.\n"
	"   - nested\n"
	"\n"
	"> A quote long enough to wrap around at a narrow width, surely it is.\n"
	"\n"
	"| kernel | µs | GB/s |\n"
	"|---|---:|---:|\n"
	"| row_sums (1 thread per row) | 2123.7 | 506 |\n"
	"| col_sums | 819.4 | 1310 |\n"
	"\n"
	"```cuda\n"
	"__global__ void k(float *out) // one thread per column\n"
	"{\n"
	"\tout[threadIdx.x] = 1.0f;\n"
	"}\n"
	"```\n";

static struct doc
render(const char *md, int width, bool ascii)
{
	struct doc d;

	doc_init(&d, ascii);
	cr_assert_eq(md_render(&d, md, strlen(md), width), 0);
	return d;
}

Test(markdown, no_line_is_wider_than_the_width, .timeout = 10)
{
	for (int w = 20; w <= 100; w++) {
		struct doc d = render(lesson, w, false);

		for (int i = 0; i < d.n; i++)
			cr_assert_leq(doc_line_width(&d.lines[i]), w, "width %d, line %d is %d wide: '%s'",
				      w, i, doc_line_width(&d.lines[i]), line_text(&d, i));
		doc_free(&d);
	}
}

Test(markdown, a_heading_is_underlined_to_its_width, .timeout = 10)
{
	struct doc d = render("# Column sums\n\ntext\n\n## Two\n", 60, false);

	cr_assert_str_eq(line_text(&d, 0), "Column sums");
	cr_assert_str_eq(line_text(&d, 1), "═══════════");
	cr_assert_eq(S_CLASS(d.lines[0].spans[0].style), S_H1);
	cr_assert_str_eq(line_text(&d, 2), "");
	cr_assert_str_eq(line_text(&d, 3), "text");
	cr_assert_str_eq(line_text(&d, 5), "Two");
	cr_assert_str_eq(line_text(&d, 6), "───");
	doc_free(&d);
}

Test(markdown, emphasis_and_code_spans_keep_their_style, .timeout = 10)
{
	struct doc d = render("plain **bold** and *em* and `code`, [link](http://x).\n", 60, false);

	cr_assert_str_eq(line_text(&d, 0), "plain bold and em and code, link.");
	cr_assert(style_of(&d, 0, "bold") & F_STRONG);
	cr_assert(style_of(&d, 0, "em") & F_EM);
	cr_assert_eq(S_CLASS(style_of(&d, 0, "code")), S_CODE);
	cr_assert(style_of(&d, 0, "link") & F_LINK);
	cr_assert_eq(style_of(&d, 0, "plain"), S_PLAIN);
	doc_free(&d);
}

Test(markdown, paragraphs_wrap_at_word_boundaries, .timeout = 10)
{
	struct doc d = render("one two three four five six seven eight nine ten\n", 20, false);

	cr_assert_eq(d.n, 3);
	cr_assert_str_eq(line_text(&d, 0), "one two three four");
	cr_assert_str_eq(line_text(&d, 1), "five six seven eight");
	cr_assert_str_eq(line_text(&d, 2), "nine ten");
	doc_free(&d);
}

Test(markdown, list_items_hang_under_their_bullet, .timeout = 10)
{
	struct doc d = render("1. short\n2. a rather long item that wraps\n   - nested\n\n- a\n- b\n", 24, false);

	cr_assert_str_eq(line_text(&d, 0), "1. short");
	cr_assert_str_eq(line_text(&d, 1), "2. a rather long item");
	cr_assert_str_eq(line_text(&d, 2), "   that wraps");
	cr_assert_str_eq(line_text(&d, 3), "   ◦ nested");
	cr_assert_str_eq(line_text(&d, 4), "");
	cr_assert_str_eq(line_text(&d, 5), "• a");
	cr_assert_str_eq(line_text(&d, 6), "• b");
	doc_free(&d);
}

Test(markdown, quotes_prefix_every_line, .timeout = 10)
{
	struct doc d = render("> one two three four five six\n>\n> seven\n", 20, false);

	cr_assert_str_eq(line_text(&d, 0), "│ one two three four");
	cr_assert_str_eq(line_text(&d, 1), "│ five six");
	cr_assert_str_eq(line_text(&d, 2), "│");
	cr_assert_str_eq(line_text(&d, 3), "│ seven");
	doc_free(&d);
}

Test(markdown, tables_align_their_columns, .timeout = 10)
{
	struct doc d = render("| kernel | µs |\n|---|---:|\n| row_sums | 2123.7 |\n| col | 9.4 |\n", 40, false);

	cr_assert_str_eq(line_text(&d, 0), "kernel   │     µs");
	cr_assert_str_eq(line_text(&d, 1), "─────────┼───────");
	cr_assert_str_eq(line_text(&d, 2), "row_sums │ 2123.7");
	cr_assert_str_eq(line_text(&d, 3), "col      │    9.4");
	cr_assert_eq(S_CLASS(style_of(&d, 0, "kernel")), S_TABLE_HEAD);
	doc_free(&d);
}

Test(markdown, a_table_too_wide_wraps_inside_its_cells, .timeout = 10)
{
	struct doc d = render("| a | b |\n|---|---|\n| one two three four five | x |\n", 20, false);

	cr_assert_gt(d.n, 3);
	for (int i = 0; i < d.n; i++)
		cr_assert_leq(doc_line_width(&d.lines[i]), 20);
	cr_assert(strstr(line_text(&d, 2), "│ x"));
	doc_free(&d);
}

Test(markdown, code_blocks_highlight_cuda, .timeout = 10)
{
	struct doc d = render("```cuda\n__global__ void k(int *o) // note\n{\n\to[threadIdx.x] = 42; /* a\nb */\n}\n```\n", 60, false);

	cr_assert_str_eq(line_text(&d, 0), "  __global__ void k(int *o) // note");
	cr_assert_eq(S_CLASS(style_of(&d, 0, "__global__")), S_CUDA);
	cr_assert_eq(S_CLASS(style_of(&d, 0, "void")), S_KEYWORD);
	cr_assert_eq(S_CLASS(style_of(&d, 0, "// note")), S_COMMENT);
	/* a tab is four columns */
	cr_assert_str_eq(line_text(&d, 2), "      o[threadIdx.x] = 42; /* a");
	cr_assert_eq(S_CLASS(style_of(&d, 2, "threadIdx")), S_CUDA);
	cr_assert_eq(S_CLASS(style_of(&d, 2, "42")), S_NUMBER);
	/* the comment goes on to the next line */
	cr_assert_eq(S_CLASS(style_of(&d, 3, "b */")), S_COMMENT);
	doc_free(&d);
}

Test(markdown, other_languages_are_not_highlighted, .timeout = 10)
{
	struct doc d = render("```sh\nfor x in int; do echo; done\n```\n", 60, false);

	cr_assert_eq(S_CLASS(style_of(&d, 0, "for")), S_CODEBLOCK);
	doc_free(&d);
}

Test(markdown, ascii_mode_spells_everything_in_ascii, .timeout = 10)
{
	struct doc d = render(lesson, 50, true);
	int i;

	for (int i = 0; i < d.n; i++)
		for (const char *p = line_text(&d, i); *p; p++)
			cr_assert_lt((unsigned char)*p, 0x80, "line %d: '%s'", i, line_text(&d, i));
	cr_assert_str_eq(line_text(&d, 0), "Column sums -- why coalescing matters");
	i = find_line(&d, "kernel");
	cr_assert_geq(i, 0);
	cr_assert_str_eq(line_text(&d, i), "kernel                      |     us | GB/s");
	doc_free(&d);
}

Test(markdown, entities_are_decoded, .timeout = 10)
{
	struct doc d = render("a &amp; b &lt; c &#955; &#x3bb; &times;\n", 60, false);

	cr_assert_str_eq(line_text(&d, 0), "a & b < c λ λ ×");
	doc_free(&d);
}

Test(markdown, a_word_longer_than_the_line_is_cut, .timeout = 10)
{
	struct doc d = render("see https://docs.nvidia.com/cuda/cuda-c-programming-guide now\n", 20, false);

	struct buf all = BUF_INIT;

	for (int i = 0; i < d.n; i++) {
		cr_assert_leq(doc_line_width(&d.lines[i]), 20);
		buf_addstr(&all, line_text(&d, i));
	}
	cr_assert_str_eq(line_text(&d, 0), "see");
	/* nothing of it is lost */
	cr_assert(strstr(all.data, "https://docs.nvidia.com/cuda/cuda-c-programming-guide"), "%s", all.data);
	buf_free(&all);
	doc_free(&d);
}
