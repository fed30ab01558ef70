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
# Plain files only (the packages link /sbin/ip to /bin/ip and each library to its version; a copy to
# another machine may not keep links): bin/ip, bin/tc and lib/ by the names the loader asks for.
mkdir -p "$dir/bin" "$dir/lib"
for tool in ip tc; do cp "$(find "$dir/root" -path "*bin/$tool" -type f | head -n 1)" "$dir/bin/$tool"; done
for lib in "$dir"/root/lib/x86_64-linux-gnu/*.so.* "$dir"/root/usr/lib/x86_64-linux-gnu/*.so.*; do
  cp -L "$lib" "$dir/lib/$(basename "$lib")"
done
rm -rf "$dir/debs" "$dir/root"
echo "ip and tc in $dir/bin, their libraries in $dir/lib"
