"""The Debian package, on this machine (root only; make check-package):
built and installed by docs/deploy.md's lines run as written (block
deb-build: the release tarball unpacked, contrib/debian/ placed at the top
as debian/, DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b,
dpkg -i), with debconf asked beforehand to enable the Apache and lighttpd
snippets; its contents; the snippets enabled again by hand by the
document's lines (deb-webservers; systemctl, which needs a running
systemd, stood in for by a command that records its arguments); the
user, the state directory and its key, the snippets and units enabled;
workers started as the units start them, answering through Apache and
lighttpd configured by the installed snippets; then removed and purged by
the document's lines (deb-remove), leaving no state and no configuration. The machine is put back as it was
(Apache modules, the aivista user when the test made it).
"""

import glob
import grp
import os
import pwd
import re
import shutil
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import avtest  # noqa: E402
import deploydoc  # noqa: E402
import webservers as ws  # noqa: E402

PKG = "aivista"
LIBEXEC = "/usr/lib/aivista"
STATE = "/var/lib/aivista"
RUN = "/run/aivista"
SOCK = RUN + "/aivista.sock"
APACHE_CONF = "/etc/apache2/conf-available/aivista.conf"
LIGHTTPD_CONF = "/etc/lighttpd/conf-available/50-aivista.conf"
WORKERS = ["aivista@%d.service" % i for i in range(1, 5)]


def sh(cmd, env=None, timeout=900, cwd=None):
    """(status, output) of a command list."""
    e = dict(os.environ)
    e.update(env or {})
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        e.pop(k, None)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=e,
                       timeout=timeout, cwd=cwd)
    return p.returncode, p.stdout.decode(errors="replace")


def installed():
    rc, out = sh(["dpkg-query", "-W", "-f=${db:Status-Status}", PKG])
    return rc == 0 and out.strip() not in ("", "not-installed", "config-files")


def known():
    rc, out = sh(["dpkg-query", "-W", "-f=${db:Status-Status}", PKG])
    return rc == 0 and out.strip() not in ("", "not-installed")


def user_exists(name):
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def doc_lines(name):
    """The block's lines, the package's architecture as this machine's
    where the document says amd64."""
    arch = sh(["dpkg", "--print-architecture"])[1].strip() or "amd64"
    return [l.replace("_amd64.deb", "_%s.deb" % arch) for l in deploydoc.commands(name)]


def build(t, d):
    """docs/deploy.md's build and install lines, run as written, as one
    script (its cd holds for the lines after it), beside the tarball."""
    tarball = os.environ.get("AIVISTA_TARBALL")
    if not tarball or not os.path.exists(tarball):
        raise avtest.SetupError("no release tarball (AIVISTA_TARBALL; make check-package makes it)")
    lines = doc_lines("deb-build")
    named = re.search(r"\btar xf (\S+)", lines[0]) if lines else None
    if not t.is_(named and named.group(1), os.path.basename(tarball),
                 "docs/deploy.md names this release's tarball"):
        raise avtest.SetupError("docs/deploy.md names another version")
    shutil.copy2(tarball, d)
    t0 = time.monotonic()
    rc, out = sh(["/bin/sh", "-ec", "\n".join(lines)], cwd=d,
                 env={"DEBIAN_FRONTEND": "noninteractive"}, timeout=1800)
    took = time.monotonic() - t0
    with open(os.path.join(d, "build.log"), "w") as f:
        f.write(out)
    debs = glob.glob(os.path.join(d, "aivista_*.deb"))
    if not t.ok(rc == 0 and len(debs) == 1 and installed(),
                "docs/deploy.md's lines as written build one package and install it (%.0f s)"
                % took):
        t.diag(out[-4000:])
        raise avtest.SetupError("the package did not build or install")
    t.ok(not re.search(r"make (-j\d+ )?check", out), "nocheck: the build runs no test suite")
    return debs[0], took


def test_webservers_by_hand(t, d):
    """The snippets disabled, then enabled by docs/deploy.md's lines as
    written; systemctl records what it is asked."""
    sh(["a2disconf", "-q", "aivista"])
    sh(["lighty-disable-mod", "aivista"])
    bin_dir = os.path.join(d, "stand-in")
    os.makedirs(bin_dir, exist_ok=True)
    asked = os.path.join(d, "systemctl.args")
    avtest.write_file(os.path.join(bin_dir, "systemctl"),
                      "#!/bin/sh\necho \"$*\" >>%s\n" % asked, 0o755)
    env = {"PATH": bin_dir + ":" + os.environ.get("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")}
    for line in deploydoc.commands("deb-webservers"):
        rc, out = sh(["/bin/sh", "-c", line], env=env)
        t.ok(rc == 0, "as written: %s" % line)
        if rc:
            t.diag(out)
    got = open(asked).read().split("\n") if os.path.exists(asked) else []
    t.ok("reload apache2" in got and "reload lighttpd" in got,
         "...and they ask systemd to reload both servers (%s)" % got)


def test_contents(t, deb):
    rc, out = sh(["dpkg-deb", "-c", deb])
    paths = set(re.sub(r"^\./", "/", line.split()[-1]).rstrip("/") for line in out.splitlines()
                if line.strip())
    for p in (LIBEXEC + "/aivista.fcgi", "/usr/sbin/aivista-admin", "/etc/aivista.conf",
              "/usr/share/aivista/www/index.html", "/usr/share/aivista/styles.json",
              "/usr/share/man/man8/aivista.fcgi.8.gz", "/usr/share/man/man5/aivista.conf.5.gz",
              "/usr/share/man/man8/aivista-admin.8.gz", "/lib/systemd/system/aivista.socket",
              "/lib/systemd/system/aivista@.service", APACHE_CONF, LIGHTTPD_CONF,
              "/usr/share/doc/aivista/README.Debian", "/usr/share/doc/aivista/copyright",
              "/usr/share/doc/aivista/deploy.md"):
        t.ok(p in paths or p + ".gz" in paths, "the package has %s" % p)
    t.ok(not any(p.startswith(STATE) for p in paths), "the package ships no state directory")
    ctl = os.path.join(os.path.dirname(deb), "ctl")
    sh(["dpkg-deb", "-e", deb, ctl])
    conffiles = open(os.path.join(ctl, "conffiles")).read().split()
    t.ok(all(c in conffiles for c in ("/etc/aivista.conf", APACHE_CONF, LIGHTTPD_CONF)),
         "the configuration and both snippets are conffiles (%s)" % " ".join(conffiles))
    t.ok(os.path.exists(os.path.join(ctl, "templates")) and
         os.path.exists(os.path.join(ctl, "config")), "the debconf question is in the package")
    rc, out = sh(["dpkg-deb", "-f", deb, "Depends"])
    t.ok(all(x in out for x in ("libdb5.3", "libfcgi", "libsodium", "adduser")),
         "Depends names the libraries and adduser (%s)" % out.strip())


class InstalledApache(ws.Apache):
    """An Apache of the test's own whose site is the installed snippet."""

    modules = ws.Apache.modules + ["proxy", "proxy_fcgi"]
    url = "/aivista"

    def write_site(self):
        avtest.write_file(self.site, "Include %s\n" % APACHE_CONF)


def start_units_workers(t, d):
    """What aivista.socket and aivista@1..2.service do: the socket in /run/aivista
    (aivista:www-data 0660) handed as standard input to workers run as
    aivista with the installed unit's ExecStart."""
    with open("/lib/systemd/system/aivista@.service") as f:
        unit = f.read()
    cmd = re.search(r"(?m)^ExecStart=(.*)$", unit).group(1).split()
    made = not os.path.isdir(RUN)
    os.makedirs(RUN, exist_ok=True)
    if os.path.exists(SOCK):
        os.unlink(SOCK)
    lst = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    lst.bind(SOCK)
    lst.listen(128)
    pw = pwd.getpwnam("aivista")
    os.chown(SOCK, pw.pw_uid, grp.getgrnam("www-data").gr_gid)
    os.chmod(SOCK, 0o660)
    log = open(os.path.join(d, "workers.log"), "ab")
    procs = [subprocess.Popen(cmd, stdin=lst.fileno(), stdout=log, stderr=subprocess.STDOUT,
                              env=avtest.clean_env(), start_new_session=True, user=pw.pw_uid,
                              group=pw.pw_gid, extra_groups=[]) for _ in range(2)]
    log.close()

    def stop():
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            if avtest.wait_exit(p, avtest.STOP_TIMEOUT) is None:
                p.kill()
                p.wait()
        lst.close()
        if os.path.exists(SOCK):
            os.unlink(SOCK)
        if made:
            shutil.rmtree(RUN, ignore_errors=True)
    t.cleanup(stop)
    return procs, stop


def test_running(t, d):
    procs, stop = start_units_workers(t, d)
    time.sleep(0.5)
    t.ok(all(p.poll() is None for p in procs),
         "two workers run as aivista on the socket, as the installed units run them")
    if ws.apache_binary() and os.path.exists(os.path.join(ws.APACHE_MODULES, "mod_proxy_fcgi.so")):
        srv = InstalledApache(t, os.path.join(d, "apache"), ws.run_user()).start()
        status, hdrs, body = srv.request("GET", "/api/health")
        j = avtest.problem(body) or {}
        t.ok(status == 200 and (j.get("store") or {}).get("reachable") is True and
             j.get("pid") in [p.pid for p in procs],
             "Apache with the installed snippet: /aivista/api/health answered by a worker, "
             "store reachable")
        status, hdrs, body = srv.request("GET", "/")
        with open("/usr/share/aivista/www/index.html", "rb") as f:
            t.ok(status == 200 and body == f.read(), "Apache with the installed snippet: the app")
        srv.stop()
    else:
        t.skip("no apache2 with mod_proxy_fcgi", "Apache with the installed snippet")
    lt = avtest.lighttpd_path()
    if lt:
        ld = os.path.join(d, "lighttpd")
        os.makedirs(ld)
        port = avtest.free_port()
        conf = avtest.write_file(os.path.join(ld, "lighttpd.conf"), "\n".join([
            'server.document-root = "%s"' % ld, "server.port = %d" % port,
            'server.bind = "127.0.0.1"', 'server.errorlog = "%s/error.log"' % ld,
            'server.modules = ( "mod_alias" )',
            'mimetype.assign = ( ".html" => "text/html", ".js" => "text/javascript" )',
            'include "%s"' % LIGHTTPD_CONF, ""]))
        p = subprocess.Popen([lt, "-D", "-f", conf], stdout=subprocess.DEVNULL,
                             stderr=subprocess.STDOUT, env=avtest.clean_env(),
                             start_new_session=True)
        t.cleanup(lambda: (p.poll() is None and p.terminate(), p.wait()))

        def health():
            try:
                return avtest.http_request(port, "GET", "/aivista/api/health", timeout=5)
            except OSError:
                return None
        r = avtest.wait_for(health, avtest.START_TIMEOUT, 0.1)
        t.ok(r and r[0] == 200 and (avtest.problem(r[2]) or {}).get("status") == "ok",
             "lighttpd with the installed snippet: /aivista/api/health answered by a worker")
        r = avtest.http_request(port, "GET", "/aivista/index.html")
        t.is_(r[0], 200, "lighttpd with the installed snippet: the app")
        p.terminate()
        p.wait()
    else:
        t.skip("no lighttpd", "lighttpd with the installed snippet")
    rc, out = sh(["aivista-admin", "stats", "--json"])
    t.ok(rc == 0 and '"threads"' in out, "aivista-admin stats on the installed store (as root)")
    stop()


def main(t):
    if os.geteuid() != 0:
        t.skip_all("installing a package needs root")
    for tool in ("dpkg-buildpackage", "dh", "dpkg"):
        if not shutil.which(tool):
            t.skip_all("no %s (install dpkg-dev and debhelper)" % tool)
    if known():
        sh(["dpkg", "--purge", PKG], env={"DEBIAN_FRONTEND": "noninteractive"})
    user_before = user_exists("aivista")
    mods_before = {m: os.path.exists("/etc/apache2/mods-enabled/%s.load" % m)
                   for m in ("proxy", "proxy_fcgi")}

    def restore():
        if known():
            sh(["dpkg", "--purge", PKG], env={"DEBIAN_FRONTEND": "noninteractive"})
        off = [m for m, was in mods_before.items()
               if not was and os.path.exists("/etc/apache2/mods-enabled/%s.load" % m)]
        if off and shutil.which("a2dismod"):
            # -p: as if never touched, so that no "disabled by the admin"
            # mark keeps the next installation from enabling it.
            sh(["a2dismod", "-q", "-f", "-p"] + sorted(off, reverse=True))
        if not user_before and user_exists("aivista"):
            sh(["deluser", "--quiet", "--system", "aivista"])
            try:
                grp.getgrnam("aivista")
                sh(["delgroup", "--quiet", "--system", "aivista"])
            except KeyError:
                pass
    t.cleanup(restore)

    d = t.tmpdir("deb")
    os.chmod(d, 0o755)
    started = time.monotonic()
    p = subprocess.run(["debconf-set-selections"], input=b"aivista aivista/webservers multiselect "
                       b"apache2, lighttpd\n", stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    t.is_(p.returncode, 0, "debconf: the Apache and lighttpd snippets are asked for")
    deb, took = build(t, d)
    test_contents(t, deb)
    try:
        pw = pwd.getpwnam("aivista")
    except KeyError:
        pw = None
    t.ok(pw is not None and pw.pw_uid < 1000 and pw.pw_shell.endswith("nologin"),
         "the aivista system user exists, without a login shell")
    st = os.stat(STATE) if os.path.isdir(STATE) else None
    t.ok(st and pw and st.st_uid == pw.pw_uid and st.st_mode & 0o777 == 0o700,
         "%s belongs to aivista, 0700" % STATE)
    key = os.path.join(STATE, "thread.key")
    kst = os.stat(key) if os.path.exists(key) else None
    t.ok(kst and pw and kst.st_uid == pw.pw_uid and kst.st_mode & 0o777 == 0o600 and
         len(open(key).read().split()) == 1, "the key was made: aivista's, 0600, one key")
    t.ok(os.path.islink("/etc/apache2/conf-enabled/aivista.conf") and
         os.path.exists("/etc/apache2/mods-enabled/proxy_fcgi.load"),
         "asked for: Apache's aivista conf and mod_proxy_fcgi are enabled")
    t.ok(os.path.islink("/etc/lighttpd/conf-enabled/50-aivista.conf"),
         "asked for: lighttpd's aivista module is enabled")
    t.ok(os.path.islink("/etc/systemd/system/sockets.target.wants/aivista.socket"),
         "aivista.socket is enabled")
    t.ok(all(os.path.islink("/etc/systemd/system/multi-user.target.wants/" + w) for w in WORKERS),
         "four worker instances are enabled (aivista@1..4)")
    if shutil.which("systemd-analyze"):
        rc, out = sh(["systemd-analyze", "verify", "/lib/systemd/system/aivista.socket",
                      "/lib/systemd/system/aivista@1.service"])
        t.ok(rc == 0 and not out.strip(), "systemd-analyze verify accepts the installed units")
        if out.strip():
            t.diag(out)
    else:
        t.skip("no systemd-analyze", "systemd-analyze verify accepts the installed units")
    first_key = open(key).read() if kst else None
    rc, out = sh(["dpkg", "-i", deb], env={"DEBIAN_FRONTEND": "noninteractive"})
    t.ok(rc == 0 and installed() and os.path.exists(key) and open(key).read() == first_key,
         "installing it again works and keeps the key")

    test_webservers_by_hand(t, d)
    t.ok(os.path.islink("/etc/apache2/conf-enabled/aivista.conf") and
         os.path.islink("/etc/lighttpd/conf-enabled/50-aivista.conf"),
         "by hand: Apache's aivista conf and lighttpd's aivista module are enabled")
    test_running(t, d)

    key_text = open(key).read()
    remove, purge = doc_lines("deb-remove")
    rc, out = sh(["/bin/sh", "-c", remove], env={"DEBIAN_FRONTEND": "noninteractive"})
    t.ok(rc == 0 and not os.path.exists(LIBEXEC + "/aivista.fcgi") and
         not os.path.exists("/usr/sbin/aivista-admin"), "dpkg -r removes the programs")
    t.ok(not os.path.lexists("/etc/apache2/conf-enabled/aivista.conf") and
         not os.path.lexists("/etc/lighttpd/conf-enabled/50-aivista.conf"),
         "dpkg -r disables the Apache and lighttpd snippets")
    t.ok(os.path.exists(key) and open(key).read() == key_text,
         "dpkg -r keeps the state and the key")
    t.ok(not any(os.path.lexists("/etc/systemd/system/multi-user.target.wants/" + w)
                 for w in WORKERS), "dpkg -r disables the worker instances")
    rc, out = sh(["/bin/sh", "-c", purge], env={"DEBIAN_FRONTEND": "noninteractive"})
    t.ok(rc == 0 and not known(), "as written: %s" % purge)
    left = [p for p in ("/etc/aivista.conf", APACHE_CONF, LIGHTTPD_CONF, STATE,
                        "/etc/systemd/system/sockets.target.wants/aivista.socket")
            if os.path.lexists(p)]
    t.is_(left, [], "after purge: no configuration, snippet, state or unit link is left")
    rc, out = sh(["debconf-show", PKG])
    t.is_(out.strip(), "", "after purge: no debconf answer is left")
    t.ok(user_exists("aivista"), "after purge: the aivista user stays (README.Debian says why)")
    t.diag("figures: package build %.0f s, whole test %.0f s" % (took, time.monotonic() - started))


if __name__ == "__main__":
    avtest.run(main)
