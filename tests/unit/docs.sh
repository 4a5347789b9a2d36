#!/usr/bin/env bash
# docs.sh - the front door and the map stay whole: docs/layout.md names
# every folder and file of host-tools/ and every file of data/; the README
# fits its 150 lines, shows the data flow in its first screen, and every
# target its table names is one make knows; and every path a comment or a
# doc names is in the tree.
#
#   tests/unit/docs.sh HOST_TOOLS_DIR BUILD
#
# The paths named, a precise rule: the text read is every file of the tree
# (git's, and the new ones it does not ignore) but tests/fixtures/ and
# tests/fuzz/corpus/ (inputs, not text about the tree), the patches
# (*.patch*: upstream's text) and images; of a Markdown file or a README
# its whole text, of C, H and Go its comments, of report.html.in its
# <!-- --> lines, of Python its comments and docstrings, elsewhere what
# follows a '#' that begins a word. URLs are dropped. A name is a run of
# letters, digits and . _ - + @ * % < > holding a slash, not begun right
# after one of those, a '/', '~', '$', '{', '}' or ':' (an absolute path,
# a guest's, this host's or the cache's, a variable's: not the tree's),
# its trailing . , ; : dropped. It names a path when it ends in a slash,
# begins with a top folder of the tree or "..", or its last part has a
# known extension (EXTENSIONS below) or is a patch's number (0009: the one
# file of its folder whose name begins "0009-"). Not checked: a folder
# alone (boots/, out/ID/), named in its context; build/... and results/...
# (a build's, a run's). Every other path must be in the tree: as it is, or,
# a pattern, the folders before its first placeholder (<run-id>, NAME in
# capitals, *, %, ...), found from the top, from the naming file's folder
# or one above it, or from any folder of the tree named as its first part
# (harness/raw.h in docs/ is scenarios/harness/raw.h). A path that is not
# is stale, unless its first part is a top folder of a tree the lab names
# outside its own (OUTSIDE below: Linux's, glibc's, musl's, Go's, a
# system's headers, Debian's packaging, a run's folder, a root's): a path
# beginning with any other folder is never left unchecked.
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"

layout=$top/docs/layout.md
for f in "$top"/host-tools/* "$top"/data/*; do
	rel=${f#"$top"/}
	[ -d "$f" ] && rel=$rel/
	case $rel in data/*) name=$(basename "$rel") ;; *) name=$rel ;; esac
	expect "docs/layout.md names $rel" grep -qF "\`$name\`" "$layout"
done
# named_paths TOP: every stale path the comments and docs of the tree at
# TOP name (the rule above), "stale<TAB>FILE:LINE<TAB>PATH" each, then
# "counts<TAB>IN THE TREE<TAB>OUTSIDE IT".
named_paths() {
	git -C "$1" ls-files --cached --others --exclude-standard >"$work/files" || return
	python3 - "$1" "$work/files" <<'EOF'
import os
import re
import sys

top = sys.argv[1]
with open(sys.argv[2], encoding="utf-8") as f:
    files = [line for line in f.read().split("\n") if line]
tree = set(files)
folders = set()
for f in files:
    while "/" in f:
        f = f.rsplit("/", 1)[0]
        folders.add(f)
# every folder of the tree by its own name: kernel -> host-tools/kernel
by_name = {}
for d in folders:
    if d.startswith(("tests/fixtures/", "tests/fuzz/corpus/")):
        continue
    by_name.setdefault(os.path.basename(d), []).append(d)
tops = {f.split("/")[0] for f in files}
EXTENSIONS = set("""c h S go py sh mk md tsv json config kunitconfig service in patch upstream
    differs html png log txt tbl rst lds cpio img env yaml yml""".split())
# The top folders of the trees the lab names outside its own.
OUTSIDE = set(
    "arch Documentation drivers fs include init kernel lib net scripts tools "  # Linux
    "asm linux sys "  # a system's headers (<sys/time.h>)
    "nptl support sysdeps localedata "  # glibc
    "src "  # musl, libc-test
    "runtime syscall pkg "  # Go (its tree and a GOROOT)
    "Python Modules Objects "  # CPython
    "common "  # GnuPG
    "debian "  # Debian's packaging of a source package
    "boots distro try lava glibc-tests jobs "  # a run's folder, results/<run-id>/
    "usr y2038".split())  # a root's, a guest's
# A pattern's placeholder: <run-id>, *, %, ..., $X, NAME in capitals.
PLACEHOLDER = re.compile(r"\.\.\.|[<>*%?\[$]|(^|[-_.])[A-Z][A-Z0-9_]*([-_.]|$)")
TOKEN = re.compile(r"(?<![\w$./~<>{}@%*:-])((?:\.\.?/)*[\w.+<>*%@-]+(?:/[\w.+<>*%@-]*)+)")
URL = re.compile(r"\w+://\S+")


def c_comments(text):
    """The comments of C (and Go) text, as (line, text), strings skipped."""
    out, line, state, i = [], 1, "code", 0
    cur = []
    while i < len(text):
        ch, two = text[i], text[i:i + 2]
        if ch == "\n":
            if cur:
                out.append((line, "".join(cur)))
                cur = []
            line += 1
            if state == "line":
                state = "code"
            i += 1
            continue
        if state == "code":
            if two == "/*":
                state, i = "block", i + 2
                continue
            if two == "//":
                state, i = "line", i + 2
                continue
            if ch in "\"'":
                state = ch
        elif state in "\"'":
            if ch == "\\":
                i += 2
                continue
            if ch == state:
                state = "code"
        elif state == "block" and two == "*/":
            state, i = "code", i + 2
            continue
        else:
            cur.append(ch)
        i += 1
    if cur:
        out.append((line, "".join(cur)))
    return out


def hash_comments(text, docstrings=False):
    """What follows a '#' that begins a word; with docstrings, Python's."""
    out, in_doc = [], False
    for n, line in enumerate(text.split("\n"), 1):
        quotes = line.count('"""') if docstrings else 0
        if in_doc or quotes:
            out.append((n, line.replace('"""', " ")))
            in_doc ^= quotes % 2 == 1
            continue
        m = re.search(r"(^|\s)#", line)
        if m:
            out.append((n, line[m.end():]))
    return out


def comments(path, text):
    ext = path.rsplit(".", 1)[-1] if "." in os.path.basename(path) else ""
    if ext == "md" or os.path.basename(path) == "README":
        return list(enumerate(text.split("\n"), 1))
    if ext in ("c", "h", "go"):
        return c_comments(text)
    if ext == "in":
        return [(n, l) for n, l in enumerate(text.split("\n"), 1) if "<!--" in l]
    return hash_comments(text, docstrings=ext == "py")


def exists(rel):
    rel = os.path.normpath(rel)
    return rel in tree or rel in folders


def known(parts, last_is_prefix):
    """parts as a path of the tree; a patch named by its number (0009) is
    the start of one file's name."""
    rel = os.path.normpath(os.path.join(*parts))
    if exists(rel):
        return True
    if not last_is_prefix or not re.fullmatch(r"\d{4}", parts[-1]):
        return False
    parent = os.path.dirname(rel)
    return any(f.startswith(rel + "-") and os.path.dirname(f) == parent for f in tree)


def bases(path, first):
    """Where a name beginning with folder FIRST can be: the top, the naming
    file's folder and those above it, every folder of that name."""
    d = os.path.dirname(path)
    chain = []
    while d:
        chain.append(d)
        d = os.path.dirname(d)
    found = [""] if first in tops else []
    found += [b for b in chain if exists(os.path.join(b, first))]
    found += [os.path.dirname(f) for f in by_name.get(first, []) if os.path.dirname(f) not in found]
    return found


def resolves(path, parts, whole):
    if parts[0] == "..":
        return known([os.path.dirname(path)] + parts, whole)
    return any(known([b] + parts if b else parts, whole) for b in bases(path, parts[0]))


checked = outside = 0
for path in files:
    if path.startswith(("tests/fixtures/", "tests/fuzz/corpus/")) or \
            re.search(r"\.patch(\.|$)|\.png$", path):
        continue
    try:
        with open(os.path.join(top, path), encoding="utf-8") as f:
            text = f.read()
    except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
        continue
    for n, comment in comments(path, text):
        for m in TOKEN.finditer(URL.sub(" ", comment)):
            name = m.group(1).rstrip(".,;:")
            parts = name.rstrip("/").split("/")
            if len(parts) < 2 or not all(parts[:-1]) or parts[0] == ".":
                continue
            last = parts[-1]
            if not (name.endswith("/") or parts[0] in tops or parts[0] == ".." or
                    ("." in last and last.rsplit(".", 1)[1] in EXTENSIONS) or re.fullmatch(r"\d{4}", last)):
                continue    # prose: time32/time64, I/O
            if parts[0] in ("build", "results"):
                continue    # an output: a build's, a run's
            ok = resolves(path, parts, True)
            if not ok:  # a pattern: its fixed folders
                fixed = []
                for p in parts:
                    if PLACEHOLDER.search(p):
                        break
                    fixed.append(p)
                if len(fixed) == len(parts):
                    pass
                elif not fixed or (len(fixed) == 1 and fixed[0] not in tops):
                    continue    # a variable's, or a folder in its context
                else:
                    ok = resolves(path, fixed, False)
            if ok:
                checked += 1
            elif parts[0] in OUTSIDE:
                outside += 1
                if os.environ.get("SHOW_OUTSIDE"):
                    print(f"outside\t{path}:{n}\t{name}")
            else:
                print(f"stale\t{path}:{n}\t{name}")
print(f"counts\t{checked}\t{outside}")
EOF
}
if ! git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	skip "every path a comment or doc names is in the tree" "$top is not a git checkout: no list of its files"
elif ! found=$(named_paths "$top" 2>&1); then
	not_ok "every path a comment or doc names is in the tree" "the check failed:" "$found"
else
	stale=0
	while IFS=$'\t' read -r what where name; do
		case $what in
		stale) not_ok "$where names $name, which is not in the tree"; stale=$((stale + 1)) ;;
		counts) counts="$where in the tree, $name outside it (OUTSIDE)" ;;
		esac
	done <<<"$found"
	[ "$stale" -gt 0 ] || pass "every path a comment or doc names is in the tree: ${counts:-no count}"
fi
# The rule on a tree of its own: what it finds stale, and what it does not.
mini=$work/mini
mkdir -p "$mini/docs" "$mini/lab/part" "$mini/patches/7.2"
git -C "$mini" init -q
touch "$mini/lab/part/here.c" "$mini/patches/7.2/0009-fix.patch"
cat >"$mini/lab/part/there.c" <<'EOF'
/* here.c's twin: part/here.c, lab/part/gone.c, kernel/time/time.c */
static const char *s = "lab/in-a-string.c /* not a comment */";
// ../part/here.c and ../part/gone2.c; kernel/time/time.c
EOF
cat >"$mini/docs/a.md" <<'EOF'
[here](../lab/part/here.c), lab/<name>/x.c, lab/none/*.c, patches/7.2/0009,
patches/7.2/0010, results/<run-id>/x.json, build/host/y, /usr/lib/z.so, out/ID/,
tool/typo.sh, $top/lab/x.sh, https://example.org/lab/x.c
EOF
same "the rule: the stale paths, and only those" \
	"$(named_paths "$mini" 2>&1)" \
	"$(printf '%s\n' 'stale	docs/a.md:1	lab/none/*.c' 'stale	docs/a.md:2	patches/7.2/0010' \
		'stale	docs/a.md:3	tool/typo.sh' 'stale	lab/part/there.c:1	lab/part/gone.c' \
		'stale	lab/part/there.c:3	../part/gone2.c' 'counts	5	2')"
readme=$top/README.md
expect "README.md is at most 150 lines ($(wc -l <"$readme"))" test "$(wc -l <"$readme")" -le 150
expect "README.md shows the data flow in its first 45 lines" \
	bash -c "head -45 '$readme' | grep -q 'host-tools/kernel/' && head -45 '$readme' | grep -q 'host-tools/report/'"
# Every target the README's table names is a target make knows.
known=$(make -C "$top" -pnq BUILD="$work/build" CACHE="$work/cache" RESULTS="$work/results" 2>/dev/null |
	sed -n 's/^\([a-z][a-z0-9-]*\):.*/\1/p' | sort -u)
for t in $(sed -n 's/^| `make \([a-z][a-z0-9-]*\).*/\1/p' "$readme" | sort -u); do
	expect "README's make $t is a target" grep -qx "$t" <<<"$known"
done
tap_end
