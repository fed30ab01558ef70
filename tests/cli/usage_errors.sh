#!/usr/bin/env bash
# Bad input to the real binary: a one-line error and exit code 2, before any GPU work
# (so this passes on machines with and without GPUs).
set -u
bin=$1
fail=0
expect() {  # expect CODE NEEDLE ARGS...
  local code=$1 needle=$2
  shift 2
  local out rc
  out=$("$bin" "$@" 2>&1)
  rc=$?
  if [[ $rc -ne $code ]]; then echo "FAIL: fabricbench $* exited $rc, expected $code: $out"; fail=1; return; fi
  if [[ "$out" != *"$needle"* ]]; then echo "FAIL: fabricbench $*: no '$needle' in: $out"; fail=1; return; fi
  echo "ok: fabricbench $* -> $code ($out)"
}
expect 2 "unknown collective 'allreduce'" run allreduce
expect 2 "unknown data type 'float128'" run all_reduce -d float128
expect 2 "unknown reduction op 'xor'" run all_reduce -o xor
expect 2 "is larger than -e/--maxbytes" run all_reduce -b 1G -e 1M
expect 2 "is not a size" run all_reduce -b lots
expect 2 "--iters must be at least 1" run all_reduce -n 0
expect 2 "collectives is required" run
expect 2 "not built yet" 
expect 2 "launcher" run all_reduce --launcher mpi
expect 0 "Examples" run --help
exit $fail
