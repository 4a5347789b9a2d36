#!/usr/bin/env bash
# debian-keyring.sh - the roots debian.sh fetches are Debian's, signed:
# debootstrap takes no Release that Debian's archive keyring did not sign,
# even on a host without that keyring, where it would otherwise warn and go
# on (debootstrap's own default). A mirror of this test's own serves an
# unsigned Release and the Packages index it names; debian.sh foreign must
# fail, naming the keyring or the signature, before it asks for that index:
# with the host's keyring, and in a mount namespace of its own where
# /usr/share/keyrings is empty (the host's is never touched).
#
#   tests/unit/debian-keyring.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"

debian=$top/host-tools/distro/debian.sh
if [ "$(id -u)" != 0 ] || ! command -v debootstrap >/dev/null; then
	skip "debootstrap takes no unsigned Release, with or without the host's keyring" \
		"$([ "$(id -u)" != 0 ] && echo "not root: debootstrap needs root" || echo "debootstrap is not installed")"
	tap_end
	exit
fi
# The mirror: dists/bookworm/Release, unsigned, naming an empty Packages.
mirror=$work/mirror/debian
mkdir -p "$mirror/dists/bookworm/main/binary-i386"
: >"$mirror/dists/bookworm/main/binary-i386/Packages"
{
	printf 'Origin: Debian\nSuite: bookworm\nCodename: bookworm\nArchitectures: i386\nComponents: main\nSHA256:\n'
	printf ' %s 0 main/binary-i386/Packages\n' "$(sha256sum </dev/null | cut -d' ' -f1)"
} >"$mirror/dists/bookworm/Release"
/usr/bin/python3 - "$work/mirror" "$work/mirror.port" "$work/mirror.log" <<'EOF' &
import functools, http.server, os, sys
root, port_file, log = sys.argv[1:]
class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, fmt, *args):
        with open(log, "a") as f:
            f.write("%s %s\n" % (self.command, self.path))
httpd = http.server.HTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=root))
with open(port_file + ".tmp", "w") as f:
    f.write("%d\n" % httpd.server_address[1])
os.rename(port_file + ".tmp", port_file)
httpd.serve_forever()
EOF
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/mirror.port" ] || sleep 0.1; done
url=http://127.0.0.1:$(cat "$work/mirror.port")/debian
export LAB_DEBIAN_ARCHES=i386

# foreign: debootstrap's first stage from the mirror; its failure and
# whether it asked for the index the unsigned Release names
foreign() {
	rm -f "$work/mirror.log"
	"$@" "$debian" foreign cache="$work/cache-$#" arch=i386 suite=bookworm mirror="$url" >"$work/out" 2>&1
	echo "$?: $(grep -ciE 'keyring|signature|signed' "$work/out") $(cat "$work/mirror.log" 2>/dev/null | grep -c Packages)"
}
same "debootstrap with the host's keyring: an unsigned Release is refused before its index is asked for" \
	"$(foreign)" "1: 1 0"
# shellcheck disable=SC2016
same "debootstrap on a host without Debian's keyring: ... refused too, naming the keyring (not taken unsigned)" \
	"$(foreign unshare -m --propagation private sh -c 'mount -t tmpfs y2038-no-keyrings /usr/share/keyrings && exec "$@"' _)" \
	"1: 1 0"
tap_end
