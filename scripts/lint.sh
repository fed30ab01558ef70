#!/usr/bin/env bash
# The repo's own style rules, checked (ctest runs both as tests labelled `lint`):
#   scripts/lint.sh format            clang-format (.clang-format) over every C++/CUDA file git tracks
#   scripts/lint.sh tidy BUILD_DIR    clang-tidy (.clang-tidy) over every C++ file of src/ and tools/,
#                                     with the build's compile_commands.json; any warning fails
#   scripts/lint.sh size              no function in src/ over 80 lines (lizard, from PyPI: installed
#                                     with pip when missing) and no file over 400 lines
set -euo pipefail
cd "$(dirname "$0")/.."
case ${1:-} in
  format)
    mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.h')
    clang-format --dry-run -Werror "${files[@]}"
    echo "clang-format: ${#files[@]} files clean"
    ;;
  tidy)
    build=${2:?usage: lint.sh tidy BUILD_DIR}
    mapfile -t files < <(git ls-files 'src/*.cpp' 'tools/*.cpp')
    log=$(mktemp)
    if ! printf '%s\n' "${files[@]}" |
      xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet --warnings-as-errors='*' > "$log" 2>&1; then
      grep -v 'warnings\? generated\.$' "$log"; rm -f "$log"; echo "clang-tidy: the warnings above fail the check"; exit 1
    fi
    rm -f "$log"
    echo "clang-tidy: ${#files[@]} files clean"
    ;;
  size)
    python3 -c 'import lizard' 2> /dev/null || python3 -m pip install -q lizard
    mapfile -t files < <(git ls-files 'src/*.cpp' 'src/*.hpp' 'src/*.cu')
    python3 -m lizard -L 80 -w "${files[@]}" || { echo "functions over 80 lines: above"; exit 1; }
    long=$(wc -l "${files[@]}" | awk '$2 != "total" && $1 > 400')
    [[ -z $long ]] || { echo "files over 400 lines:"; echo "$long"; exit 1; }
    echo "size: ${#files[@]} files, every function under 80 lines and every file under 400"
    ;;
  *)
    echo "usage: scripts/lint.sh format | tidy BUILD_DIR | size" >&2; exit 2 ;;
esac
