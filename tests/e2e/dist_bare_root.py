#!/usr/bin/env python3
"""End-to-end: the `make dist` tarball runs where only the C library is.

Extracts the tarball into a root folder that holds nothing else but the
dynamic loader, libc and libm (glibc's own objects) and /proc, and runs it
there with `unshare -r -m -p chroot`: every binary in bin/ loads (the loader's --list finds
each library it needs, in the bundle's lib/), `causegate --version`, the
hook blocks the bundled blocked example, look-alike letters are folded (ICU,
loaded with dlopen, comes from lib/ too), `check` and `rules lint` on the
installed packs work, and the plugin's bin/causegate is a link to the one
binary. Without user namespaces it falls back to `ldd` on the host: every
library resolves inside the bundle or is glibc's. Skips (77) when there is
no tarball: `make dist` builds one and runs this test on it.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tarfile

GLIBC = ("linux-vdso.so", "ld-linux", "libc.so", "libm.so", "libpthread.so", "libdl.so", "librt.so")
LOADER = "/lib64/ld-linux-x86-64.so.2"


def glibc_files():
    """The loader, libc and libm as this machine has them (real paths and the names they are asked by)."""
    out = {}
    p = subprocess.run(["ldd", "/bin/true"], capture_output=True, text=True)
    for line in p.stdout.splitlines():
        parts = line.split()
        if "=>" in parts and len(parts) >= 3 and parts[2].startswith("/"):
            out[parts[2]] = os.path.realpath(parts[2])
        elif parts and parts[0].startswith("/"):
            out[parts[0]] = os.path.realpath(parts[0])
    libc = [k for k in out if "libc.so" in k]
    if libc:
        libm = os.path.join(os.path.dirname(libc[0]), "libm.so.6")
        if os.path.exists(libm):
            out[libm] = os.path.realpath(libm)
    return out


def has_interpreter(path):
    """Whether an ELF64 file names a program interpreter (PT_INTERP): a dynamic executable."""
    with open(path, "rb") as f:
        head = f.read(64)
        phoff = int.from_bytes(head[32:40], "little")
        phentsize = int.from_bytes(head[54:56], "little")
        phnum = int.from_bytes(head[56:58], "little")
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    return any(int.from_bytes(table[i * phentsize:i * phentsize + 4], "little") == 3 for i in range(phnum))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tarball", help="the tarball (default: the newest in --dist-dir)")
    ap.add_argument("--dist-dir")
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    tarball = args.tarball
    if not tarball and args.dist_dir:
        found = sorted(glob.glob(os.path.join(args.dist_dir, "causegate-*.tar.gz")), key=os.path.getmtime)
        tarball = found[-1] if found else None
    if not tarball or not os.path.isfile(tarball):
        print("skipped: no dist tarball (run `make dist`)")
        return 77
    source = os.path.abspath(args.source)
    shutil.rmtree(args.work, ignore_errors=True)
    root = os.path.join(args.work, "root")
    os.makedirs(os.path.join(root, "opt"))
    with tarfile.open(tarball) as t:
        t.extractall(os.path.join(root, "opt"))
    (name,) = os.listdir(os.path.join(root, "opt"))
    top = os.path.join(root, "opt", name)
    inside = "/opt/" + name
    failures = []

    def need(ok, what):
        if not ok:
            failures.append(what)
        return ok

    binaries = sorted(os.listdir(os.path.join(top, "bin")))
    need("causegate" in binaries and "causegate-serve" in binaries, "bin/ holds %r" % binaries)
    for b in binaries:
        f = subprocess.run(["file", "-b", os.path.join(top, "bin", b)], capture_output=True, text=True).stdout
        need("not stripped" not in f, "bin/%s is not stripped: %s" % (b, f.strip()))
    link = os.path.join(top, "share", "causegate", "plugin", "bin", "causegate")
    need(os.path.islink(link) and os.path.realpath(link) == os.path.realpath(os.path.join(top, "bin", "causegate")),
         "plugin/bin/causegate is not a link to bin/causegate")
    for f in ("LICENSE", "CHANGELOG.md", "README.md", "share/man/man1/causegate.1"):
        need(os.path.isfile(os.path.join(top, f)), "%s missing" % f)

    # On the host: every library a binary needs (its own and theirs, found
    # through the binary's RPATH) is in lib/ or is glibc's.
    for b in binaries:
        path = os.path.join(top, "bin", b)
        p = subprocess.run(["ldd", path], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
        for line in p.stdout.splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[1] == "=>":
                lib, where = parts[0], parts[2]
                inside_bundle = os.path.realpath(where).startswith(os.path.realpath(top) + os.sep)
                need(inside_bundle or lib.startswith(GLIBC), "%s: %s resolves outside the bundle: %s" % (b, lib, where))

    # The bare root: the loader, libc, libm, and the tarball.
    for asked, real in glibc_files().items():
        dst = os.path.join(root, asked.lstrip("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(real, dst)
    data = os.path.join(root, "data")
    os.makedirs(data)
    shutil.copy(os.path.join(source, "examples", "transcripts", "export-blocked.jsonl"), data)
    payload = json.load(open(os.path.join(source, "examples", "transcripts", "export-blocked.payload.json")))
    payload["transcript_path"] = "/data/export-blocked.jsonl"
    payload["cwd"] = "/data"
    # A final message with Cyrillic look-alike letters: ICU is opened from lib/.
    lines = open(os.path.join(data, "export-blocked.jsonl"), encoding="utf-8").read().splitlines()
    last = json.loads(lines[-1])
    for part in last["message"]["content"]:
        if part.get("type") == "text":
            part["text"] = part["text"].replace("root", "r\u043e\u043et", 1) + " The r\u043e\u043et c\u0430use is the rotation job."
    with open(os.path.join(data, "lookalike.jsonl"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines[:-1] + [json.dumps(last)]) + "\n")

    # A user, mount and pid namespace of our own, with /proc (the loader reads
    # /proc/self/exe to expand $ORIGIN, as on any Linux machine).
    os.makedirs(os.path.join(root, "proc"))
    unshare, chroot = shutil.which("unshare"), shutil.which("chroot") or "/usr/sbin/chroot"
    jail = [unshare, "-r", "-m", "-p", "-f", "--mount-proc=" + os.path.join(root, "proc"), chroot, root]
    probe = subprocess.run(jail + [LOADER, "--list", inside + "/bin/causegate"],
                           capture_output=True, text=True) if unshare else None
    if probe is None or (probe.returncode != 0 and "not found" not in probe.stdout + probe.stderr):
        print("no user namespace for chroot (%s): checked with ldd only" %
              ((probe.stderr.strip() or probe.returncode) if probe else "no unshare"))
    else:
        def run(argv, stdin=None):
            return subprocess.run(jail + argv, input=stdin, capture_output=True,
                                  text=True, env={"PATH": inside + "/bin", "HOME": "/data"}, timeout=60)
        for b in binaries:
            if not has_interpreter(os.path.join(top, "bin", b)):
                # A static binary (causegate-hook) needs no loader (which
                # crashes on --list of one): it must run.
                p = run([inside + "/bin/" + b, "--version"])
                need(p.returncode == 0 and p.stdout.startswith("causegate "),
                     "bare root: static bin/%s does not run: %r %r" % (b, p.stdout[-300:], p.stderr[-300:]))
                continue
            p = run([LOADER, "--list", inside + "/bin/" + b])
            need(p.returncode == 0 and "not found" not in p.stdout, "bare root: bin/%s does not load: %s%s" %
                 (b, p.stdout[-300:], p.stderr[-300:]))
        p = run([inside + "/bin/causegate", "--version"])
        need(p.returncode == 0 and p.stdout.startswith("causegate "), "bare root: --version: %r %r" % (p.stdout, p.stderr))
        p = run([inside + "/bin/causegate-serve", "--version"])
        need(p.returncode == 0 and p.stdout.startswith("causegate "), "bare root: causegate-serve --version: %r" % p.stderr)
        p = run([inside + "/bin/causegate", "hook"], json.dumps(payload))
        need(p.returncode == 0 and json.loads(p.stdout or "{}").get("decision") == "block",
             "bare root: the hook did not block: %r %r" % (p.stdout[:200], p.stderr[:300]))
        p = run([inside + "/bin/causegate", "check", "/data/lookalike.jsonl"])
        need(p.returncode == 1 and "not folded" not in p.stderr and "blocked" in p.stdout,
             "bare root: look-alike letters (ICU from lib/): rc %d %r %r" % (p.returncode, p.stdout[-200:], p.stderr[-300:]))
        p = run([inside + "/bin/causegate", "rules", "lint", inside + "/share/causegate/packs"])
        need(p.returncode == 0, "bare root: rules lint: %r" % p.stdout[-200:])
        print("ran in a bare root holding only %s, /proc and the tarball" %
              ", ".join(sorted(os.path.basename(k) for k in glibc_files())))

    size = os.path.getsize(tarball)
    print("%s: %d bytes; bin/causegate %d bytes; lib/ %d files, %d bytes" % (
        os.path.basename(tarball), size, os.path.getsize(os.path.join(top, "bin", "causegate")),
        len(os.listdir(os.path.join(top, "lib"))),
        sum(os.path.getsize(os.path.join(top, "lib", f)) for f in os.listdir(os.path.join(top, "lib")))))
    print("dist bare root: failures: %d" % len(failures))
    for f in failures:
        print("  FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
