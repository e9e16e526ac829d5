"""The standalone lighttpd configuration (contrib/lighttpd/aivista.conf)
started as root, by the lines of docs/deploy.md ("Your own server,
lighttpd"), run as written with the installed paths mapped to the test's
directory: lighttpd gives up root for www-data, writes its logs, serves
the app and the API, and no worker runs as root. Root only.
"""

import os
import pwd
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import deploydoc  # noqa: E402
import webservers  # noqa: E402

EXAMPLE = "/usr/local/share/doc/aivista/examples/lighttpd/aivista.conf"


class DocLighttpd(avtest.WebServer):
    """lighttpd run by docs/deploy.md's command line argv as written, on
    the configuration the document's lines made in dir (port: the one it
    names)."""

    name = "lighttpd"

    def __init__(self, t, dir, port, argv):
        super().__init__(t, dir, avtest.lighttpd_path(), "lighttpd-aivista.conf", "lighttpd.out")
        self.out_log = os.path.join(dir, "lighttpd.out")
        self.port = port
        self.argv = argv

    def run_command(self):
        return [self.binary] + self.argv[1:]


def main(t):
    if os.geteuid() != 0:
        t.skip_all("not root: lighttpd gives up root only when started as root")
    if avtest.lighttpd_path() is None:
        t.skip_all("no lighttpd")
    try:
        www = pwd.getpwnam("www-data")
    except KeyError:
        t.skip_all("no www-data user")
    block = deploydoc.commands("lighttpd-root")
    if not t.is_(len(block), 3, "docs/deploy.md gives the three lines"):
        return
    d = t.tmpdir("ltroot")
    os.chmod(d, 0o755)
    # What make install (as root) leaves: the worker, the app, the
    # configuration, the store directory given to www-data.
    worker, app, styles = webservers.stage_files(d, avtest.worker_path())
    # A store directory root made (and a file of root's in it), repaired
    # by docs/deploy.md's line (Troubleshooting) run as written.
    store = os.path.join(d, "store")
    os.makedirs(store, 0o755)
    avtest.write_file(os.path.join(store, "left-by-root"), "x\n", 0o600)
    line = deploydoc.commands("trouble-chown")[0]
    p = subprocess.run(["/bin/sh", "-c", line.replace("/var/lib/aivista", store)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=avtest.clean_env(),
                       timeout=60)
    owners = set(os.stat(os.path.join(r, n)).st_uid for r, ds, fs in os.walk(store)
                 for n in ds + fs + ["."])
    t.ok(p.returncode == 0 and owners == {www.pw_uid} and avtest.file_mode(store) == 0o700,
         "as written: %s (the store and its files www-data's, 0700)" % line)
    conf = webservers.worker_conf(d, store, styles, {})
    port = avtest.free_port()
    example = avtest.write_file(os.path.join(d, "example.conf"), avtest.lighttpd_conf_from_template({
        "bind": "127.0.0.1", "port": port, "www": app, "worker": worker, "conf": conf,
        "workers": 2, "run": "/run/aivista", "log": "/var/log/aivista"}))
    mapping = [(EXAMPLE, example), ("/usr/local/etc/lighttpd-aivista.conf",
                                    os.path.join(d, "lighttpd-aivista.conf")),
               ("/run/aivista", os.path.join(d, "run")), ("/var/log/aivista", os.path.join(d, "log"))]

    def mapped(line):
        for a, b in mapping:
            line = line.replace(a, b)
        return line

    for line in block[:2]:
        p = subprocess.run(["/bin/sh", "-c", mapped(line)], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, env=avtest.clean_env(), timeout=60)
        t.ok(p.returncode == 0, "as written: %s" % line)
    # The copy then names the test's run and log directories.
    lconf = os.path.join(d, "lighttpd-aivista.conf")
    avtest.write_file(lconf, mapped(open(lconf).read()))
    srv = DocLighttpd(t, d, port, shlex.split(mapped(block[2])))
    srv.launch(check=False)
    if not t.is_(srv.wait_ready(), "ready", "lighttpd started as root serves /api/health"):
        t.diag("".join(avtest.tail(p) for p in (srv.out_log, srv.error_log)))
        return
    status, _, body = srv.get("/")
    t.ok(status == 200 and b"<html" in body.lower(), "and the app")
    t.is_(webservers.proc_uid(srv.pid), www.pw_uid, "lighttpd itself runs as www-data")
    workers = webservers.descendants(srv.pid)
    uids = sorted(set(webservers.proc_uid(p) for p in workers))
    t.ok(len(workers) >= 3 and uids == [www.pw_uid],
         "its %d worker processes run as www-data, none as root (uids %s)" % (len(workers), uids))
    owners = sorted(set(os.stat(os.path.join(store, n)).st_uid for n in os.listdir(store)))
    t.is_(owners, [www.pw_uid], "the store's files are www-data's")
    for n in ("error.log", "worker.log"):
        p = os.path.join(d, "log", n)
        t.ok(os.path.exists(p) and os.stat(p).st_uid == www.pw_uid, "log/%s written" % n)
    t.is_(oct(avtest.file_mode(os.path.join(d, "log"))), oct(0o700),
          "the log directory is private (0700)")


if __name__ == "__main__":
    avtest.run(main)
