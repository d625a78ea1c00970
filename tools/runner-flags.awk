# tools/runner-flags.awk — harness/runner.mk as a C header: for each
# `NAME := words`, NAME is the words as a list of C strings (for an argv)
# and NAME_LINE the same as one string. A word may name a one-word value
# defined above it, as make would read it ($(BUILD_DIR)/sim); a line of any
# other form, or a word with a quote, a backslash or another $, stops the
# build: the description is data.
# With -v name=NAME it prints that one value's words instead, for scripts
# (tools/runner-flags.sh).
BEGIN {
	if (name == "") {
		print "/* Generated from harness/runner.mk by tools/runner-flags.awk. Do not edit. */"
		print "#ifndef CUDALINGS_RUNNER_MK_H"
		print "#define CUDALINGS_RUNNER_MK_H"
	}
}
function stop(message) {
	printf "%s:%d: %s\n", FILENAME, FNR, message > "/dev/stderr"
	failed = 1
	exit 1
}
# the word with each $(NAME) of a one-word value above replaced by that value
function expand(word,   out, ref) {
	out = ""
	while (match(word, /\$\([A-Z_][A-Z0-9_]*\)/)) {
		ref = substr(word, RSTART + 2, RLENGTH - 3)
		if (!(ref in one_word))
			stop("'" word "' names " ref ", which is no one-word value defined above it")
		out = out substr(word, 1, RSTART - 1) one_word[ref]
		word = substr(word, RSTART + RLENGTH)
	}
	return out word
}
/^[ \t]*(#|$)/ { next }
$1 ~ /^[A-Z_][A-Z0-9_]*$/ && $2 == ":=" {
	list = ""
	line = ""
	for (i = 3; i <= NF; i++) {
		word = expand($i)
		if (word ~ /["\\$]/)
			stop("'" $i "' holds a quote, a backslash or a $")
		list = list (i > 3 ? ", " : "") "\"" word "\""
		line = line (i > 3 ? " " : "") word
	}
	if (NF == 3)
		one_word[$1] = line
	if (name == "") {
		print "#define " $1 " " list
		print "#define " $1 "_LINE \"" line "\""
	} else if ($1 == name) {
		print line
		found = 1
	}
	next
}
{
	stop("not a 'NAME := words' line")
}
END {
	if (failed)
		exit 1
	if (name == "")
		print "#endif"
	else if (!found) {
		printf "runner-flags: no '%s' in %s\n", name, FILENAME > "/dev/stderr"
		exit 2
	}
}
