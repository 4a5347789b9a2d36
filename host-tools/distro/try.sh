#!/usr/bin/env bash
# try.sh - make try: the user's own 32-bit program, across the overflow.
#
#   try.sh arch   "SCAN" BIN
#       the Debian architecture of BIN (i386 or armhf), or an error saying
#       what BIN is instead
#   try.sh stage  "SCAN" BIN ROOT STAGE "ARGS"
#       STAGE/try/NAME, the libraries it needs (the scanner's closure in
#       ROOT, a Debian root of its architecture; a library of that name
#       beside BIN is taken instead, and found first through
#       LD_LIBRARY_PATH), /bin/sh from ROOT for the session runner, and
#       y2038/try-user.tsv: the program run before, across and after the
#       overflow
#   try.sh report RUN_DIR
#       what it printed and how it ended, per machine, config and phase
#
# SCAN is the scanner's command line (with its --symbols).

set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"

arch() {
	local scan=$1 bin=$2 info json rc err
	[ -f "$bin" ] || die "BIN=$bin: no such file"
	json=$(mktemp)
	rc=0
	# shellcheck disable=SC2086
	$scan --json "$json" "$bin" >/dev/null 2>"$json.err" || rc=$?
	# 1 is a file it could not read, said in the JSON; 2 is the scanner's own
	if [ $rc -gt 1 ] || ! info=$(jq -er '.[0] | "\(.error // "")|\(.machine)|\(.elf_class)"' "$json" 2>/dev/null); then
		err=$(head -3 "$json.err")
		rm -f "$json" "$json.err"
		die "the scanner failed on BIN=$bin: ${err:-no result}"
	fi
	rm -f "$json" "$json.err"
	IFS="|" read -r err machine class <<<"$info"
	[ -z "$err" ] || die "BIN=$bin: $err"
	case $machine/$class in
	i386/32) echo i386 ;;
	arm/32) echo armhf ;;
	*) die "BIN=$bin is a $class-bit $machine program: the lab runs 32-bit i386 and armhf programs (on 32-bit and 64-bit kernels)" ;;
	esac
}

# copy FILE into STAGE at its path inside ROOT, or under /try/lib
place() {
	local file=$1 root=$2 stage=$3 dest
	if [ -e "$bindir/${file##*/}" ] && [ "$file" != "$bin" ]; then
		file=$bindir/${file##*/}	# the user's own copy, as LD_LIBRARY_PATH finds it
		dest=/try/lib/${file##*/}
	else
		case $file in
		"$root"/*) dest=${file#"$root"} ;;
		*) dest=/try/lib/${file##*/} ;;
		esac
	fi
	install -D -m 755 "$file" "$stage$dest"
}

stage() {
	local scan=$1 root=$3 stage=$4 args=$5 name f
	bin=$(realpath "$2")
	bindir=$(dirname "$bin")
	root=$(realpath "$root")
	name=$(basename "$bin")
	rm -rf "$stage"
	mkdir -p "$stage/try/lib" "$stage/y2038" "$stage/scenarios" "$stage/usr/bin"
	install -m 755 "$bin" "$stage/try/$name"
	# The session runs commands with /bin/sh: the root's dash, and its libraries.
	install -m 755 "$root/usr/bin/dash" "$stage/usr/bin/dash"
	ln -s usr/bin "$stage/bin"
	ln -s dash "$stage/usr/bin/sh"
	ln -s usr/lib "$stage/lib"
	# shellcheck disable=SC2086
	{ $scan --needed --root "$root" "$bin" || die "cannot find every library $bin needs (see above)"
	  $scan --needed --root "$root" "$root/usr/bin/dash"; } | sort -u |
		while read -r f; do place "$f" "$root" "$stage"; done
	{
		echo "# make try: $bin $args"
		for phase in before across after; do
			# "a^" matches nothing: the lab cannot know what is right for
			# this program, only how it ended and what it printed.
			printf '%s\t%s\t-\ta^\tLD_LIBRARY_PATH=/try/lib /try/%s %s\n' "$phase" "$name" "$name" "$args"
		done
	} >"$stage/y2038/try-user.tsv"
}

report() {
	local run=$1 b
	for b in "$run"/boots/*-try; do
		echo "== $(basename "${b%-try}")  ($(grep -m1 '^kernel=' "$b/meta" 2>/dev/null | cut -d= -f2), $(grep -m1 '^accel=' "$b/meta" 2>/dev/null | cut -d= -f2))"
		if grep -q '^error=' "$b/meta"; then
			grep '^error=' "$b/meta"
			continue
		fi
		# The transcript, and how each phase ended: the session's class is
		# what the program printed (an errno's message, a 1901 date).
		awk '
		/^# # \[/ { sub(/^# # /, "  "); print; next }
		/^# #   / { sub(/^# #   /, "      "); print; next }
		/^# (not )?ok [0-9]+ user / {
			line = $0; sub(/^# (not )?ok [0-9]+ user [^ ]+ /, "", line)
			phase = line; sub(/ .*/, "", phase)
			class = line; sub(/^[a-z]+ # /, "", class); sub(/ .*/, "", class)
			ended = line; sub(/^[a-z]+ # [A-Z0-9]+ /, "", ended); sub(/: ".*/, "", ended)
			printed = (class == "WRONG") ? "" : (class == "WRAP") ? ", printed a 1901 date" : \
				(class == "CRASH" || class == "TIMEOUT") ? "" : ", printed the " class " message"
			printf "  -> %s: %s%s\n", phase, (class == "CRASH" || class == "TIMEOUT") ? class " " ended : ended, printed
		}' "$b/tap.log"
		grep -q '^# y2038-init: done' "$b/tap.log" ||
			echo "  the guest did not finish: $(grep -m1 '^qemu_status=' "$b/meta")"
	done
}

cmd=${1:-}
shift || true
case $cmd in
arch) [ $# -eq 2 ] || die "arch SCAN BIN"; arch "$@" ;;
stage) [ $# -eq 5 ] || die "stage SCAN BIN ROOT STAGE ARGS"; stage "$@" ;;
report) [ $# -eq 1 ] || die "report RUN_DIR"; report "$@" ;;
*) die "unknown command \"$cmd\": want arch, stage or report" ;;
esac
