#!/usr/bin/env bash
# checkpatch.sh - the kernel's own style check on every patch of the series.
#
#   checkpatch.sh cache=DIR package=NAME series=FILE
#
# Runs scripts/checkpatch.pl --strict from the kernel source the patches are
# for (KVER/NAME variants for kernel KVER), on each patch as it would be
# sent (format-patches.sh, with a throwaway sign-off), one at a time, and
# prints its verdict in TAP. Exits 1 if any patch has an error, a warning or
# a check: the series is kept clean, not merely error-free.
set -euo pipefail

# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
kv_args "$@"
need cache package series
here=$(cd "$(dirname "$0")/../kernel" && pwd)
# shellcheck source=host-tools/kernel/source.sh
. "$here/source.sh"
# The series is applied too, to the kernel's working tree, without fuzz: it
# must apply to every kernel the lab offers, not only read cleanly.
kernel_source "$(realpath -m "$cache")" "$package" "$series"
tree_take ${patches[@]+"${patches[@]}"}	# and held until the end
# What is checked is what would be sent: the series as format-patches.sh
# writes it, signed off by a throwaway identity (the lab's patches carry
# none), so that --strict checks the sign-off too.
sent=$(mktemp -d)
trap 'rm -rf "$sent"' EXIT
"$(dirname "$0")/format-patches.sh" out="$sent" series="$series" kernel="$package" \
	identity="y2038-lab check <check@y2038-lab.invalid>" >/dev/null
files=()
for p in ${patches[@]+"${patches[@]}"}; do
	files+=("$(ls "$sent"/*/"$(basename "$p")")")
done

# A Debian source package has no git history, so two of checkpatch's
# questions are answered here instead of by it. UNKNOWN_COMMIT_ID looks a
# Fixes: or "commit" id up in git and, without git, warns about every one:
# it is not asked (the ids' form is still checked, GIT_COMMIT_ID). And
# FILE_PATH_CHANGES asks whether MAINTAINERS needs updating for each file a
# patch adds, whether or not an entry covers it: get_maintainer.pl answers
# that in the patched tree, and a file that only the catch-all list would
# get fails.
unowned() {
	local f
	for f in $(sed -n 's|^+++ b/||p' "$1" | while read -r f; do
			grep -q "^--- /dev/null" < <(grep -B1 -F "+++ b/$f" "$1") && echo "$f"
		done); do
		(cd "$tree" && perl scripts/get_maintainer.pl --nogit --nogit-fallback -f "$f" 2>/dev/null) |
			grep -qE '\((maintainer|supporter):' || echo "$f"
	done
}
# The cover letter's recipients were get_maintainer.pl's on one kernel (it
# says which): on that kernel, they still must be.
cover=$(dirname "$series")/0000-cover-letter.patch
recipients() {	# the cover letter's block for patch $1 of $2
	awk -v head="$1/$2 " 'index($0, head) == 1 { on = 1; next }
		on && /^    / { sub(/^    /, ""); print; next } on { exit }' "$cover"
}
check_cover=no
[ -r "$cover" ] && grep -q "get_maintainer.pl .*on $srcpkg $version\b" <(tr '\n' ' ' <"$cover") && check_cover=yes

# shellcheck source=host-tools/tap.sh
. "$(dirname "$0")/../tap.sh"
# A stable backport ([PATCH X.Y.y]) opens with "commit <id> upstream.", the
# form Documentation/process/stable-kernel-rules.rst asks for, which
# checkpatch's GIT_COMMIT_ID would have as 'commit <id> ("subject")': that
# line is checked here instead (the full id), the rest as for any patch.
stable_form() {
	awk '/^$/ { getline; print; exit }' "$1" | grep -qE '^commit [0-9a-f]{40} upstream\.$'
}
# A backport keeps upstream's lines as upstream wrote them, its style too.
# The CHECKs --strict finds on them are listed beside the patch
# (NAME.upstream-style: TYPE, a tab, the added line, after the sentence that
# says why), and only those pass: one the list lacks, or one it lists that is
# no longer found, fails. checks_on LOG PATCH: "TYPE<TAB>line" for each CHECK.
checks_on() {
	sed -n 's/^[^:]*:\([0-9]*\): CHECK:\([A-Z_]*\):.*/\1 \2/p' "$1" | while read -r n type; do
		printf '%s\t%s\n' "$type" "$(sed -n "${n}p" "$2")"
	done | LC_ALL=C sort
}
for p in "${files[@]}"; do
	# --no-tree: the check needs no git tree; spdxcheck needs one and is skipped.
	ignore=UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES
	if grep -qE '^Subject: \[PATCH [0-9]+\.[0-9]+\.y\] ' "$p"; then
		if ! stable_form "$p"; then
			not_ok "checkpatch --strict: ${p#"$sent"/}: a stable backport's message opens with \"commit <full id> upstream.\""
			continue
		fi
		ignore+=,GIT_COMMIT_ID
	fi
	rc=0
	out=$(cd "$pristine" && perl scripts/checkpatch.pl --strict --no-tree --terse --show-types \
		--ignore "$ignore" "$p" 2>&1) || rc=$?
	orphans=$(unowned "$p")
	style=$(dirname "$series")/$(basename "$p").upstream-style
	kept=
	if [ -f "$style" ] && ! grep -qE ':( ERROR| WARNING):' <<<"$out" && [ -z "$orphans" ]; then
		found=$(checks_on <(echo "$out") "$p")
		listed=$({ grep -v "^#" "$style" || true; } | LC_ALL=C sort)
		if [ "$found" = "$listed" ]; then
			kept=$(grep -c . <<<"$found")
		else
			echo "# ${p#"$sent"/}: its CHECKs are not those $style lists (< found, > listed):"
			diff <(echo "$found") <(echo "$listed") | grep '^[<>]' | sed 's/^/#   /' || true
		fi
	fi
	if [ -n "$kept" ]; then
		pass "checkpatch --strict: ${p#"$sent"/}: $kept CHECKs on upstream's own lines, kept as $(basename "$style") lists"
	elif [ $rc -eq 0 ] && ! grep -qE ':( ERROR| WARNING| CHECK):' <<<"$out" && [ -z "$orphans" ]; then
		pass "checkpatch --strict: ${p#"$sent"/}"
	else
		not_ok "checkpatch --strict: ${p#"$sent"/}"
		sed 's/^/# /' <<<"$out"
		for f in $orphans; do
			echo "# $f: a new file no MAINTAINERS entry covers (get_maintainer.pl finds no maintainer)"
		done
	fi
done
# A patch sent on its own ([PATCH], [PATCH net]) names its recipients in its
# Cc: trailers: every person get_maintainer.pl names on this kernel.
for p in "${files[@]}"; do
	grep -qE '^Subject: \[PATCH( net)?\] ' "$p" || continue
	want=$(cd "$tree" && perl scripts/get_maintainer.pl --nogit --nogit-fallback --norolestats --nol "$p" 2>/dev/null |
		LC_ALL=C sort) || want="(get_maintainer.pl failed)"
	got=$(sed -n 's/^Cc: //p' "$p" | { grep -v '@vger.kernel.org>*$' || true; } | LC_ALL=C sort)
	missing=$(LC_ALL=C comm -23 <(echo "$want") <(echo "$got"))
	if [ -z "$missing" ]; then
		pass "recipients: ${p#"$sent"/}"
	elif [ "${p#"$sent"/net/}" != "$p" ]; then
		# a net patch goes To: netdev, whose maintainers the list reaches
		skip "recipients: ${p#"$sent"/}" "sent to netdev, its maintainers by the list"
	else
		not_ok "recipients: ${p#"$sent"/}: get_maintainer.pl names people its Cc: does not"
		sed 's/^/# missing: /' <<<"$missing"
	fi
done
if [ $check_cover = yes ]; then
	# The letter covers the numbered patches ([PATCH i/N]); a patch sent on
	# its own ([PATCH], a fix for one kernel's code) is not in it.
	numbered=()
	for p in "${files[@]}"; do
		grep -qE '^Subject: \[PATCH [0-9]+/[0-9]+\]' "$p" && numbered+=("$p")
	done
	files=("${numbered[@]}")
	diff=
	for ((i = 0; i < ${#files[@]}; i++)); do
		# as sets: get_maintainer.pl's order of equal roles follows perl's
		# hash order, which changes from one run to the next
		want=$(cd "$tree" && perl scripts/get_maintainer.pl --nogit --nogit-fallback --norolestats \
			"${files[$i]}" 2>/dev/null | LC_ALL=C sort) || want="(get_maintainer.pl failed)"
		got=$(recipients $((i + 1)) ${#files[@]} | LC_ALL=C sort)
		[ "$got" = "$want" ] ||
			diff+="$(diff <(echo "$got") <(echo "$want") | sed "s|^|# $((i + 1))/${#files[@]}: |" || true)"$'\n'
	done
	if [ -z "$diff" ]; then
		pass "cover letter: each patch's recipients are get_maintainer.pl's on $srcpkg $version"
	else
		not_ok "cover letter: recipients differ from get_maintainer.pl's on $srcpkg $version (< letter, > now)"
		printf '%s' "$diff"
	fi
fi
echo "# checkpatch: $srcpkg $version: the series applies ($patches_desc); $passed of $(tap_number) checks clean, $skipped skipped"
tap_end
