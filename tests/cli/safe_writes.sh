#!/usr/bin/env bash
# Writes as root where another user planted something (issue 53, docs/security.md, "Writes as root"),
# with the real binary: a user made here with useradd plays the attacker. A link the attacker planted
# at an output or a textfile is never followed (the file it names stays as it was); a folder the
# attacker made or every user may write in is refused as an output folder; a link root itself made is
# followed as before; files are created with the umask's mode. Each refusal is one line, exit 2.
# Not root: SKIP (the attacker must be another user; CI runs as root). The umask's modes are checked
# either way.
#   safe_writes.sh FABRICBENCH RESULTS_FIXTURES
set -u
bin=$1
fixtures=$2
doc=$fixtures/synthetic-2host-socket.json
tmp=$(mktemp -d)
chmod 755 "$tmp"
fail=0
attacker=""
cleanup() {
  rm -rf "$tmp" "${planted[@]}"
  [[ -n $attacker ]] && userdel "$attacker" 2> /dev/null
}
planted=()
trap cleanup EXIT
t() { echo "-- $*"; }
bad() { echo "FAIL: $*"; fail=1; }
# refused WHAT TEXT CMD...: exit 2 and one line that says TEXT.
refused() {
  local what=$1 text=$2 out code
  shift 2
  out=$("$@" 2>&1)
  code=$?
  [[ $code -eq 2 && $(grep -c . <<< "$out") -eq 1 && $out == *"$text"* ]] ||
    { echo "$out" | head -5; bad "$what: exit $code, expected 2 and one line saying: $text"; }
}
mode_of() { stat -c %a "$1"; }

t "files are created with the umask: 077 gives 600, 022 gives 644"
(umask 077 && "$bin" report "$doc" -o "$tmp/u077.md") || bad "report -o under umask 077"
(umask 022 && "$bin" report "$doc" -o "$tmp/u022.md") || bad "report -o under umask 022"
[[ $(mode_of "$tmp/u077.md") == 600 && $(mode_of "$tmp/u022.md") == 644 ]] ||
  bad "modes $(mode_of "$tmp/u077.md") and $(mode_of "$tmp/u022.md"), expected 600 and 644"
(umask 077 && "$bin" report "$doc" -o "$tmp/u077.md") || bad "report -o over a file"
[[ $(mode_of "$tmp/u077.md") == 600 ]] || bad "a file replaced: mode $(mode_of "$tmp/u077.md")"

t "an output folder every user may write in (not sticky) is refused"
mkdir -m 777 "$tmp/open"
chmod 777 "$tmp/open"
refused "report -o into a 0777 folder" "writable by every user" "$bin" report "$doc" -o "$tmp/open/r.md"
[[ -e $tmp/open/r.md ]] && bad "a file was written in the 0777 folder"

if [[ $(id -u) -ne 0 ]]; then
  echo "SKIP: not root: the attacker must be another user than the writer (CI runs these as root)"
  [[ $fail -eq 0 ]] && echo "all safe-write checks that run without root passed"
  exit $fail
fi
attacker=fbattacker$$
useradd -M -r -s /usr/sbin/nologin "$attacker" || { bad "useradd failed"; exit 1; }
as_attacker() { runuser -u "$attacker" -- "$@"; }
echo "root-owned" > "$tmp/victim"
chmod 644 "$tmp/victim"
victim_sum=$(sha256sum < "$tmp/victim")
victim_intact() { [[ $(sha256sum < "$tmp/victim") == "$victim_sum" && $(stat -c %U "$tmp/victim") == root ]] || bad "$1: the victim file changed"; }

t "a symlink another user planted at the output (in the sticky /tmp): refused, its target untouched"
link=/tmp/fabricbench-planted-$$.md
planted+=("$link")
as_attacker ln -s "$tmp/victim" "$link"
refused "report -o a planted link" "a symlink owned by uid" "$bin" report "$doc" -o "$link"
victim_intact "report -o a planted link"
[[ -L $link ]] || bad "the planted link was replaced"

t "a symlink another user planted at the textfile: refused, its target untouched"
link=/tmp/fabricbench-planted-$$.prom
planted+=("$link")
as_attacker ln -s "$tmp/victim" "$link"
refused "report --prometheus a planted link" "a symlink owned by uid" \
  "$bin" report "$doc" --analyse --prometheus "$link" -o "$tmp/r.md"
victim_intact "report --prometheus a planted link"

t "a symlink on the way to the output, in a folder another user owns: refused"
mkdir "$tmp/attacker-home"
chown "$attacker" "$tmp/attacker-home"
as_attacker ln -s "$tmp" "$tmp/attacker-home/out"
refused "report -o through another user's link" "a symlink owned by uid" \
  "$bin" report "$doc" -o "$tmp/attacker-home/out/victim"
victim_intact "report -o through another user's link"

t "an output folder another user made first (the prolog's folder squatted): refused"
as_attacker mkdir "$tmp/attacker-home/doctor"
out=$(timeout 120 "$bin" doctor --prolog --out "$tmp/attacker-home/doctor" 2>&1)
echo "$out" | grep -q "the folder belongs to uid" || { echo "$out" | tail -5; bad "doctor --out a folder another user made: not refused"; }
[[ -z $(ls -A "$tmp/attacker-home/doctor") ]] || bad "doctor wrote into the folder another user made"
refused "report -o into another user's folder" "its folder belongs to uid" \
  "$bin" report "$doc" -o "$tmp/attacker-home/r.md"

t "a symlink root made, to root's own file: followed as before (the link kept)"
cp "$tmp/victim" "$tmp/own-target.md"
ln -s "$tmp/own-target.md" "$tmp/own-link.md"
"$bin" report "$doc" -o "$tmp/own-link.md" || bad "report -o root's own link"
[[ -L $tmp/own-link.md ]] && grep -q "fabricbench summary" "$tmp/own-target.md" || bad "root's own link not written through"

[[ $fail -eq 0 ]] && echo "all safe-write checks passed"
exit $fail
