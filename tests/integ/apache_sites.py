"""Two sites on one Apache with mod_fcgid, each including its own copy of
contrib/apache/aivista-fcgid.conf inside its <VirtualHost>, as
docs/deploy.md ("Several sites on one server") says: each site's workers
read that site's configuration and store. A thread made on site A is
found on A and not on B (B has its own store and key), and the reverse;
each site's workers are processes of their own.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import avtest  # noqa: E402
import webservers as ws  # noqa: E402


class TwoSites(ws.ApacheFcgid):
    """Site A on self.port, site B on self.port_b, both from the shipped
    file with their own Define values, each inside its VirtualHost."""

    label = "two sites"

    def __init__(self, t, dir, user):
        super().__init__(t, dir, workers=2, user=user)
        styles = os.path.join(dir, "inst", "styles.json")
        self.store_b = os.path.join(dir, "store-b")
        self.worker_conf_b = ws.worker_conf(dir, self.store_b, styles, {}, name="b.conf")
        self.site_b = os.path.join(dir, "site-b.conf")
        self.api_log_b = os.path.join(self.log_dir, "b-access.log")
        self.port_b = None

    def write_site(self):
        super().write_site()
        avtest.write_file(self.site_b, ws.apache_template(
            os.path.join("contrib", "apache", "aivista-fcgid.conf"),
            {"url": self.url, "www": self.www, "worker": self.worker,
             "conf": self.worker_conf_b, "workers": self.workers,
             "access_log": self.api_log_b}))

    def main_conf(self):
        self.port_b = self.port_b or avtest.free_port()
        text = super().main_conf()
        vhosts = "\n".join([
            "Listen 127.0.0.1:%d" % self.port_b,
            "<VirtualHost 127.0.0.1:%d>" % self.port,
            "\tServerName a.test",
            "\tInclude %s" % self.site,
            "</VirtualHost>",
            "<VirtualHost 127.0.0.1:%d>" % self.port_b,
            "\tServerName b.test",
            "\tInclude %s" % self.site_b,
            "</VirtualHost>"])
        out, n = re.subn(r"(?m)^Include %s$" % re.escape(self.site), lambda m: vhosts, text)
        if n != 1:
            raise avtest.SetupError("no Include line for the site")
        return out

    def request_b(self, method, path, body=None, headers=None):
        return avtest.http_request(self.port_b, method, self.url + path, body, headers,
                                   avtest.REQUEST_TIMEOUT)


def new_thread(req):
    body = json.dumps({"workflow": "image", "input": {"text": "a lighthouse at dusk"}})
    status, _, raw = req("POST", "/api/agent/stream", body, {"Content-Type": "application/json"})
    m = re.search(r'"threadId":"([^"]+)"', raw.decode("utf-8", "replace"))
    return status, m.group(1) if m else None


def main(t):
    d = t.tmpdir("sites")
    user = ws.run_user()
    srv = TwoSites(t, d, user).start()
    b = lambda m, p, body=None, h=None: srv.request_b(m, p, body, h)  # noqa: E731
    a = lambda m, p, body=None, h=None: srv.request(m, p, body, h)  # noqa: E731
    status, _, _ = b("GET", "/api/health")
    t.is_(status, 200, "site B answers too")
    st, tid_a = new_thread(a)
    t.ok(st == 200 and tid_a, "a thread made on site A")
    st, tid_b = new_thread(b)
    t.ok(st == 200 and tid_b, "a thread made on site B")
    t.is_(a("GET", "/api/threads/%s" % tid_a)[0], 200, "site A finds its thread")
    t.is_(b("GET", "/api/threads/%s" % tid_b)[0], 200, "site B finds its thread")
    t.ok(b("GET", "/api/threads/%s" % tid_a)[0] in (403, 404),
         "site B does not have site A's thread")
    t.ok(a("GET", "/api/threads/%s" % tid_b)[0] in (403, 404),
         "site A does not have site B's thread")
    if avtest.store_backend() == "postgresql":
        # Each site's [store] dsn names a database of its own.
        counts = [avtest.store_psql(s, "SELECT count(*) FROM av_threads")[0][0]
                  for s in (srv.store, srv.store_b)]
        t.is_(counts, ["1", "1"], "each site's store is a database of its own, with its thread")
    else:
        stores = [sorted(n for n in os.listdir(s) if n.endswith(".db")) for s in (srv.store,
                                                                               srv.store_b)]
        t.ok(all(stores), "each site's store was made in its own directory")
    pa = json.loads(a("GET", "/api/health")[2]).get("pid")
    pb = json.loads(b("GET", "/api/health")[2]).get("pid")
    t.ok(pa and pb and pa != pb, "each site has worker processes of its own (%s, %s)" % (pa, pb))


if __name__ == "__main__":
    avtest.run(main)
