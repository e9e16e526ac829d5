"""Real web servers in front of the worker, each configured from the file
in contrib/ that users deploy: Apache with mod_fcgid, Apache with
mod_proxy_fcgi and workers started the way systemd or spawn-fcgi starts
them, and lighttpd. Plus the checks every deployment must pass (see
stream_checks), shared by tests/integ/apache_fcgid.py, apache_proxy.py and
lighttpd_stream.py.

Apache runs in the foreground (-DFOREGROUND) from a main configuration
written in the test's directory (its own ServerRoot, pid file, logs and an
unprivileged port on 127.0.0.1), which includes the contrib/apache/ file
with its Define lines replaced. No system service is involved.

Run as root, Apache switches to an unprivileged user (www-data, else
nobody) as it does in production, so the test directory is handed to that
user and every worker of the test runs as that user: one Berkeley DB
environment must never be written by two users.
"""

import grp
import gzip
import http.client
import json
import os
import pwd
import re
import shutil
import signal
import socket
import struct
import subprocess
import time

import avpng
import avtest
import deploydoc
from avtest import SetupError, SkipAll, SSEReader
from avevents import ask, events

APACHE_MODULES = "/usr/lib/apache2/modules"
APACHE_ETC = "/etc/apache2"
# Where make install (default prefix) puts the example configurations.
EXAMPLES = "/usr/local/share/doc/aivista/examples"
# What an Apache has before the document's a2enmod line: an MPM and
# Require.
HOST_MODULES = ["mpm_event", "authz_core"]
TEST_WORKER = os.path.join(avtest.TOP_BUILDDIR, "tests", "engine", "aivista-test.fcgi")

# Timing of the stream checks. The servers' idle limits are set to IDLE_S
# in the test configurations; the workers send keep-alives every
# KEEPALIVE_MS and end a stream after STREAM_MAX_MS.
KEEPALIVE_MS = 400
IDLE_S = 2
STREAM_MAX_MS = 3000
JSON_HDR = {"Content-Type": "application/json"}


# -- users and files ----------------------------------------------------------------

def run_user():
    """(name, uid, gid) of the user the servers' workers run as when the test
    runs as root; None otherwise (everything runs as the caller)."""
    if os.geteuid() != 0:
        return None
    for name in ("www-data", "nobody"):
        try:
            pw = pwd.getpwnam(name)
        except KeyError:
            continue
        return name, pw.pw_uid, pw.pw_gid
    raise SetupError("running as root, but there is no www-data or nobody user")


def deploy_setup(t, name):
    """What a deployment test starts from: the test worker (built, else a
    setup error), the user the servers' workers run as (run_user) and a
    temporary directory handed to it. Returns (the directory, the user,
    when the test started)."""
    if not os.access(TEST_WORKER, os.X_OK):
        raise SetupError("no test worker at %s" % TEST_WORKER)
    user = run_user()
    d = t.tmpdir(name)
    give(d, user)
    return d, user, time.monotonic()


def give(path, user):
    """Hands path (recursively) to user, when there is one."""
    if user is None:
        return
    os.chown(path, user[1], user[2])
    for root, dirs, files in os.walk(path):
        for n in dirs + files:
            try:
                os.lchown(os.path.join(root, n), user[1], user[2])
            except FileNotFoundError:
                pass


def popen_user(user):
    """Keyword arguments for subprocess.Popen that run the child as user."""
    if user is None:
        return {}
    return {"user": user[1], "group": user[2], "extra_groups": []}


def stage_files(dir, binary):
    """Copies the worker, the app and the style library into dir/inst, so a
    dropped user can read them wherever the build tree is. Returns
    (worker, www, styles)."""
    inst = os.path.join(dir, "inst")
    os.makedirs(inst, exist_ok=True)
    worker = os.path.join(inst, os.path.basename(binary))
    shutil.copy2(binary, worker)
    www = os.path.join(inst, "www")
    shutil.copytree(avtest.src_path("www"), www, dirs_exist_ok=True)
    styles = os.path.join(inst, "styles.json")
    shutil.copy2(avtest.src_path("etc", "styles.json"), styles)
    return worker, www, styles


def replace_lines(text, name, pattern_fmt, values, render):
    """Replaces, in text, the one line matching pattern_fmt % name for each
    name in values. Raises SetupError when a line is missing or doubled."""
    for key, value in values.items():
        text, n = re.subn(pattern_fmt % re.escape(key), lambda m: render(key, value), text)
        if n != 1:
            raise SetupError("%s: expected one line for %s, found %d" % (name, key, n))
    return text


def apache_template(relpath, defines, directives=None):
    """contrib/apache/<relpath> with its "Define aivista_*" lines set from
    defines, and whole directive lines replaced (each must be there once)."""
    with open(avtest.src_path(relpath)) as f:
        text = f.read()
    text = replace_lines(text, relpath, r"(?m)^Define aivista_%s\s.*$", defines,
                         lambda k, v: "Define aivista_%s %s" % (k, v))
    return replace_lines(text, relpath, r"(?m)^%s\s.*$", directives or {},
                         lambda k, v: "%s %s" % (k, v))


def descendants(pid):
    """Live descendants of pid."""
    kids = {}
    for child, parent in avtest.live_parents().items():
        kids.setdefault(parent, []).append(child)
    out, todo = [], [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.append(k)
            todo.append(k)
    return sorted(out)


def exe_of(pid):
    try:
        return os.readlink("/proc/%d/exe" % pid)
    except OSError:
        return None


def proc_uid(pid):
    """The effective user id pid runs as, or None."""
    with open("/proc/%d/status" % pid) as f:
        m = re.search(r"(?m)^Uid:\s+(\d+)\s+(\d+)", f.read())
    return int(m.group(2)) if m else None


# -- Apache -------------------------------------------------------------------------

def apache_binary():
    for p in (os.environ.get("APACHE2"), "/usr/sbin/apache2", "/usr/sbin/httpd"):
        if p and p != "no" and os.access(p, os.X_OK):
            return p
    return None


def fcgid_dirs(run_dir):
    """The main configuration's lines that keep mod_fcgid's sockets and
    process table in the test's run_dir."""
    return "\n".join(["FcgidIPCDir %s/fcgid" % run_dir,
                      "FcgidProcessTableFile %s/fcgid_shm" % run_dir])


class Apache(avtest.WebServer):
    """apache2 -DFOREGROUND from a main configuration in dir that loads
    modules, listens on a free port of 127.0.0.1 and includes site (the
    contrib file, made by write_site)."""

    modules = ["mpm_event", "authz_core", "mime", "dir", "alias", "env", "setenvif",
               "deflate", "filter", "headers"]
    url = "/aivista"
    label = "apache"
    name = "apache2"
    # SIGTERM to Apache alone: it stops its children and the workers it
    # spawned, which may take a while.
    stop_wait = 2 * avtest.STOP_TIMEOUT

    def __init__(self, t, dir, user):
        binary = apache_binary()
        if binary is None:
            raise SkipAll("no apache2 (install apache2, or set APACHE2)")
        for m in self.modules:
            if not os.path.exists(self.module_path(m)):
                raise SkipAll("no Apache module %s (install %s)" %
                              (m, "libapache2-mod-fcgid" if m == "fcgid" else "apache2"))
        super().__init__(t, dir, binary, "httpd.conf", "apache.out")
        self.user = user
        self.docroot = os.path.join(dir, "htdocs")
        os.makedirs(self.docroot, exist_ok=True)
        self.api_log = os.path.join(self.log_dir, "aivista-access.log")
        self.site = os.path.join(dir, "site.conf")
        self.extra = ""          # more main configuration (after the site)
        self.before = ""         # more main configuration (before the site)
        self.confdir = None      # an /etc/apache2 of the test's own (doc_setup)
        self.examples = None
        self.doc_ran = set()

    def stage_app(self, workers, settings, binary, store, doc):
        """The app as this site runs it: with doc (the names of
        docs/deploy.md's blocks) the test's /etc/apache2 for them
        (doc_setup), the worker, the app and the style library staged in
        dir/inst, and the workers' configuration on store (default:
        dir/store)."""
        self.doc = doc
        if doc:
            self.doc_setup()
        self.workers = workers
        self.worker, self.www, self.styles = stage_files(self.dir, binary or avtest.worker_path())
        self.store = store or os.path.join(self.dir, "store")
        self.worker_conf = worker_conf(self.dir, self.store, self.styles, settings)

    def doc_setup(self):
        """Makes the test's /etc/apache2 (mods-available as the system's,
        only HOST_MODULES enabled, nothing else) and the directory that
        stands for the installed examples; docs/deploy.md's lines then run
        on them (run_doc), a2enmod and a2enconf included."""
        self.confdir = os.path.join(self.dir, "etc-apache2")
        self.examples = os.path.join(self.dir, "examples")
        os.makedirs(os.path.join(self.examples, "apache"), exist_ok=True)
        if os.path.isdir(self.confdir):
            return
        shutil.copytree(os.path.join(APACHE_ETC, "mods-available"),
                        os.path.join(self.confdir, "mods-available"), symlinks=True)
        for d in ("mods-enabled", "conf-available", "conf-enabled", "state"):
            os.makedirs(os.path.join(self.confdir, d))
        for m in HOST_MODULES:
            os.symlink(os.path.join("..", "mods-available", m + ".load"),
                       os.path.join(self.confdir, "mods-enabled", m + ".load"))
        self.modules = list(HOST_MODULES)

    def doc_mapped(self, line):
        """A line of docs/deploy.md with the system's paths as the test's."""
        return line.replace(EXAMPLES, self.examples).replace(APACHE_ETC, self.confdir)

    def run_doc(self, name):
        """Runs the lines of docs/deploy.md's block name as written (by
        /bin/sh, with a2enmod and a2enconf working on the test's
        /etc/apache2 through APACHE_CONFDIR, the paths mapped). Each line is
        a test, the first time."""
        env = avtest.clean_env(APACHE_CONFDIR=self.confdir,
                               APACHE_STATE_DIRECTORY=os.path.join(self.confdir, "state"))
        for line in deploydoc.commands(name):
            p = subprocess.run(["/bin/sh", "-c", self.doc_mapped(line)], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                               timeout=60)
            if name not in self.doc_ran:
                self.t.ok(p.returncode == 0, "%s: docs/deploy.md as written: %s" % (self.label, line))
            if p.returncode != 0:
                raise SetupError("%s failed:\n%s" % (line, p.stdout.decode(errors="replace")))
        self.doc_ran.add(name)

    def doc_includes(self):
        """What Debian's apache2.conf includes from /etc/apache2."""
        if not self.confdir:
            return []
        return ["IncludeOptional %s/mods-enabled/*.load" % self.confdir,
                "IncludeOptional %s/mods-enabled/*.conf" % self.confdir]

    def module_path(self, m):
        return os.path.join(APACHE_MODULES, "mod_%s.so" % m)

    def main_conf(self):
        lines = [
            "# Written by the test: a whole Apache of its own.",
            "ServerRoot %s" % self.dir,
            "Listen 127.0.0.1:%d" % self.port,
            "ServerName 127.0.0.1",
            "PidFile %s/httpd.pid" % self.run_dir,
            "ErrorLog %s" % self.error_log,
            "LogLevel info",
            'LogFormat "%h %t \\"%r\\" %>s %b %D" timed',
            # As the deployment notes say: API requests only in the app's log.
            "CustomLog %s/access.log timed env=!aivista_api" % self.log_dir,
            "TypesConfig /etc/mime.types",
            "Timeout 60",
            "StartServers 1",
            "ServerLimit 4",
            "ThreadsPerChild 25",
            "MaxRequestWorkers 100",
            "Mutex file:%s default" % self.run_dir,
        ]
        lines += ["LoadModule %s_module %s" % (m, self.module_path(m))
                  for m in self.modules if not self.confdir]
        lines += self.doc_includes()
        if self.user:
            g = grp.getgrgid(self.user[2]).gr_name
            lines += ["User %s" % self.user[0], "Group %s" % g]
        lines += [
            "DocumentRoot %s" % self.docroot,
            "<Directory />",
            "\tAllowOverride None",
            "\tRequire all denied",
            "</Directory>",
            # As a site that compresses everything would: the stream
            # locations must opt out (no-gzip).
            "SetOutputFilter DEFLATE",
            self.before,
        ]
        if self.confdir:
            lines.append("IncludeOptional %s/conf-enabled/*.conf" % self.confdir)
        lines += [
            "Include %s" % self.site,
            self.extra,
        ]
        return "\n".join(lines) + "\n"

    def write_site(self):
        """Writes self.site (the contrib file made for this test)."""
        raise NotImplementedError

    def write_conf(self):
        self.write_site()
        avtest.write_file(self.conf, self.main_conf())
        give(self.dir, self.user)

    def check_command(self):
        return [self.binary, "-t", "-f", self.conf]

    def run_command(self):
        return [self.binary, "-f", self.conf, "-DFOREGROUND"]

    def terminate(self):
        self.proc.terminate()

    def worker_pids(self):
        return [p for p in descendants(self.proc.pid) if self.is_worker(p)] if self.proc else []

    def is_worker(self, pid):
        e = exe_of(pid)
        return e is not None and os.path.basename(e).startswith("aivista")


def worker_conf(dir, store, styles, settings, name="aivista.conf"):
    """A worker configuration from the sample: store (a database of its
    own under AIVISTA_TEST_STORE=postgresql), styles and settings."""
    s = {"store": avtest.store_section(store, (settings or {}).get("store")),
         "kb": {"styles": styles}}
    for sec, keys in (settings or {}).items():
        s.setdefault(sec, {}).update(keys)
    return avtest.write_file(os.path.join(dir, name), avtest.conf_from_sample(s))


class ApacheFcgid(Apache):
    """Apache with contrib/apache/aivista-fcgid.conf: mod_fcgid spawns the
    workers (binary: another worker build, such as the test worker). With
    doc (the names of docs/deploy.md's blocks: the commands, the site's
    lines), set up by those lines run as written: a2enmod, the example copied, and
    included inside the site's VirtualHost; the example stands for the
    installed one, its Define lines naming the test's files."""

    modules = Apache.modules + ["fcgid"]
    label = "apache mod_fcgid"

    def __init__(self, t, dir, workers=2, settings=None, binary=None, directives=None,
                 store=None, user=None, doc=None):
        super().__init__(t, dir, user)
        self.stage_app(workers, settings, binary, store, doc)
        self.directives = directives or {}
        self.before = fcgid_dirs(self.run_dir)

    def write_site(self):
        text = apache_template(
            os.path.join("contrib", "apache", "aivista-fcgid.conf"),
            {"url": self.url, "www": self.www, "worker": self.worker,
             "conf": self.worker_conf, "workers": self.workers,
             "access_log": self.api_log},
            self.directives)
        if not self.confdir:
            avtest.write_file(self.site, text)
            return
        avtest.write_file(os.path.join(self.examples, "apache", "aivista-fcgid.conf"), text)
        self.run_doc(self.doc[0])
        # The site: its own access log without the API (as the document
        # says), and the document's line inside its VirtualHost.
        avtest.write_file(self.site, "\n".join(
            ["<VirtualHost 127.0.0.1:%d>" % self.port,
             "\tCustomLog %s/access.log timed env=!aivista_api" % self.log_dir] +
            ["\t" + self.doc_mapped(l) for l in deploydoc.block(self.doc[1])] +
            ["</VirtualHost>", ""]))


class ApacheProxy(Apache):
    """Apache with contrib/apache/aivista-proxy.conf, in front of a pool of
    workers on one unix socket. launcher "systemd": the test holds the
    listening socket and starts each worker with it as standard input, with
    the command line of contrib/systemd/aivista@.service (what socket
    activation with Accept=no does); "spawn-fcgi": spawn-fcgi -F starts
    them. With doc (the name of docs/deploy.md's block, in a tuple), Apache
    is set up by its lines run as written: a2enmod, the example copied to
    conf-available, a2enconf; the example stands for the installed one, its
    Define lines naming the test's files."""

    modules = Apache.modules + ["proxy", "proxy_fcgi"]
    label = "apache mod_proxy_fcgi"

    def __init__(self, t, dir, workers=2, settings=None, binary=None, timeout=IDLE_S,
                 store=None, user=None, launcher="systemd", doc=None):
        super().__init__(t, dir, user)
        self.stage_app(workers, settings, binary, store, doc)
        self.launcher = launcher
        self.sock = os.path.join(self.run_dir, "aivista.sock")
        self.timeout = timeout
        self.pool = []
        self.parent = None   # the prefork parent spawn-fcgi started, if any
        self.pool_pgid = None
        self.listener = None

    def write_site(self):
        text = apache_template(
            os.path.join("contrib", "apache", "aivista-proxy.conf"),
            {"url": self.url, "www": self.www, "socket": self.sock,
             "timeout": self.timeout, "access_log": self.api_log})
        if not self.confdir:
            avtest.write_file(self.site, text)
            return
        # docs/deploy.md: a2enmod, the example copied to conf-available,
        # a2enconf (Apache includes conf-enabled/).
        avtest.write_file(os.path.join(self.examples, "apache", "aivista-proxy.conf"), text)
        self.run_doc(self.doc[0])
        avtest.write_file(self.site, "# The configuration is in conf-enabled/.\n")

    def unit_command(self):
        """The worker's command line from contrib/systemd/aivista@.service,
        with this test's binary and configuration."""
        # The unit must start the worker with -c only (no -l): the socket is
        # its standard input.
        with open(avtest.src_path("contrib", "systemd", "aivista@.service")) as f:
            m = re.search(r"(?m)^ExecStart=(\S+)\s+-c\s+(\S+)\s*$", f.read())
        if not m:
            raise SetupError("contrib/systemd/aivista@.service: no ExecStart=WORKER -c CONF line")
        return [self.worker, "-c", self.worker_conf]

    def start_pool(self):
        logf = os.path.join(self.log_dir, "workers.log")
        out = open(logf, "ab")
        if self.launcher == "spawn-fcgi":
            spawn = shutil.which("spawn-fcgi") or "/usr/bin/spawn-fcgi"
            if not os.access(spawn, os.X_OK):
                raise SkipAll("no spawn-fcgi")
            pidfile = os.path.join(self.run_dir, "spawn-fcgi.pid")
            cmd = [spawn, "-s", self.sock, "-F", str(self.workers), "-M", "0660",
                   "-P", pidfile]
            if self.user:
                g = grp.getgrgid(self.user[2]).gr_name
                cmd += ["-u", self.user[0], "-g", g, "-U", self.user[0], "-G", g]
            # As contrib/systemd/aivista-spawn-fcgi.service: spawn-fcgi
            # starts one prefork parent, which runs the workers and
            # restarts any that dies (spawn-fcgi restarts nothing).
            cmd[cmd.index("-F") + 1] = "1"
            cmd += ["--"] + self.unit_command() + ["-w", str(self.workers)]
            p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                 env=avtest.clean_env(), start_new_session=True)
            self.pool_pgid = p.pid
            self.t.cleanup(self.stop_pool)
            if avtest.wait_exit(p, avtest.START_TIMEOUT) != 0:
                raise SetupError("spawn-fcgi failed:\n%s" % avtest.tail(logf))
            with open(pidfile) as f:
                self.pool = [int(x) for x in f.read().split()]
            self.parent = self.pool[0]
            if avtest.wait_for(lambda: len(avtest.proc_children(self.parent)) >= self.workers or None,
                               avtest.START_TIMEOUT) is None:
                raise SetupError("the prefork parent did not start %d workers:\n%s" %
                                 (self.workers, avtest.tail(logf)))
        else:
            # What systemd does for aivista.socket + aivista@N.service.
            if os.path.exists(self.sock):
                os.unlink(self.sock)
            self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.listener.bind(self.sock)
            self.listener.listen(128)
            if self.user:
                os.chown(self.sock, self.user[1], self.user[2])
            os.chmod(self.sock, 0o660)
            self.t.cleanup(self.stop_pool)
            self.pool_pgid = 0
            for i in range(self.workers):
                p = subprocess.Popen(self.unit_command(), stdin=self.listener.fileno(), stdout=out,
                                     stderr=subprocess.STDOUT, env=avtest.clean_env(),
                                     start_new_session=True, **popen_user(self.user))
                self.pool.append(p.pid)
        out.close()

    def start(self):
        os.makedirs(self.run_dir, exist_ok=True)
        give(self.dir, self.user)
        self.start_pool()
        return super().start()

    def worker_pids(self):
        if self.parent:
            return avtest.proc_children(self.parent)
        return [p for p in self.pool if avtest.proc_alive(p)]

    def stop_pool(self):
        if self.pool_pgid is None:
            return
        for p in self.pool:
            avtest.kill_quietly(os.kill, p, signal.SIGTERM)
        avtest.wait_for(lambda: not any(avtest.proc_alive(p) for p in self.pool),
                        avtest.STOP_TIMEOUT)
        for pg in [self.pool_pgid] if self.pool_pgid else self.pool:
            avtest.kill_quietly(os.killpg, pg, signal.SIGKILL)
        for p in self.pool:
            try:
                os.waitpid(p, os.WNOHANG)
            except ChildProcessError:
                pass
        if self.listener:
            self.listener.close()
            self.listener = None
        self.pool_pgid = None

    def stop(self):
        stray = super().stop()
        self.stop_pool()
        return stray


# -- lighttpd -----------------------------------------------------------------------

class LighttpdServer(avtest.Lighttpd):
    """avtest.Lighttpd with server.max-write-idle set and a copy of the app,
    for the checks every deployment passes (the app at URL "")."""

    url = ""
    label = "lighttpd"

    def __init__(self, t, dir, workers=2, settings=None, binary=None, write_idle=IDLE_S):
        super().__init__(t, dir, workers=workers, settings=settings, worker=binary)
        self.write_idle = write_idle
        self.store = os.path.join(dir, "store")
        self.user = None
        # A copy of the app, which check_static_caching adds a picture to.
        self.www = os.path.join(dir, "www")
        shutil.copytree(avtest.src_path("www"), self.www, dirs_exist_ok=True)

    def write_conf(self):
        super().write_conf()
        with open(self.conf) as f:
            text = f.read()
        text = replace_lines(text, "contrib/lighttpd/aivista.conf", r"(?m)^%s\s*=.*$",
                             {"server.max-write-idle": self.write_idle,
                              "var.aivista_www": '"%s"' % self.www},
                             lambda k, v: "%s = %s" % (k, v))
        avtest.write_file(self.conf, text)


# -- a worker of its own ------------------------------------------------------------

class SideWorker(avtest.Worker):
    """A worker run directly on its own socket, on a server's store and as
    the server's workers' user, the server's worker binary (or binary) with
    the style library the server staged, if any: "another process" for a
    confirm."""

    def __init__(self, t, dir, srv, settings=None, binary=None):
        os.makedirs(dir, exist_ok=True)
        s = {"store": {"dir": srv.store}}
        if getattr(srv, "styles", None):
            s["kb"] = {"styles": srv.styles}
        for sec, keys in (settings or {}).items():
            s.setdefault(sec, {}).update(keys)
        super().__init__(t, dir, settings=s, name="side", binary=binary or srv.worker)
        self.user = srv.user

    def start(self):
        give(self.dir, self.user)
        if os.path.exists(self.sock):
            os.unlink(self.sock)
        logf = open(self.log, "ab")
        self.proc = subprocess.Popen([self.binary or avtest.worker_path(), "-c", self.conf,
                                      "-l", self.sock],
                                     stdin=subprocess.DEVNULL, stdout=logf,
                                     stderr=subprocess.STDOUT, env=self.env,
                                     start_new_session=True, **popen_user(self.user))
        logf.close()
        self.t.cleanup(self.kill)
        if not avtest.wait_for(lambda: os.path.exists(self.sock) or self.proc.poll() is not None,
                               avtest.START_TIMEOUT) or self.proc.poll() is not None:
            raise SetupError("the side worker did not start:\n%s" % avtest.tail(self.log))
        return self


# -- streams ------------------------------------------------------------------------

class TimedStream:
    """An event stream read as it arrives, each event with the time (s since
    the request was sent) it was complete."""

    def __init__(self, srv, method, path, body=None, headers=None, timeout=60):
        self.t0 = time.monotonic()
        hdrs = dict(JSON_HDR if body is not None else {})
        hdrs.update(headers or {})
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
        self.resp = srv.open(method, path, body, hdrs, timeout)
        self.status = self.resp.status
        self.headers = {k.lower(): v for k, v in self.resp.getheaders()}
        self.reader = SSEReader(self.resp)
        self.it = iter(self.reader)
        self.events = []
        self.times = []
        self.error = None
        self.end = None

    @property
    def pid(self):
        return self.headers.get("x-aivista-worker")

    def next(self):
        """The next event, or None at the end of the stream."""
        try:
            ev = next(self.it)
        except StopIteration:
            ev = None
        except Exception as e:  # noqa: BLE001 (a cut connection)
            self.error = e
            ev = None
        if ev is None:
            self.end = time.monotonic() - self.t0
            return None
        self.events.append(ev)
        self.times.append(time.monotonic() - self.t0)
        return ev

    def read_all(self):
        while self.next() is not None:
            pass
        self.resp.close()
        return self

    def close(self, reset=True):
        """Leaves: with reset, the way a closed browser tab does (RST)."""
        sock = self.resp.fp.raw._sock if hasattr(self.resp.fp, "raw") else None
        if reset and sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            except OSError:
                pass
        try:
            if sock is not None:
                sock.close()
        finally:
            self.resp.close()

    def types(self):
        return [e["data"].get("type") if isinstance(e["data"], dict) else e["data"]
                for e in self.events]

    def durable(self):
        return [e for e in self.events if "id" in e]

    def thread_id(self):
        for e in self.events:
            if isinstance(e["data"], dict) and e["data"].get("threadId"):
                return e["data"]["threadId"]
        return None


def test_input(**kw):
    body = {"workflow": "test", "input": {"topic": "deploy", "pause": False}}
    body["input"].update(kw)
    return body


# -- the checks -----------------------------------------------------------------------

def check_one_by_one(t, srv, label, headers=None, what="events arrive one by one"):
    """A stream of 4 steps of 0.6 s: its first event comes long before the
    end, and the events come in several pieces as the steps end."""
    s = TimedStream(srv, "POST", "/api/agent/stream", test_input(steps=4, sleepMs=600),
                    headers).read_all()
    ok = s.status == 200 and s.types()[-1:] == ["[DONE]"]
    t.ok(ok, "%s: a 2.4 s stream completes (%s, %d events)" % (label, s.status, len(s.events)))
    first, last = (s.times[0], s.times[-1]) if s.times else (None, None)
    t.ok(first is not None and last - first >= 1.8,
         "%s: %s: the first event came %.2f s before the last (at %.2f s of %.2f s)"
         % (label, what, (last or 0) - (first or 0), first or -1, last or -1))
    batches = len(set(round(x / 0.3) for x in s.times))
    t.ok(batches >= 4, "%s: %s: events came at %d different times" % (label, what, batches))
    return s


def check_quiet(t, srv, label):
    """A step that says nothing for 2.5 times the server's idle limit: the
    keep-alives carry the stream through."""
    quiet_ms = int(IDLE_S * 2500)
    s = TimedStream(srv, "POST", "/api/agent/stream", test_input(steps=1, sleepMs=quiet_ms),
                    timeout=60).read_all()
    t.ok(s.types()[-1:] in (["[DONE]"], ["workflow_yield"]) and s.error is None and
         s.end is not None and s.end >= quiet_ms / 1000,
         "%s: a stream quiet for %.1f s (server idle limit %d s) goes on to its normal end "
         "(%s at %.2f s)" % (label, quiet_ms / 1000, IDLE_S, s.types()[-1:], s.end or -1))
    n = len(s.reader.comments)
    t.ok(n >= quiet_ms // KEEPALIVE_MS - 2,
         "%s: keep-alive comments reached the client through the server (%d)" % (label, n))


def check_quiet_control(t, srv, label):
    """The same quiet step on workers that send no keep-alive in time: the
    server cuts it (the limit the keep-alives beat is real)."""
    quiet_ms = int(IDLE_S * 2500)
    s = TimedStream(srv, "POST", "/api/agent/stream", test_input(steps=1, sleepMs=quiet_ms),
                    timeout=60).read_all()
    ended = s.types()[-1:] in (["[DONE]"], ["workflow_yield"])
    last = max(s.times) if s.times else -1
    t.ok(not ended and last < quiet_ms / 1000,
         "%s, keep-alives slower than the idle limit: the server cuts the quiet stream (%s; "
         "last event at %.2f s, connection closed at %.2f s)"
         % (label, "it ended normally" if ended else "cut", last, s.end or -1))


def check_long(t, srv, label, busy_limit=None):
    """A thread of 20 steps of 0.5 s (10 s): each request's stream is ended by
    the worker after STREAM_MAX_MS with retry: and workflow_yield; the client
    reconnects with Last-Event-ID until [DONE], and gets every durable event
    once, in order, as a replay from the start shows them."""
    s = TimedStream(srv, "POST", "/api/agent/stream", test_input(steps=20, sleepMs=500),
                    timeout=60).read_all()
    tid = s.thread_id()
    segments = [s]
    first_end = s.end
    yielded = s.types()[-1:] == ["workflow_yield"] and any("retry" in e for e in s.events)
    t.ok(yielded, "%s: a 10 s thread: the first stream ends with retry: and workflow_yield"
         % label)
    limit = STREAM_MAX_MS / 1000 + 1.5
    t.ok(first_end is not None and STREAM_MAX_MS / 1000 - 0.2 <= first_end <= limit,
         "%s: ...after %.2f s (stream_max_ms %d)%s" % (
             label, first_end or -1, STREAM_MAX_MS,
             ", before the server's %d s limit" % busy_limit if busy_limit else ""))
    while segments[-1].types()[-1:] == ["workflow_yield"] and len(segments) < 12:
        last = segments[-1].durable()[-1]["id"]
        segments.append(TimedStream(srv, "GET", "/api/agent/stream?threadId=" + tid,
                                    headers={"Last-Event-ID": last}, timeout=60).read_all())
    total = time.monotonic() - s.t0
    got = [e for seg in segments for e in seg.durable()]
    ids = [int(e["id"]) for e in got]
    t.ok(segments[-1].types()[-1:] == ["[DONE]"] and "error" not in
         [e["data"].get("type") for e in got if isinstance(e["data"], dict)],
         "%s: reconnecting on retry: the thread completes (%d streams, %.1f s in all)"
         % (label, len(segments), total))
    t.is_(ids, list(range(1, len(ids) + 1)),
          "%s: across the reconnects every durable id came once, in order, no gap" % label)
    replay = TimedStream(srv, "GET", "/api/agent/stream?threadId=" + tid,
                         headers={"Last-Event-ID": "0"}).read_all()
    t.ok([(e["id"], e["data"]) for e in replay.durable()] == [(e["id"], e["data"]) for e in got],
         "%s: the reconnecting client lost nothing: a replay from 0 equals what it got" % label)
    counts = [e["data"].get("message") for e in got
              if isinstance(e["data"], dict) and e["data"].get("type") == "thought_log"
              and str(e["data"].get("message", "")).startswith("count ")]
    t.is_(len(counts), 20, "%s: all 20 steps ran once" % label)
    return total


def check_disconnect(t, srv, label, slack):
    """Two workers busy with two streams; one client leaves (RST). Its
    worker notices at its next keep-alive and serves a new request: within
    one keep-alive interval plus slack (the server's own delay)."""
    body = test_input(steps=40, sleepMs=500)
    a = TimedStream(srv, "POST", "/api/agent/stream", body, timeout=60)
    b = TimedStream(srv, "POST", "/api/agent/stream", body, timeout=60)
    a.next()
    b.next()
    pa, pb = a.pid, b.pid
    time.sleep(0.2)
    t0 = time.monotonic()
    a.close(reset=True)
    status, hdrs, _ = srv.request("GET", "/api/health", timeout=30)
    took = time.monotonic() - t0
    limit = KEEPALIVE_MS / 1000 + slack
    t.ok(status == 200 and hdrs.get("x-aivista-worker") == pa and took <= limit,
         "%s: a client that leaves frees its worker in %.2f s (keep-alive %.1f s, limit %.1f s;"
         " freed %s, other %s, answered by %s)" % (label, took, KEEPALIVE_MS / 1000, limit, pa, pb,
                                                   hdrs.get("x-aivista-worker")))
    b.close()
    return took


def check_all_busy(t, srv, label, workers):
    """Every worker holds a stream (each ends at STREAM_MAX_MS); a new
    request waits for a free worker and is served, or gets a clean 503/504
    at the server's limit; it never hangs."""
    body = test_input(steps=40, sleepMs=500)
    streams = [TimedStream(srv, "POST", "/api/agent/stream", body, timeout=60)
               for _ in range(workers)]
    for s in streams:
        s.next()
    pids = set(s.pid for s in streams)
    t0 = time.monotonic()
    try:
        status, hdrs, data = srv.request("GET", "/api/health", timeout=90)
        err = None
    except OSError as e:
        status, hdrs, data, err = None, {}, b"", e
    took = time.monotonic() - t0
    for s in streams:
        s.close()
    served = status == 200
    clean = status in (503, 504) and data
    t.ok(len(pids) == workers, "%s: %d streams hold the %d workers" % (label, workers, workers))
    t.ok((served and took >= STREAM_MAX_MS / 1000 - 1.0) or clean,
         "%s: with every worker busy a new request %s after %.2f s" % (
             label, "waits for a free worker and is served" if served else
             "gets %s" % (status or err), took))
    t.ok(took < STREAM_MAX_MS / 1000 + 5, "%s: ...and does not hang (%.2f s)" % (label, took))
    again, _, _ = srv.request("GET", "/api/health")
    t.is_(again, 200, "%s: once the streams end the server answers again" % label)
    return took, status


def check_pause_elsewhere(t, srv, side, label):
    """A pause started through the server is confirmed through another
    worker process, then seen done through the server."""
    s = TimedStream(srv, "POST", "/api/agent/stream", test_input(pause=True)).read_all()
    q = ask(s.events)
    tid = s.thread_id()
    t.ok(q is not None and s.types()[-1:] == ["workflow_paused"],
         "%s: a thread started through the server pauses for a decision" % label)
    if q is None:
        return
    r = side.request("POST", "/api/agent/confirm",
                     body=json.dumps({"threadId": tid, "interruptId": q["interruptId"],
                                      "action": "approve"}), headers=JSON_HDR)
    evs = events(r.body)
    other = r.header("X-AiVista-Worker")
    t.ok(r.status == 200 and evs and evs[-1]["data"] == "[DONE]" and other != s.pid,
         "%s: confirmed through another process (paused by %s, confirmed by %s)"
         % (label, s.pid, other))
    status, _, body = srv.request("GET", "/api/threads/" + tid)
    st = avtest.problem(body) or {}
    t.ok(status == 200 and st.get("status") == "done" and
         (st.get("state") or {}).get("decisions") == ["approve"],
         "%s: the server's workers see the thread done, decided once" % label)


def check_body_sizes(t, srv, label, max_body):
    """A 1 MiB input (an inpainting mask's size) reaches the worker; a body
    past the worker's max_body_bytes gets the worker's 413 JSON, not the
    server's error page."""
    blob = "m" * (1 << 20)
    s = TimedStream(srv, "POST", "/api/agent/stream", test_input(blob=blob)).read_all()
    t.ok(s.status == 200 and s.types()[-1:] == ["[DONE]"],
         "%s: a 1 MiB request body reaches the worker (%s)" % (label, s.status))
    big = json.dumps(test_input(blob="m" * (max_body + 4096)))
    status, hdrs, body = srv.request("POST", "/api/agent/stream", big, JSON_HDR)
    j = avtest.problem(body) or {}
    t.ok(status == 413 and j.get("code") == "body_too_large" and
         hdrs.get("content-type", "").startswith("application/problem+json"),
         "%s: a body past max_body_bytes gets the worker's 413 problem JSON (%s %s)"
         % (label, status, j.get("code")))


def check_no_gzip(t, srv, label):
    """The site compresses everything (SetOutputFilter DEFLATE), yet the
    stream is sent as is, event by event; a static file is compressed."""
    status, hdrs, _ = srv.request("GET", "/app.js", headers={"Accept-Encoding": "gzip"})
    t.is_((status, hdrs.get("content-encoding")), (200, "gzip"),
          "%s: the site compresses (app.js is sent gzip)" % label)
    s = check_one_by_one(t, srv, label, {"Accept-Encoding": "gzip"},
                         "with compression on and Accept-Encoding: gzip, events still arrive "
                         "one by one")
    t.ok("content-encoding" not in s.headers,
         "%s: the event stream is not compressed (no-gzip)" % label)


def check_static_caching(t, srv, label):
    """The app's files as the shipped configuration serves them: index.html
    and app.js compressed for a client that accepts gzip (and read back
    the same), each with an ETag and Cache-Control: no-cache, the ETag
    answered with 304, compressed or not; a picture kept a day."""
    for path, name in (("/", "index.html"), ("/app.js", "app.js")):
        with open(avtest.src_path("www", name), "rb") as f:
            want = f.read()
        gz = {"Accept-Encoding": "gzip"}
        status, hdrs, body = srv.request("GET", path, headers=gz)
        enc, etag = hdrs.get("content-encoding"), hdrs.get("etag")
        plain = gzip.decompress(body) if enc == "gzip" and body else body
        t.ok(status == 200 and enc == "gzip" and plain == want and len(body) < len(want),
             "%s: GET %s with Accept-Encoding: gzip: compressed (%s, %d bytes for %d)"
             % (label, path, enc, len(body), len(want)))
        t.ok(etag and "no-cache" in hdrs.get("cache-control", ""),
             "%s: ... with an ETag (%s) and Cache-Control: no-cache (%s)"
             % (label, etag, hdrs.get("cache-control")))
        status, hdrs2, body = srv.request("GET", path, headers=dict(gz, **{"If-None-Match": etag or "x"}))
        t.ok(status == 304 and body == b"", "%s: ... If-None-Match with that ETag: 304 (%s)"
             % (label, status))
        status, hdrs3, body = srv.request("GET", path)
        t.ok(status == 200 and "content-encoding" not in hdrs3 and body == want and
             hdrs3.get("etag") and "no-cache" in hdrs3.get("cache-control", ""),
             "%s: ... without Accept-Encoding: sent as it is, with an ETag and no-cache" % label)
        status, _, body = srv.request("GET", path, headers={"If-None-Match": hdrs3.get("etag") or "x"})
        t.ok(status == 304 and body == b"", "%s: ... and 304 for that ETag" % label)
    with open(os.path.join(srv.www, "picture.png"), "wb") as f:
        f.write(avpng.solid(4, 4, (200, 40, 40)))
    give(srv.www, srv.user)
    status, hdrs, _ = srv.request("GET", "/picture.png", headers={"Accept-Encoding": "gzip"})
    t.ok(status == 200 and "max-age=86400" in hdrs.get("cache-control", "") and
         "content-encoding" not in hdrs and hdrs.get("etag"),
         "%s: a picture: kept a day (%s), not compressed, with an ETag (%s %s)"
         % (label, hdrs.get("cache-control"), status, hdrs))


# The app's policy, as the shipped configurations send it with its files.
APP_POLICY = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
              "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; "
              "form-action 'self'; object-src 'none'")


def request_host(srv, path, host):
    """(status, body) of a GET of the app's path with Host: host."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=avtest.REQUEST_TIMEOUT)
    try:
        conn.putrequest("GET", srv.url + path, skip_host=True)
        conn.putheader("Host", host)
        conn.endheaders()
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def check_site_policy(t, srv, label, host_check=True):
    """The app's page and a script carry the app's policy (no framing by
    another site), nosniff and Referrer-Policy, once each; the API's
    answers the workers' own policy, once. With host_check, the workers
    see the site's name as SERVER_NAME: a request for another host is
    421."""
    for path in ("/", "/app.js"):
        resp = srv.open("GET", path)
        got = {h: resp.msg.get_all(h) for h in ("Content-Security-Policy", "X-Content-Type-Options",
                                                 "Referrer-Policy")}
        resp.read()
        resp.close()
        t.is_(got, {"Content-Security-Policy": [APP_POLICY], "X-Content-Type-Options": ["nosniff"],
                    "Referrer-Policy": ["same-origin"]},
              "%s: GET %s: the app's policy, nosniff and Referrer-Policy" % (label, path))
    resp = srv.open("GET", "/api/health")
    csp = resp.msg.get_all("Content-Security-Policy")
    sniff = resp.msg.get_all("X-Content-Type-Options")
    resp.read()
    resp.close()
    t.ok(csp == ["default-src 'none'; frame-ancestors 'none'"] and sniff == ["nosniff"],
         "%s: the API's answer: the workers' policy and nosniff, once each (%s %s)"
         % (label, csp, sniff))
    if not host_check:
        return
    status, body = request_host(srv, "/api/health", "evil.example")
    t.is_((status, (avtest.problem(body) or {}).get("code")), (421, "misdirected_request"),
          "%s: a request for another host: 421 misdirected_request" % label)
    status, _ = request_host(srv, "/api/health", "localhost:%d" % srv.port)
    t.is_(status, 200, "%s: localhost is served" % label)


def check_access_logs(t, srv, label):
    """After the checks (threads read by path and by query), the access logs
    have the API requests with thread paths masked, and no thread ID."""
    api = avtest.tail(srv.api_log, 10 ** 6)
    site = avtest.tail(os.path.join(srv.log_dir, "access.log"), 10 ** 6)
    tid = re.compile(r"v1\.[A-Za-z0-9_-]{22}\.")
    t.ok("/api/threads/* " in api and "/api/agent/stream " in api,
         "%s: the API's access log has the requests, thread paths masked" % label)
    t.ok(not tid.search(api + site) and "threadId" not in api + site,
         "%s: no access log has a thread ID or a query string" % label)


def check_worker_log(t, srv, label, lines, where):
    """A request the worker refuses leaves the worker's own line (from its
    standard error) in the log this deployment keeps for it: lines() reads
    that log."""
    forged = "/api/threads/v1.AAAAAAAAAAAAAAAAAAAAAA.forged-for-the-log-check"
    status, _, _ = srv.request("GET", forged)
    found = avtest.wait_for(lambda: [l for l in lines() if "-> 403 bad_thread_id" in l] or None,
                            10)
    t.ok(status == 403 and found,
         "%s: the worker's line about a refused request is in %s" % (label, where))


def stop_clean(t, srv, label):
    """Stopping the server leaves no worker behind."""
    pids = srv.worker_pids()
    stray = srv.stop()
    t.is_(stray, [], "%s: stopping the server leaves nothing in its process group" % label)
    left = [p for p in pids if avtest.proc_alive(p)]
    t.is_(left, [], "%s: every worker it ran is gone" % label)


def stream_checks(t, srv, side, label, workers, disconnect_slack, busy_limit=None):
    """Every check a deployment must pass, in order. Returns a dict of
    timings for the log."""
    fig = {}
    t0 = time.monotonic()
    check_one_by_one(t, srv, label)
    check_quiet(t, srv, label)
    fig["long"] = check_long(t, srv, label, busy_limit)
    fig["disconnect"] = check_disconnect(t, srv, label, disconnect_slack)
    fig["busy"] = check_all_busy(t, srv, label, workers)
    check_pause_elsewhere(t, srv, side, label)
    fig["checks"] = time.monotonic() - t0
    return fig


def serving_checks(t, srv, label, max_body):
    """What a deployment serves besides streams: events not compressed,
    the app's files cached and compressed, its policy, body sizes up to
    max_body_bytes."""
    check_no_gzip(t, srv, label)
    check_static_caching(t, srv, label)
    check_site_policy(t, srv, label)
    check_body_sizes(t, srv, label, max_body)


def diag_figures(t, fig, started):
    """The timings stream_checks returned, and the whole test's since
    started, for the log."""
    t.diag("figures: long stream %.1f s, disconnect freed in %.2f s, all busy: %.2f s (%s); "
           "checks %.1f s; whole test %.1f s" % (fig["long"], fig["disconnect"], fig["busy"][0],
                                                fig["busy"][1], fig["checks"],
                                                time.monotonic() - started))


def worker_settings(**more):
    """The workers' settings for the stream checks."""
    s = {"server": {"keepalive_ms": str(KEEPALIVE_MS), "stream_max_ms": str(STREAM_MAX_MS)},
         "engine": {"request_budget_ms": "60000", "max_iterations": "100"}}
    for sec, keys in more.items():
        s.setdefault(sec, {}).update(keys)
    return s
