#!/usr/bin/env bash
# One judge (docs/design.md, "One verdict end to end"): every command entry that writes a result calls
# analyse/'s judge(), and nothing outside analyse/ computes a verdict or assigns findings to a document.
#   check_one_judge.sh SRC_DIR
set -euo pipefail
src=$1
fail=0
entries=(engine/commands/run_measurement.cpp engine/commands/algos_measurement.cpp
  engine/commands/scale_measurement.cpp engine/commands/p2p_measurement.cpp
  engine/commands/nodes_measurement.cpp engine/doctor/doctor.cpp engine/doctor/doctor_failure.cpp
  app/topo_command.cpp app/report_command.cpp app/expectations_command.cpp app/project_command.cpp)
# app/doctor_command.cpp takes its document from run_doctor (engine/doctor/doctor.cpp, judged there).
judged_elsewhere=(app/doctor_command.cpp)
for f in "${entries[@]}"; do
  grep -qE '\bjudge\(' "$src/$f" || { echo "FAIL: $f writes a result without calling judge()"; fail=1; }
done
# A verdict or a document's findings made anywhere but analyse/ (model/ only maps them to JSON).
others=$(grep -rnE '\bverdict_of\(|\brun_rules\(|(\.|->)verdict = |(\.|->)findings = ' "$src" --include='*.cpp' --include='*.hpp' |
  grep -vE "^$src/(analyse|model)/" | grep -v 'out.findings = compare_hosts(out.hosts)' || true)
if [[ -n $others ]]; then
  echo "FAIL: a verdict or findings computed outside analyse/:"
  echo "$others"
  fail=1
fi
# Every command's subcommand file is listed above or writes no result document.
for f in "$src"/app/*_command.cpp; do
  name=$(basename "$f")
  grep -q "Result" "$f" || continue
  case " ${entries[*]} ${judged_elsewhere[*]} " in *"app/$name"*) continue ;; esac
  if grep -qE 'make_result_header|Result result' "$f"; then
    echo "FAIL: app/$name builds a result document itself: judge it, or list why not here"
    fail=1
  fi
done
[[ $fail -eq 0 ]] && echo "one judge: ${#entries[@]} entries call judge(); no verdict or findings made outside analyse/"
exit $fail
