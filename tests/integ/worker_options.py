"""The worker's deployment options: -l PATH with -M MODE and -G GROUP gives
the socket that mode and group (as spawn-fcgi -M/-G does), and the web
server's user can then connect; the options are refused without a socket
path. -t checks the store directory as the user who runs it: missing and
creatable, missing and not creatable, not writable, owned by root or
missing when run as root (warnings).
"""

import grp
import os
import pwd
import stat
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import fcgi_client  # noqa: E402


def other_group():
    """A group the caller may give the socket to: as root www-data (else
    nogroup), otherwise one of the caller's own groups."""
    if os.geteuid() == 0:
        for name in ("www-data", "nogroup"):
            try:
                return grp.getgrnam(name)
            except KeyError:
                pass
        return None
    return grp.getgrgid(os.getgroups()[-1] if os.getgroups() else os.getgid())


def test_socket(t, dir):
    g = other_group()
    if g is None:
        t.skip("no group to give the socket to", "-M and -G")
        return
    w = avtest.Worker(t, dir, name="perm")
    w.binary = None
    # The -l socket with the mode and group: as spawn-fcgi -M 0660 -G GROUP.
    orig = avtest.worker_path()
    wrapper = avtest.write_file(os.path.join(dir, "with-opts.sh"),
                                "#!/bin/sh\nexec %s -M 0660 -G %s \"$@\"\n" % (orig, g.gr_name),
                                0o755)
    w.binary = wrapper
    w.start()
    st = os.stat(w.sock)
    t.is_(oct(stat.S_IMODE(st.st_mode)), oct(0o660), "-M 0660: the socket's mode")
    t.is_(st.st_gid, g.gr_gid, "-G %s: the socket's group" % g.gr_name)
    r = fcgi_client.request(w.sock, "GET", "/api/health", timeout=avtest.REQUEST_TIMEOUT)
    t.is_(r.status, 200, "the worker serves on it")
    if os.geteuid() == 0 and g.gr_name == "www-data":
        # The web server's user connects through the group.
        code = ("import sys; sys.path.insert(0, %r); import fcgi_client; "
                "print(fcgi_client.request(%r, 'GET', '/api/health').status)"
                % (os.path.join(avtest.TOP_SRCDIR, "tests", "lib"), w.sock))
        os.chmod(dir, 0o755)
        py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
        p = subprocess.run(["runuser", "-u", "www-data", "--", py, "-c", code],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env=avtest.clean_env(), timeout=60)
        t.is_(p.stdout.decode(errors="replace").strip(), "200",
              "www-data connects through the group")
    for args, name in ((["-M", "0660"], "-M without -l"),
                       (["-l", "127.0.0.1:1", "-G", g.gr_name], "-G with a TCP address"),
                       (["-l", os.path.join(dir, "x.sock"), "-M", "0999"], "-M 0999"),
                       (["-l", os.path.join(dir, "x.sock"), "-G", "no-such-group-av"],
                        "-G with an unknown group")):
        p = subprocess.run([orig, "-c", w.conf] + args, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=avtest.clean_env(), timeout=60)
        t.ok(p.returncode == 2 and p.stderr, "%s: refused with status 2 (%s)"
             % (name, p.stderr.decode(errors="replace").strip()))


def check(conf, store, user=None):
    cmd = ([ "runuser", "-u", user, "--"] if user else []) + [avtest.worker_path(), "-t",
                                                              "-c", conf]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=avtest.clean_env(AIVISTA_STORE_DIR=store), timeout=60)
    return p.returncode, p.stdout.decode(errors="replace")


def test_check(t, dir):
    conf = avtest.write_file(os.path.join(dir, "t.conf"), avtest.conf_from_sample({}))
    os.chmod(dir, 0o755)
    root = os.geteuid() == 0
    user = None
    if root:
        try:
            user = pwd.getpwnam("nobody")
        except KeyError:
            t.skip("no user nobody", "-t as another user")
            return
    as_user = user.pw_name if user else None
    # (store, prepare, expected status, output pattern, name)
    base = os.path.join(dir, "s")
    os.makedirs(base, 0o755)
    if user:
        os.chown(base, user.pw_uid, user.pw_gid)
    cases = [
        ("new", None, 0, r"does not exist; the first worker creates it",
         "a missing store directory its user can create"),
        ("ok", 0o700, 0, r"is writable by", "a store directory of its own"),
        ("ro", 0o500, 1, r"is not writable by", "a store directory it cannot write"),
        ("nope/deeper", None, 1, r"does not exist and .* cannot create it",
         "a missing store directory it cannot create"),
    ]
    for name, mode, want, pattern, label in cases:
        store = os.path.join(base, name)
        if mode is not None:
            os.makedirs(store, mode)
            if user:
                os.chown(store, user.pw_uid, user.pw_gid)
        rc, out = check(conf, store, as_user)
        t.ok(rc == want and "configuration %s" % ("ok" if want == 0 else "not usable") in out,
             "-t%s: %s: status %d" % (" as " + as_user if as_user else "", label, want))
        t.like(out, pattern, "-t: %s: says so" % label)
    if root:
        mine = os.path.join(base, "root-owned")
        os.makedirs(mine, 0o700)
        rc, out = check(conf, mine)
        t.ok(rc == 0 and "warning: %s belongs to root" % mine in out,
             "-t as root: a store directory of root's is ok for workers run as root, "
             "with a warning")
        rc, out = check(conf, os.path.join(base, "root-missing"))
        t.ok(rc == 0 and "warning:" in out and
             "create it (mode 0700) owned by the user the workers run as" in out,
             "-t as root: a missing store directory gets a warning, with what to do")
        rc, out = check(conf, os.path.join(base, "no", "such", "dir"))
        t.ok(rc == 1 and "does not exist and root cannot create it" in out,
             "-t as root: one that cannot be made (no parent) is refused")
        rc, out = check(conf, os.path.join(base, "ok"))
        t.ok(rc == 0 and "belongs to nobody" in out,
             "-t as root: a store directory of the workers' user is fine")


def main(t):
    test_socket(t, t.tmpdir("sock"))
    test_check(t, t.tmpdir("check"))


if __name__ == "__main__":
    avtest.run(main)
