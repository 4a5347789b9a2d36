#!/usr/bin/env bash
# lava-server.sh - a LAVA lab of its own on this machine, on the loopback
# only, for make lava-server-check: Debian's lava-server (gunicorn and the
# scheduler) on a PostgreSQL instance of its own, and a lava-worker with one
# qemu device per machine kind; then gone again, the host as it was.
#
#   lava-server.sh install
#       Debian's lava-server, lava-dispatcher and PostgreSQL (deps.sh):
#       with no PostgreSQL on the default socket for lava-server's postinst
#       to make its databases in (PGHOST points nowhere while it runs), and
#       their services, which Debian enables as it installs them, disabled
#       again: none starts at the next boot (lava-worker, as root)
#   lava-server.sh start STATE machines="i386 armv7"
#       everything under STATE (a folder of its own): the database, the
#       server's settings (LAVA_JSON_SETTINGS, so /etc/lava-server is never
#       written), job outputs, device dictionaries, logs; a user, its token
#       (STATE/token), another user and its (STATE/other-token: someone
#       else on the same lab) and the worker's; then the services, each started here and what
#       identifies it kept (STATE/processes). Writes STATE/server.env (the
#       URL, the database's port) and STATE/token (the user's token, for
#       LAVA_TOKEN_FILE=). What an earlier start left (its check killed)
#       is stopped first, saying so.
#   lava-server.sh kill-worker STATE
#       the worker dies as a machine does: it and every process of its
#       session and under it (lava-run, QEMU), SIGKILL, nothing told
#   lava-server.sh stop STATE
#       every process started here and every one of their sessions and
#       under them, the database, the jobs' scratch folders under
#       /var/lib/lava; STATE is removed but its logs (STATE.logs/). A
#       recorded process that is not the one started here any more (its
#       start time differs, or this machine has booted since) is left
#       alone, named.
#
# Nothing here is a systemd service: this machine may have no systemd, and
# a check must not leave one enabled. Its state is private: the user's and
# the worker's tokens, the database's password and Django's key are in
# files only root reads, in a folder no other user lists (the worker and
# QEMU run as root: its token is root's), and no secret is ever on a
# command line, which ps shows to every user (psql and Python are given
# them on stdin). The packages stay installed (the lab
# installs what it uses); nothing else does.
set -euo pipefail
# shellcheck source=host-tools/lib.sh
. "$(dirname "$0")/../lib.sh"

LAVA_SERVER_PACKAGES="lava-server lava-dispatcher"
PG_BIN=/usr/lib/postgresql/15/bin
WORKER=y2038-lab-worker
USER_NAME=y2038-lab
OTHER_USER=y2038-lab-other
# where lava-run keeps a job's downloads, whatever the worker's folder
DISPATCHER_TMP=/var/lib/lava/dispatcher/tmp

free_port() {
	/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
random_secret() { head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n'; }

# What identifies a process while it lives: its pid, its start (clock
# ticks after boot, /proc/PID/stat's 22nd field) and this boot's id. Each
# service started here is recorded so, "NAME PID START BOOT_ID" in
# STATE/processes, and only what still matches is ever signalled: once the
# pid is another program's, or the machine has booted since, the record is
# a stranger's. A pid is not reused while it names a live session, so what
# a service started in its session (setsid) is its own, even once it died.
record_process() {
	local stat
	stat=$(cat "/proc/$2/stat" 2>/dev/null) || die "start: $1 (pid $2) ended at once (logs: $state/logs/)"
	stat=${stat##*) }
	# shellcheck disable=SC2086
	set -- "$1" "$2" $stat
	echo "$1 $2 ${22} $(cat /proc/sys/kernel/random/boot_id)" >>"$state/processes"
}

# processes stop|kill|ours NAME...: the recorded services NAME..., each
# with every process of its session and under it, taken at once (a child
# whose parent dies goes to init, out of sight). stop: SIGTERM, then
# SIGKILL what is left after 10 s; kill: SIGKILL; ours: exit 0 when the one
# NAME is alive and the process started here. Signals go through a pidfd
# opened before the start is checked: never to a pid reused meanwhile.
processes() {
	[ -f "$state/processes" ] || return 1
	/usr/bin/python3 - "$state/processes" "$@" <<'EOF'
import os, signal, sys, time
records, action, names = sys.argv[1], sys.argv[2], sys.argv[3:]
with open("/proc/sys/kernel/random/boot_id") as f:
    boot = f.read().strip()

def say(text):
    print("  LAVA     " + text, flush=True)

def stat(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            s = f.read()
    except OSError:
        return None
    f = s[s.rindex(")") + 2:].split()
    return None if f[0] in "ZX" else {"ppid": int(f[1]), "sid": int(f[3]), "start": int(f[19])}

procs = {int(p): stat(int(p)) for p in os.listdir("/proc") if p.isdigit()}
procs = {p: s for p, s in procs.items() if s}
with open(records) as f:
    recorded = [line.split() for line in f if len(line.split()) == 4]
ours = {}  # pid: start, of every process to signal
for name, pid, start, started_boot in recorded:
    pid, start = int(pid), int(start)
    if name not in names:
        continue
    now = procs.get(pid)
    if started_boot != boot:
        if action != "ours":
            say("%s (pid %d) was started before this machine's last boot: nothing of it is left" % (name, pid))
        continue
    if now and now["start"] != start:
        if action != "ours":
            say("pid %d is not the %s started here any more (another program since): left alone" % (pid, name))
        continue
    if action == "ours":
        sys.exit(0 if now else 1)
    mine = {p for p, s in procs.items() if s["sid"] == pid and s["start"] >= start}
    if now:
        mine.add(pid)
    while True:
        more = {p for p, s in procs.items() if s["ppid"] in mine} - mine
        if not more:
            break
        mine |= more
    if mine and action == "stop":
        say("stopping %s%s (pid%s %s)" % (name, "" if now else ", gone: what it left",
                                           "s" if len(mine) > 1 else "", " ".join(map(str, sorted(mine)))))
    ours.update({p: procs[p]["start"] for p in mine})
if action == "ours":
    sys.exit(1)

def send(pid, start, signum):
    try:
        fd = os.pidfd_open(pid)
    except OSError:
        return False  # gone
    try:
        s = stat(pid)
        if not s or s["start"] != start:
            return False
        signal.pidfd_send_signal(fd, signum)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)

left = {p: s for p, s in ours.items() if send(p, s, signal.SIGKILL if action == "kill" else signal.SIGTERM)}
deadline = time.monotonic() + 10
while action == "stop" and left and time.monotonic() < deadline:
    time.sleep(0.2)
    left = {p: s for p, s in left.items() if (stat(p) or {}).get("start") == s}
for p, s in left.items():
    send(p, s, signal.SIGKILL)
EOF
}

# The systemd units enabled on this machine (links in /etc/systemd/system).
enabled_units() { find /etc/systemd/system -type l -path '*.wants/*' -printf '%f\n' 2>/dev/null | sort -u; }

install_packages() {
	local before unit
	before=$(enabled_units)
	"$LAB_TOP/host-tools/deps.sh" postgresql
	# lava-server's postinst makes its databases in any PostgreSQL that
	# answers on the default socket (pg_isready): here, none does.
	# shellcheck disable=SC2086
	PGHOST=/nonexistent/y2038-lab PGPORT=1 "$LAB_TOP/host-tools/deps.sh" $LAVA_SERVER_PACKAGES
	# What installing them enabled of theirs (deb-systemd-helper): the
	# check starts a lab of its own, and this machine runs none at boot.
	# Disabled as an administrator would: a later upgrade keeps it so.
	for unit in $(comm -13 <(echo "$before") <(enabled_units)); do
		case $unit in
		lava-* | postgresql*)
			systemctl disable --quiet "$unit" 2>/dev/null || deb-systemd-helper disable "$unit"
			say LAVA "$unit: disabled (installed for make lava-server-check, not to start at boot)"
			;;
		esac
	done
}

# lava-server manage ... with the instance's settings (STATE/settings.env).
manage() { (set -a && . "$state/settings.env" && /usr/bin/lava-server manage "$@"); }

start() {
	local machines='' m
	kv_args "$@"
	need machines
	[ "$(id -u)" -eq 0 ] || die "start: needs root (the worker runs QEMU as root; the server drops to lavaserver)"
	id lavaserver >/dev/null 2>&1 || die "start: no user lavaserver: lava-server is not installed (lava-server.sh install)"
	# Not beside a LAVA lab of this machine's own: its settings, its
	# worker's scratch folders and its ports would be shared.
	if [ -e /etc/lava-server/settings.d/00-database.yaml ] || [ -e /etc/lava-server/instance.conf ]; then
		die "start: this machine has a LAVA server configured (/etc/lava-server): lava-server-check needs one without"
	fi
	# an instance left by a start that was never stopped (its check killed)
	if [ -e "$state" ]; then
		say LAVA "an earlier start left $state (its check was killed?): stopping what it left"
		stop
	fi
	# (alive: one killed a moment ago may be a zombie until init reaps it,
	# which pgrep counts and stop does not: run at load 9)
	if ps -C lava-worker,lava-run -o stat= | grep -qv '^Z'; then
		die "start: a lava-worker or lava-run runs here already"
	fi
	rm -rf "$state" "$state.logs"
	# what start and the services make is theirs alone; the database's and
	# the web server's users reach their own folders, and list nothing
	umask 077
	mkdir -p "$state"/{logs,media,devices,health-checks,worker,pgsock,console}
	chmod 711 "$state" "$state/logs"
	state=$(realpath "$state")
	local pg_port http_port pg_pass
	pg_port=$(free_port)
	http_port=$(free_port)
	pg_pass=$(random_secret)
	local url=http://127.0.0.1:$http_port

	# --- the database: a PostgreSQL instance of its own, on the loopback
	say LAVA "PostgreSQL on 127.0.0.1:$pg_port ($state/pg)"
	chown postgres: "$state/pgsock"
	install -d -o postgres -m 700 "$state/pg"
	runuser -u postgres -- "$PG_BIN/initdb" -D "$state/pg" -E UTF8 --locale=C.UTF-8 -U postgres \
		--auth-local=peer --auth-host=scram-sha-256 >"$state/logs/initdb.log" 2>&1
	touch "$state/logs/postgresql.log" && chown postgres: "$state/logs/postgresql.log"
	runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$state/pg" -l "$state/logs/postgresql.log" -w -t 60 start \
		-o "-p $pg_port -k $state/pgsock -c listen_addresses=127.0.0.1" >/dev/null
	record_process postgres "$(head -1 "$state/pg/postmaster.pid")"
	echo "pg_port=$pg_port" >"$state/server.env"
	printf "CREATE ROLE lavaserver LOGIN PASSWORD '%s';\nCREATE DATABASE lavaserver OWNER lavaserver;\n" "$pg_pass" |
		runuser -u postgres -- psql -q -h "$state/pgsock" -p "$pg_port" -U postgres -v ON_ERROR_STOP=1

	# --- the server's settings: in the environment of each of its
	# processes (LAVA_JSON_SETTINGS beats every file), never in /etc
	local settings
	settings=$(printf '%s\n%s\n' "$pg_pass" "$(random_secret)" | /usr/bin/python3 -c '
import base64, json, sys
state, port = sys.argv[1:]
password, secret = sys.stdin.read().split()
print(base64.b64encode(json.dumps({
    "DATABASES": {"default": {
        "ENGINE": "django.db.backends.postgresql", "NAME": "lavaserver",
        "USER": "lavaserver", "PASSWORD": password, "HOST": "127.0.0.1", "PORT": port}},
    "SECRET_KEY": secret,
    "ALLOWED_HOSTS": ["127.0.0.1", "localhost", "[::1]"],
    "MEDIA_ROOT": state + "/media/",
    "DJANGO_LOGFILE": state + "/logs/django.log",
    "DEVICES_PATH": state + "/devices",
    "HEALTH_CHECKS_PATH": state + "/health-checks",
    "EVENT_NOTIFICATION": False,
}).encode()).decode())' "$state" "$pg_port")
	printf 'LAVA_JSON_SETTINGS=%s\n' "$settings" >"$state/settings.env"
	touch "$state/logs/django.log"
	chown -R lavaserver:lavaserver "$state/media" "$state/devices" "$state/health-checks" "$state/logs/django.log"

	say LAVA "lava-server: the database's tables (migrate)"
	manage migrate --noinput >"$state/logs/migrate.log" 2>&1 || { tail -20 "$state/logs/migrate.log" >&2; die "start: migrate failed"; }

	# --- a user and its token, the worker and its token, a qemu device per
	# machine kind (the stock qemu template; the jobs' context says the
	# rest), each tagged with its machine
	manage users add "$USER_NAME" >/dev/null	# a random password, printed: it logs in with its token only
	local token wtoken
	token=$(manage tokens add --user "$USER_NAME" --description "make lava-server-check" | tail -1)
	wtoken=$(manage workers add "$WORKER" --description "make lava-server-check" | sed -n 's/^Token: //p')
	[ -n "$token" ] && [ -n "$wtoken" ] || die "start: no token for the user or the worker"
	printf '%s\n' "$wtoken" >"$state/worker-token"
	# someone else on the same lab, whose jobs carry the check's run id
	manage users add "$OTHER_USER" >/dev/null
	manage tokens add --user "$OTHER_USER" --description "someone else (make lava-server-check)" | tail -1 \
		>"$state/other-token"
	manage device-types add qemu >/dev/null
	for m in $machines; do
		echo "{% extends 'qemu.jinja2' %}" >"$state/devices/y2038-$m.jinja2"
		chown lavaserver: "$state/devices/y2038-$m.jinja2"
		manage devices add "y2038-$m" --device-type qemu --worker "$WORKER" --tags "y2038-$m" \
			--description "the lab's $m (make lava-server-check)" >/dev/null
	done

	# --- the services, each in a session of its own, each pid kept
	say LAVA "lava-server at $url: gunicorn, lava-scheduler, lava-worker $WORKER"
	(set -a && . "$state/settings.env" && exec env -u PORT -u GUNICORN_CMD_ARGS setsid /usr/bin/gunicorn3 lava_server.wsgi \
		--bind "127.0.0.1:$http_port" --log-level INFO --log-file "$state/logs/gunicorn.log" \
		-u lavaserver -g lavaserver --worker-class eventlet --workers 2 \
		--worker-tmp-dir /dev/shm --pid "$state/gunicorn.pid" </dev/null >"$state/logs/gunicorn.out" 2>&1) &
	record_process gunicorn $!
	(set -a && . "$state/settings.env" && exec setsid /usr/bin/lava-server manage lava-scheduler --level INFO \
		--log-file "$state/logs/lava-scheduler.log" </dev/null >"$state/logs/lava-scheduler.out" 2>&1) &
	record_process scheduler $!
	setsid /usr/bin/lava-worker --name "$WORKER" --url "$url/" --token-file "$state/worker-token" \
		--worker-dir "$state/worker" --log-file "$state/logs/lava-worker.log" --level DEBUG \
		--ping-interval 5 </dev/null >"$state/logs/lava-worker.out" 2>&1 &
	record_process worker $!
	printf 'url=%s\n' "$url" >>"$state/server.env"
	printf '%s\n' "$token" >"$state/token"

	# --- up when the API answers, the worker is Online and its devices Idle
	local i ok=0
	for i in $(seq 120); do
		if /usr/bin/python3 - "$url" "$WORKER" "$machines" <<'EOF'
import json, sys, urllib.request
url, worker, machines = sys.argv[1:]
def get(path):
    with urllib.request.urlopen(url + "/api/v0.2" + path, timeout=10) as r:
        return json.load(r)
try:
    w = get("/workers/%s/" % worker)
    devices = [get("/devices/y2038-%s/" % m) for m in machines.split()]
except Exception:
    sys.exit(1)
sys.exit(0 if w.get("state") == "Online" and all(d.get("state") == "Idle" for d in devices) else 1)
EOF
		then
			ok=1
			break
		fi
		sleep 1
	done
	[ $ok -eq 1 ] || die "start: the server at $url did not come up within 120 s (logs: $state/logs/)"
	say LAVA "up: worker $WORKER Online, devices $(printf 'y2038-%s ' $machines)Idle"
}

kill_worker() {
	processes kill worker
}

stop() {
	[ -e "$state" ] || return 0
	local p
	if [ -f "$state/processes" ]; then
		# The worker first, and every lava-run and QEMU of it, then the
		# scheduler and the web server, then the database: pg_ctl while
		# its postmaster is the one started here, and what is left of it.
		processes stop worker scheduler gunicorn
		if processes ours postgres; then
			say LAVA "stopping postgres (pid $(awk '$1 == "postgres" { print $2 }' "$state/processes"): pg_ctl stop)"
			runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$state/pg" -m fast -w -t 60 stop >/dev/null || true
		fi
		processes stop postgres
	elif [ -f "$state/server.env" ]; then
		say LAVA "$state/server.env names pids, not what tells they are still the processes started here: none is stopped ($(grep -E '^(gunicorn|scheduler|worker)=' "$state/server.env" | tr '\n' ' '))"
	fi
	# lava-run's scratch folders of this instance's jobs (named by job id
	# under DISPATCHER_TMP): those its worker listed, and no other
	if [ -d "$state/worker/tmp" ] && [ -d "$DISPATCHER_TMP" ]; then
		for p in "$state"/worker/tmp/*; do
			[ -e "$p" ] || continue
			p=$(basename "$p")
			[[ $p =~ ^[0-9]+$ ]] && rm -rf "${DISPATCHER_TMP:?}/$p"
		done
	fi
	rm -rf "$state.logs"
	[ ! -d "$state/logs" ] || cp -r "$state/logs" "$state.logs"
	rm -rf "$state"
	say LAVA "stopped: every process it started, its database and files ($state.logs/ kept)"
}

cmd=${1:-}
shift || true
case $cmd in
install) install_packages ;;
start | stop | kill-worker)
	[ $# -ge 1 ] || die "usage: lava-server.sh $cmd STATE ..."
	state=$1
	shift
	case $cmd in
	start) start "$@" ;;
	stop) stop ;;
	kill-worker) kill_worker ;;
	esac
	;;
*) die "usage: lava-server.sh install|start STATE machines=...|kill-worker STATE|stop STATE" ;;
esac
