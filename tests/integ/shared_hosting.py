"""Shared hosting as docs/deploy.md ("Shared hosting") describes it, its
command lines taken from the document and run as written, as an account
of the test's own (useradd) through runuser, without root: the source
unpacked in the account's home, configure --prefix=$HOME/aivista, make,
make install, the configuration edited and checked, the app, .htaccess
and the wrapper copied into ~/public_html/aivista.

Then two hosts, each a real Apache with mod_fcgid and nothing about
AiVista in its configuration but the account's directory with
AllowOverride:
- with suexec (mod_userdir's ~account address: suexec runs the wrapper as
  the account): the worker runs as the account, the store is the
  account's, and the account's own aivista-admin reads it;
- without suexec (the directory under an Alias: the worker runs as
  www-data): as written, the worker cannot make the store (503); after
  the document's ACL lines it can, the store's files are www-data's and
  usable by the account's aivista-admin, and what aivista-admin makes is
  usable by the worker.
Root only (useradd, Apache switching users, suexec). Berkeley DB only,
so not in make check-postgresql: the configuration is the document's,
a store in the account's home, its files, their owners and ACLs.
"""

import os
import pwd
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import deploydoc  # noqa: E402
import webservers as ws  # noqa: E402

SUEXEC = "/usr/lib/apache2/suexec"
BUILD_TIMEOUT = 1200
# What is not part of an unpacked release tarball.
NOT_IN_TARBALL = ("_build*", ".git", "autom4te.cache", "*.o", "*.a", "*.lo", ".deps", ".libs",
                  "config.status", "config.log", "Makefile", "config.h", "stamp-h1",
                  ".dirstamp", "aivista-*.tar.gz", "node_modules")


class Account:
    """A user of the host: useradd, removed again with its home."""

    def __init__(self, t):
        self.name = "avsh%d" % (os.getpid() % 100000)
        subprocess.run(["userdel", "-r", self.name], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        p = subprocess.run(["useradd", "-m", "-s", "/bin/sh", self.name], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        if p.returncode != 0:
            raise avtest.SetupError("useradd: %s" % p.stdout.decode(errors="replace"))
        t.cleanup(self.remove)
        pw = pwd.getpwnam(self.name)
        self.uid, self.gid, self.home = pw.pw_uid, pw.pw_gid, pw.pw_dir
        # The host's part: the web server may enter its users' homes.
        os.chmod(self.home, 0o711)

    def remove(self):
        subprocess.run(["userdel", "-r", "-f", self.name], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    def run(self, script, timeout=120, cwd=None):
        """script run by the account's login shell (runuser -l: its HOME,
        USER and PATH); (exit status, output)."""
        if cwd:
            script = "cd %s && %s" % (cwd, script)
        env = avtest.clean_env(MAKEFLAGS="-j2")
        p = subprocess.run(["runuser", "-l", self.name, "-w", "MAKEFLAGS", "-c", script],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, env=env, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace")

    def run_lines(self, t, lines, what, cwd=None, timeout=120):
        """Each line of the document, as written, stopping at the first
        that fails. True when all ran."""
        for line in lines:
            rc, out = self.run(line, timeout=timeout, cwd=cwd)
            if not t.ok(rc == 0, "%s, as the account: %s" % (what, line)):
                t.diag(out[-3000:])
                return False
        return True


class Host(ws.Apache):
    """A host's Apache: mod_fcgid with its defaults, running as www-data,
    the account's public_html open to .htaccess, reached either as
    /~account/ (mod_userdir: suexec runs its programs as the account) or
    under an Alias (no suexec identity: they run as www-data)."""

    modules = ws.Apache.modules + ["fcgid", "userdir", "suexec"]
    # Up once the account's app is served (its workers start on demand).
    health_path = "/index.html"

    def __init__(self, t, dir, user, account, suexec):
        super().__init__(t, dir, user)
        self.account = account
        self.suexec = suexec
        self.web = os.path.join(account.home, "public_html")
        self.url = "/~%s/aivista" % account.name if suexec else "/aivista"
        self.label = "shared hosting, %s" % ("suexec" if suexec else "workers as www-data")
        self.before = ws.fcgid_dirs(self.run_dir)

    def write_site(self):
        where = ["UserDir public_html", "UserDir disabled root"] if self.suexec else \
            ["UserDir disabled", "Alias /aivista %s/aivista" % self.web]
        avtest.write_file(self.site, "\n".join(
            ["# The host's part: its users may use .htaccess in their web directories."] +
            where + [
                "<Directory %s>" % self.web,
                "\tAllowOverride FileInfo Indexes Options",
                "\tRequire all granted",
                "</Directory>",
                ""]))


def start_thread(host):
    """An image thread through the host (the offline provider): its
    thread ID, or None."""
    s = ws.TimedStream(host, "POST", "/api/agent/stream",
                       {"workflow": "image", "input": {"text": "a cat"}}, timeout=60).read_all()
    return s.thread_id() if s.types()[-1:] == ["[DONE]"] else None


def store_files(store):
    return [os.path.join(store, n) for n in os.listdir(store)] if os.path.isdir(store) else []


def threads_of(stats):
    m = re.search(r"(?m)^threads\s+(\d+)", stats)
    return int(m.group(1)) if m else None


def check_serving(t, host, label):
    """The app, /api/health and a thread through the host. The thread ID."""
    status, _, body = host.request("GET", "/")
    with open(avtest.src_path("www", "index.html"), "rb") as f:
        t.ok(status == 200 and body == f.read(), "%s: the app is served" % label)
    status, _, body = host.request("GET", "/api/health")
    t.ok(status == 200 and (avtest.problem(body) or {}).get("status") == "ok",
         "%s: /api/health answers 200 ok through the wrapper (%s)" % (label, status))
    tid = start_thread(host)
    t.ok(tid, "%s: a thread runs to its end" % label)
    return tid


def test_curl(t, host, label):
    """docs/deploy.md's curl line (Troubleshooting), HOST the host's
    address: the stream comes out, to its end."""
    line = " ".join(deploydoc.commands("trouble-stream"))
    p = subprocess.run(["/bin/sh", "-c", line.replace("HOST", "127.0.0.1:%d" % host.port)],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=avtest.clean_env(), timeout=120)
    out = p.stdout.decode(errors="replace")
    t.ok(p.returncode == 0 and "data: [DONE]" in out and '"threadId"' in out,
         "%s: docs/deploy.md's curl line shows the stream (%d bytes)" % (label, len(out)))


def workers_uids(host):
    return sorted(set(ws.proc_uid(p) for p in host.worker_pids()))


def test_suexec(t, d, user, account, store, admin_line):
    label = "suexec"
    host = Host(t, os.path.join(d, "suexec"), user, account, suexec=True).start()
    tid = check_serving(t, host, label)
    t.is_(workers_uids(host), [account.uid], "%s: the worker runs as the account" % label)
    owners = sorted(set(os.stat(p).st_uid for p in store_files(store)))
    t.is_(owners, [account.uid], "%s: the store's files are the account's" % label)
    t.is_(oct(avtest.file_mode(store)), oct(0o700), "%s: the store directory is 0700" % label)
    rc, out = account.run(admin_line)
    t.ok(rc == 0 and (threads_of(out) or 0) >= 1,
         "%s: the account's aivista-admin reads the store as written (%s threads)"
         % (label, threads_of(out)))
    if rc:
        t.diag(out)
    status, _, _ = host.request("GET", "/api/threads/" + (tid or "x"))
    t.is_(status, 200, "%s: after aivista-admin the worker still reads the thread" % label)
    ws.stop_clean(t, host, label)


def test_www_data(t, d, user, account, store, admin_line, acl_lines):
    label = "workers as www-data"
    host = Host(t, os.path.join(d, "plain"), user, account, suexec=False).start()
    status, _, body = host.request("GET", "/api/health")
    reach = ((avtest.problem(body) or {}).get("store") or {}).get("reachable")
    logged = avtest.wait_for(lambda: host.error_lines(r"cannot (create|open the store in) "
                                                      r".*Permission denied"), 10)
    t.ok(status == 503 and reach is False and logged,
         "%s: without the ACL lines the worker answers 503 (store reachable: %s) and Apache's "
         "error log says it cannot create or open the store, as the document says" % (label, reach))
    ws.stop_clean(t, host, label + ", before the ACL")
    if not account.run_lines(t, acl_lines, label):
        return
    host = Host(t, os.path.join(d, "plain2"), user, account, suexec=False).start()
    tid = check_serving(t, host, label)
    test_curl(t, host, label)
    t.is_(workers_uids(host), [user[1]], "%s: the worker runs as www-data" % label)
    files = store_files(store)
    owners = sorted(set(os.stat(p).st_uid for p in files))
    t.is_(owners, [user[1]], "%s: the store's files are www-data's" % label)
    t.is_([os.path.basename(p) for p in files if avtest.file_mode(p) & 0o007], [],
          "%s: no store file is open to others" % label)
    rc, out = account.run(admin_line)
    t.ok(rc == 0 and (threads_of(out) or 0) >= 1 and "unreadable" not in out,
         "%s: the account's aivista-admin reads the store and its key (%s threads)"
         % (label, threads_of(out)))
    if rc:
        t.diag(out)
    # What the account's tool makes is the worker's to use too.
    rc, out = account.run(admin_line.replace(" stats", " key rotate"))
    t.ok(rc == 0, "%s: the account's aivista-admin rotates the key" % label)
    ws.stop_clean(t, host, label)
    host = Host(t, os.path.join(d, "plain3"), user, account, suexec=False).start()
    status, _, _ = host.request("GET", "/api/threads/" + (tid or "x"))
    t.is_(status, 200, "%s: restarted, the worker reads the account's key file and the "
          "thread (IDs of the older key verify)" % label)
    tid2 = start_thread(host)
    t.ok(tid2, "%s: and runs a new thread in the store the account's tool used" % label)
    ws.stop_clean(t, host, label)


def main(t):
    if os.geteuid() != 0:
        t.skip_all("not root: the test makes an account and Apache runs as www-data")
    for prog in ("useradd", "runuser", "setfacl", "make", "cc"):
        if shutil.which(prog) is None:
            t.skip_all("no %s" % prog)
    st = os.stat(SUEXEC) if os.path.exists(SUEXEC) else None
    if st is None or st.st_uid != 0 or not st.st_mode & 0o4000:
        t.skip_all("no setuid suexec at %s (install apache2-suexec-pristine)" % SUEXEC)
    if ws.apache_binary() is None:
        t.skip_all("no apache2")
    user = ws.run_user()
    build = deploydoc.commands("shared-build")
    conf = deploydoc.commands("shared-conf")
    app = deploydoc.commands("shared-app")
    admin = deploydoc.commands("shared-admin")
    acl = deploydoc.commands("shared-acl")
    admin_line = admin[0]
    started = time.monotonic()
    account = Account(t)
    src = os.path.join(account.home, "aivista-src")
    shutil.copytree(avtest.TOP_SRCDIR, src, symlinks=True,
                    ignore=shutil.ignore_patterns(*NOT_IN_TARBALL))
    # The account's own copy, writable as an unpacked tarball is (make
    # distcheck runs the tests from a read-only source tree).
    subprocess.run(["chmod", "-R", "u+w", src], check=True)
    subprocess.run(["chown", "-R", "%d:%d" % (account.uid, account.gid), src], check=True)
    if not account.run_lines(t, build, "the build", cwd="aivista-src", timeout=BUILD_TIMEOUT):
        return
    t.diag("configure, make, make install as the account: %.0f s" % (time.monotonic() - started))
    if not account.run_lines(t, conf + app, "the setup"):
        return
    store = os.path.join(account.home, "aivista", "store")
    d = t.tmpdir("shared")
    os.chmod(d, 0o755)
    ws.give(d, user)
    test_suexec(t, d, user, account, store, admin_line)
    # The same account on a host without suexec starts from no store.
    rc, _ = account.run("rm -rf ~/aivista/store")
    test_www_data(t, d, user, account, store, admin_line, acl)
    t.diag("whole test %.0f s" % (time.monotonic() - started))


if __name__ == "__main__":
    avtest.run(main)
