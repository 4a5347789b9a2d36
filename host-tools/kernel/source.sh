# source.sh - sourced by kernel.sh, kunit.sh and checkpatch.sh: find the
# kernel source a package names, unpack it once, and apply the lab's series
# to a copy of it once. Needs say() and die() from its caller.
#
#   kernel_source CACHE PACKAGE SERIES
#
# Sets srcpkg (linux-source-X.Y), version (the Debian version), kver (X.Y),
# pristine (the unpacked tree), tree (the patched tree, or pristine when the
# series is "none" or empty), phash (the series hash, or "none"),
# patches_desc ("N patches @ HASH" or "none") and patches (the patch files).

kernel_source() {
	local cache=$1 package=$2 series=$3 here tarball tmp plist
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

	# The metapackage resolves to one linux-source-X.Y.
	srcpkg=$package
	if [ "$package" = linux-source ]; then
		srcpkg=$(dpkg-query -W -f='${Depends}' linux-source 2>/dev/null |
			sed -n 's/^\(linux-source-[0-9.]*\).*/\1/p')
		[ -n "$srcpkg" ] || die "the linux-source package is not installed (make deps installs it)"
	fi
	case $srcpkg in
	linux-source-[0-9]*.[0-9]*) ;;
	*) die "KERNEL=$package: want linux-source or linux-source-X.Y (linux-source-6.12)" ;;
	esac
	version=$(dpkg-query -W -f='${Version}' "$srcpkg" 2>/dev/null) ||
		die "$srcpkg is not installed: apt-get install $srcpkg"
	kver=${srcpkg#linux-source-}
	tarball=/usr/src/$srcpkg.tar.xz
	[ -r "$tarball" ] || die "$tarball is missing although $srcpkg $version is installed"

	# Two runs may share the cache: one unpacks and patches, the other waits.
	mkdir -p "$cache/src"
	exec 8>"$cache/src/.lock"
	flock 8

	# The pristine tree, unpacked once per package version.
	pristine=$cache/src/$srcpkg-$version
	if [ ! -d "$pristine" ]; then
		say UNPACK "$tarball -> $pristine"
		tmp=$(mktemp -d "$cache/src/.unpack.XXXXXX")
		tar -C "$tmp" -xf "$tarball"
		mv "$tmp/$srcpkg" "$pristine"
		rmdir "$tmp"
	fi

	# The patched tree, once per series hash ("none" when the series is empty).
	plist=
	[ "$series" = none ] || plist=$("$here/series.sh" list "$series" "$kver") ||
		die "the patch series $series cannot be read"
	mapfile -t patches <<<"$plist"
	[ -n "$plist" ] || patches=()
	if [ ${#patches[@]} -eq 0 ]; then
		phash=none
		patches_desc=none
		tree=$pristine
	else
		phash=$("$here/series.sh" hash "$series" "$kver")
		patches_desc="${#patches[@]} patches @ $phash"
		tree=$cache/src/$srcpkg-$version-p$phash
		if [ ! -d "$tree" ]; then
			say PATCH "${#patches[@]} patches from $series -> $tree"
			"$here/series.sh" apply "$series" "$pristine" "$tree" "$kver" ||
				die "the patch series $series does not apply to $srcpkg $version"
		fi
	fi
	exec 8>&-
}
