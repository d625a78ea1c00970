/* options: getopt_long over option tables, and their usage text (see options.h). */
#include "grader/cmd/options.h"

#include <getopt.h>
#include <string.h>

#include "lib/util.h"

static int
count(const struct option_spec *specs)
{
	int n = 0;
	while (specs && specs[n].name)
		n++;
	return n;
}

int
options_parse(const char *command, const struct option_spec *specs, int argc, char **argv,
	      struct parsed_args *out)
{
	int n = count(specs);
	if (n >= OPTIONS_MAX)
		return error("%s: too many options in its table", command);
	memset(out, 0, sizeof(*out));
	out->specs = specs;
	/* an option's val is its index + 1: 0 is what getopt_long reports for one it does not know */
	struct option longs[OPTIONS_MAX + 2];
	for (int i = 0; i < n; i++)
		longs[i] = (struct option){ specs[i].name, specs[i].value ? required_argument : no_argument, NULL, i + 1 };
	longs[n] = (struct option){ "help", no_argument, NULL, 'h' };
	longs[n + 1] = (struct option){ 0, 0, 0, 0 };
	/* the messages are ours and name the option; ':' first tells a missing value from an unknown option */
	opterr = 0;
	optind = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
		if (c == 'h')
			return 1;
		if (c == ':')
			return error("%s: '--%s' needs a value (cudalings help %s)", command, specs[optopt - 1].name,
				     command);
		if (c == '?' && optopt > 0 && optopt <= n)
			return error("%s: '--%s' takes no value (cudalings help %s)", command, specs[optopt - 1].name,
				     command);
		if (c == '?' && optopt >= ' ')
			return error("%s: unknown option '-%c' (cudalings help %s)", command, optopt, command);
		if (c == '?') {
			/* a long option getopt_long did not know: the word just read */
			const char *typed = argv[optind - 1];
			return error("%s: unknown option '%.*s' (cudalings help %s)", command, (int)strcspn(typed, "="),
				     typed, command);
		}
		out->given[c - 1] = true;
		out->value[c - 1] = specs[c - 1].value ? optarg : NULL;
	}
	for (int i = 0; i < n; i++)
		if (specs[i].required && !out->given[i])
			return error("%s: '--%s %s' is needed (cudalings help %s)", command, specs[i].name, specs[i].value,
				     command);
	out->operands = argv + optind;
	out->noperands = argc - optind;
	return 0;
}

static int
find(const struct parsed_args *a, const char *name)
{
	for (int i = 0; a->specs && a->specs[i].name; i++)
		if (!strcmp(a->specs[i].name, name))
			return i;
	die(3, "no option '--%s' in the table: a bug in cudalings", name);
}

bool
options_given(const struct parsed_args *a, const char *name)
{
	return a->given[find(a, name)];
}

const char *
options_value(const struct parsed_args *a, const char *name)
{
	int i = find(a, name);
	return a->given[i] ? a->value[i] : NULL;
}

void
options_synopsis(FILE *out, const struct option_spec *specs, int indent, int width)
{
	int column = indent;
	for (int i = 0; specs && specs[i].name; i++) {
		char word[128];
		int n = snprintf(word, sizeof(word), "%s--%s%s%s%s", specs[i].required ? "" : "[", specs[i].name,
				 specs[i].value ? " " : "", specs[i].value ? specs[i].value : "", specs[i].required ? "" : "]");
		if (column + 1 + n > width && column > indent) {
			fprintf(out, "\n%*s", indent, "");
			column = indent;
		}
		fprintf(out, " %s", word);
		column += 1 + n;
	}
}

void
options_describe(FILE *out, const struct option_spec *specs)
{
	for (int i = 0; specs && specs[i].name; i++) {
		char word[128];
		snprintf(word, sizeof(word), "--%s%s%s", specs[i].name, specs[i].value ? " " : "",
			 specs[i].value ? specs[i].value : "");
		fprintf(out, "  %-18s %s\n", word, specs[i].help);
	}
}
