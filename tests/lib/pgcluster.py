"""A throw-away PostgreSQL cluster for the tests.

initdb in a new temporary directory, owned by an unprivileged user when
run as root (PostgreSQL refuses to run as root: "nobody", or the user
AIVISTA_PG_USER names, through runuser), listening on a Unix socket in
that directory only (no TCP port), started and stopped with pg_ctl and
removed afterwards.

The binaries are looked up in PATH, then in Debian's
/usr/lib/postgresql/VERSION/bin (the postgresql package does not put
initdb and pg_ctl in PATH). Missing ones raise Missing, whose message
says so plainly: the callers skip.

As a module: PgCluster().start() ... .dsn ... .stop(); as a command,
    python3 pgcluster.py run -- COMMAND...
runs COMMAND with AIVISTA_TEST_PGDSN set to the cluster's connection
string (no database in it) and AIVISTA_TEST_STORE=postgresql, then stops
and removes the cluster; its exit status is COMMAND's. When PostgreSQL is
missing it says so and exits 77 ("skipped") without running COMMAND.
"""

import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time

SKIP_STATUS = 77


class Missing(Exception):
    """PostgreSQL (initdb, pg_ctl) is not installed here."""


def pg_bindir():
    """The directory with initdb and pg_ctl, or raises Missing."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return os.path.dirname(os.path.realpath(found))
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(os.path.join(d, "initdb"), os.X_OK) and \
                os.access(os.path.join(d, "pg_ctl"), os.X_OK):
            return d
    raise Missing("PostgreSQL is not installed (no initdb and pg_ctl in PATH or "
                  "/usr/lib/postgresql/*/bin: install the Debian package postgresql)")


class PgCluster:
    """One cluster: start() creates and starts it, stop() stops and removes it."""

    def __init__(self, user=None):
        self.bindir = pg_bindir()
        self.root = os.geteuid() == 0
        self.user = user or os.environ.get("AIVISTA_PG_USER") or ("nobody" if self.root else None)
        self.dir = None
        self.data = None
        self.started = False

    def _as_user(self, argv):
        if self.root:
            return ["runuser", "-u", self.user, "--"] + argv
        return argv

    def _run(self, argv, what):
        r = subprocess.run(self._as_user(argv), stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, cwd="/")
        if r.returncode != 0:
            raise RuntimeError("%s failed (%d): %s%s" % (what, r.returncode, r.stdout, r.stderr))
        return r

    @property
    def dsn(self):
        """A libpq connection string to the cluster, without a database."""
        return "host=%s port=5432 user=postgres" % self.dir

    def start(self):
        self.dir = tempfile.mkdtemp(prefix="aivista-pg.")
        os.chmod(self.dir, 0o755)
        self.data = os.path.join(self.dir, "data")
        if self.root:
            pw = pwd.getpwnam(self.user)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self._run([os.path.join(self.bindir, "initdb"), "-D", self.data, "-U", "postgres",
                   "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"], "initdb")
        self.start_server()
        self.started = True
        return self

    def start_server(self):
        """Starts the server of the cluster made by start() (again, after
        stop_server())."""
        opts = ("-c listen_addresses='' -c unix_socket_directories='%s' -c fsync=off "
                "-c full_page_writes=off -c synchronous_commit=off -c max_connections=200"
                % self.dir)
        self._run([os.path.join(self.bindir, "pg_ctl"), "-D", self.data, "-l",
                   os.path.join(self.dir, "log"), "-o", opts, "-w", "-t", "60", "start"],
                  "pg_ctl start")

    def stop_server(self, mode="fast"):
        """Stops the server and keeps the cluster (start_server() starts it
        again); the clients' connections are lost and new ones refused."""
        self._run([os.path.join(self.bindir, "pg_ctl"), "-D", self.data, "-m", mode, "-w",
                   "-t", "60", "stop"], "pg_ctl stop")

    def log(self):
        try:
            with open(os.path.join(self.dir, "log"), errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def restart(self, mode="fast"):
        """Restarts the server (the clients' connections are lost)."""
        # -l: the new server's output goes to the log, not to the pipe
        # this waits on.
        self._run([os.path.join(self.bindir, "pg_ctl"), "-D", self.data, "-l",
                   os.path.join(self.dir, "log"), "-m", mode, "-w", "-t", "60", "restart"],
                  "pg_ctl restart")

    def stop(self):
        """Stops the server and removes the directory; safe to call twice."""
        if self.started:
            self.started = False
            try:
                self._run([os.path.join(self.bindir, "pg_ctl"), "-D", self.data, "-m",
                           "immediate", "-w", "-t", "60", "stop"], "pg_ctl stop")
            except RuntimeError as e:
                sys.stderr.write("pgcluster: %s\n" % e)
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None


def main(argv):
    if len(argv) < 3 or argv[0] != "run" or argv[1] != "--":
        sys.stderr.write("usage: pgcluster.py run -- COMMAND...\n")
        return 2
    try:
        pg = PgCluster()
    except Missing as e:
        print("pgcluster: skipped: %s" % e)
        return SKIP_STATUS
    try:
        pg.start()
    except (RuntimeError, OSError, KeyError) as e:
        print("pgcluster: cannot start a cluster: %s" % e)
        pg.stop()
        return 1
    print("pgcluster: PostgreSQL in %s (%s)" % (pg.dir, pg.bindir))
    env = dict(os.environ, AIVISTA_TEST_PGDSN=pg.dsn, AIVISTA_TEST_STORE="postgresql")
    t0 = time.time()
    try:
        rc = subprocess.call(argv[2:], env=env)
    finally:
        pg.stop()
    print("pgcluster: done in %.0f s" % (time.time() - t0))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
