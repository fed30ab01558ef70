#!/usr/bin/env bash
# The repo's own style rules, checked (ctest runs the first three as tests labelled `lint`):
#   scripts/lint.sh format            clang-format (.clang-format) over every C++/CUDA file git tracks
#   scripts/lint.sh tidy BUILD_DIR    clang-tidy (.clang-tidy) over every C++ file of src/ and tools/,
#                                     with the build's compile commands (less its precompiled header,
#                                     so that each file is read with its own includes); any warning fails
#   scripts/lint.sh size              no function in src/ over 80 lines (lizard) and no file over 400
#   scripts/lint.sh changed BUILD_DIR the three above on the files changed against origin/main (or
#                                     HEAD~1 where there is none), for the contributor's loop
# clang-tidy is the pinned release from PyPI (scripts/deps.sh installs it): 2.5 times faster than
# Debian 12's clang-tidy 14 on this code, with the same checks (.clang-tidy).
set -euo pipefail
cd "$(dirname "$0")/.."
tidy_version=23.1.4

clang_tidy() {
  local bin
  bin=$(python3 -c 'import clang_tidy, os; print(os.path.join(os.path.dirname(clang_tidy.__file__), "data", "bin", "clang-tidy"))' 2> /dev/null) ||
    { echo "lint: the clang-tidy wheel is missing: scripts/deps.sh test (pip install clang-tidy==$tidy_version)" >&2; return 3; }
  "$bin" --version | grep -q "version $tidy_version" ||
    { echo "lint: clang-tidy $tidy_version expected, found: $("$bin" --version | grep version)" >&2; return 3; }
  echo "$bin"
}

# BUILD_DIR's compile commands without the precompiled header's flags, in BUILD_DIR/tidy/.
tidy_database() {
  local build=$1
  mkdir -p "$build/tidy"
  python3 - "$build/compile_commands.json" "$build/tidy/compile_commands.json" <<'PY'
import json, re, sys
entries = json.load(open(sys.argv[1]))
for e in entries:
    e["command"] = re.sub(r" -Winvalid-pch| -include \S*cmake_pch\.hxx", "", e["command"])
json.dump(entries, open(sys.argv[2], "w"))
PY
}

run_tidy() {  # BUILD_DIR FILE...
  local build=$1 bin log
  shift
  [[ $# -gt 0 ]] || { echo "clang-tidy: no files"; return 0; }
  bin=$(clang_tidy)
  tidy_database "$build"
  log=$(mktemp)
  if ! printf '%s\n' "$@" | xargs -P "$(nproc)" -n 2 "$bin" -p "$build/tidy" --quiet --warnings-as-errors='*' > "$log" 2>&1; then
    grep -v 'warnings\? generated\.$' "$log"; rm -f "$log"; echo "clang-tidy: the warnings above fail the check"; return 1
  fi
  rm -f "$log"
  echo "clang-tidy: $# files clean"
}

run_size() {  # FILE...
  python3 -c 'import lizard' 2> /dev/null || { echo "lint: lizard is missing: scripts/deps.sh test" >&2; return 3; }
  [[ $# -gt 0 ]] || { echo "size: no files"; return 0; }
  python3 -m lizard -L 80 -w "$@" || { echo "functions over 80 lines: above"; return 1; }
  local long
  long=$(wc -l "$@" | awk '$2 != "total" && $1 > 400')
  [[ -z $long ]] || { echo "files over 400 lines:"; echo "$long"; return 1; }
  echo "size: $# files, every function under 80 lines and every file under 400"
}

case ${1:-} in
  format)
    mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.h')
    clang-format --dry-run -Werror "${files[@]}"
    echo "clang-format: ${#files[@]} files clean"
    ;;
  tidy)
    mapfile -t files < <(git ls-files 'src/*.cpp' 'tools/*.cpp')
    run_tidy "${2:?usage: lint.sh tidy BUILD_DIR}" "${files[@]}"
    ;;
  size)
    mapfile -t files < <(git ls-files 'src/*.cpp' 'src/*.hpp' 'src/*.cu')
    run_size "${files[@]}"
    ;;
  changed)
    build=${2:?usage: lint.sh changed BUILD_DIR}
    base=$(git merge-base HEAD origin/main 2> /dev/null || git rev-parse HEAD~1)
    mapfile -t changed < <({ git diff --name-only "$base"; git ls-files --others --exclude-standard; } | sort -u)
    mapfile -t cxx < <(printf '%s\n' "${changed[@]}" | grep -E '\.(cpp|hpp|cu|h)$' | while read -r f; do [[ -f $f ]] && echo "$f"; done)
    mapfile -t tidy < <(printf '%s\n' "${cxx[@]}" | grep -E '^(src|tools)/.*\.cpp$' || true)
    mapfile -t sized < <(printf '%s\n' "${cxx[@]}" | grep -E '^src/' || true)
    echo "lint: ${#cxx[@]} changed C++ files since $(git rev-parse --short "$base")"
    [[ ${#cxx[@]} -eq 0 ]] || clang-format --dry-run -Werror "${cxx[@]}"
    run_tidy "$build" "${tidy[@]}"
    run_size "${sized[@]}"
    ;;
  *)
    echo "usage: scripts/lint.sh format | tidy BUILD_DIR | size | changed BUILD_DIR" >&2; exit 2 ;;
esac
