#!/usr/bin/env bash
# try.sh - make try: the user's own 32-bit program, across the overflow.
#
#   try.sh arch   "SCAN" BIN
#       the Debian architecture of BIN (i386 or armhf), or an error saying
#       what BIN is instead; BIN may be a directory, whose ELF files must
#       all be of one architecture
#   try.sh stage  "SCAN" BIN ROOT STAGE
#       STAGE/try/NAME (BIN, a program or a directory, copied whole), the
#       libraries its programs need (the scanner's closure in ROOT, a Debian
#       root of its architecture; a library of that name beside BIN is taken
#       instead, and found first through LD_LIBRARY_PATH), /bin/sh from ROOT
#       for the session runner, and y2038/try-user.tsv: the command run
#       before, across and after the overflow. The command line is
#       $Y2038_TRY_ARGS, exactly as the user typed it (make passes ARGS
#       through the environment, never through a shell): for a program,
#       its arguments; for a directory, the command to run in it. The
#       guest's shell reads it as the user's shell would.
#   try.sh needs BIN TABLE KERNEL_ENV...
#       what BIN's programs need of a kernel (TABLE: data/kernel-needs.tsv)
#       that a kernel to boot (its kernel.sh facts) leaves out: said, with
#       the source that decides it and how to ask for the distro kernels;
#       exit 1 when the need is certain (a Go runtime's), so that the run
#       stops before a boot whose only output would be the runtime's crash
#   try.sh report RUN_DIR
#       what it printed and how it ended, per machine, config and phase
#       (host-tools/distro/distro-verdicts.py try-report: the verdicts
#       stage reads what the guests printed)
#
# SCAN is the scanner's command line (with its --symbols).

set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"

# arch SCAN BIN USERLANDS: the userland of BIN's programs, from USERLANDS,
# the ELF machines of the lab's userlands (elf_machine=userland, from
# machines/defaults.mk: "3=i386 40=armhf"). The lab runs 32-bit programs.
arch() {
	local scan=$1 bin=$2 userlands=$3 info json rc err em machine class u
	[ -e "$bin" ] || die "BIN=$bin: no such file or directory"
	json=$(mktemp)
	rc=0
	# shellcheck disable=SC2086
	$scan --json "$json" "$bin" >/dev/null 2>"$json.err" || rc=$?
	# 1 is a file it could not read, said in the JSON; 2 is the scanner's own
	if [ $rc -gt 1 ] || ! info=$(jq -er 'if length == 0 then error("no ELF file") else
			(map(select(.class != "error")) as $ok | if ($ok | length) == 0 then [.[0]] else $ok end)
			| [.[] | "\(.error // "")|\(.e_machine)|\(.machine)|\(.elf_class)"] | unique | join("\n") end' \
			<(jq 'if type == "array" then . else [.] end' "$json") 2>/dev/null); then
		err=$(head -3 "$json.err")
		rm -f "$json" "$json.err"
		[ -d "$bin" ] && die "BIN=$bin: a directory with no 32-bit program in it"
		die "the scanner failed on BIN=$bin: ${err:-no result}"
	fi
	rm -f "$json" "$json.err"
	[ "$(wc -l <<<"$info")" -eq 1 ] ||
		die "BIN=$bin holds programs of more than one architecture: $(cut -d'|' -f3,4 <<<"$info" | tr '\n|' ' -')"
	IFS="|" read -r err em machine class <<<"$info"
	[ -z "$err" ] || die "BIN=$bin: $err"
	for u in $userlands; do
		if [ "$class" = 32 ] && [ "${u%%=*}" = "$em" ]; then
			echo "${u#*=}"
			return
		fi
	done
	# the userlands by name, "a, b and c"
	local names
	names=$(tr ' ' '\n' <<<"$userlands" | sed 's/^[^=]*=//' | sort -u | paste -sd' ')
	die "BIN=$bin is a $class-bit $machine program: the lab runs 32-bit $(sed 's/ \([^ ]*\)$/ and \1/; s/ \([^ ]*\) and/, \1 and/g' <<<"$names") programs (machines/*.mk)"
}

# elf_files BIN: BIN, or the ELF files in the directory BIN
elf_files() {
	if [ -d "$1" ]; then
		find "$1" -type f -exec sh -c 'head -c4 "$1" | grep -q "^.ELF"' _ {} \; -print
	else
		echo "$1"
	fi
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
	local scan=$1 root=$3 stage=$4 args=${Y2038_TRY_ARGS-} name f cmd elf
	case $args in
	*$'\t'* | *$'\n'*) die "ARGS: a tab or a newline cannot be passed to the guest's command line" ;;
	esac
	bin=$(realpath "$2")
	bindir=$(dirname "$bin")
	root=$(realpath "$root")
	name=$(basename "$bin")
	rm -rf "$stage"
	mkdir -p "$stage/try/lib" "$stage/y2038" "$stage/scenarios" "$stage/usr/bin"
	if [ -d "$bin" ]; then
		[ -n "$args" ] || die "BIN=$bin is a directory: ARGS= is the command to run in it (ARGS=./set-2038)"
		cp -a "$bin" "$stage/try/$name"
		bindir=$bin
		cmd="cd /try/$name && LD_LIBRARY_PATH=/try/lib $args"
		elf=$(elf_files "$bin")
	else
		install -m 755 "$bin" "$stage/try/$name"
		cmd="LD_LIBRARY_PATH=/try/lib /try/$name${args:+ $args}"
		elf=$bin
	fi
	# The session runs commands with /bin/sh: the root's dash, and its libraries.
	install -m 755 "$root/usr/bin/dash" "$stage/usr/bin/dash"
	ln -s usr/bin "$stage/bin"
	ln -s dash "$stage/usr/bin/sh"
	ln -s usr/lib "$stage/lib"
	# shellcheck disable=SC2086
	{ for f in $elf; do
		$scan --needed --root "$root" "$f" || die "cannot find every library $f needs (see above)"
	  done
	  $scan --needed --root "$root" "$root/usr/bin/dash"; } | grep -v "^$bin" | sort -u |
		while read -r f; do place "$f" "$root" "$stage"; done
	{
		echo "# make try: $bin, command: $cmd"
		for phase in before across after; do
			# "a^" matches nothing: the lab cannot know what is right for
			# this program, only how it ended and what it printed.
			printf '%s\t%s\t-\ta^\t%s\n' "$phase" "$name" "$cmd"
		done
	} >"$stage/y2038/try-user.tsv"
}

needs() {
	local bin=$1 table=$2 f how what option why env image config missing found certain=0
	shift 2
	# What BIN's ELF files have: "section NAME" and "import SYMBOL" lines.
	found=$(while read -r f; do
		readelf -SW "$f" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\./) { print "section", $i; break } }'
		readelf --dyn-syms -W "$f" 2>/dev/null | awk '$7 == "UND" && $8 != "" { sub(/@.*/, "", $8); print "import", $8 }'
	done < <(elf_files "$bin") | sort -u)
	while IFS=$'\t' read -r how what option why; do
		case $how in
		'#'* | '') continue ;;
		go) grep -qxF "section $what" <<<"$found" || continue ;;
		import) grep -qxF "import $what" <<<"$found" || continue ;;
		*) die "$table: unknown kind \"$how\" (want go or import)" ;;
		esac
		missing=
		for env in "$@"; do
			image=$(sed -n 's/^KERNEL_IMAGE=//p' "$env")
			config=$(dirname "$image")/config
			[ -r "$config" ] || die "$env: the kernel's config ($config) is missing"
			grep -qx "CONFIG_$option=y" "$config" || missing+="${missing:+, }$(basename "$env" .env)"
		done
		[ -n "$missing" ] || continue
		if [ "$how" = go ]; then
			certain=1
			echo "try: BIN=$bin is a Go program: its runtime needs CONFIG_$option, which these kernels leave out: $missing ($why)" >&2
		else
			echo "try: note: BIN=$bin imports $what, which needs CONFIG_$option, left out of these kernels: $missing; a call returns ENOSYS ($why)" >&2
		fi
	done <"$table"
	[ "$certain" = 0 ] ||
		die "BIN=$bin cannot run on these kernels; the distro kernels have what it needs (patches/config/flavour-distro.config): make try KERNEL_FLAVOUR=distro BIN=$bin${Y2038_TRY_ARGS:+ and your ARGS}"
}

cmd=${1:-}
shift || true
case $cmd in
arch) [ $# -eq 3 ] || die "arch SCAN BIN USERLANDS"; arch "$@" ;;
stage) [ $# -eq 4 ] || die "stage SCAN BIN ROOT STAGE"; stage "$@" ;;
needs) [ $# -ge 3 ] || die "needs BIN TABLE KERNEL_ENV..."; needs "$@" ;;
report) [ $# -eq 1 ] || die "report RUN_DIR"; exec "$LAB_TOP/host-tools/distro/distro-verdicts.py" try-report "$@" ;;
*) die "unknown command \"$cmd\": want arch, stage, needs or report" ;;
esac
