#!/usr/bin/env bash
# debian.sh - fetch real Debian binaries and configs for a foreign architecture,
# into the cache, without touching this machine's dpkg or apt configuration.
#
#   debian.sh root    cache=DIR arch=i386 suite=bookworm mirror=URL
#       a minimal root (debootstrap --variant=minbase --foreign: every package
#       unpacked, none configured, nothing run) plus busybox-static; prints
#       the root's path. The .debs stay beside it (ROOT.debs/).
#   debian.sh foreign cache=DIR arch=i386 suite=bookworm mirror=URL [include=PKG,PKG]
#       debootstrap's first stage and nothing else (--variant=minbase
#       --foreign, plus include=), as a user makes a root for a device; its
#       second stage runs on the device (validate-distro's setup boot).
#       Prints the root's path.
#   debian.sh subset  cache=DIR arch=i386 suite=bookworm mirror=URL out=DIR PACKAGE...
#       just those packages of the root, unpacked into a fresh DIR
#   debian.sh config  cache=DIR arch=i386 suite=bookworm mirror=URL flavour=686-pae out=FILE
#       Debian's shipped kernel config for that flavour (package linux-config-X.Y)
#   debian.sh served  suite=trixie mirror=URL
#       exit 0 if the registry serves the suite, else one line saying so
#   debian.sh version cache=DIR arch=amd64 suite=sid mirror=URL PACKAGE
#       the version of PACKAGE the suite serves now (fresh lists), or nothing
#   debian.sh lists   cache=DIR arch=amd64 suite=sid mirror=URL
#       the suite's package indexes, fresh (a day old at most): one line
#       each, "ARCHIVE<TAB>FILE" (ARCHIVE: the suite, or its security
#       archive), FILE as apt keeps it (compressed: apt-helper cat-file)
#   debian.sh package cache=DIR arch=i386 suite=bookworm mirror=URL out=DIR PACKAGE...
#       those packages (not their dependencies) of the suite, unpacked into a
#       fresh DIR; no root needed. PACKAGE=VERSION takes that version.
#   debian.sh closure cache=DIR arch=i386 suite=bookworm mirror=URL out=DIR PACKAGE...
#       those packages and everything they depend on (apt's answer for an
#       empty system, without recommends), unpacked into a fresh DIR with a
#       merged /usr; no root needed. DIR/.versions names each.
#   debian.sh source  cache=DIR suite=trixie mirror=URL out=DIR PACKAGE VERSION
#       a source package as Debian ships it, its files checked by apt
#       against the suite's signed Sources index, unpacked by dpkg-source
#       (Debian's patches applied) into a fresh DIR; no arch= (a source has
#       none: this host's lists are used). DIR/.versions names it.
#
# Packages come from a private apt state in the cache (APT::Architectures
# set there, not with dpkg --add-architecture). debootstrap needs root.
# Everything fetched is Debian's, checked against Debian's archive keyring
# (DEBIAN_KEYRING): apt's lists (signed-by) and debootstrap's Release
# (--keyring, --force-check-gpg: on a host without the keyring debootstrap
# would otherwise warn and take an unsigned Release); each package against
# the SHA-256 its signed index gives.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
say() { printf '  %-8s %s\n' "$1" "$2" >&2; }	# stdout is the root's path
DEBIAN_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

cmd=${1:-}
shift || true
cache= arch= suite=bookworm mirror=http://deb.debian.org/debian out= flavour= config_package= include=
args=()
while [ $# -gt 0 ] && [[ $1 =~ ^[a-z_][a-z0-9_]*= ]]; do	# not PACKAGE=VERSION
	args+=("$1")
	shift
done
kv_args "${args[@]}"
# served: does the registry serve the suite? Asked before anything is built.
if [ "$cmd" = served ]; then
	python3 - "$mirror/dists/$suite/InRelease" <<-'PY' 2>/dev/null ||
		import sys, urllib.request
		urllib.request.urlopen(urllib.request.Request(sys.argv[1], method="HEAD"), timeout=30)
	PY
		die "the Debian registry $mirror does not serve the suite $suite (no $mirror/dists/$suite/InRelease)"
	exit 0
fi
# A source package has no architecture: this host's, with deb-src lists.
apt_lines=deb
if [ "$cmd" = source ]; then
	apt_lines="deb-src"
	arch=${arch:-$(dpkg --print-architecture)}
fi
[ -n "$cache" ] && [ -n "$arch" ] || die "usage: debian.sh root|subset|config|package|source cache=DIR arch=ARCH ..."
[ -n "${LAB_DEBIAN_ARCHES:-}" ] || die "LAB_DEBIAN_ARCHES is not set: make sets it from machines/*.mk (run this through make)"
[[ " $LAB_DEBIAN_ARCHES " == *" $arch "* ]] ||
	die "arch=$arch: the lab knows Debian's $LAB_DEBIAN_ARCHES (the machines' userland and debian_arch, machines/*.mk, and this host's)"

base=$cache/debian/$suite-$arch
[ "$apt_lines" = deb ] || base=$cache/debian/$suite-source
mkdir -p "$base"
exec 9>"$base/.lock"	# one fetch at a time per (suite, arch)
flock 9

# apt with its own sources, state and cache, for arch only.
apt_private() {
	local a=$base/apt
	if [ ! -e "$a/updated" ]; then
		mkdir -p "$a/state/lists/partial" "$a/cache/archives/partial"
		: >"$a/status"
		{
			echo "$apt_lines [signed-by=$DEBIAN_KEYRING] $mirror $suite main"
			# a release has its security archive; sid and backports have none
			case $suite in
			sid | unstable | experimental | *-backports) ;;
			*) echo "$apt_lines [signed-by=$DEBIAN_KEYRING] ${mirror%/debian}/debian-security $suite-security main" ;;
			esac
		} >"$a/sources.list"
	fi
	# Its downloads run as root (APT::Sandbox::User=root), not as _apt:
	# this private state lives in the cache, under the user's home, which
	# _apt cannot reach (root's is 0700), and apt would fall back to root
	# anyway, with a warning. What they fetch is data until apt has
	# checked it against the signed Release (docs/security.md).
	"${apt_program:-apt-get}" -q -o Dir::Etc::sourcelist="$a/sources.list" -o Dir::Etc::sourceparts=- \
		-o Dir::State="$a/state" -o Dir::State::status="$a/status" \
		-o Dir::Cache="$a/cache" -o APT::Architecture="$arch" \
		-o APT::Architectures::="$arch" -o Debug::NoLocking=1 \
		-o APT::Sandbox::User=root "$@"
}
# A mirror mid-sync serves a list its Release file does not name yet ("File
# has unexpected size"): try again. If the suite's own list came and only
# another archive's failed (its security archive's), go on with the lists
# apt has, say so, and try again next time.
apt_update() {
	local try
	for try in 1 2 3; do
		if apt_private update >"$base/apt.log" 2>&1; then
			touch "$base/apt/updated"
			return 0
		fi
		[ "$try" = 3 ] || sleep 10
	done
	if compgen -G "$base/apt/state/lists/*_dists_${suite}_main_binary-${arch}_Packages*" >/dev/null ||
		compgen -G "$base/apt/state/lists/*_dists_${suite}_main_source_Sources*" >/dev/null; then
		say WARN "apt-get update for $arch: $(grep -m1 '^E: ' "$base/apt.log" | cut -c1-240); going on with the $suite list, without what failed (its packages may be older)" >&2
		return 0
	fi
	die "apt-get update for $arch failed: $(tail -3 "$base/apt.log")"
}
# Lists a day old may name versions the mirror no longer has.
apt_lists_fresh() {
	if [ -z "$(find "$base/apt/updated" -mtime -1 2>/dev/null)" ]; then
		say APT "$suite $([ "$apt_lines" = deb ] && echo "$arch package" || echo source) lists"
		apt_update
	fi
}
apt_download() {	# PACKAGE...: into $base/debs
	apt_lists_fresh
	mkdir -p "$base/debs"
	(cd "$base/debs" && apt_private download "$@") >>"$base/apt.log" 2>&1 && return
	# A package the suite does not build for arch is its own answer.
	grep -q "has no candidate\|Unable to locate package" "$base/apt.log" &&
		die "$suite has no ${*%%:*} for $arch: the archive does not build it there$(case $arch:$* in
			i386:linux-config-*) echo " (Debian 13 trixie ships no i386 kernel: its i386 userland runs on an amd64 kernel)" ;; esac)"
	die "apt-get download $* failed: $(tail -3 "$base/apt.log")"
}

# NAME or NAME=VERSION -> the start of its .deb's file name (an epoch's
# colon is %3a in it).
deb_name() {
	case $1 in
	*=*) local v=${1#*=}; echo "${1%%=*}_${v//:/%3a}" ;;
	*) echo "$1" ;;
	esac
}

# DEB DIR: as dpkg would, without replacing DIR's /bin -> usr/bin symlinks.
unpack() {
	dpkg-deb --fsys-tarfile "$1" | tar -x --keep-directory-symlink -C "$2"
}

# DIR: a fresh folder with a merged /usr (/bin, /sbin, /lib -> usr/...), as
# a debootstrapped root has, to unpack packages into.
merged_usr() {
	local d
	rm -rf "$1"
	for d in bin sbin lib; do
		mkdir -p "$1/usr/$d"
		ln -s "usr/$d" "$1/$d"
	done
}

# DIR: what dash's postinst makes and unpacking alone does not: /bin/sh.
bin_sh() {
	if [ -e "$1/bin/dash" ] && [ ! -e "$1/bin/sh" ]; then
		ln -s dash "$1/bin/sh"
	fi
}

# Debian's archive keyring, without which nothing fetched can be checked.
debian_keyring() {
	[ -r "$DEBIAN_KEYRING" ] ||
		die "Debian's archive keyring $DEBIAN_KEYRING is missing: nothing fetched could be checked (apt-get install debian-archive-keyring)"
}

make_root() {
	local root=$base/root tmp
	if [ -e "$root/.y2038-complete" ]; then
		echo "$root"
		return
	fi
	[ "$(id -u)" -eq 0 ] || die "debootstrap needs root: run this as root (sudo make ...)"
	command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install debootstrap"
	debian_keyring
	tmp=$base/root.tmp
	rm -rf "$tmp" "$root" "$root.debs"
	say DEBOOT "$suite $arch minbase"
	# --foreign unpacks the required packages and runs nothing of theirs:
	# no chroot, no binfmt, so any architecture works on this host.
	debootstrap --foreign --variant=minbase --include=busybox-static --keyring="$DEBIAN_KEYRING" --force-check-gpg \
		--arch="$arch" "$suite" "$tmp" "$mirror" >"$base/debootstrap.log" 2>&1 ||
		die "debootstrap failed (see $base/debootstrap.log): $(tail -3 "$base/debootstrap.log")"
	# The rest (the "base" list: busybox-static, apt) is left for the second
	# stage: unpack it too, into the merged /usr the first stage made.
	mv "$tmp/var/cache/apt/archives" "$root.debs"
	mkdir -p "$tmp/var/cache/apt/archives/partial"
	for p in $(cat "$tmp/debootstrap/base"); do
		debs=("$root.debs/${p}_"*.deb)
		unpack "${debs[-1]}" "$tmp"
	done
	# What base-passwd's postinst would have written.
	[ -e "$tmp/etc/passwd" ] || cp "$tmp/usr/share/base-passwd/passwd.master" "$tmp/etc/passwd"
	[ -e "$tmp/etc/group" ] || cp "$tmp/usr/share/base-passwd/group.master" "$tmp/etc/group"
	rm -rf "$tmp/debootstrap"
	# The first stage points proc at the host's /proc; a booted root mounts it.
	if [ -L "$tmp/proc" ]; then
		rm "$tmp/proc"
		mkdir "$tmp/proc"
	fi
	touch "$tmp/.y2038-complete"
	mv "$tmp" "$root"
	echo "$root"
}

case $cmd in
root)
	make_root
	;;
foreign)
	root=$base/foreign${include:+-${include//,/-}}
	if [ ! -e "$root/.y2038-complete" ]; then
		[ "$(id -u)" -eq 0 ] || die "debootstrap needs root: run this as root (sudo make ...)"
		command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install debootstrap"
		debian_keyring
		rm -rf "$root.tmp" "$root"
		say DEBOOT "$suite $arch minbase${include:+ with $include}, first stage"
		debootstrap --foreign --variant=minbase ${include:+--include="$include"} --keyring="$DEBIAN_KEYRING" \
			--force-check-gpg --arch="$arch" "$suite" "$root.tmp" "$mirror" >"$root.log" 2>&1 ||
			die "debootstrap failed (see $root.log): $(tail -3 "$root.log")"
		touch "$root.tmp/.y2038-complete"
		mv "$root.tmp" "$root"
	fi
	echo "$root"
	;;
subset)
	[ -n "$out" ] && [ $# -gt 0 ] || die "subset wants out=DIR and packages"
	root=$(make_root)
	merged_usr "$out"
	for p in "$@"; do
		debs=("$root.debs/${p}_"*.deb)
		[ -e "${debs[-1]}" ] || die "package $p is not in the $suite $arch root"
		unpack "${debs[-1]}" "$out"
	done
	bin_sh "$out"
	cp "$root/etc/passwd" "$root/etc/group" "$out/etc/"
	;;
config)
	[ -n "$out" ] && [ -n "$flavour" ] || die "config wants flavour= and out="
	# The distribution's own kernel config (config_package=, distros/*.mk),
	# else that of the kernel the lab builds by default: the host's
	# linux-source (the lab runs on bookworm: linux-source-6.1).
	pkg=$config_package
	[ -n "$pkg" ] || pkg=$(dpkg-query -W -f='${Depends}' linux-source 2>/dev/null | sed -n 's/^linux-source-\([0-9.]*\).*/linux-config-\1/p')
	[ -n "$pkg" ] || die "the linux-source package is not installed: cannot tell which linux-config to fetch"

	if ! ls "$base/debs/${pkg}_"*.deb >/dev/null 2>&1; then
		say APT "$pkg:$arch"
		apt_download "$pkg:$arch"
	fi
	deb=$(ls "$base/debs/${pkg}_"*.deb | tail -1)
	member=./usr/src/$pkg/config.${arch}_none_$flavour.xz
	mkdir -p "$(dirname "$out")"
	dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "$member" 2>/dev/null | xz -dc 2>/dev/null >"$out.tmp" ||
		die "$deb has no $member (flavours: $(dpkg-deb -c "$deb" | sed -n "s|.*config\.${arch}_none_\(.*\)\.xz|\1|p" | tr '\n' ' '))"
	mv "$out.tmp" "$out"
	echo "# $pkg $(dpkg-deb -f "$deb" Version) $arch $flavour" >"$out.source"
	;;
version)
	[ $# -eq 1 ] || die "version wants one package"
	apt_lists_fresh >&2
	# PACKAGE's own entry: apt-cache reads a name it does not know as a
	# pattern (linux-source-6.1 matches linux-source-6.12 in trixie)
	apt_program=apt-cache apt_private policy "$1" 2>/dev/null |
		awk -v p="$1:" '/^[^ ]/ { mine = ($0 == p) } mine && $1 == "Candidate:" && $2 != "(none)" { print $2 }'
	;;
lists)
	apt_lists_fresh >&2
	for f in "$base"/apt/state/lists/*_dists_*_binary-"${arch}"_Packages*; do
		[ -e "$f" ] || die "apt kept no package index for $suite $arch (see $base/apt.log)"
		archive=${f##*_dists_}
		printf '%s\t%s\n' "${archive%%_*}" "$f"
	done
	;;
package)
	[ -n "$out" ] && [ $# -gt 0 ] || die "package wants out=DIR and packages"
	# NAME, or NAME=VERSION for that version of it
	for p in "$@"; do
		ls "$base/debs/$(deb_name "$p")"_*.deb >/dev/null 2>&1 && continue
		say APT "$p ($suite, $arch)"
		case $p in
		*=*) apt_download "${p%%=*}:$arch=${p#*=}" ;;
		*) apt_download "$p:$arch" ;;
		esac
	done
	rm -rf "$out.tmp"
	mkdir -p "$out.tmp"
	for p in "$@"; do
		deb=$(ls "$base/debs/$(deb_name "$p")"_*.deb | tail -1)
		unpack "$deb" "$out.tmp"
		echo "${p%%=*} $(dpkg-deb -f "$deb" Version)" >>"$out.tmp/.versions"
	done
	rm -rf "$out"
	mv "$out.tmp" "$out"
	;;
closure)
	[ -n "$out" ] && [ $# -gt 0 ] || die "closure wants out=DIR and packages"
	apt_lists_fresh
	: >"$base/apt/empty-status"
	apt_private -o Dir::State::status="$base/apt/empty-status" -s install \
		--no-install-recommends "${@/%/:$arch}" >"$base/closure.log" 2>&1 ||
		die "apt cannot install $* on $suite $arch: $(grep -m2 '^E: \|Depends:' "$base/closure.log" | tr '\n' ' ')"
	mapfile -t pkgs < <(sed -n 's/^Inst \([^ :]*\)[^ ]* (\([^ ]*\) .*/\1=\2/p' "$base/closure.log")
	[ ${#pkgs[@]} -gt 0 ] || die "apt named nothing to install for $*: see $base/closure.log"
	missing=()
	for p in "${pkgs[@]}"; do
		ls "$base/debs/$(deb_name "$p")"_*.deb >/dev/null 2>&1 || missing+=("${p%%=*}:$arch=${p#*=}")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		say APT "${#missing[@]} packages ($suite, $arch)"
		apt_download "${missing[@]}"
	fi
	merged_usr "$out.tmp"
	for p in "${pkgs[@]}"; do
		deb=$(ls "$base/debs/$(deb_name "$p")"_*.deb | tail -1)
		unpack "$deb" "$out.tmp"
		echo "${p%%=*} ${p#*=}" >>"$out.tmp/.versions"
	done
	# What postinsts would have made: /bin/sh, and root's account.
	bin_sh "$out.tmp"
	mkdir -p "$out.tmp/etc"
	[ -e "$out.tmp/etc/passwd" ] || echo "root:x:0:0:root:/root:/bin/sh" >"$out.tmp/etc/passwd"
	[ -e "$out.tmp/etc/group" ] || echo "root:x:0:" >"$out.tmp/etc/group"
	rm -rf "$out"
	mv "$out.tmp" "$out"
	;;
source)
	[ -n "$out" ] && [ $# -eq 2 ] || die "source wants out=DIR, a PACKAGE and its VERSION"
	pkg=$1 version=$2
	# the .dsc's name: no epoch in it
	dsc=$base/src/${pkg}_${version#*:}.dsc
	if [ ! -e "$dsc" ]; then
		apt_lists_fresh
		mkdir -p "$base/src"
		say APT "source $pkg $version ($suite)"
		(cd "$base/src" && apt_private source --download-only "$pkg=$version") >>"$base/apt.log" 2>&1 ||
			die "apt-get source $pkg=$version ($suite) failed: $(grep -m1 '^E: ' "$base/apt.log" || tail -1 "$base/apt.log")"
	fi
	rm -rf "$out" "$out.tmp"
	mkdir -p "$(dirname "$out")"
	# apt checked the files' hashes against the signed index; dpkg-source
	# cannot check the .dsc's signature without debian-keyring, and says so
	dpkg-source --no-check -x "$dsc" "$out.tmp" >"$out.log" 2>&1 ||
		die "dpkg-source -x $(basename "$dsc") failed: $(tail -1 "$out.log")"
	rm -f "$out.log"
	echo "$pkg $version" >"$out.tmp/.versions"
	mv "$out.tmp" "$out"
	;;
*)
	die "unknown command \"$cmd\": want root, foreign, subset, config, package, closure, source, version, lists or served"
	;;
esac
