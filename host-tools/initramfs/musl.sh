#!/usr/bin/env bash
# musl.sh - Debian's musl for a userland, ready to build the scenarios with:
#
#   musl.sh cache=DIR arch=i386 suite=trixie mirror=URL target=i386-linux-musl cross=i686-linux-gnu- out=DIR
#   musl.sh built=DIR target=i386-linux-musl cross=i686-linux-gnu- out=DIR
#
# fetches musl-dev (debian.sh package: the cache, never this machine's dpkg)
# into OUT/root and writes OUT/musl.specs, the package's own musl-gcc.specs
# with its paths moved there and the cross toolchain's kernel headers added
# (musl ships none), and OUT/libc ("musl-1.2.5"), what the programs link.
# With built=, the musl is one the lab built (host-tools/libc/musl-build.sh:
# DIR/root, laid out as musl-dev, and DIR/libc, its name): OUT/root points
# there and OUT/libc is that name.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
cache= arch= suite= mirror= target= cross= out= built=
kv_args "$@"
[ -n "$out" ] && [ -n "$target" ] && [ -n "$cross" ] || die "usage: musl.sh cache= arch= suite= mirror= target= cross= out="
out=$(realpath -m "$out")
rm -rf "$out"
mkdir -p "$out"
if [ -n "$built" ]; then
	[ -r "$built/libc" ] || die "built=$built is no musl the lab built (no $built/libc)"
	ln -s "$built/root" "$out/root"
else
	"$(dirname "$0")/../distro/debian.sh" package cache="$cache" arch="$arch" suite="$suite" mirror="$mirror" \
		out="$out/root" musl-dev >"$out.log" 2>&1 ||
		die "musl-dev ($suite, $arch) could not be fetched: $(grep -m1 'debian.sh:' "$out.log" || tail -1 "$out.log"); MUSL=no leaves the musl column out"
fi
specs=$out/root/usr/lib/$target/musl-gcc.specs
[ -f "$specs" ] || die "${built:-musl-dev ($suite, $arch)} has no usr/lib/$target/musl-gcc.specs: is $target its target?"
# The kernel's UAPI headers (linux/, asm/) of the cross toolchain's sysroot.
headers=/usr/${cross%-}/include
mkdir -p "$out/include"
for d in linux asm asm-generic; do
	[ -d "$headers/$d" ] || die "$headers/$d is missing: the cross toolchain's linux-libc-dev is not installed"
	ln -s "$headers/$d" "$out/include/$d"
done
sed -e "s#/usr/include/$target#$out/root/usr/include/$target -isystem $out/include#g" \
	-e "s#/usr/lib/$target#$out/root/usr/lib/$target#g" "$specs" >"$out/musl.specs"
if [ -n "$built" ]; then
	cp "$built/libc" "$out/libc"
else
	version=$(awk '$1 == "musl-dev" { sub(/-[^-]*$/, "", $2); print $2 }' "$out/root/.versions")
	[ -n "$version" ] || die "cannot tell musl-dev's version from $out/root/.versions"
	echo "musl-$version" >"$out/libc"
fi
rm -f "$out.log"
