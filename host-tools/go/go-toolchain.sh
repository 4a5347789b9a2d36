#!/usr/bin/env bash
# go-toolchain.sh - a distribution's Go rebuilt for time64-only kernels:
# its own Go source with the lab's Go series (patches/go/), built by Go's
# make.bash and bootstrapped with the same suite's binary Go, as Debian's
# golang-VERSION package builds it (debian/control: Build-Depends
# golang-VERSION-go first).
#
#   go-toolchain.sh build KEY=VALUE...   build it (or reuse it) and write out=
#   go-toolchain.sh plan  KEY=VALUE...   build nothing: "reuse RESULT", or
#                                        "build SECONDS RESULT" (what it took
#                                        here last; 0: never built)
#   go-toolchain.sh apply KEY=VALUE...   only fetch the source and apply the
#                                        series to a fresh copy (patch --fuzz=0),
#                                        kept at tree=DIR if given (with
#                                        Debian's pkg/: its tools, unbuilt)
#
#     cache=DIR     sources and builds (outside the repo)
#     suite=sid     the Debian suite whose Go it is
#     mirror=URL
#     go=1.27       its golang-VERSION-src and golang-VERSION-go
#     series=FILE   the Go series (patches/go/series), or none
#     name=NAME     what the lab calls it (go1.27-time64)
#     out=FILE      where to write the result's GOROOT, in the cache
#                   (cache/go/NAME-HASH/goroot: bin/go, pkg/tool/, src/),
#                   beside it name (NAME), recipe (what decides it),
#                   build.log, seconds. FILE is rewritten only when that
#                   changes, for make's up-to-date check.
#
# The source is golang-VERSION-src, the Go tree Debian ships with its own
# patches applied (the registry serves no golang-1.27 source package: its
# .dsc is 404 in sid and trixie-backports), the way glibc.sh takes
# glibc-source; VERSION and go.env come from golang-VERSION-go, which
# bootstraps the build. Both are fetched by go.sh into the cache. The
# build is CGO_ENABLED=0: the lab builds static programs only, so no C
# compiler of this host is part of the recipe (Debian's go command is
# built with cgo: the one deviation, docs/upstream/go.md).
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
cmd=${1:-}
shift || true
cache='' suite='' mirror=http://deb.debian.org/debian go='' series='' name='' out='' tree=''
kv_args "$@"
case $cmd in build | plan | apply) ;; *) die "usage: go-toolchain.sh build|plan|apply cache= suite= go= series= name= out=" ;; esac
need cache suite go series
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Debian's Go, fetched once (go.sh: golang-VERSION-go and -src, unpacked).
debian_go=$("$here/initramfs/go.sh" goroot cache="$cache" suite="$suite" mirror="$mirror" go="$go")
share=$(cd -P "$debian_go/src/.." && pwd)	# usr/share/go-VERSION, golang-VERSION-src's
[ -x "$share/src/make.bash" ] || die "golang-$go-src has no src/make.bash under $share"

# source_tree TREE [-l]: a Go tree to build, golang-VERSION-src's with
# golang-VERSION-go's VERSION and go.env, as Debian's GOROOT has them; -l:
# hard links (patch replaces a file it changes; make.bash writes into files
# in place, so a tree it builds is a copy).
source_tree() {
	local tree=$1 how=(-a)
	[ "${2:-}" != -l ] || how+=(-l)
	mkdir -p "$tree"
	cp "${how[@]}" "$share/src" "$share/lib" "$share/misc" "$share/api" "$tree/"
	cp "$debian_go/VERSION" "$debian_go/go.env" "$tree/"
}

# apply_series TREE: the lab's patches, in order, with no fuzz.
apply_series() {
	local tree=$1 p
	[ "$series" = none ] && return 0
	for p in $("$here/kernel/series.sh" list "$series"); do
		patch -d "$tree" -p1 --fuzz=0 --no-backup-if-mismatch -s <"$p" >"$tree.patch.log" 2>&1 ||
			die "$(basename "$p") does not apply to golang-$go-src without fuzz: $(head -3 "$tree.patch.log" | tr '\n' ' ')"
		say PATCH "go $go: $(basename "$p")" >&2
	done
	rm -f "$tree.patch.log"
}

versions=$(sed -n "s/^\\(golang-$go-\\(src\\|go\\)\\) /\\1 /p" "$debian_go/../../../.versions" | sort | paste -sd, -)
[ -n "$versions" ] || die "$debian_go: no golang-$go versions in its .versions"

if [ "$cmd" = apply ]; then
	if [ -n "$tree" ]; then
		rm -rf "$tree"
		source_tree "$tree" -l
		cp -a "$share/pkg" "$tree/"	# pkg/include, as Debian's GOROOT has it
		ln -s "$debian_go/pkg/tool" "$tree/pkg/tool"
	else
		mkdir -p "$cache/go"
		tree=$(mktemp -d "$cache/go/.apply-go.XXXXXX")
		trap 'rm -rf "$tree" "$tree.patch.log"' EXIT
		source_tree "$tree" -l
	fi
	apply_series "$tree"
	exit 0
fi
need name out

phash=none
[ "$series" = none ] || phash=$("$here/kernel/series.sh" hash "$series")
build_env=(PATH=/usr/bin:/bin GOROOT_BOOTSTRAP="$debian_go" GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=)
recipe="go $go ($suite: $versions)
series $phash
bootstrap $(env -i PATH=/usr/bin:/bin GOTOOLCHAIN=local "$debian_go/bin/go" version)
make.bash --no-banner, ${build_env[*]:1}"
key=$(printf '%s\n' "$recipe" | sha256sum | cut -c1-12)
result=$cache/go/$name-$key
mkdir -p "$cache/go"

if [ "$cmd" = plan ]; then
	if [ -x "$result/goroot/bin/go" ]; then echo "reuse $result"
	else echo "build $(cat "$cache/go/$name.seconds" 2>/dev/null || echo 0) $result"; fi
	exit 0
fi

# build_into DIR: the whole build, into DIR (cache_entry's DIR.new).
build_into() {
	local dir=$1 tree=$1/goroot start seconds last
	last=$(cat "$cache/go/$name.seconds" 2>/dev/null || echo 0)
	say GO "$name (golang-$go-src, series $phash)$([ "$last" -eq 0 ] || echo ": about $(((last + 59) / 60)) min here last time")" >&2
	mkdir -p "$dir"
	# a build that dies leaves nothing (its log is kept: NAME-failed.log)
	trap 'rm -rf "$dir"' EXIT
	source_tree "$tree"
	apply_series "$tree"
	start=$(date +%s)
	(cd "$tree/src" && env -i "${build_env[@]}" HOME="$dir" GOCACHE="$dir/gocache" \
		nice -n 10 ./make.bash --no-banner) >"$dir/build.log" 2>&1 || {
		cp "$dir/build.log" "$cache/go/$name-failed.log"
		die "make.bash for $name failed: $(grep -m1 -E 'error|cannot' "$dir/build.log" || tail -1 "$dir/build.log") (log: $cache/go/$name-failed.log)"
	}
	rm -rf "$dir/gocache" "$tree/pkg/obj"
	[ -x "$tree/bin/go" ] || die "make.bash for $name left no bin/go (log: $dir/build.log)"
	seconds=$(($(date +%s) - start))
	printf '%s\n' "$recipe" >"$dir/recipe"
	echo "$seconds" >"$dir/seconds"
	echo "$name" >"$dir/name"
	echo "$seconds" >"$cache/go/$name.seconds"
	trap - EXIT
	say DONE "$name: $((seconds / 60)) min $((seconds % 60)) s ($result)" >&2
}
built() { [ -x "$1/goroot/bin/go" ]; }
# one build of a recipe at a time; a second run waits, then reuses it
cache_entry "$result" built build_into
[ "$(cat "$out" 2>/dev/null)" = "$result/goroot" ] || echo "$result/goroot" >"$out"
