# tools/runner-flags.awk — harness/runner.mk as a C header: for each
# `NAME := words`, NAME is the words as a list of C strings (for an argv)
# and NAME_LINE the same as one string. A line of any other form, or a word
# with a quote, a backslash or a $, stops the build: the description is data.
BEGIN {
	print "/* Generated from harness/runner.mk by tools/runner-flags.awk. Do not edit. */"
	print "#ifndef CUDALINGS_RUNNER_FLAGS_H"
	print "#define CUDALINGS_RUNNER_FLAGS_H"
}
/^[ \t]*(#|$)/ { next }
$1 ~ /^[A-Z_][A-Z0-9_]*$/ && $2 == ":=" {
	list = ""
	line = ""
	for (i = 3; i <= NF; i++) {
		if ($i ~ /["\\$]/) {
			printf "%s:%d: '%s' holds a quote, a backslash or a $\n", FILENAME, FNR, $i > "/dev/stderr"
			failed = 1
			exit 1
		}
		list = list (i > 3 ? ", " : "") "\"" $i "\""
		line = line (i > 3 ? " " : "") $i
	}
	print "#define " $1 " " list
	print "#define " $1 "_LINE \"" line "\""
	next
}
{
	printf "%s:%d: not a 'NAME := words' line\n", FILENAME, FNR > "/dev/stderr"
	failed = 1
	exit 1
}
END {
	if (!failed)
		print "#endif"
	exit failed
}
