"""Shared pieces of the integration tests: TAP output, temporary
directories, the worker run directly on a unix socket, what every real
web server in front of it shares (WebServer: its kinds are lighttpd from
contrib/lighttpd/aivista.conf here and Apache in webservers.py), and
small HTTP and event-stream clients.

The tests run under automake's tap-driver.sh. A failure to set up (no
worker binary, lighttpd will not start) exits 99, which automake reports
as ERROR rather than FAIL. Processes a test starts are always stopped,
whatever happens, and its temporary directory is removed when every check
passed (kept, and named in the log, otherwise).

Environment (set by make check): top_srcdir, top_builddir,
AIVISTA_WORKER (the built worker), LIGHTTPD (the lighttpd binary).
AIVISTA_KEEP_TMP=1 keeps the temporary directories.
"""

import atexit
import base64
import hashlib
import hmac
import http.client
import json
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fcgi_client  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOP_SRCDIR = os.path.abspath(os.environ.get("top_srcdir") or os.path.join(HERE, "..", ".."))
TOP_BUILDDIR = os.path.abspath(os.environ.get("top_builddir") or TOP_SRCDIR)

# Time limits, generous: the tests must pass on a busy two-core machine.
START_TIMEOUT = 30.0
STOP_TIMEOUT = 15.0
REQUEST_TIMEOUT = 30.0
SCRIPT_TIMEOUT = 600



def store_backend():
    """The backend the tests run against: "bdb", or "postgresql" with
    AIVISTA_TEST_STORE=postgresql (tests/lib/pgcluster.py sets it)."""
    return "postgresql" if os.environ.get("AIVISTA_TEST_STORE", "bdb") == "postgresql" else "bdb"


def store_psql(dir, sql):
    """PostgreSQL only: the rows sql returns in the database
    store_settings(dir) names, as lists of strings."""
    base = os.environ.get("AIVISTA_TEST_PGDSN", "")
    name = "av_" + hashlib.sha256(os.path.abspath(dir).encode()).hexdigest()[:24]
    r = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-F", "\t", "-d", base + " dbname=" + name,
                        "-c", sql], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("psql: " + r.stderr)
    return [line.split("\t") for line in r.stdout.splitlines() if line]


def store_settings(dir):
    """[store] settings for a worker whose store is dir: Berkeley DB there,
    or with AIVISTA_TEST_STORE=postgresql a fresh database of its own on
    the server AIVISTA_TEST_PGDSN names (created here), so every test runs
    unchanged against either backend."""
    if store_backend() != "postgresql":
        return {"dir": dir}
    base = os.environ.get("AIVISTA_TEST_PGDSN", "")
    name = "av_" + hashlib.sha256(os.path.abspath(dir).encode()).hexdigest()[:24]
    r = subprocess.run(["psql", "-X", "-q", "-d", base + " dbname=postgres", "-c",
                        "CREATE DATABASE " + name], capture_output=True, text=True)
    if r.returncode != 0 and "already exists" not in r.stderr:
        raise RuntimeError("cannot create the test database: " + r.stderr)
    return {"dir": dir, "backend": "postgresql", "dsn": base + " dbname=" + name}


def store_section(default_dir, given=None):
    """The [store] section of a worker's configuration: store_settings of
    the directory given (or default_dir), with the other keys given on
    top. A test naming another store directory gets a database of its own
    on PostgreSQL as well, as two directories are two stores on Berkeley DB;
    one naming its dsn keeps it."""
    given = dict(given or {})
    if "dsn" in given:
        return given
    s = store_settings(given.get("dir", default_dir))
    s.update(given)
    return s

def kb_settings():
    """[kb] settings: the knowledge bases of the source tree's etc/."""
    return {"styles": src_path("etc", "styles.json"), "notes": src_path("etc", "notes.json"),
            "words": src_path("etc", "words.txt"), "nodes": src_path("etc", "nodes.json"),
            "agents": src_path("etc", "agents.json"), "templates": src_path("etc", "templates.json")}


class SetupError(Exception):
    """The test cannot run: reported as a hard error (exit 99)."""


class SkipAll(Exception):
    """The test does not apply here (no lighttpd, ...)."""


# -- TAP ----------------------------------------------------------------------

class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0
        self.planned = None
        self._cleanups = []
        self._tmpdirs = []

    def _emit(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def plan(self, n):
        self.planned = n
        self._emit("1..%d" % n)

    def diag(self, *msgs):
        for msg in msgs:
            for line in str(msg).splitlines() or [""]:
                self._emit("# " + line)

    def ok(self, cond, name):
        """One test point."""
        self.n += 1
        cond = bool(cond)
        name = re.sub(r"[\r\n#]", " ", name)
        line = "%s %d - %s" % ("ok" if cond else "not ok", self.n, name)
        if not cond:
            self.failed += 1
        self._emit(line)
        return cond

    def is_(self, got, expected, name):
        if not self.ok(got == expected, name):
            self.diag("     got: %r" % (got,), "expected: %r" % (expected,))
            return False
        return True

    def like(self, text, pattern, name):
        if not self.ok(text is not None and re.search(pattern, text), name):
            self.diag("     got: %r" % (text,), "expected to match: %r" % pattern)
            return False
        return True

    def skip(self, reason, name="skipped"):
        self.n += 1
        self._emit("ok %d - %s # SKIP %s" % (self.n, name, reason))

    def skip_all(self, reason):
        raise SkipAll(reason)

    def done(self):
        if self.planned is None:
            self._emit("1..%d" % self.n)

    # -- resources ------------------------------------------------------------

    def cleanup(self, fn, *args):
        """Runs fn(*args) when the test ends, whatever happens (last in, first out)."""
        self._cleanups.append((fn, args))

    def tmpdir(self, name="t"):
        """A new private temporary directory (short path: sockets live there)."""
        d = tempfile.mkdtemp(prefix="aivista-%s." % name)
        self._tmpdirs.append(d)
        return d

    def _run_cleanups(self):
        while self._cleanups:
            fn, args = self._cleanups.pop()
            try:
                fn(*args)
            except Exception:
                self.diag("cleanup %s failed:" % getattr(fn, "__name__", fn),
                          traceback.format_exc())
        keep = self.failed or os.environ.get("AIVISTA_KEEP_TMP")
        for d in self._tmpdirs:
            if keep:
                self.diag("kept %s" % d)
            else:
                shutil.rmtree(d, ignore_errors=True)
        self._tmpdirs = []


SANITIZER_MARKS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: UndefinedBehaviorSanitizer",
                   "Invalid read", "Invalid write", "uninitialised value", "definitely lost in")


def sanitizer_check(t):
    """One test point: no process of the test reported a memory error or
    undefined behaviour in its log (builds with --enable-debug)."""
    found = []
    for d in t._tmpdirs:
        for root, _, files in os.walk(d):
            for name in files:
                if not name.endswith((".log", ".out")):
                    continue
                path = os.path.join(root, name)
                try:
                    with open(path, errors="replace") as f:
                        text = f.read()
                except OSError:
                    continue
                if any(m in text for m in SANITIZER_MARKS):
                    found.append(path)
    if not t.ok(not found, "no sanitizer report in the logs of the processes it ran"):
        for path in found:
            t.diag("in %s:" % path, tail(path, 40))


def run(main):
    """Runs main(t) as a TAP test script and exits with the right status."""
    t = Tap()
    status = 0

    def on_alarm(signum, frame):
        raise TimeoutError("the test script ran longer than %d s" % SCRIPT_TIMEOUT)

    def on_term(signum, frame):
        raise KeyboardInterrupt("signal %d" % signum)

    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGTERM, on_term)
    signal.alarm(SCRIPT_TIMEOUT)
    atexit.register(t._run_cleanups)
    try:
        main(t)
        sanitizer_check(t)
        t.done()
    except SkipAll as e:
        if t.n == 0:
            t._emit("1..0 # SKIP %s" % e)
        else:
            t.skip(str(e), "rest of the test")
            t.done()
    except SetupError as e:
        t.diag("setup failed: %s" % e)
        t._emit("Bail out! %s" % str(e).splitlines()[0] if str(e) else "Bail out!")
        status = 99
    except BaseException as e:
        t.diag(traceback.format_exc())
        t.ok(False, "test script ended early: %s: %s" % (type(e).__name__, e))
        t.done()
        status = 1
    finally:
        signal.alarm(0)
        t._run_cleanups()
    sys.exit(status)


# -- processes ----------------------------------------------------------------

def proc_state(pid):
    """The one-letter state of pid from /proc, or None if there is no such process."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2:].split()[0]


def proc_hwm_kb(pid):
    """The peak resident memory of pid (VmHWM) in KiB, or 0 when there is
    no such process."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def proc_alive(pid):
    """True if pid runs (a zombie, not yet reaped by its parent, is dead)."""
    return proc_state(pid) not in (None, "Z", "X")


def proc_pgid(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return None
    return int(stat[stat.rindex(")") + 2:].split()[2])


def live_parents():
    """{pid: parent pid} of every live (not zombie) process."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] not in ("Z", "X"):
            out[int(d)] = int(fields[1])
    return out


def proc_children(ppid):
    """Live children of ppid, as a sorted list of pids."""
    return sorted(pid for pid, parent in live_parents().items() if parent == ppid)


def pool_workers(pid):
    """The serving workers under a web server's pid: the children of its
    children, each of which is a prefork parent (aivista.fcgi -w N)."""
    return sorted(w for p in proc_children(pid) for w in proc_children(p))


def group_members(pgid):
    """Live processes in process group pgid."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit() and proc_pgid(int(d)) == pgid and proc_alive(int(d)):
            out.append(int(d))
    return sorted(out)


def kill_quietly(kill, target, sig):
    """kill(target, sig) (os.kill or os.killpg), whether target is still
    there or not."""
    try:
        kill(target, sig)
    except ProcessLookupError:
        pass


def wait_for(cond, timeout, interval=0.05):
    """Polls cond() until it returns something true or timeout seconds pass.
    Returns the last value."""
    deadline = time.monotonic() + timeout
    while True:
        v = cond()
        if v or time.monotonic() >= deadline:
            return v
        time.sleep(interval)
        interval = min(interval * 1.5, 0.5)


def wait_exit(popen, timeout):
    """The exit status of popen, or None if it is still running after timeout."""
    try:
        return popen.wait(timeout)
    except subprocess.TimeoutExpired:
        return None


def clean_env(**extra):
    """The environment without any AIVISTA_* variable, plus extra."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AIVISTA_")}
    env.update({k: str(v) for k, v in extra.items()})
    return env


def tail(path, lines=30):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError as e:
        return "(%s)" % e


def free_port():
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
    finally:
        s.close()


def worker_path():
    path = os.environ.get("AIVISTA_WORKER") or os.path.join(TOP_BUILDDIR, "aivista.fcgi")
    if not os.access(path, os.X_OK):
        raise SetupError("no worker binary at %s (build it first)" % path)
    return path


def lighttpd_path():
    """The lighttpd binary, or None when there is none."""
    for p in (os.environ.get("LIGHTTPD"), "/usr/sbin/lighttpd"):
        if p and p != "no" and os.access(p, os.X_OK):
            return p
    return None


def src_path(*parts):
    return os.path.join(TOP_SRCDIR, *parts)


# -- configuration --------------------------------------------------------------

def conf_from_sample(settings):
    """The sample etc/aivista.conf with some keys changed.

    settings: {"section": {"key": "value"}}. Each key must already be in
    the sample (so the sample keeps documenting every key the tests use)."""
    with open(src_path("etc", "aivista.conf")) as f:
        lines = f.read().split("\n")
    pending = {(s, k): v for s, keys in settings.items() for k, v in keys.items()}
    section = None
    for i, line in enumerate(lines):
        m = re.match(r"\s*\[([^\]]+)\]", line)
        if m:
            section = m.group(1).strip()
            continue
        m = re.match(r"\s*([A-Za-z0-9_]+)\s*=", line)
        if m and (section, m.group(1)) in pending:
            lines[i] = "%s = %s" % (m.group(1), pending.pop((section, m.group(1))))
    if pending:
        raise SetupError("keys not in etc/aivista.conf: %s" %
                         ", ".join("[%s] %s" % sk for sk in pending))
    return "\n".join(lines)


def write_file(path, text, mode=0o644):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)
    return path


# -- the worker, run directly -----------------------------------------------------

class Worker:
    """aivista.fcgi listening on a unix socket in dir, with a config made
    from the sample (store in dir/store, plus settings). binary: another
    worker build (a test worker with extra workflows)."""

    def __init__(self, t, dir, settings=None, name="worker", env=None, binary=None):
        self.t = t
        self.binary = binary
        self.dir = dir
        self.name = name
        self.sock = os.path.join(dir, name + ".sock")
        self.log = os.path.join(dir, name + ".log")
        self.store = os.path.join(dir, "store")
        s = {"store": store_section(self.store, (settings or {}).get("store")),
             "kb": kb_settings()}
        for sec, keys in (settings or {}).items():
            s.setdefault(sec, {}).update(keys)
        self.conf = write_file(os.path.join(dir, name + ".conf"), conf_from_sample(s))
        self.env = clean_env(**(env or {}))
        self.proc = None

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def start(self):
        if os.path.exists(self.sock):
            os.unlink(self.sock)
        logf = open(self.log, "ab")
        # AIVISTA_VALGRIND=1 runs directly started workers under valgrind;
        # its reports land in the worker's log, where the sanitizer check
        # looks for them.
        wrap = ["valgrind", "--leak-check=full", "--errors-for-leak-kinds=definite",
                "--error-exitcode=0", "--quiet",
                "--suppressions=" + src_path("tests", "valgrind.supp")] \
            if os.environ.get("AIVISTA_VALGRIND") else []
        self.proc = subprocess.Popen(
            wrap + [self.binary or worker_path(), "-c", self.conf, "-l", self.sock],
            stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT,
            env=self.env, start_new_session=True)
        logf.close()
        self.t.cleanup(self.kill)

        def ready():
            if self.proc.poll() is not None:
                return "exited"
            try:
                with fcgi_client.Connection(self.sock, timeout=5) as c:
                    c.close()
                return "ready"
            except OSError:
                return None

        state = wait_for(ready, START_TIMEOUT)
        if state != "ready":
            raise SetupError("%s did not start (%s):\n%s" % (self.name, state or "no socket",
                                                             tail(self.log)))
        return self

    def request(self, method, uri, **kw):
        kw.setdefault("timeout", REQUEST_TIMEOUT)
        return fcgi_client.request(self.sock, method, uri, **kw)

    def post_json(self, uri, obj, timeout=REQUEST_TIMEOUT):
        """A POST of obj as JSON: the complete response."""
        return self.request("POST", uri, body=json.dumps(obj), headers={"Content-Type": "application/json"},
                            timeout=timeout)

    def connect(self, timeout=REQUEST_TIMEOUT):
        return fcgi_client.Connection(self.sock, timeout)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig):
        self.proc.send_signal(sig)

    def wait(self, timeout=STOP_TIMEOUT):
        return wait_exit(self.proc, timeout)

    def kill(self):
        """Stops the worker: SIGTERM, then SIGKILL if it does not go."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        if wait_exit(self.proc, STOP_TIMEOUT) is None:
            self.proc.kill()
            self.proc.wait()


# -- web servers ------------------------------------------------------------------

TEMPLATE = os.path.join("contrib", "lighttpd", "aivista.conf")


def lighttpd_quote(s):
    if '"' in s or "\\" in s or "\n" in s:
        raise SetupError("cannot put %r in a lighttpd string" % s)
    return '"%s"' % s


def lighttpd_conf_from_template(values):
    """contrib/lighttpd/aivista.conf with its var.aivista_* lines set from
    values ({"port": 8080, "www": "/path", ...}); each must be there."""
    with open(src_path(TEMPLATE)) as f:
        text = f.read()
    for name, value in values.items():
        v = str(value) if isinstance(value, int) else lighttpd_quote(value)
        text, n = re.subn(r"(?m)^var\.aivista_%s\s*=.*$" % re.escape(name),
                          lambda m: "var.aivista_%s = %s" % (name, v), text)
        if n != 1:
            raise SetupError("%s: expected one var.aivista_%s line, found %d" %
                             (TEMPLATE, name, n))
    return text


class WebServer:
    """A real web server on a free port of 127.0.0.1, everything under dir
    (its configuration, run/ and log/), run in the foreground in a session
    of its own. A subclass says how: write_conf() writes self.conf for
    self.port, check_command() and run_command() test and run it. It is
    ready once a GET of health_path (under url, where the app is) answers
    200; stop() ends it and whatever it started. Lighttpd below and the
    Apache servers of webservers.py are its kinds."""

    name = "the web server"     # the program, in setup errors
    url = ""                    # where the app is: request paths are under it
    health_path = "/api/health"
    stop_wait = STOP_TIMEOUT    # how long the server may take to stop

    def __init__(self, t, dir, binary, conf_name, out_name):
        self.t = t
        self.dir = dir
        self.binary = binary
        self.run_dir = os.path.join(dir, "run")
        self.log_dir = os.path.join(dir, "log")
        for d in (self.run_dir, self.log_dir):
            os.makedirs(d, exist_ok=True)
        self.conf = os.path.join(dir, conf_name)
        self.error_log = os.path.join(self.log_dir, "error.log")
        self.out_log = os.path.join(self.log_dir, out_name)
        self.proc = None
        self.port = None

    def write_conf(self):
        raise NotImplementedError

    def check_command(self):
        raise NotImplementedError

    def run_command(self):
        raise NotImplementedError

    def log_files(self):
        """The logs to show when the server does not come up."""
        return [self.error_log, self.out_log]

    def launch(self, check=True):
        """Tests the configuration (with check) and starts the server,
        without waiting for it."""
        if check:
            p = subprocess.run(self.check_command(), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env=clean_env(), timeout=60)
            if p.returncode != 0:
                raise SetupError("%s rejects the generated configuration:\n%s" %
                                 (self.name, p.stdout.decode(errors="replace")))
        out = open(self.out_log, "ab")
        self.proc = subprocess.Popen(self.run_command(), stdin=subprocess.DEVNULL, stdout=out,
                                     stderr=subprocess.STDOUT, env=clean_env(),
                                     start_new_session=True)
        out.close()
        self.t.cleanup(self.stop)

    def wait_ready(self):
        """"ready", "exited" or None (not ready in START_TIMEOUT)."""
        return wait_for(self._ready, START_TIMEOUT, 0.1)

    def start(self):
        """Starts the server on a free port and waits until it is ready. A
        port taken in the meantime is retried."""
        for attempt in range(3):
            self.port = free_port()
            self.write_conf()
            self.launch()
            state = self.wait_ready()
            if state == "ready":
                return self
            logs = "".join(tail(p) for p in self.log_files())
            self.stop()
            if state == "exited" and "in use" in logs and attempt < 2:
                continue
            raise SetupError("%s did not come up (%s):\n%s" % (self.name, state or "timeout", logs))
        raise SetupError("no free port for %s" % self.name)

    def _ready(self):
        if self.proc.poll() is not None:
            return "exited"
        try:
            status, _, _ = self.request("GET", self.health_path, timeout=5)
        except OSError:
            return None
        return "ready" if status == 200 else None

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def request(self, method, path, body=None, headers=None, timeout=REQUEST_TIMEOUT):
        """(status, headers, body) of a request for path under the app's URL."""
        return http_request(self.port, method, self.url + path, body, headers, timeout)

    def get(self, path, timeout=REQUEST_TIMEOUT):
        return self.request("GET", path, timeout=timeout)

    def open(self, method, path, body=None, headers=None, timeout=REQUEST_TIMEOUT):
        """An open response, for reading a stream as it comes."""
        return http_open(self.port, method, self.url + path, body, headers, timeout)

    def error_lines(self, pattern):
        return [l for l in tail(self.error_log, 100000).splitlines() if re.search(pattern, l)]

    def terminate(self):
        """Asks the server to stop: SIGTERM to its whole process group."""
        os.killpg(self.proc.pid, signal.SIGTERM)

    def stop(self):
        """Stops the server (terminate()), then SIGKILL to whatever is left
        in its process group. Returns the pids that had to be killed (none,
        normally)."""
        if self.proc is None:
            return []
        pgid = self.proc.pid
        try:
            self.terminate()
        except ProcessLookupError:
            pass
        wait_exit(self.proc, self.stop_wait)
        gone = wait_for(lambda: not group_members(pgid), STOP_TIMEOUT)
        stray = [] if gone else group_members(pgid)
        if stray:
            kill_quietly(os.killpg, pgid, signal.SIGKILL)
            wait_exit(self.proc, STOP_TIMEOUT)
        self.proc = None
        return stray


class Lighttpd(WebServer):
    """A real lighttpd on 127.0.0.1 with workers it spawns itself, from the
    contrib template, everything under dir."""

    name = "lighttpd"

    def __init__(self, t, dir, workers=3, settings=None, worker=None):
        binary = lighttpd_path()
        if binary is None:
            raise SkipAll("no lighttpd (set LIGHTTPD or install lighttpd)")
        super().__init__(t, dir, binary, "lighttpd.conf", "lighttpd.out")
        self.workers = workers
        self.worker = worker
        s = {"store": store_section(os.path.join(dir, "store"), (settings or {}).get("store")),
             "kb": kb_settings()}
        for sec, keys in (settings or {}).items():
            s.setdefault(sec, {}).update(keys)
        self.worker_conf = write_file(os.path.join(dir, "aivista.conf"), conf_from_sample(s))
        self.worker_log = os.path.join(self.log_dir, "worker.log")
        self.access_log = os.path.join(self.log_dir, "access.log")

    def write_conf(self):
        write_file(self.conf, lighttpd_conf_from_template({
            "bind": "127.0.0.1",
            "port": self.port,
            "www": src_path("www"),
            "worker": self.worker or worker_path(),
            "conf": self.worker_conf,
            "workers": self.workers,
            "run": self.run_dir,
            "log": self.log_dir,
            # Run as the caller, root included (no privilege drop).
            "user": "",
            "group": "",
        }))

    def check_command(self):
        return [self.binary, "-tt", "-f", self.conf]

    def run_command(self):
        return [self.binary, "-D", "-f", self.conf]

    def log_files(self):
        return [self.error_log, self.worker_log, self.out_log]

    def _ready(self):
        """Ready once every worker runs and /api/health answers."""
        if self.proc.poll() is None and len(self.worker_pids()) < self.workers:
            return None
        return super()._ready()

    def worker_pids(self):
        """The workers that serve now (children of the prefork parent)."""
        return pool_workers(self.proc.pid) if self.proc else []

    def parent_pids(self):
        """The processes lighttpd itself runs: the prefork parent."""
        return proc_children(self.proc.pid) if self.proc else []


# -- HTTP ---------------------------------------------------------------------------

def http_request(port, method, path, body=None, headers=None, timeout=REQUEST_TIMEOUT,
                 host="127.0.0.1"):
    """(status, headers, body): headers a dict with lower-case names. A server
    that answers before reading the whole body is fine."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.putrequest(method, path)
        hdrs = dict(headers or {})
        if body is not None:
            hdrs.setdefault("Content-Length", str(len(body)))
        for k, v in hdrs.items():
            conn.putheader(k, v)
        conn.endheaders()
        if body:
            try:
                conn.send(body)
            except (BrokenPipeError, ConnectionResetError):
                pass
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
    finally:
        conn.close()


def http_open(port, method, path, body=None, headers=None, timeout=REQUEST_TIMEOUT):
    """An open http.client response, for reading a stream as it comes
    (with SSEReader). The caller closes it."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.request(method, path, body=body, headers=headers or {})
    return conn.getresponse()


def problem(body):
    """The problem JSON of an error body as a dict, or None."""
    try:
        j = json.loads(body)
    except (ValueError, TypeError):
        return None
    return j if isinstance(j, dict) else None


PROBLEM_FIELDS = ("type", "title", "status", "detail", "code")


def problem_shaped(status, content_type, body):
    """True when body is an application/problem+json error with all of
    PROBLEM_FIELDS and the response's status in it."""
    j = problem(body)
    return ((content_type or "").startswith("application/problem+json") and j is not None and
            all(k in j for k in PROBLEM_FIELDS) and j.get("status") == status)


def expect_problem(t, status, body, want_status, want_code, name):
    """Checks the status and the problem code of an error response."""
    got = (status, (problem(body) or {}).get("code"))
    return t.is_(got, (want_status, want_code), "%s: %d %s" % (name, want_status, want_code))


# -- thread IDs, files, secrets -------------------------------------------------

def b64url(b):
    """base64url without padding, as thread IDs and key files write it."""
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def unb64url(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def signed_id(key, raw):
    """A thread ID signed the way the server signs: HMAC-SHA-512-256 over a
    domain prefix, the version and the random part."""
    msg = b"aivista thread id\n" + b"v1." + raw
    return "v1.%s.%s" % (b64url(raw), b64url(hmac.new(key, msg, hashlib.sha512).digest()[:32]))


def file_mode(path):
    """The permission bits of a file (with setuid, setgid, sticky)."""
    return stat.S_IMODE(os.stat(path).st_mode)


def secret_parts(key, text, prefix="sk-test-"):
    """Pieces of the API key found in text: the 6-character windows of its
    random part (the prefix is not secret) and its last 4 characters."""
    secret = key[len(prefix):]
    parts = {secret[i:i + 6] for i in range(len(secret) - 5)} | {key[-4:]}
    return sorted(p for p in parts if p in text)


class SSEReader:
    """Parses a text/event-stream as it arrives.

    source: an http.client response, an iterator of byte chunks (such as
    fcgi_client.Connection.stream()) or a callable returning the next chunk
    (b"" at the end). Iterating yields dicts {"id", "event", "data",
    "retry"} (data parsed as JSON when it is JSON, else the raw text;
    "[DONE]" stays a string); comment lines are counted in .comments."""

    def __init__(self, source):
        if hasattr(source, "read1"):
            self._next = lambda: source.read1(65536)
        elif callable(source):
            self._next = source
        else:
            it = iter(source)
            self._next = lambda: next(it, b"")
        self._buf = b""
        self.comments = []
        self.raw = b""

    def _line(self):
        while True:
            i = self._buf.find(b"\n")
            if i >= 0:
                line, self._buf = self._buf[:i], self._buf[i + 1:]
                return line.rstrip(b"\r").decode("utf-8")
            chunk = self._next()
            if not chunk:
                return None
            self.raw += chunk
            self._buf += chunk

    def __iter__(self):
        ev = {}
        data = []
        while True:
            line = self._line()
            if line is None:
                return
            if line == "":
                if data or ev:
                    text = "\n".join(data)
                    try:
                        ev["data"] = json.loads(text) if text != "[DONE]" else text
                    except ValueError:
                        ev["data"] = text
                    yield ev
                ev, data = {}, []
                continue
            if line.startswith(":"):
                self.comments.append(line[1:].strip())
                continue
            field, _, value = line.partition(":")
            if value.startswith(" "):
                value = value[1:]
            if field == "data":
                data.append(value)
            elif field in ("id", "event", "retry"):
                ev[field] = value
