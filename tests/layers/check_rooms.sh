#!/usr/bin/env bash
# The rooms of analyse/ and engine/ hold their declared order (src/CMakeLists.txt, FB_ROOMS):
# the real tree passes, and a copy of it with an include against the order in each direction (a room
# above, a peer, the folder's top level) and an undeclared room fails, naming each.
#   check_rooms.sh SRC_DIR ORDER...    (ORDER: the arguments of check_rooms.py after SRC_DIR)
set -euo pipefail
here=$(dirname "$0")
src=$1
shift
python3 "$here/check_rooms.py" "$src" "$@"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$src/analyse" "$src/engine" "$tmp/"
echo '#include "analyse/verdict/verdict_contract.hpp"' >> "$tmp/analyse/expect/expectations.cpp"
echo '#include "analyse/host/host_checks.hpp"' >> "$tmp/analyse/run/run_health.cpp"
echo '#include "analyse/judge.hpp"' >> "$tmp/analyse/scope/gpu_names.cpp"
echo '#include "engine/doctor/doctor.hpp"' >> "$tmp/engine/plans/plan_runner.cpp"
mkdir "$tmp/engine/stray" && echo '#include "engine/plans/worker.hpp"' > "$tmp/engine/stray/x.cpp"
rc=0
out=$(python3 "$here/check_rooms.py" "$tmp" "$@") || rc=$?
echo "$out"
[[ $rc -eq 1 ]] || { echo "FAIL: includes against the order were not refused (exit $rc)"; exit 1; }
for want in "analyse/expect/expectations.cpp:.*room verdict/, above it" "analyse/run/run_health.cpp:.*room host/, a peer" \
  "analyse/scope/gpu_names.cpp:.*the folder's top level, above it" "engine/plans/plan_runner.cpp:.*room doctor/, above it" \
  "engine/stray/: a room that is not declared"; do
  grep -q "$want" <<< "$out" || { echo "FAIL: not named: $want"; exit 1; }
done
echo "rooms: the order holds, and each kind of include against it is refused"
