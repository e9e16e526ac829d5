"""The source build as docs/deploy.md ("Install from source") writes it:
its command lines taken from the document and run as written, as root, in
a copy of the source laid out as an unpacked tarball, with the default
prefix (/usr/local). The installed worker and admin tool run and the
sample configuration checks; `make uninstall` then removes the programs
again and keeps the configuration. Root only (it installs into
/usr/local)."""

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import deploydoc  # noqa: E402

PREFIX = "/usr/local"
WORKER = PREFIX + "/libexec/aivista/aivista.fcgi"
ADMIN = PREFIX + "/sbin/aivista-admin"
CONF = PREFIX + "/etc/aivista.conf"
BUILD_TIMEOUT = 1500
# What is not part of an unpacked release tarball.
NOT_IN_TARBALL = ("_build*", ".git", "autom4te.cache", "*.o", "*.a", ".deps", "config.status",
                  "config.log", "Makefile", "config.h", "stamp-h1", ".dirstamp",
                  "aivista-*.tar.gz", "node_modules")


def env():
    """A login-like environment: no make jobserver or flags of the test run."""
    e = avtest.clean_env()
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "CFLAGS", "LDFLAGS", "CPPFLAGS"):
        e.pop(k, None)
    return e


def sh(line, cwd, timeout):
    p = subprocess.run(["sh", "-c", line], cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, env=env(), timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace")


def main(t):
    if os.geteuid() != 0:
        t.skip("not root: the documented build installs into %s" % PREFIX,
               "the source build, as written")
        return
    if os.path.exists(WORKER):
        t.skip("%s is there already: not overwritten by a test" % WORKER,
               "the source build, as written")
        return
    lines = deploydoc.commands("source-build")
    t.ok(any(x.startswith("./configure") for x in lines) and any(x.startswith("make install")
                                                                   for x in lines),
         "docs/deploy.md's source build: configure, make, make install (%d lines)" % len(lines))
    top = tempfile.mkdtemp(prefix="aivista-srcbuild.")
    t.cleanup(lambda: shutil.rmtree(top, ignore_errors=True))
    src = os.path.join(top, "aivista")
    shutil.copytree(avtest.TOP_SRCDIR, src, symlinks=True,
                    ignore=shutil.ignore_patterns(*NOT_IN_TARBALL))
    subprocess.run(["chmod", "-R", "u+w", src], check=True)
    installed = False
    for line in lines:
        rc, out = sh(line, src, BUILD_TIMEOUT)
        if rc != 0:
            t.ok(False, "as written: %s" % line)
            t.diag(out[-3000:])
            return
        installed |= line.startswith("make install")
    t.ok(installed, "as written: every line of the block ran")
    t.cleanup(lambda: sh("make uninstall", src, 300))
    rc, out = sh(WORKER + " -V", "/", 30)
    t.ok(rc == 0 and "aivista" in out.lower(), "the installed worker runs (%s)" % out.strip())
    rc, out = sh(ADMIN + " -h", "/", 30)
    t.ok(rc in (0, 2) and "aivista-admin" in out, "the installed admin tool runs")
    t.ok(os.path.isfile(CONF) and os.path.isfile(CONF + ".sample"),
         "the configuration and its sample are installed in %s/etc" % PREFIX)
    store = os.path.join(top, "store")
    os.makedirs(store, 0o700)
    probe = os.path.join(top, "probe.conf")
    with open(CONF) as f:
        text = f.read()
    with open(probe, "w") as f:
        f.write(text.replace("\ndir =", "\ndir = %s\n; was:" % store, 1))
    rc, out = sh("%s -t -c %s" % (WORKER, probe), "/", 30)
    t.ok(rc == 0, "the installed sample configuration checks with -t (%s)" % out.strip()[-200:])
    with open(CONF, "a") as f:
        f.write("\n; edited by the administrator\n")
    rc, out = sh("make uninstall", src, 300)
    t.ok(rc == 0 and not os.path.exists(WORKER) and not os.path.exists(ADMIN),
         "make uninstall removes the programs")
    t.ok(os.path.isfile(CONF), "and keeps the edited configuration")
    os.remove(CONF)
    if os.path.exists(CONF + ".sample"):
        os.remove(CONF + ".sample")


avtest.run(main)
