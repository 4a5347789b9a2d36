#!/usr/bin/env bash
# hardening.sh - the host tools parse what guests, roots and LAVA servers
# send, and run as root: each is built hardened (HOST_CFLAGS), as Debian
# builds its own packages' programs: full RELRO (the GOT read-only after
# start: GNU_RELRO and BIND_NOW), the stack protector on every function with
# an array (-fstack-protector-strong: it calls __stack_chk_fail), and
# _FORTIFY_SOURCE's checked string and memory calls (__*_chk).
#
#   tests/unit/hardening.sh HOST_TOOLS_DIR BUILD
set -uo pipefail
# shellcheck source=tests/lib/unit.sh
. "$(dirname "$0")/../lib/unit.sh"

n=0
for tool in "$host"/*; do
	[ -f "$tool" ] && [ -x "$tool" ] && [ "$(head -c 4 "$tool")" = $'\x7fELF' ] || continue
	n=$((n + 1))
	name=$(basename "$tool")
	relro=$(readelf -lW "$tool" | grep -c GNU_RELRO)
	now=$(readelf -dW "$tool" | grep -cE '\((FLAGS|FLAGS_1)\).* NOW')
	imports=$(readelf -sW --dyn-syms "$tool" | awk '$7 == "UND" { sub(/@.*/, "", $8); print $8 }')
	same "$name: full RELRO (a GNU_RELRO segment, and BIND_NOW)" "relro $relro, bind-now $((now > 0))" "relro 1, bind-now 1"
	expect "$name: the stack protector (it calls __stack_chk_fail)" grep -qx __stack_chk_fail <<<"$imports"
	expect "$name: _FORTIFY_SOURCE's checked calls ($(grep -cE '^__[a-z0-9_]+_chk$' <<<"$imports") of them)" \
		grep -qE '^__[a-z0-9_]+_chk$' <<<"$imports"
done
expect "the host tools were built: $n in $host" [ "$n" -gt 0 ]
tap_end
