#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""inspect-root.py - what a root is, before the lab boots it (make
validate-distro): its libc and version, its init and what kind (systemd,
sysvinit, busybox init, toybox init, OpenRC's, OpenWrt's procd), and
whether that init can run on the machine at all. It reads the root's files
and never runs one of them: the root is data.

  inspect-root.py ROOT ARCH ELF_MACHINE [--json FILE] [--init-optional]
      ROOT: a root directory (validate-distro.sh unpack made one of a
      tarball or an image); ARCH: its userland (i386, armhf), whose
      programs are of ELF_MACHINE (machines/defaults.mk's elf_machine).
      Prints what it found, one line each, and writes it as JSON to FILE.
      Exit 1, with why and how to fix it, when the init the kernel would
      run is missing, not executable, not ARCH's, or needs an interpreter
      the root does not have; 2 for a usage error. --init-optional (no boot
      of the root's own init is asked for): such an init is said, with
      why, as kind "none", and the exit is 0.

The init is the one the kernel runs when no init= is given: the first of
/sbin/init, /etc/init and /bin/init (init/main.c, kernel_init()); its
kind is read from the file it resolves to and the files around it. The
kinds' probes and shutdowns are the guest's (guest-init/distro/init-watch.c,
and the systemd unit beside it).
"""
import json
import os
import re
import stat
import struct
import sys

# init/main.c, kernel_init(): the paths tried in order ("/bin/sh" last, which is no init)
KERNEL_INITS = ("/sbin/init", "/etc/init", "/bin/init")
ELF_MAGIC = b"\x7fELF"
PT_INTERP = 3
# Where libraries live, as the libc's own loaders search them.
LIB_DIRS = ("/lib", "/usr/lib", "/lib32", "/usr/lib32")


class Refused(Exception):
    pass


def resolve(root, path, hops=40):
    """PATH inside ROOT, every symlink on the way followed as the guest
    would (an absolute target starts again at ROOT, ".." stops at ROOT).
    Returns (the guest path, the host path), or raises FileNotFoundError
    naming the guest path that is missing."""
    parts = [p for p in path.split("/") if p]
    done = []
    while parts:
        name = parts.pop(0)
        if name == ".":
            continue
        if name == "..":
            if done:
                done.pop()
            continue
        guest = "/" + "/".join(done + [name])
        host = os.path.join(root, guest.lstrip("/"))
        if os.path.islink(host):
            hops -= 1
            if hops < 0:
                raise FileNotFoundError(f"{path}: too many levels of symbolic links")
            target = os.readlink(host)
            if target.startswith("/"):
                done = []
            parts = [p for p in target.split("/") if p] + parts
            continue
        if not os.path.lexists(host):
            raise FileNotFoundError(guest)
        done.append(name)
    guest = "/" + "/".join(done)
    return guest, os.path.join(root, guest.lstrip("/"))


def elf_header(host):
    """(class bits, e_machine, the PT_INTERP path or None) of an ELF file,
    or None if it is not one."""
    with open(host, "rb") as f:
        head = f.read(64)
        if len(head) < 52 or head[:4] != ELF_MAGIC or head[4] not in (1, 2) or head[5] not in (1, 2):
            return None
        bits = 32 if head[4] == 1 else 64
        end = "<" if head[5] == 1 else ">"
        (machine,) = struct.unpack_from(end + "H", head, 18)
        if bits == 32:
            phoff, = struct.unpack_from(end + "I", head, 28)
            phentsize, phnum = struct.unpack_from(end + "HH", head, 42)
        else:
            phoff, = struct.unpack_from(end + "Q", head, 32)
            phentsize, phnum = struct.unpack_from(end + "HH", head, 54)
        interp = None
        for i in range(min(phnum, 64)):
            f.seek(phoff + i * phentsize)
            ph = f.read(phentsize)
            if bits == 32 and len(ph) >= 32:
                p_type, p_offset, _, _, p_filesz = struct.unpack_from(end + "IIIII", ph, 0)
            elif bits == 64 and len(ph) >= 56:
                p_type, _, p_offset, _, _, p_filesz = struct.unpack_from(end + "IIQQQQ", ph, 0)
            else:
                break
            if p_type == PT_INTERP:
                f.seek(p_offset)
                interp = f.read(min(p_filesz, 4096)).split(b"\0")[0].decode("utf-8", "replace")
        return bits, machine, interp


def machine_name(number):
    """readelf's names of the machines a user's root is most likely of."""
    return {3: "Intel 80386", 8: "MIPS", 20: "PowerPC", 40: "ARM", 62: "x86-64", 183: "AArch64",
            243: "RISC-V"}.get(number, f"ELF machine {number}")


def check_runs(root, guest, want, what, depth=0):
    """That the file GUEST of ROOT can be executed on a machine of ELF
    machine WANT: a regular file with an exec bit, an ELF of WANT whose
    interpreter the root has, or a script whose interpreter can. Raises
    Refused saying what is wrong and how to fix it."""
    try:
        real, host = resolve(root, guest)
    except FileNotFoundError as e:
        raise Refused(f"{what} {guest} leads to {e}, which is not in the root")
    shown = guest if real == guest else f"{guest} (-> {real})"
    st = os.stat(host)
    if not stat.S_ISREG(st.st_mode):
        raise Refused(f"{what} {shown} is not a regular file")
    if not st.st_mode & 0o111:
        raise Refused(f"{what} {shown} has no exec bit (mode {stat.S_IMODE(st.st_mode):04o}):"
                      f" chmod +x it in the root, or in the image you made, and give it again")
    header = elf_header(host)
    if header is not None:
        bits, machine, interp = header
        if machine != want:
            raise Refused(f"{what} {shown} is a {bits}-bit {machine_name(machine)} program, not one for"
                          f" {machine_name(want)} (ELF machine {want}): give the DISTRO_ARCH of the root")
        if interp:
            if depth > 2:
                raise Refused(f"{what} {shown}: its interpreter chain is too long")
            check_runs(root, interp, want, f"the interpreter of {real},", depth + 1)
        return real, "elf"
    with open(host, "rb") as f:
        first = f.readline(256)
    if first.startswith(b"#!"):
        words = first[2:].decode("utf-8", "replace").split()
        if not words:
            raise Refused(f"{what} {shown} is a script naming no interpreter")
        if depth > 2:
            raise Refused(f"{what} {shown}: its interpreter chain is too long")
        check_runs(root, words[0], want, f"the interpreter of the script {real},", depth + 1)
        return real, "script"
    raise Refused(f"{what} {shown} is neither an ELF program nor a #! script: the kernel cannot run it")


def read_guest(root, guest, limit=8 << 20):
    """The first LIMIT bytes of the root's file GUEST (b"" if it has none)."""
    try:
        _, host = resolve(root, guest)
        if not os.path.isfile(host):
            return b""
        with open(host, "rb") as f:
            return f.read(limit)
    except OSError:
        return b""


def present(root, guest):
    """Whether GUEST is in the root, as a file or a symlink (dangling too)."""
    try:
        _, folder = resolve(root, os.path.dirname(guest))
    except FileNotFoundError:
        return False
    return os.path.lexists(os.path.join(folder, os.path.basename(guest)))


def exists(root, guest):
    try:
        resolve(root, guest)
        return True
    except FileNotFoundError:
        return False


def init_kind(root, real, how):
    """The init's kind, by the program the init resolves to and what lies
    around it: (kind, its name for a reader, its rc system or None)."""
    name = os.path.basename(real)
    inittab = read_guest(root, "/etc/inittab", 1 << 16) if exists(root, "/etc/inittab") else None
    openrc = exists(root, "/sbin/openrc") or exists(root, "/usr/sbin/openrc")
    rc = "OpenRC" if openrc else None
    if name == "systemd" or "/systemd/" in real:
        return "systemd", "systemd", None
    if name == "busybox":
        table = "/etc/inittab" if inittab is not None else "no /etc/inittab: busybox's own (rcS, a shell on the console)"
        return "busybox", f"busybox init ({table})", rc
    if name == "toybox":
        return "toybox", "toybox init", rc
    if name == "openrc-init":
        return "openrc-init", "openrc-init", "OpenRC"
    if name in ("procd", "init") and exists(root, "/sbin/procd"):
        return "procd", "procd (OpenWrt)", None
    body = read_guest(root, real) if how == "elf" else b""
    if inittab is not None and (b"sysvinit" in body or b"INIT_VERSION" in body or name == "init"):
        return "sysvinit", "sysvinit (/etc/inittab)", rc
    return "unknown", f"an init the lab does not know ({real})", rc


GLIBC_BANNER = re.compile(rb"GNU C Library \(([^)\n]*)\)[^\n]*?release version ([0-9][0-9.]*[0-9])")
UCLIBC_FILE = re.compile(r"^lib(?:uClibc|c)-([0-9.]+)\.so$")


def lib_files(root, pattern):
    """Files of the root's library folders (and one level below: the
    multiarch ones) whose name matches PATTERN, as guest paths."""
    found, seen = [], set()
    for top in LIB_DIRS:
        try:
            real, host = resolve(root, top)
        except FileNotFoundError:
            continue
        if real in seen or not os.path.isdir(host):
            continue	# /lib a link to /usr/lib: one folder
        seen.add(real)
        for sub in [""] + sorted(os.listdir(host)):
            folder = os.path.join(host, sub)
            if sub and (os.path.islink(folder) or not os.path.isdir(folder)):
                continue
            found += [os.path.join(real, sub, n) for n in sorted(os.listdir(folder)) if re.fullmatch(pattern, n)]
    return found


def package_version(root, names):
    """The version the root's package database (dpkg, apk, opkg) gives one
    of NAMES, or None."""
    for db, field_name, field_version in (("var/lib/dpkg/status", "Package: ", "Version: "),
                                          ("lib/apk/db/installed", "P:", "V:"),
                                          ("usr/lib/opkg/status", "Package: ", "Version: "),
                                          ("var/lib/opkg/status", "Package: ", "Version: ")):
        text = read_guest(root, "/" + db, 64 << 20).decode("utf-8", "replace")
        for stanza in re.split(r"\n\s*\n", text):
            lines = stanza.split("\n")
            if any(line[len(field_name):] in names for line in lines if line.startswith(field_name)):
                for line in lines:
                    if line.startswith(field_version):
                        return f"{line[len(field_version):].strip()} ({db})"
    return None


def libc(root):
    """The root's shared libc: glibc (its banner), musl, uClibc, or none."""
    for guest in lib_files(root, r"libc\.so\.6"):
        m = GLIBC_BANNER.search(read_guest(root, guest))
        if m:
            return {"name": "glibc", "version": m.group(2).decode(), "detail": m.group(1).decode(), "path": guest}
    musl = lib_files(root, r"ld-musl-.*\.so\.1")
    if musl:
        version = package_version(root, ("musl",))
        if version is None:
            # musl keeps its version as a string of its own (src/internal/version.c)
            m = re.search(rb"\0(1\.[0-9]\.[0-9]{1,2})\0", read_guest(root, musl[0]))
            version = f"{m.group(1).decode()} (a string in the library)" if m else None
        return {"name": "musl", "version": version, "detail": None, "path": musl[0]}
    for guest in lib_files(root, r"lib(uClibc|c)-[0-9.]+\.so"):
        return {"name": "uClibc", "version": UCLIBC_FILE.match(os.path.basename(guest)).group(1),
                "detail": None, "path": guest}
    return {"name": None, "version": None, "detail": "no shared libc: its programs are static", "path": None}


def inspect(root, want):
    init = None
    for guest in KERNEL_INITS:
        if present(root, guest):
            init = guest
            break
    if init is None:
        raise Refused(f"no init: none of {', '.join(KERNEL_INITS)} is in the root (the kernel runs the first"
                      " it finds): give a root with its init in one of them")
    real, how = check_runs(root, init, want, "its init")
    kind, name, rc = init_kind(root, real, how)
    return {"init": {"path": init, "target": real, "type": how, "kind": kind, "name": name, "rc": rc},
            "libc": libc(root)}


def main(argv):
    args = argv[1:]
    out = None
    optional = "--init-optional" in args
    args = [a for a in args if a != "--init-optional"]
    if len(args) == 5 and args[3] == "--json":
        out = args[4]
        args = args[:3]
    if len(args) != 3 or not args[2].isdigit():
        print("usage: inspect-root.py ROOT ARCH ELF_MACHINE [--json FILE]", file=sys.stderr)
        return 2
    root, arch, want = args[0], args[1], int(args[2])
    if not os.path.isdir(root):
        print(f"inspect-root.py: {root}: not a directory", file=sys.stderr)
        return 2
    try:
        found = inspect(root, want)
    except Refused as e:
        if not optional:
            print(f"inspect-root.py: the root cannot boot on {arch}: {e}", file=sys.stderr)
            return 1
        found = {"init": {"path": None, "target": None, "type": None, "kind": "none",
                          "name": f"none that can run ({e}): DISTRO_INIT=yes would be refused", "rc": None},
                 "libc": libc(root)}
    found["arch"] = arch
    init, lib = found["init"], found["libc"]
    shown = init["path"] if init["target"] == init["path"] else f"{init['path']} -> {init['target']}"
    print(f"  {'FOUND':<8} init: {init['name']}{', with ' + init['rc'] if init['rc'] else ''}"
          + (f" ({shown})" if init["path"] else ""))
    if lib["name"]:
        print(f"  {'FOUND':<8} libc: {lib['name']} {lib['version'] or '(version not found)'}"
              f"{' (' + lib['detail'] + ')' if lib['detail'] else ''}, {lib['path']}")
    else:
        print(f"  {'FOUND':<8} libc: {lib['detail']}")
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(json.dumps(found, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
