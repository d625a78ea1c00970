#!/usr/bin/env bash
# Nsight Compute on the GPU machine (bench/ncu-budgets-h100.md): which memory metrics this ncu
# has, what they read on transpose variants (one launch each, inside cudaProfilerStart/Stop),
# and what one profiled launch costs against a plain run. A measurement, not a test.
#   bash bench/ncu_probe/probe.sh   (OUT set: each variant's CSV and the metric list there)
set -u
cd "$(dirname "$0")"
o=${OUT:-/tmp}
nvidia-smi -L; ncu --version | tail -1
nvcc -O3 -arch=sm_90 -o /tmp/probe probe.cu || exit 1
ncu --query-metrics 2>&1 | grep -E 'l1tex__t_(sectors|requests)_pipe_lsu_mem_global_op_(ld|st|ldgsts)|bank_conflicts_pipe_lsu_mem_shared|wavefronts_mem_shared|data_bytes_per_sector|inst_executed_op_shared|inst_executed_op_global|ldgsts' >$o/metrics.txt
ncu --query-metrics-mode suffix --metrics smsp__sass_average_data_bytes_per_sector_mem_global_op_ld 2>&1 | head -5 >>$o/metrics.txt
wc -l $o/metrics.txt
CORE=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
PCT=smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct
LDGSTS=l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
IDEAL=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
t() { local s=$EPOCHREALTIME; "$@" >/dev/null 2>&1; awk -v a="$s" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'; }
echo "plain run: $(t /tmp/probe padded) s"
echo "plain run again: $(t /tmp/probe padded) s"
for k in naive padded unpadded shuffles copy4 cp_async; do
	ncu --clock-control none --profile-from-start off --csv --print-units base --log-file $o/$k.csv \
		--metrics $CORE,$PCT,$LDGSTS /tmp/probe $k >$o/$k.out 2>&1
	echo "== $k rc=$?"; tail -3 $o/$k.out
	python3 - $o/$k.csv <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 5]
h = rows[0]; ni, vi, ki = h.index("Metric Name"), h.index("Metric Value"), h.index("Kernel Name")
for r in rows[1:]: print("  %-22s %-70s %s" % (r[ki][:22], r[ni], r[vi]))
PY
done
# ideal-wavefront metrics, if this version has them
ncu --clock-control none --profile-from-start off --csv --print-units base --metrics $IDEAL /tmp/probe unpadded 2>&1 | tail -6
echo "== cost of one profiled launch, padded (seconds, the whole program under ncu)"
echo "core          $(t ncu --clock-control none --profile-from-start off --csv --log-file /tmp/x.csv --metrics $CORE /tmp/probe padded)"
echo "core+pct      $(t ncu --clock-control none --profile-from-start off --csv --log-file /tmp/x.csv --metrics $CORE,$PCT /tmp/probe padded)"
echo "all           $(t ncu --clock-control none --profile-from-start off --csv --log-file /tmp/x.csv --metrics $CORE,$PCT,$LDGSTS /tmp/probe padded)"
echo "all again     $(t ncu --clock-control none --profile-from-start off --csv --log-file /tmp/x.csv --metrics $CORE,$PCT,$LDGSTS /tmp/probe padded)"
echo "nocache       $(t ncu --clock-control none --cache-control none --profile-from-start off --csv --log-file /tmp/x.csv --metrics $CORE,$PCT,$LDGSTS /tmp/probe padded)"
echo "no range, 1   $(t ncu --clock-control none --launch-count 1 --csv --log-file /tmp/x.csv --metrics $CORE,$PCT,$LDGSTS /tmp/probe padded)"
# how a profiled process reaches the log: ncu's front end writes it, the target's stdout goes to ncu's
ncu --clock-control none --profile-from-start off --csv --log-file /tmp/y.csv --metrics $CORE /tmp/probe padded >/tmp/y.out 2>&1
echo "stdout of target went to ncu's stdout: $(grep -c 'padded:' /tmp/y.out) ; in the log: $(grep -c 'padded:' /tmp/y.csv)"
