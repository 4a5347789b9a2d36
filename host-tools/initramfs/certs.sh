#!/usr/bin/env bash
# certs.sh OUT ISSUED: the apps family's certificates (scenarios/apps/session.tsv),
# made with this machine's openssl and exact validity dates (openssl ca
# -startdate/-enddate; OpenSSL 3.0's x509 and req only count days from now):
#   ca.pem        a CA valid 2020-01-01 to 2050-01-01
#   leaf-2045.pem 127.0.0.1, valid 2025-01-01 to 2045-01-01 (leaf.key)
#   leaf-2038.pem 127.0.0.1, issued ISSUED (YYYYMMDDHHMMSSZ: make gives the
#                 overflow + 2 s, 2038-01-19T03:14:09Z), valid to 2048
# EC P-256 keys: a handshake a TCG guest does quickly.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: certs.sh OUT ISSUED" >&2; exit 2; }
issued=$2
mkdir -p "$(dirname "$1")"
out=$(realpath "$1")
work=$out.tmp
rm -rf "$work"
mkdir -p "$work"
cd "$work"
: >index.txt
echo 1000 >serial
cat >ca.cnf <<'CNF'
[ca]
default_ca = lab
[lab]
dir = .
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any
unique_subject = no
[any]
commonName = supplied
[req]
distinguished_name = dn
prompt = no
[dn]
CN = y2038-lab
[v3_ca]
basicConstraints = critical,CA:true
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[v3_leaf]
basicConstraints = CA:false
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1
authorityKeyIdentifier = keyid
CNF
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
# sign NAME KEY SUBJECT START END EXTENSIONS [-selfsign]
sign() {
	openssl req -new -config ca.cnf -key "$2" -subj "$3" -out "$1.csr"
	openssl ca -config ca.cnf -batch -notext -keyfile ca.key -startdate "$4" -enddate "$5" \
		-extensions "$6" -in "$1.csr" -out "$1.pem" "${@:7}" 2>ca.log ||
		{ cat ca.log >&2; exit 1; }
}
key ca.key
key leaf.key
sign ca ca.key "/CN=y2038-lab test CA" 20200101000000Z 20500101000000Z v3_ca -selfsign
sign leaf-2045 leaf.key "/CN=127.0.0.1" 20250101000000Z 20450101000000Z v3_leaf -cert ca.pem
sign leaf-2038 leaf.key "/CN=127.0.0.1" "$issued" 20480101000000Z v3_leaf -cert ca.pem
rm -rf "$out" "$out.new"
mkdir "$out.new"
cp ca.pem leaf-2045.pem leaf-2038.pem leaf.key "$out.new/"
cd /
rm -rf "$work"
mv "$out.new" "$out"
