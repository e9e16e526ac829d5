"""The scale benchmark as the README documents it, at a small size:
`bench/engine_bench scale DIR N SAMPLE` stores N paused threads, writes
them back, prints the resume latency of a sample ("scale:"), reads the
store into the file cache and prints a second sample ("cached:"); with
BENCH_SCALE_KEEP=1 a second run resumes other threads of the same store
instead of storing them again. Then bench/goals reads two such runs
and sets the largest count's figures beside the smallest's."""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402

BENCH = os.path.join(avtest.TOP_BUILDDIR, "bench", "engine_bench")
GOALS = avtest.src_path("bench", "goals")
LINE = re.compile(r"^(scale|cached): +(\d+) stored threads: resume p50 +([0-9.]+) ms +p99 +([0-9.]+) ms$",
                  re.M)


def scale(t, d, n, sample, keep=False):
    env = dict(os.environ, AIVISTA_KB_STYLES=avtest.src_path("etc", "styles.json"),
               AIVISTA_KB_WORDS=avtest.src_path("etc", "words.txt"),
               AIVISTA_KB_NOTES=avtest.src_path("etc", "notes.json"))
    if keep:
        env["BENCH_SCALE_KEEP"] = "1"
    p = subprocess.run([BENCH, "scale", d, str(n), str(sample)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env, timeout=300)
    out, err = p.stdout.decode(), p.stderr.decode()
    if p.returncode != 0:
        t.diag("engine_bench scale %d: %s %s" % (n, out, err))
    return p.returncode, out, err


def main(t):
    if not os.access(BENCH, os.X_OK):
        raise avtest.SetupError("%s is not built" % BENCH)
    d = t.tmpdir("bench")
    runs = []
    for n in (1000, 3000):
        sd = os.path.join(d, "scale%d" % n)
        os.makedirs(sd)
        rc, out, err = scale(t, sd, n, 100, keep=(n == 3000))
        lines = LINE.findall(out)
        t.ok(rc == 0 and [(w, int(c)) for w, c, _, _ in lines] == [("scale", n), ("cached", n)],
             "scale %d: a sample as seeding left the store, then one from the file cache" % n)
        t.ok(all(0 < float(p50) <= float(p99) for _, _, p50, p99 in lines),
             "scale %d: p50 and p99 are times, p50 at most p99 (%s)" % (n, lines))
        t.ok(re.search(r"stored %d paused threads" % n, err) and "written back" in err,
             "scale %d: it says it stored them and wrote them back" % n)
        t.is_(len(re.findall(r"per resume: cpu [0-9.]+ ms", out)), 2,
              "scale %d: what a resume cost, under each figure" % n)
        runs.append(out)
    ids = os.path.join(d, "scale3000.ids")
    t.ok(os.path.exists(ids), "BENCH_SCALE_KEEP=1: the copies' IDs are kept beside the store")
    rc, out, err = scale(t, os.path.join(d, "scale3000"), 3000, 100, keep=True)
    t.ok(rc == 0 and "resuming the 3000 stored threads" in err and len(LINE.findall(out)) == 2,
         "a second run on the kept store resumes its threads without storing them again")
    with open(ids) as f:
        lines = f.read().split("\n")
    t.is_(sum(1 for ln in lines[1:] if ln == ""), 400 + 1,
          "the IDs confirmed in the two runs (4 samples of 100) are marked used")
    with open(os.path.join(d, "scale.txt"), "w") as f:
        f.write("".join(runs))
    p = subprocess.run(["bash", GOALS, d], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    text = p.stdout.decode()
    t.ok(p.returncode == 0 and re.search(r"resume p50 at 3000 stored, store cached +[0-9.]+ ms .* "
                                         r"[0-9.]+x +(met|not met) \(goal <= 1.5x\)", text),
         "bench/goals: the cached figure at 3000 beside 1000's, with its ratio and verdict")
    t.ok(re.search(r"the same as seeding left it \(disk reads\) +[0-9.]+ ms .* [0-9.]+x +(met|not met)",
                   text), "bench/goals: the figure as seeding left the store, with its ratio")
    if not t.ok("no figure" in text, "bench/goals: goals without their outputs say there is no figure"):
        t.diag(text)


avtest.run(main)
