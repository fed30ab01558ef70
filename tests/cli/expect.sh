# Sourced by the CLI tests. `expect CODE NEEDLE ARGS...` runs "$bin" ARGS through `run` (a test
# may redefine it after sourcing, e.g. under `timeout`) and sets fail=1 unless the run exits CODE
# with NEEDLE in its output. With EXPECT_SHOW=1 a passing case also prints that output.
run() {  # run ARGS... -> sets out, rc
  out=$("$bin" "$@" 2>&1)
  rc=$?
}

# Whether the last run exited CODE with NEEDLE in its output; says why and sets fail=1 if not.
matches() {  # CODE NEEDLE ARGS...
  local code=$1 needle=$2
  shift 2
  if [[ $rc -ne $code ]]; then echo "FAIL: fabricbench $* exited $rc, expected $code: ${out:0:300}"; fail=1; return 1; fi
  if [[ "$out" != *"$needle"* ]]; then echo "FAIL: fabricbench $*: no '$needle' in: ${out:0:300}"; fail=1; return 1; fi
}

expect() {
  local code=$1 needle=$2
  shift 2
  run "$@"
  matches "$code" "$needle" "$@" || return
  echo "ok: fabricbench $* -> $code${EXPECT_SHOW:+ ($out)}"
}

# `expect_line CODE NEEDLE ARGS...`: as expect, and the whole output is one line that starts
# "fabricbench: error: " (the one-line rule for every error, CLI11's own included).
expect_line() {
  local code=$1 needle=$2
  shift 2
  run "$@"
  matches "$code" "$needle" "$@" || return
  if [[ "$out" == *$'\n'* || "$out" != "fabricbench: error: "* ]]; then
    echo "FAIL: fabricbench $*: not one line starting 'fabricbench: error: ': ${out:0:300}"; fail=1; return
  fi
  echo "ok: fabricbench $* -> $code, one line (${out})"
}
