"""make install DESTDIR=...: the layout (worker in pkglibexecdir, admin tool
in sbindir, app in pkgdatadir/www, sample configuration in sysconfdir,
state directory 0700 in localstatedir/lib/aivista, man pages, docs and
example configurations in docdir, naming the installed paths) and the
modes; the installed worker checks the installed configuration; installing
twice over an edited configuration keeps it, and so does make uninstall,
which otherwise leaves no file. And
the man pages against the code: every key of the sample configuration in
aivista.conf(5) under its section, every option of the worker in
aivista.fcgi(8).
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402

DIRS = ("prefix", "sbindir", "pkglibexecdir", "pkgdatadir", "sysconfdir", "localstatedir",
        "mandir", "docdir", "AIVISTA_USER")


def make_env():
    """The environment for a make of our own, outside the one running the tests."""
    env = avtest.clean_env()
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "DESTDIR"):
        env.pop(k, None)
    return env


def make(*args, stdin=None):
    p = subprocess.run(["make", "-C", avtest.TOP_BUILDDIR] + list(args), input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=make_env(),
                       timeout=600)
    return p.returncode, p.stdout.decode(errors="replace")


def install_dirs():
    rule = "aivista-print-dirs:\n" + "".join("\t@echo '%s=$(%s)'\n" % (d, d) for d in DIRS)
    rc, out = make("-s", "-f", "Makefile", "-f", "-", "aivista-print-dirs", stdin=rule.encode())
    if rc != 0:
        raise avtest.SetupError("cannot read the install directories:\n%s" % out)
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def sample_keys():
    """{section: [key, ...]} of etc/aivista.conf."""
    keys, section = {}, None
    with open(avtest.src_path("etc", "aivista.conf")) as f:
        for line in f:
            m = re.match(r"\s*\[([^\]]+)\]", line)
            if m:
                section = m.group(1).strip()
                keys.setdefault(section, [])
                continue
            m = re.match(r"\s*([A-Za-z0-9_]+)\s*=", line)
            if m and section:
                keys[section].append(m.group(1))
    return keys


def man_keys(path):
    """{section: set(keys)} documented in a man page: .SS headers naming
    sections ("[a], [b]") and the .B key lines after .TP under them."""
    keys, current = {}, []
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        if line.startswith(".SS") or line.startswith(".SH"):
            current = re.findall(r"\[([^\]]+)\]", line) if line.startswith(".SS") else []
            for s in current:
                keys.setdefault(s, set())
        elif line == ".TP" and i + 1 < len(lines):
            m = re.match(r"\.BR? (\S+)", lines[i + 1])
            if m:
                for s in current:
                    keys[s].add(m.group(1).replace("\\-", "-"))
    return keys


def test_man_pages(t):
    conf5 = avtest.src_path("man", "aivista.conf.5")
    documented = man_keys(conf5)
    sample = sample_keys()
    missing = ["[%s] %s" % (s, k) for s, ks in sample.items() for k in ks
               if k not in documented.get(s, set())]
    t.is_(missing, [], "aivista.conf(5) documents every key of etc/aivista.conf under its section "
          "(%d keys)" % sum(len(v) for v in sample.values()))
    extra = ["[%s] %s" % (s, k) for s, ks in documented.items() for k in ks
             if k not in sample.get(s, [])]
    t.is_(extra, [], "aivista.conf(5) documents no key the sample does not have")
    p = subprocess.run([avtest.worker_path(), "-h"], stdout=subprocess.PIPE, env=avtest.clean_env())
    opts = sorted(set(re.findall(r"^\s+(-[a-zA-Z])\b", p.stdout.decode(), re.M)))
    fcgi8 = open(avtest.src_path("man", "aivista.fcgi.8")).read()
    t.ok(len(opts) >= 5, "the worker's help lists its options (%s)" % " ".join(opts))
    undocumented = [o for o in opts + ["-h"] if ".B \\%s" % o not in fcgi8 and
                    ".BI \\%s" % o not in fcgi8]
    t.is_(undocumented, [], "aivista.fcgi(8) documents every option of the worker")
    usage = re.sub(r"\s+", " ", p.stdout.decode().split("\n  -")[0]).replace("usage: ", "").strip()
    readme = re.search(r"(?m)^    (aivista\.fcgi \[.*)$", open(avtest.src_path("README.md")).read())
    t.is_(readme and readme.group(1).strip(), usage,
          "README's synopsis of the worker is its -h usage line")
    for page in ("aivista.fcgi.8", "aivista.conf.5", "aivista-admin.8"):
        p = subprocess.run(["man", "--warnings", "-l", "-Tutf8", avtest.src_path("man", page)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           env=avtest.clean_env(MANWIDTH="80"))
        if p.returncode == 127 or b"not found" in p.stderr[:200] and p.returncode != 0:
            t.skip("no man program", "%s formats without warnings" % page)
            continue
        t.is_(p.stderr.decode(errors="replace"), "", "%s formats without warnings" % page)


def test_install(t, d):
    dirs = install_dirs()
    dest = os.path.join(d, "dest")
    rc, out = make("install", "DESTDIR=" + dest)
    if not t.ok(rc == 0, "make install DESTDIR=...: exit 0"):
        t.diag(out[-3000:])
        return
    root = lambda p: dest + p  # noqa: E731

    worker = root(os.path.join(dirs["pkglibexecdir"], "aivista.fcgi"))
    admin = root(os.path.join(dirs["sbindir"], "aivista-admin"))
    t.is_(oct(avtest.file_mode(worker)), oct(0o755), "the worker in pkglibexecdir (%s), 0755" % dirs["pkglibexecdir"])
    t.is_(oct(avtest.file_mode(admin)), oct(0o755), "aivista-admin in sbindir (%s), 0755" % dirs["sbindir"])
    www = root(os.path.join(dirs["pkgdatadir"], "www"))
    want = sorted(n for n in os.listdir(avtest.src_path("www"))
                  if os.path.isfile(avtest.src_path("www", n)))
    got = sorted(os.listdir(www)) if os.path.isdir(www) else []
    t.is_(got, want, "the app in pkgdatadir/www: every file of www/")
    t.ok(all(oct(avtest.file_mode(os.path.join(www, n))) == oct(0o644) for n in got), "the app's files are 0644")
    styles = root(os.path.join(dirs["pkgdatadir"], "styles.json"))
    t.ok(os.path.isfile(styles), "the style library in pkgdatadir")
    conf = root(os.path.join(dirs["sysconfdir"], "aivista.conf"))
    t.ok(os.path.isfile(conf) and open(conf).read() == open(avtest.src_path("etc",
                                                                           "aivista.conf")).read(),
         "the sample configuration in sysconfdir (%s)" % dirs["sysconfdir"])
    t.is_(oct(avtest.file_mode(conf)), oct(0o644), "the sample configuration is 0644 (no secret in it)")
    t.ok(os.path.isfile(conf + ".sample") and open(conf + ".sample").read() ==
         open(avtest.src_path("etc", "aivista.conf")).read(),
         "the sample also as aivista.conf.sample beside it")
    state = root(os.path.join(dirs["localstatedir"], "lib", "aivista"))
    t.ok(os.path.isdir(state) and oct(avtest.file_mode(state)) == oct(0o700),
         "the state directory localstatedir/lib/aivista, 0700 (%s)"
         % (oct(avtest.file_mode(state)) if os.path.isdir(state) else "missing"))
    if os.geteuid() == 0 and dirs.get("AIVISTA_USER"):
        import pwd
        try:
            uid = pwd.getpwnam(dirs["AIVISTA_USER"]).pw_uid
        except KeyError:
            uid = None
        t.ok(uid is None or os.stat(state).st_uid == uid,
             "installed by root: the state directory belongs to %s" % dirs["AIVISTA_USER"])
    else:
        t.skip("not root", "installed by root: the state directory belongs to the workers' user")
    for page, sec in (("aivista.fcgi.8", "man8"), ("aivista-admin.8", "man8"),
                      ("aivista.conf.5", "man5")):
        p = root(os.path.join(dirs["mandir"], sec, page))
        t.ok(os.path.isfile(p) and oct(avtest.file_mode(p)) == oct(0o644), "man page %s/%s" % (sec, page))
    doc = root(dirs["docdir"])
    for n in ("README.md", "deploy.md", "configuration.md", "api.md",
              "examples/apache/aivista-fcgid.conf", "examples/apache/aivista-proxy.conf",
              "examples/apache/htaccess", "examples/apache/api",
              "examples/lighttpd/aivista.conf", "examples/lighttpd/aivista-socket.conf",
              "examples/systemd/aivista.socket", "examples/systemd/aivista@.service",
              "examples/systemd/aivista-spawn-fcgi.service"):
        t.ok(os.path.isfile(os.path.join(doc, n)), "docdir has %s" % n)
    # Its store directory as the installed one (under DESTDIR): given to
    # the workers' user when installed by root, the caller's otherwise.
    p = subprocess.run([worker, "-t", "-c", conf], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, env=avtest.clean_env(AIVISTA_STORE_DIR=state))
    t.ok(p.returncode == 0 and b"configuration ok" in p.stdout,
         "the installed worker accepts the installed configuration and state directory")
    if p.returncode:
        t.diag(p.stdout.decode(errors="replace"))
    p = subprocess.run([worker, "-t", "-c", conf], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=avtest.clean_env(AIVISTA_STORE_DIR=os.path.join(d, "missing", "store")))
    t.ok(p.returncode == 1 and b"does not exist" in p.stdout,
         "-t refuses a store directory that does not exist and cannot be made: %s" %
         p.stdout.decode(errors="replace").splitlines()[0])
    p = subprocess.run([admin, "-V"], stdout=subprocess.PIPE, env=avtest.clean_env())
    t.ok(p.returncode == 0 and b"aivista" in p.stdout, "the installed aivista-admin runs")

    # A second install over the first is fine (upgrades), and keeps the
    # state and the edited configuration, twice over.
    marker = os.path.join(state, "keep-me")
    avtest.write_file(marker, "data\n", 0o600)
    edited = open(conf).read().replace("[store]", "[store]\n# edited by the administrator", 1)
    avtest.write_file(conf, edited)
    for n in (1, 2):
        rc, out = make("install", "DESTDIR=" + dest)
        t.ok(rc == 0 and os.path.exists(marker),
             "installing again (%d) keeps the state directory's content" % n)
        t.is_(open(conf).read(), edited, "installing again (%d) keeps the edited configuration" % n)
        t.like(out, r"aivista\.conf exists and is kept", "make install says it kept it (%d)" % n)
    rc, out = make("uninstall", "DESTDIR=" + dest)
    left = sorted(os.path.relpath(os.path.join(r, f), dest) for r, _, fs in os.walk(dest) for f in fs)
    t.is_(left, sorted([os.path.relpath(marker, dest), os.path.relpath(conf, dest)]),
          "make uninstall removes every installed file and leaves the state and the edited "
          "configuration alone")
    t.is_(open(conf).read(), edited, "the edited configuration survived make uninstall")
    os.unlink(marker)
    os.unlink(conf)
    rc, out = make("uninstall", "DESTDIR=" + dest)
    t.ok(not os.path.exists(state), "make uninstall removes the state directory once it is empty")


def test_install_prefix(t, d):
    """Installed under another prefix, the example configurations name
    that install's paths (the shared-hosting wrapper too), and an unedited
    configuration goes with make uninstall."""
    dest = os.path.join(d, "dest")
    prefix = "/opt/av-test"
    rc, out = make("install", "DESTDIR=" + dest, "prefix=" + prefix)
    if not t.ok(rc == 0, "make install prefix=%s: exit 0" % prefix):
        t.diag(out[-3000:])
        return
    ex = os.path.join(dest + prefix, "share", "doc", "aivista", "examples")
    stale = [os.path.relpath(os.path.join(r, f), ex) for r, _, fs in os.walk(ex) for f in fs
             if r != ex and "/usr/local/" in open(os.path.join(r, f)).read()]
    t.is_(stale, [], "no installed server example (apache/, lighttpd/, systemd/) names "
          "/usr/local/")
    api = open(os.path.join(ex, "apache", "api")).read()
    t.like(api, r"(?m)^AIVISTA_WORKER=%s/libexec/aivista/aivista\.fcgi$" % re.escape(prefix),
           "the installed wrapper names the installed worker")
    t.like(api, r"(?m)^AIVISTA_CONF=%s/etc/aivista\.conf$" % re.escape(prefix),
           "the installed wrapper names the installed configuration")
    rc, out = make("uninstall", "DESTDIR=" + dest, "prefix=" + prefix)
    left = [os.path.relpath(os.path.join(r, f), dest) for r, _, fs in os.walk(dest) for f in fs]
    t.is_(left, [], "make uninstall removes the configuration that is still the sample")


def main(t):
    test_man_pages(t)
    if subprocess.run(["make", "--version"], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode != 0:
        t.skip_all("no make")
    test_install(t, t.tmpdir("install"))
    test_install_prefix(t, t.tmpdir("prefix"))


if __name__ == "__main__":
    avtest.run(main)
