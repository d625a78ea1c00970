#!/usr/bin/env bash
# make test's suite of tests/mistakes/ (with files as arguments: those alone): typical mistakes, each
# with the diagnosis it must get and a hint. tests/submissions.sh grades them, and says what each file
# declares; on the simulator unless BACKEND says otherwise (BACKEND=gpu: untimed, under Nsight Compute
# or compute-sanitizer, which make the diagnoses there).
export SUITE=mistakes BACKEND=${BACKEND:-sim}
exec bash "$(dirname "$0")/../submissions.sh" "${@:-$(dirname "$0")}"
