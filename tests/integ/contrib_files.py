"""The operating files of contrib/: the AppArmor profile parses
(apparmor_parser -Q, no kernel needed), and the logrotate file rotates
the logs the standalone lighttpd configuration writes (its paths and user
mapped to the test's), signalling lighttpd through its pid file.
"""

import os
import pwd
import grp
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402

PROFILE = ("contrib", "apparmor", "usr.local.libexec.aivista.aivista.fcgi")


def test_apparmor(t):
    parser = shutil.which("apparmor_parser") or "/usr/sbin/apparmor_parser"
    if not os.access(parser, os.X_OK):
        t.skip("no apparmor_parser (package apparmor)", "the AppArmor profile parses")
        return
    p = subprocess.run([parser, "-Q", "-K", avtest.src_path(*PROFILE)], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, env=avtest.clean_env(), timeout=60)
    out = "\n".join(l for l in p.stdout.decode(errors="replace").splitlines()
                    if "Cache read/write disabled" not in l)
    t.ok(p.returncode == 0 and not out.strip(), "the AppArmor profile parses (apparmor_parser -Q)")
    if out.strip():
        t.diag(out)
    text = open(avtest.src_path(*PROFILE)).read()
    t.ok("/usr/local/libexec/aivista/aivista.fcgi" in text and "/var/lib/aivista/** rwk" in text,
         "it confines the installed worker and lets it write the store")


def test_logrotate(t, d):
    lr = shutil.which("logrotate") or "/usr/sbin/logrotate"
    if not os.access(lr, os.X_OK):
        t.skip("no logrotate (package logrotate)", "the logrotate file rotates the logs")
        return
    me = pwd.getpwuid(os.geteuid()).pw_name
    group = grp.getgrgid(os.getegid()).gr_name
    log_dir, run_dir = os.path.join(d, "log"), os.path.join(d, "run")
    os.makedirs(log_dir, 0o700)
    os.makedirs(run_dir, 0o700)
    text = open(avtest.src_path("contrib", "logrotate", "aivista")).read()
    text = (text.replace("/var/log/aivista", log_dir).replace("/run/aivista", run_dir)
            .replace("www-data www-data", "%s %s" % (me, group)))
    conf = avtest.write_file(os.path.join(d, "aivista.logrotate"), text)
    for n in ("error.log", "worker.log", "access.log"):
        avtest.write_file(os.path.join(log_dir, n), "a line\n", 0o600)
    # A process that stands for lighttpd: it writes a mark on SIGUSR1.
    mark, ready = os.path.join(d, "usr1"), os.path.join(d, "ready")
    proc = subprocess.Popen([sys.executable, "-c",
                             "import signal, time\n"
                             "signal.signal(signal.SIGUSR1, lambda *a: open(%r, 'w').close())\n"
                             "open(%r, 'w').close()\n"
                             "time.sleep(60)\n" % (mark, ready)])
    t.cleanup(lambda: proc.poll() is None and (proc.kill(), proc.wait()))
    avtest.write_file(os.path.join(run_dir, "lighttpd.pid"), "%d\n" % proc.pid)
    # Signalled only once it listens for the signal (a loaded machine can
    # take a while to start an interpreter).
    avtest.wait_for(lambda: os.path.exists(ready), 20)
    p = subprocess.run([lr, "-f", "-s", os.path.join(d, "state"), conf], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, env=avtest.clean_env(), timeout=60)
    t.ok(p.returncode == 0, "logrotate accepts the file and rotates (exit 0)")
    if p.returncode:
        t.diag(p.stdout.decode(errors="replace"))
    rotated = sorted(n for n in os.listdir(log_dir) if n.endswith(".log.1"))
    t.is_(rotated, ["access.log.1", "error.log.1", "worker.log.1"], "the three logs are rotated")
    fresh = [n for n in ("error.log", "worker.log", "access.log")
             if os.path.exists(os.path.join(log_dir, n)) and
             oct(avtest.file_mode(os.path.join(log_dir, n))) == oct(0o600)]
    t.is_(len(fresh), 3, "new logs are made 0600")
    t.ok(avtest.wait_for(lambda: os.path.exists(mark), 5), "lighttpd is told to reopen (SIGUSR1)")


def main(t):
    test_apparmor(t)
    test_logrotate(t, t.tmpdir("logrotate"))


if __name__ == "__main__":
    avtest.run(main)
