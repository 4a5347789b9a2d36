#!/usr/bin/env bash
# rust.sh - a Rust program of the lab's, built for a 32-bit userland with a
# distribution's own rustc and std: its rustc (amd64, this host's, with all
# it depends on: debian.sh closure, so that it runs on this host's glibc
# or a newer one of its own) and the userland's libstd-rust-dev of the same
# version, fetched into the cache and unpacked there, never installed.
# Linked by the userland's cross compiler against glibc, dynamically, as
# Debian builds its Rust programs: it runs on the root's glibc.
#
#   rust.sh cache=DIR suite=trixie mirror=URL rust=1.85 arch=i386 \
#           target=i686-unknown-linux-gnu cross=i686-linux-gnu- src=FILE out=FILE
#
# rust is the version the distribution's file names (distros/*.mk): a suite
# whose rustc is another is an error, not a quiet change of the program.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
cache='' suite='' mirror=http://deb.debian.org/debian rust='' arch='' target='' cross='' src='' out=''
kv_args "$@"
need cache suite rust arch target cross src out
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The compiler: one entry of the cache per suite, fetched once even when
# two userlands' builds ask at once (cache_entry). Its std for this host is
# left out: the program is built against the userland's (--sysroot).
toolchain=$cache/rust/$suite-rustc
rustc_version() { sed -n 's/^rustc \([^ ]*\)$/\1/p' "$1/.versions" 2>/dev/null; }
has_toolchain() { [[ $(rustc_version "$1") == "$rust".* ]]; }
fetch_toolchain() {
	"$here/../distro/debian.sh" closure cache="$cache" arch=amd64 suite="$suite" mirror="$mirror" \
		out="$1" rustc >&2 || return
	has_toolchain "$1" || { echo "rust.sh: Debian $suite's rustc is $(rustc_version "$1"), not $rust (distros/*.mk: rust)" >&2; return 1; }
	rm -rf "$1"/usr/lib/rustlib/x86_64-* "$1/usr/share/doc"
}
cache_entry "$toolchain" has_toolchain fetch_toolchain ||
	die "rustc $rust cannot be fetched from Debian $suite"
version=$(rustc_version "$toolchain")

# The userland's std, the compiler's very version.
std=$cache/rust/$suite-std-$arch
has_std() { grep -qx "libstd-rust-dev $version" "$1/.versions" 2>/dev/null; }
fetch_std() {
	"$here/../distro/debian.sh" package cache="$cache" arch="$arch" suite="$suite" mirror="$mirror" \
		out="$1" "libstd-rust-dev=$version" >&2 &&
		echo "libstd-rust-dev $version" >"$1/.versions"
}
cache_entry "$std" has_std fetch_std ||
	die "libstd-rust-dev $version for $arch cannot be fetched from Debian $suite"
[ -d "$std/usr/lib/rustlib/$target/lib" ] ||
	die "$std: libstd-rust-dev for $arch has no usr/lib/rustlib/$target (target=)"

# rustc runs on the glibc of its own suite, through that glibc's loader:
# nothing from this host's environment but the cross linker.
libs=$toolchain/usr/lib/x86_64-linux-gnu
# Its objects go to a folder of its own, removed after.
mkdir -p "$(dirname "$out")"
tmp=$out.tmp.$$
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp"
env -i PATH=/usr/bin:/bin HOME="$cache/rust" "$libs/ld-linux-x86-64.so.2" --library-path "$libs" \
	"$toolchain/usr/bin/rustc" --edition 2021 -O -C strip=debuginfo --target "$target" \
	--sysroot "$std/usr" -C linker="${cross}gcc" -o "$tmp/program" "$src" ||
	die "rustc $version cannot build $src for $target"
mv "$tmp/program" "$out"
