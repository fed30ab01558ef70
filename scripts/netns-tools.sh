#!/usr/bin/env bash
# Debian's iproute2 (ip, tc) and the libraries it needs, unpacked into a folder (default .netns-tools,
# git-ignored) with `apt-get download` and `dpkg -x`, for a machine that has unshare but no ip or tc
# (the GPU machine): scripts/fake-hosts.sh finds them there (NETNS_TOOLS) to build its network
# namespaces and shape a slow host's link. Run it here; carry the folder.
#   scripts/netns-tools.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-.netns-tools}
packages=(iproute2 libbpf1 libelf1 libmnl0 libbsd0 libcap2 libxtables12 libmd0)
mkdir -p "$dir/debs"
(cd "$dir/debs" && apt-get download "${packages[@]}")
for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir/root"; done
rm -rf "$dir/debs"
echo "ip and tc in $dir/root/usr/sbin (libraries in $dir/root/usr/lib/x86_64-linux-gnu and lib/)"
