#!/usr/bin/env bash
# The device checks, run as one prepared script on a lent GPU machine (see docs/gpu.md):
#   bash benchmarks/gpu_check.sh [OUTDIR]
# Installs carried wheels (.whl/, when present) into /tmp/site, then runs the cuda-marked tests and the
# benchmarks that have a CUDA path, each under its own time limit, logging to OUTDIR (default: ./gpu-logs).
set -u
out=${1:-${OUT:-gpu-logs}}
mkdir -p "$out"
if [ -z "${SKIP_WHEELS:-}" ] && ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
  export PYTHONPATH=/tmp/site:src
else
  export PYTHONPATH=src
fi
export PYTHONUNBUFFERED=1
step() {  # step NAME SECONDS COMMAND...: one check, its output kept in OUTDIR/NAME.log
  local name=$1 limit=$2; shift 2
  echo "=== $name (limit ${limit}s): $*"
  local t0=$SECONDS
  timeout "$limit" "$@" > "$out/$name.log" 2>&1; local rc=$?
  tail -n "${TAIL:-25}" "$out/$name.log"
  echo "=== $name rc=$rc in $((SECONDS - t0))s"
}
nvidia-smi -L
python3 -c "import cupy, numpy; print('cupy', cupy.__version__, 'numpy', numpy.__version__)"
want() { [ -z "${STEPS:-}" ] || [[ " $STEPS " == *" $1 "* ]]; }   # STEPS="a b": only those checks
want cuda_tests && step cuda_tests 200 python3 -m pytest -m cuda -q -p no:cacheprovider -rs \
  tests/ops/test_cuda_ops.py tests/graph/test_cuda_graph.py tests/config/test_discovery.py tests/eager/test_cuda.py \
  tests/distribute/test_cuda_training.py tests/memory/test_cuda_memory.py tests/memory/test_cuda_memory_suite.py \
  tests/distribute/test_multi_worker.py
want eager_dispatch && step eager_dispatch 40 python3 benchmarks/eager_dispatch.py
want allocator && step allocator 30 python3 benchmarks/allocator.py
want calibrated && step op_overhead 60 python3 benchmarks/op_overhead.py --write "$out/host_costs.json" &&
  step estimate_vs_real_calibrated 240 env PYTHONPATH=$PYTHONPATH:. PLACEFLOW_HOST_COSTS="$out/host_costs.json" \
  python3 benchmarks/estimate_vs_real.py --steps 10
want estimate_measured && step estimate_measured 240 env PYTHONPATH=$PYTHONPATH:. python3 benchmarks/estimate_vs_real.py --steps 10 --measured
want estimate_vs_real && step estimate_vs_real 240 env PYTHONPATH=$PYTHONPATH:. python3 benchmarks/estimate_vs_real.py --steps 10
want placement_measured && step placement_measured 60 env PYTHONPATH=$PYTHONPATH:. python3 benchmarks/placement_measured.py
want op_overhead && step op_overhead 60 python3 benchmarks/op_overhead.py
want train && step train 90 python3 benchmarks/train.py --cuda --steps 30
true
