#!/usr/bin/env bash
# format-patches.sh - the lab's kernel series for one kernel, or its glibc
# series, ready to send, signed off by whoever sends it.
#
#   format-patches.sh out=DIR series=FILE kernel=PACKAGE [identity="NAME <EMAIL>"]
#   format-patches.sh out=DIR series=FILE glibc=master cover=FILE [identity=...]
#
# glibc=master: the glibc series as it is sent to libc-alpha, the master
# variant of each patch (master/NAME beside the series, made on the commit
# data/glibc-master.tsv pins) after the cover letter COVER, into DIR/series/;
# with its From: line, git am takes it (glibc accepts a Signed-off-by under
# the DCO).
#
# The patches in patches/ carry no author and no sign-off: a patch is signed
# off by the person who sends it, and the lab invents no one. A stable
# backport ([PATCH X.Y.y]) carries its upstream commit's author and
# trailers, as stable maintainers take it, and the sender's sign-off is
# added after them and the note on what was adapted. This writes
# each patch the series applies to PACKAGE's kernel (series.sh list: its
# KVER/NAME versions included) and the cover letter with "From: IDENTITY"
# and, on each patch, "Signed-off-by: IDENTITY" after its other trailers
# (and the cover letter's shortlog names the sender: @SENDER@).
# IDENTITY is identity=, else git's user.name and user.email; with neither
# it refuses. The files go into DIR by how they are sent, from their
# subjects: DIR/series/ (the cover letter and [PATCH i/N]), DIR/net/ ([PATCH
# net]: a fix sent to the networking tree on its own), DIR/single/
# ([PATCH]: a fix sent on its own), DIR/stable/ ([PATCH X.Y.y]: a backport
# sent to stable@vger.kernel.org).
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"
identity= kernel= glibc= cover=
kv_args "$@"
need out series
[ -n "$kernel" ] || [ "$glibc" = master ] || die "kernel=linux-source[-X.Y], or glibc=master"
[ -z "$glibc" ] || need cover

if [ -z "$identity" ]; then
	name=$(git -C "$LAB_TOP" config user.name 2>/dev/null || true)
	email=$(git -C "$LAB_TOP" config user.email 2>/dev/null || true)
	[ -n "$name" ] && [ -n "$email" ] ||
		die "a patch is signed off by the one who sends it, and git knows no one here: git config --global user.name 'Your Name' && git config --global user.email you@example.org"
	identity="$name <$email>"
fi
[[ $identity =~ ^[^\<\>]+\ \<[^\<\>@\ ]+@[^\<\>@\ ]+\>$ ]] || die "identity=$identity: want NAME <EMAIL>"

if [ "$glibc" = master ]; then
	kver= srcpkg="glibc master"
	files=$("$LAB_TOP/host-tools/kernel/series.sh" list "$series" | sed "s|.*/|$(dirname "$series")/master/|")
else
	# The kernel's version, as source.sh names it: linux-source is Debian's default.
	srcpkg=$kernel
	[ "$kernel" != linux-source ] || srcpkg=$(dpkg-query -W -f='${Depends}' linux-source 2>/dev/null |
		sed -n 's/^\(linux-source-[0-9.]*\).*/\1/p')
	case $srcpkg in
	linux-source-[0-9]*.[0-9]*) kver=${srcpkg#linux-source-} ;;
	*) die "kernel=$kernel: want linux-source or linux-source-X.Y" ;;
	esac

	cover=$(dirname "$series")/0000-cover-letter.patch
	files=$("$LAB_TOP/host-tools/kernel/series.sh" list "$series" "$kver")
fi
rm -rf "$out"
mkdir -p "$out"
for p in $([ -r "$cover" ] && echo "$cover") $files; do
	subject=$(sed -n 's/^Subject: \(\[PATCH[^]]*\]\).*/\1/p' "$p" | head -1)
	case $subject in
	"[PATCH net]") dir=net ;;
	"[PATCH]") dir=single ;;
	"[PATCH "[0-9]*/[0-9]*"]") dir=series ;;
	"[PATCH "[0-9]*.[0-9]*".y]") dir=stable ;;
	*) die "$p: its subject's prefix \"$subject\" says neither how nor where it is sent" ;;
	esac
	mkdir -p "$out/$dir"
	# From: after the mbox line (a backport keeps its author's);
	# Signed-off-by: before the message's end ("---"), after its other
	# trailers; the cover letter has none.
	awk -v who="$identity" -v name="${identity% <*}" -v cover="$([ "$p" = "$cover" ] && echo 1 || echo 0)" '
		NR == 1 { print; getline; if (!/^From: /) print "From: " who }
		cover { gsub(/@SENDER@/, name) }
		!done && /^---$/ && !cover { print "Signed-off-by: " who; done = 1 }
		{ print }
		END { if (!done && !cover) exit 1 }' "$p" >"$out/$dir/$([ "$p" = "$cover" ] && echo 0000-cover-letter.patch || basename "$p")" ||
		die "$p: no \"---\" line ends its message"
done
say PATCHES "$out: $(find "$out" -name '*.patch' | wc -l) patches for $srcpkg, from $identity ($(ls "$out" | tr '\n' ' '))"
