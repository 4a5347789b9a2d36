# source.sh - sourced by the kernel stage's tools (kernel.sh, bisect.sh) and
# patch checking (checkpatch.sh, kunit.sh): the kernel source a package
# names, unpacked once, and one working tree of it whose patches follow the
# series asked for. Needs say() and die() from its caller.
#
#   kernel_package PACKAGE
#       sets srcpkg (linux-source-X.Y: the metapackage resolved), kver (X.Y),
#       package_from (apt, or the suite data/kernel-sources.tsv names) and
#       package_version (the version it pins; for apt, the one installed
#       here, or nothing); fetches nothing
#   kernel_source CACHE PACKAGE SERIES
#       sets srcpkg (linux-source-X.Y), version (the Debian version), tarball
#       (the package's source tarball), kver
#       (X.Y), pristine (the unpacked tree), tree (the working tree), phash
#       (the series hash, or "none"), patches_desc ("N patches @ HASH" or
#       "none") and patches (the patch files, for kernel X.Y)
#   tree_take PATCH...
#       locks the working tree (fd 7, held until the caller closes it or
#       exits) and makes it carry exactly these patches, in order: what it
#       carried beyond their common start is reverted, the rest applied. Only
#       the files those patches touch change, so kbuild rebuilds only what
#       depends on them. A tree left half-changed (an interrupted run) is made
#       anew from the pristine one, with a new generation ($tree.generation):
#       a build folder made from an older generation must start over.
#   config_files FRAGMENT...
#       sets configs: the fragments as absolute paths; a missing one is an
#       error naming it
#   series_source WHY FRAGMENT...
#       for a tool that builds the series itself (kunit.sh, bisect.sh):
#       config_files, then kernel_source of $cache, $package and $series,
#       and an empty series is an error (WHY: what it would have done)
#   kbuild DIR ARGS...
#       make in the working tree, its objects in DIR, for the machine
#       (machine_facts: karch, kcross), through ccache when $ccache names one
#   kconfigure DIR FRAGMENT...
#       DIR/.config: tinyconfig, then the fragments (absolute paths) merged
#       over it in order, then olddefconfig
#   machine_work BUILDS
#       sets work: the machine's build folder for this kernel version, which
#       every build of it shares (kernel.sh, kunit.sh, bisect.sh), so that
#       kbuild recompiles only what a config or a patch changes; a kernel
#       flavour other than the lab's ($flavour: distro) has its own
#   work_begin WHAT / work_end WHAT
#       around a build in $work, with the working tree taken: begin empties
#       a folder built from an older generation of the tree, removes what an
#       interrupted build may have half-written (the objects newer than its
#       mark) and marks the folder ($work/.y2038-building); end records WHAT
#       as what the folder now holds ($work/.y2038-config) and unmarks it
#
# A package is installed with this machine's apt (data/kernel-sources.tsv
# says "apt"), or fetched from the suite and version the table names into
# the cache, never into this machine's dpkg.

kernel_package() {
	local package=$1 here
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
	kver=${srcpkg#linux-source-}
	package_from= package_version=
	read -r package_from package_version < <(awk -F'\t' -v p="$srcpkg" '$1 == p { print $2 "\t" $3 }' \
		"$here/../../data/kernel-sources.tsv") || true	# not in the table: apt
	package_from=${package_from:-apt}
	if [ "$package_from" = apt ]; then
		package_version=$(dpkg-query -W -f='${Version}' "$srcpkg" 2>/dev/null) || package_version=
	fi
}

kernel_source() {
	local cache=$1 package=$2 series=$3 here tmp plist from want
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	kernel_cache=$cache

	kernel_package "$package"
	from=$package_from want=$package_version
	case $from in
	apt)
		version=$want
		[ -n "$version" ] || die "$srcpkg is not installed: apt-get install $srcpkg"
		tarball=/usr/src/$srcpkg.tar.xz
		[ -r "$tarball" ] || die "$tarball is missing although $srcpkg $version is installed" ;;
	*)
		# Debian's package, from its suite, into the cache, once, even when
		# two runs ask at once (cache_entry).
		has_package() { grep -qx "$srcpkg $want" "$1/.versions" 2>/dev/null; }
		fetch_package() {
			"$here/../distro/debian.sh" package cache="$cache" arch=amd64 suite="$from" \
				out="$1" "$srcpkg=$want" >&2
		}
		cache_entry "$cache/src/$srcpkg-deb" has_package fetch_package || {
			# sid and experimental keep only the version they serve now
			local now
			now=$("$here/../distro/debian.sh" version cache="$cache" arch=amd64 suite="$from" "$srcpkg" 2>/dev/null || true)
			if [ -n "$now" ] && [ "$now" != "$want" ]; then
				die "$srcpkg $want is no longer served by Debian $from, which serves $now now: data/kernel-sources.tsv pins $want (its row names the version a result was measured on); pin $now there to build it"
			fi
			die "$srcpkg $want cannot be fetched from Debian $from (data/kernel-sources.tsv)${now:+; $from serves $now}"
		}
		version=$want
		tarball=$cache/src/$srcpkg-deb/usr/src/$srcpkg.tar.xz
		[ -r "$tarball" ] || die "the $srcpkg package has no usr/src/$srcpkg.tar.xz" ;;
	esac

	# Two runs may share the cache: one unpacks, the other waits.
	mkdir -p "$cache/src"
	exec 8>"$cache/src/.lock"
	flock 8
	pristine=$cache/src/$srcpkg-$version
	if [ ! -d "$pristine" ]; then
		say UNPACK "$tarball -> $pristine"
		tmp=$(mktemp -d "$cache/src/.unpack.XXXXXX")
		tar -C "$tmp" -xf "$tarball"
		mv "$tmp/$srcpkg" "$pristine"
		rmdir "$tmp"
	fi
	exec 8>&-
	tree=$pristine.tree

	plist=
	[ "$series" = none ] || plist=$("$here/series.sh" list "$series" "$kver") ||
		die "the patch series $series cannot be read"
	mapfile -t patches <<<"$plist"
	[ -n "$plist" ] || patches=()
	if [ ${#patches[@]} -eq 0 ]; then
		phash=none
		patches_desc=none
	else
		phash=$("$here/series.sh" hash "$series" "$kver")
		patches_desc="${#patches[@]} patches @ $phash"
	fi
}

# What the working tree carries: one "SHA256 NAME" line per patch, in order;
# a copy of each patch is kept beside it, to revert it by.
tree_take() {
	local state=$tree.applied keep=0 i n p applied=() want=()
	exec 7>"$tree.lock"
	flock 7
	if [ ! -d "$tree" ] || [ -e "$tree.dirty" ]; then
		[ ! -d "$tree" ] || say TREE "$tree was left half-changed: made anew from $pristine"
		rm -rf "$tree" "$state" "$state.d"
		cp -al "$pristine" "$tree.tmp"
		mv "$tree.tmp" "$tree"
		mkdir -p "$state.d"
		: >"$state"
		date +%s.%N >"$tree.generation"
		rm -f "$tree.dirty"
	fi
	mapfile -t applied <"$state"
	for p in "$@"; do
		want+=("$(sha256sum <"$p" | cut -c1-64) $(basename "$p")")
	done
	# the common start stays
	while [ $keep -lt ${#applied[@]} ] && [ $keep -lt ${#want[@]} ] &&
	      [ "${applied[$keep]}" = "${want[$keep]}" ]; do
		keep=$((keep + 1))
	done
	[ $keep -lt ${#applied[@]} ] || [ $keep -lt ${#want[@]} ] || return 0
	touch "$tree.dirty"	# until the state says again what the tree carries
	for ((i = ${#applied[@]} - 1; i >= keep; i--)); do
		patch -d "$tree" -p1 -R -E -s --no-backup-if-mismatch -r - <"$state.d/$i.patch" >"$tree.log" 2>&1 ||
			die "reverting ${applied[$i]#* } in $tree failed: $(tail -3 "$tree.log")"
		rm -f "$state.d/$i.patch"
	done
	n=$#
	for ((i = keep; i < n; i++)); do
		p=${*:$((i + 1)):1}
		# tried first: a patch that does not apply leaves the tree as it was
		if ! patch -d "$tree" -p1 -F0 -N -s --dry-run -r - <"$p" >"$tree.log" 2>&1; then
			cat "$tree.log" >&2
			tree_state "$i" "${want[@]}"
			rm -f "$tree.dirty"
			die "patch $((i + 1)), $(basename "$p"), does not apply to $srcpkg $version"
		fi
		patch -d "$tree" -p1 -F0 -N -s --no-backup-if-mismatch -r - <"$p" >"$tree.log" 2>&1 ||
			die "patch $((i + 1)), $(basename "$p"), applied in a dry run but not for real: $(tail -3 "$tree.log")"
		cp "$p" "$state.d/$i.patch"
	done
	tree_state "$n" "${want[@]}"
	rm -f "$tree.dirty" "$tree.log"
}

# tree_state N LINE...: the tree carries the first N of these patches.
tree_state() {
	local n=$1
	shift
	printf '%s\n' "${@:1:$n}" >"$tree.applied.tmp"
	[ "$n" -gt 0 ] || : >"$tree.applied.tmp"
	mv "$tree.applied.tmp" "$tree.applied"
}

config_files() {
	local f
	configs=()
	for f in "$@"; do
		[ -r "$f" ] || die "config fragment $f is missing"
		configs+=("$(realpath "$f")")
	done
}

series_source() {
	local why=$1
	shift
	config_files "$@"
	kernel_source "$(realpath -m "$cache")" "$package" "$series"
	[ "$phash" != none ] || die "the series is empty: $why"
}

kbuild() {
	local dir=$1 cc=()
	shift
	if [ -n "${ccache:-}" ]; then
		mkdir -p "$ccache"
		export CCACHE_DIR=$ccache
		cc=(CC="ccache ${kcross}gcc" HOSTCC="ccache gcc")
	fi
	# At a lower priority than the guests and the host column, which run
	# beside a build and measure time: a case of the host column has 50 ms
	# from its faked clock's setting to the overflow, and on a 2-core
	# machine a build at equal priority took more than that (59.4 ms).
	nice -n 10 make -C "$tree" O="$dir" ARCH="$karch" CROSS_COMPILE="$kcross" ${cc[@]+"${cc[@]}"} "$@"
}

kconfigure() {
	local dir=$1
	shift
	kbuild "$dir" tinyconfig &&
		(cd "$tree" && scripts/kconfig/merge_config.sh -m -O "$dir" "$dir/.config" "$@") &&
		kbuild "$dir" olddefconfig
}

# One build folder per machine and kernel flavour: a distro kernel (its
# options reach most files) would leave the lab's folder to be recompiled
# whole by the next lab build.
machine_work() {
	work=$(realpath -m "$1")/$srcpkg-$version/$machine$([ "${flavour:-lab}" = lab ] || echo "-$flavour").work
}

work_begin() {
	mkdir -p "$work"
	# A source tree made anew (tree_take) dates every object: start over.
	if [ "$(cat "$work/.y2038-tree-generation" 2>/dev/null)" != "$(cat "$tree.generation")" ]; then
		find "$work" -mindepth 1 -delete
		cp "$tree.generation" "$work/.y2038-tree-generation"
	fi
	if [ -f "$work/.y2038-building" ]; then
		say CLEAN "$machine: the last build in $work ($(cat "$work/.y2038-building")) was interrupted; removing what it may have half-written" >&2
		find "$work" -name '*.o' -newer "$work/.y2038-building" -delete
		rm -f "$work/vmlinux" "$work/$kimage"
	fi
	echo "$1" >"$work/.y2038-building"
}

work_end() {
	echo "$1" >"$work/.y2038-config"
	rm -f "$work/.y2038-building"
}
