#!/usr/bin/env bash
# make test-long's suite of tests/adversarial/ (with files as arguments: those alone): submissions that try
# to crash, hang, flood or fool the grader, and legitimate fast kernels it must pass. tests/submissions.sh
# grades them, and says what each file declares.
export SUITE=adversarial
exec bash "$(dirname "$0")/../submissions.sh" "${@:-$(dirname "$0")}"
