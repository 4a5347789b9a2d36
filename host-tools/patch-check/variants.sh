#!/usr/bin/env bash
# variants.sh - a kernel's own version of a patch changes what its base
# changes: the lines it adds and removes are the base's; only the context,
# the line numbers, the index lines and the paths (code upstream moved) may
# differ.
#
#   variants.sh series=FILE
#
# Every KVER/NAME beside the series (patches/6.12/, patches/7.2/) is
# compared with NAME, file by file: the sequence of its '+' and '-' lines
# in each hunk's body, and in a .c file the function each is in (by the
# hunk's header; no context, no commit message). A file
# is paired with the base's file of the same path, or else with the base's
# next unpaired file in order (upstream moved the code: a diagnostic, not a
# failure). A variant whose lines differ, or that has no base, fails unless
# a note beside it, KVER/NAME.differs, says in a sentence why; then its
# line is ok with "# SKIP" and the note, and the differences are still
# listed. A variant the series does not apply for its kernel
# (host-tools/kernel/series.sh list) fails, and so do a note whose variant's
# lines are the base's (stale) and a note with no variant. KVER/NAME.upstream
# (from KVER on, the kernel has the change itself) must name a patch of the
# base and the upstream commit. Prints TAP;
# exits 1 if any check failed.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
series=
kv_args "$@"
need series
[ -r "$series" ] || die "$series: no such series file"
dir=$(dirname "$series")
series_sh=$LAB_TOP/host-tools/kernel/series.sh

# The lines a patch adds and removes: "F<TAB>path" where each file starts
# (its b/ path), then "L<TAB>path<TAB>+text" or "L<TAB>path<TAB>-text".
# Hunk bodies are read by their header's counts, so a removed "-- x" is a
# line, not a header, and nothing after the last hunk is.
body() {
	awk '
	/^diff --git / { path = $0; sub(/.* b\//, "", path); print "F\t" path; infile = 1; old = new = 0; next }
	old > 0 || new > 0 {
		c = substr($0, 1, 1)
		if (c == "\\") next			# \ No newline at end of file
		if (c == "+") { new--; print "L\t" path "\t" $0 }
		else if (c == "-") { old--; print "L\t" path "\t" $0 }
		else { old--; new-- }			# context
		next
	}
	infile && /^@@ -[0-9]/ {
		n = split($2, a, ","); old = n > 1 ? a[2] : 1
		n = split($3, a, ","); new = n > 1 ? a[2] : 1
		# In C, the function the hunk is in, by its header (diff names
		# the nearest line above it that opens one): a syscall by its
		# name, else the identifier before its "("; nothing where the
		# header opens no function (a struct, the includes).
		fn = $0; sub(/^@@[^@]*@@ ?/, "", fn)
		if (path !~ /\.c$/) fn = ""
		else if (match(fn, /SYSCALL_DEFINE[0-9]\([A-Za-z0-9_]+/)) fn = substr(fn, RSTART, RLENGTH) ")"
		else if (match(fn, /[A-Za-z0-9_]+\(/)) fn = substr(fn, RSTART, RLENGTH) ")"
		else fn = ""
		print "C\t" path "\t" fn
	}' "$1"
}
# stream BODY SIDE: its lines as "path<TAB>line", file by file in the order
# of $pairs (lines "base-path<TAB>variant-path"; SIDE 1 is the base, 2 the
# variant), each under the variant's path; then its unpaired files'.
stream() {
	pairs=$pairs awk -F'\t' -v side="$2" '
	BEGIN { n = split(ENVIRON["pairs"], p, "\n")
		for (i = 1; i <= n; i++) if (split(p[i], f, "\t") == 2) { order[++k] = f[side]; label[f[side]] = f[2] } }
	$1 == "F" { if (!($2 in label)) { order[++k] = $2; label[$2] = $2 } next }
	$1 == "C" { fn[$2] = $3; next }
	{ t = $0; sub(/^L\t[^\t]*\t/, "", t); lines[$2] = lines[$2] label[$2] "\t" (fn[$2] == "" ? "" : "in " fn[$2] ": ") t "\n" }
	END { for (i = 1; i <= k; i++) printf "%s", lines[order[i]] }' <<<"$1"
}

# compare BASE VARIANT KVER: the differences, as TAP diagnostics naming
# the file and the line ("! # path: base  +line", "! # path: KVER  +line"),
# and the files that only moved ("= # path is path on KVER").
compare() {
	local base=$1 var=$2 kver=$3 f i
	local -a bf vf rest_b=() rest_v=()
	local -A inb=() inv=()
	mapfile -t bf < <(sed -n 's/^F\t//p' <<<"$base")
	mapfile -t vf < <(sed -n 's/^F\t//p' <<<"$var")
	for f in "${bf[@]}"; do inb[$f]=1; done
	for f in "${vf[@]}"; do inv[$f]=1; done
	pairs=
	for f in "${bf[@]}"; do
		if [ -n "${inv[$f]:-}" ]; then pairs+="$f"$'\t'"$f"$'\n'; else rest_b+=("$f"); fi
	done
	for f in "${vf[@]}"; do [ -n "${inb[$f]:-}" ] || rest_v+=("$f"); done
	for ((i = 0; i < ${#rest_b[@]} && i < ${#rest_v[@]}; i++)); do
		pairs+="${rest_b[$i]}"$'\t'"${rest_v[$i]}"$'\n'
		echo "= # ${rest_b[$i]} is ${rest_v[$i]} on $kver"
	done
	for ((; i < ${#rest_b[@]}; i++)); do echo "! # ${rest_b[$i]}: the base changes it, $kver's does not"; done
	for ((; i < ${#rest_v[@]}; i++)); do echo "! # ${rest_v[$i]}: $kver's changes it, the base does not"; done
	{ diff --old-line-format='< %L' --new-line-format='> %L' --unchanged-line-format= \
		<(stream "$base" 1) <(stream "$var" 2) || [ $? = 1 ]; } |
		awk -v kver="$(printf '%-5s' "$kver")" '{ t = index($0, "\t")
			print "! # " substr($0, 3, t - 3) ": " (/^</ ? "base " : kver) " " substr($0, t + 1) }'
}

same=0 noted=()
# The note's text, on one line; an empty note says nothing, and is none.
note_of() { [ -r "$1" ] && tr -s '[:space:]' ' ' <"$1" | sed 's/^ //; s/ $//'; }

# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../tap.sh"
for kdir in "$dir"/[0-9]*.[0-9]*/; do	# a kernel version's folder (glibc/ is another series)
	kdir=${kdir%/}
	compgen -G "$kdir/*.patch" >/dev/null || compgen -G "$kdir/*.differs" >/dev/null ||
		compgen -G "$kdir/*.upstream" >/dev/null || continue
	kver=$(basename "$kdir")
	applied=$("$series_sh" list "$series" "$kver")
	for note in "$kdir"/*.differs; do
		if [ -e "$note" ] && [ ! -e "${note%.differs}" ]; then
			not_ok "$kver/$(basename "$note"): a note for no patch (remove it, or name it after its patch)"
		fi
	done
	# From KVER on, the kernel has a (backported) change itself: its note
	# names the commit, and the patch it stands for is the base's.
	for note in "$kdir"/*.upstream; do
		[ -e "$note" ] || continue
		name=$(basename "$note" .upstream) what="$kver/$(basename "$note")"
		if [ ! -e "$dir/$name" ]; then
			not_ok "$what: a note for no patch of $dir/ (name it after the patch the kernel has)"
		elif ! grep -qE '\b[0-9a-f]{12,40}\b' "$note"; then
			not_ok "$what: say which upstream commit the kernel has (its id)"
		else
			pass "$what: from $kver on the kernel has $name itself: $(note_of "$note")"
		fi
	done
	for var in "$kdir"/*.patch; do
		[ -e "$var" ] || continue
		name=$(basename "$var") what="$kver/$name"
		note=$(note_of "$var.differs" || true)
		if [ -e "$var.differs" ] && [ -z "$note" ]; then
			not_ok "$what: its note $what.differs is empty: say why its lines differ"
			continue
		fi
		if ! grep -qxF -- "$var" <<<"$applied"; then
			not_ok "$what: the series does not list $name, so it is never applied"
			continue
		fi
		if [ ! -e "$dir/$name" ]; then
			if [ -n "$note" ]; then
				skip "$what: no base in $dir/" "$note"
				noted+=("$what")
			else
				not_ok "$what: no base in $dir/, and no note $what.differs saying why"
			fi
			continue
		fi
		out=$(compare "$(body "$dir/$name")" "$(body "$var")" "$kver")
		differs=$(sed -n 's/^! //p' <<<"$out")
		if [ -z "$differs" ] && [ -z "$note" ]; then
			pass "$what: the added and removed lines of its base"
			same=$((same + 1))
		elif [ -z "$differs" ]; then
			not_ok "$what: noted as differing, but its lines are its base's (remove $what.differs)"
		elif [ -n "$note" ]; then
			skip "$what: its lines differ from its base's" "$note"
			noted+=("$what")
		else
			not_ok "$what: its added or removed lines differ from its base's (make them the same, or say why in $what.differs)"
		fi
		sed -n 's/^= //p' <<<"$out"
		[ -z "$differs" ] || echo "$differs"
	done
done
echo "# variants: $(tap_number) checked, $same with their base's lines, ${#noted[@]} noted${noted[*]:+ (${noted[*]})}, $failed failed"
tap_end
