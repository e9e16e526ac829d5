"""A small FastCGI client for the tests (Python 3 standard library only).

It speaks the responder role the way a web server does: BEGIN_REQUEST,
PARAMS, STDIN; then it reads STDOUT, STDERR and END_REQUEST and parses the
CGI-style response ("Status:" and other header lines, a blank line, the
body). Unlike a web server it can also misbehave on purpose: send a body
in chunks with pauses, stop in the middle of the parameters, hang up
early. Reading is incremental, so an event stream can be followed as the
worker writes it.

    resp = request("/tmp/w.sock", "GET", "/api/health")
    resp.status, resp.header("content-type"), resp.json()
"""

import errno
import json
import select
import socket
import struct
import time

VERSION = 1

BEGIN_REQUEST = 1
ABORT_REQUEST = 2
END_REQUEST = 3
PARAMS = 4
STDIN = 5
STDOUT = 6
STDERR = 7
DATA = 8
GET_VALUES = 9
GET_VALUES_RESULT = 10
UNKNOWN_TYPE = 11

RESPONDER = 1
KEEP_CONN = 1

REQUEST_COMPLETE = 0
CANT_MPX_CONN = 1
OVERLOADED = 2
UNKNOWN_ROLE = 3

MAX_CONTENT = 65535
HEADER = struct.Struct("!BBHHBx")


class FcgiError(Exception):
    """The peer broke the protocol, or the connection ended too early."""


def encode_record(rtype, request_id, content=b""):
    """One record, padded to a multiple of 8 bytes."""
    if len(content) > MAX_CONTENT:
        raise ValueError("record content longer than %d bytes" % MAX_CONTENT)
    pad = -len(content) % 8
    return HEADER.pack(VERSION, rtype, request_id, len(content), pad) + content + b"\0" * pad


def encode_stream(rtype, request_id, data):
    """Data as records of one stream type (without the empty closing record)."""
    out = []
    for i in range(0, len(data), MAX_CONTENT):
        out.append(encode_record(rtype, request_id, data[i:i + MAX_CONTENT]))
    return b"".join(out)


def _encode_length(n):
    if n < 128:
        return bytes([n])
    return struct.pack("!I", n | 0x80000000)


def encode_pair(name, value):
    """One name-value pair of a PARAMS stream."""
    if isinstance(name, str):
        name = name.encode("utf-8")
    if isinstance(value, str):
        value = value.encode("utf-8")
    return _encode_length(len(name)) + _encode_length(len(value)) + name + value


def encode_params(params):
    """The PARAMS stream content for a dict or a list of (name, value)."""
    items = params.items() if hasattr(params, "items") else params
    return b"".join(encode_pair(k, v) for k, v in items)


def cgi_params(method, uri, body_len=None, headers=None, extra=None,
               server_port=80, remote_addr="127.0.0.1"):
    """The CGI parameters a web server would send for this request.

    headers: dict of HTTP request headers (Content-Type and Content-Length
    become CONTENT_TYPE and CONTENT_LENGTH, the others HTTP_*). body_len:
    sets CONTENT_LENGTH unless headers already carry one; None sends none.
    extra: parameters added last (a value of None removes one)."""
    path, _, query = uri.partition("?")
    p = {
        "GATEWAY_INTERFACE": "CGI/1.1",
        "SERVER_SOFTWARE": "aivista-tests",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "SERVER_NAME": "localhost",
        "SERVER_ADDR": "127.0.0.1",
        "SERVER_PORT": str(server_port),
        "REMOTE_ADDR": remote_addr,
        "REMOTE_PORT": "40000",
        "REQUEST_METHOD": method,
        "REQUEST_URI": uri,
        "SCRIPT_NAME": path,
        "QUERY_STRING": query,
        "DOCUMENT_ROOT": "/nonexistent",
    }
    if body_len is not None:
        p["CONTENT_LENGTH"] = str(body_len)
    for name, value in (headers or {}).items():
        key = name.upper().replace("-", "_")
        if key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            p[key] = value
        else:
            p["HTTP_" + key] = value
    for name, value in (extra or {}).items():
        if value is None:
            p.pop(name, None)
        else:
            p[name] = value
    return p


def parse_cgi_headers(head):
    """(status, reason, [(name, value)]) from the header block of a CGI
    response (lines ending in CRLF or LF)."""
    status, reason, headers = 200, "OK", []
    for line in head.replace(b"\r\n", b"\n").split(b"\n"):
        if not line:
            continue
        name, sep, value = line.partition(b":")
        if not sep:
            raise FcgiError("malformed header line %r" % line)
        name = name.decode("latin-1").strip()
        value = value.decode("latin-1").strip()
        if name.lower() == "status":
            code, _, reason = value.partition(" ")
            status = int(code)
        else:
            headers.append((name, value))
    return status, reason, headers


def _split_head(buf):
    """Index of the end of the header block in buf and the length of the
    blank line, or (-1, 0)."""
    crlf, lf = buf.find(b"\r\n\r\n"), buf.find(b"\n\n")
    if crlf >= 0 and (lf < 0 or crlf < lf):
        return crlf, 4
    if lf >= 0:
        return lf, 2
    return -1, 0


class Response:
    """A complete response. headers keeps order and repeats; header()
    looks one up without regard to case."""

    def __init__(self):
        self.status = None
        self.reason = ""
        self.headers = []
        self.body = b""
        self.stderr = b""
        self.app_status = None
        self.protocol_status = None
        self.complete = False      # END_REQUEST arrived
        self.send_error = None     # the peer stopped reading our request early

    def header(self, name, default=None):
        name = name.lower()
        for k, v in self.headers:
            if k.lower() == name:
                return v
        return default

    def text(self):
        return self.body.decode("utf-8", "replace")

    def json(self):
        return json.loads(self.body.decode("utf-8"))

    def __repr__(self):
        return "<Response %s %s, %d bytes%s>" % (
            self.status, self.header("content-type"), len(self.body),
            "" if self.complete else ", incomplete")


def parse_address(address):
    """(family, sockaddr) for "/path/to.sock", "host:port", ":port" or
    (host, port)."""
    if isinstance(address, tuple):
        return socket.AF_INET, address
    if address.startswith("/") or address.startswith("."):
        return socket.AF_UNIX, address
    host, sep, port = address.rpartition(":")
    if not sep:
        return socket.AF_UNIX, address
    return socket.AF_INET, (host or "127.0.0.1", int(port))


class Connection:
    """One connection to a FastCGI application, one request at a time."""

    def __init__(self, address, timeout=30.0):
        family, addr = parse_address(address)
        self.timeout = timeout
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        try:
            self.sock.connect(addr)
        except OSError:
            self.sock.close()
            raise
        self.request_id = 1
        self._inbuf = b""        # bytes received, not yet parsed into records
        self._records = []       # records received while we were sending
        self._eof = False
        self.send_error = None

    # -- sending -----------------------------------------------------------

    def send_raw(self, data):
        """Sends bytes, reading whatever arrives meanwhile so neither side can
        block the other. Returns False (and remembers why) when the peer has
        stopped reading: the response may still be there to read."""
        if self.send_error:
            return False
        view = memoryview(data)
        deadline = time.monotonic() + self.timeout
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout("timed out sending to the application")
            r, w, _ = select.select([] if self._eof else [self.sock], [self.sock], [], left)
            if r:
                self._fill()
            if w:
                try:
                    n = self.sock.send(view)
                except (BrokenPipeError, ConnectionResetError) as e:
                    self.send_error = e
                    return False
                except OSError as e:
                    if e.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                        continue
                    raise
                view = view[n:]
        return True

    def begin(self, request_id=1, role=RESPONDER, keep_conn=False):
        self.request_id = request_id
        body = struct.pack("!HB5x", role, KEEP_CONN if keep_conn else 0)
        return self.send_raw(encode_record(BEGIN_REQUEST, request_id, body))

    def params_bytes(self, params):
        """The PARAMS records for params, with the empty closing record."""
        return (encode_stream(PARAMS, self.request_id, encode_params(params)) +
                encode_record(PARAMS, self.request_id))

    def send_params(self, params):
        return self.send_raw(self.params_bytes(params))

    def send_stdin(self, data, chunk_size=None, delay=0.0, end=True):
        """The body as STDIN records: all at once, or chunk_size bytes at a
        time with delay seconds between chunks; end=True closes the stream."""
        step = chunk_size or len(data) or 1
        for i in range(0, len(data), step):
            if i and delay:
                time.sleep(delay)
            if not self.send_raw(encode_stream(STDIN, self.request_id, data[i:i + step])):
                return False
        if end:
            return self.send_raw(encode_record(STDIN, self.request_id))
        return True

    def abort(self):
        return self.send_raw(encode_record(ABORT_REQUEST, self.request_id))

    # -- receiving ---------------------------------------------------------

    def _fill(self, timeout=None):
        """Reads once from the socket into the buffer; False at EOF."""
        if self._eof:
            return False
        if timeout is not None:
            self.sock.settimeout(timeout)
        try:
            chunk = self.sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        finally:
            if timeout is not None:
                self.sock.settimeout(self.timeout)
        if not chunk:
            self._eof = True
            return False
        self._inbuf += chunk
        while len(self._inbuf) >= HEADER.size:
            ver, rtype, rid, clen, plen = HEADER.unpack_from(self._inbuf)
            if ver != VERSION:
                raise FcgiError("record with version %d" % ver)
            total = HEADER.size + clen + plen
            if len(self._inbuf) < total:
                break
            content = self._inbuf[HEADER.size:HEADER.size + clen]
            self._inbuf = self._inbuf[total:]
            self._records.append((rtype, rid, content))
        return True

    def read_record(self, timeout=None):
        """The next record as (type, request_id, content), or None at EOF.
        Raises socket.timeout when nothing comes in time."""
        while not self._records:
            if not self._fill(timeout):
                if self._inbuf:
                    raise FcgiError("connection closed inside a record")
                return None
        return self._records.pop(0)

    def events(self, timeout=None):
        """Yields ("stdout", bytes), ("stderr", bytes) and finally
        ("end", (app_status, protocol_status)) as records arrive."""
        while True:
            rec = self.read_record(timeout)
            if rec is None:
                raise FcgiError("connection closed before END_REQUEST")
            rtype, _, content = rec
            if rtype == STDOUT:
                if content:
                    yield "stdout", content
            elif rtype == STDERR:
                if content:
                    yield "stderr", content
            elif rtype == END_REQUEST:
                app_status, proto = struct.unpack("!IB3x", content[:8])
                yield "end", (app_status, proto)
                return
            elif rtype in (GET_VALUES_RESULT, UNKNOWN_TYPE):
                continue
            else:
                raise FcgiError("unexpected record type %d" % rtype)

    def stream(self, resp=None, timeout=None):
        """Follows a response as it arrives. Fills resp (a Response) with the
        status and headers as soon as they are complete, then yields body
        chunks; at the end resp.complete, resp.app_status and resp.stderr are
        set. For event streams and for responses read piece by piece."""
        resp = resp if resp is not None else Response()
        head, in_body = b"", False
        for kind, data in self.events(timeout):
            if kind == "stderr":
                resp.stderr += data
            elif kind == "stdout":
                if in_body:
                    yield data
                    continue
                head += data
                end, sep = _split_head(head)
                if end < 0:
                    continue
                resp.status, resp.reason, resp.headers = parse_cgi_headers(head[:end])
                in_body = True
                rest = head[end + sep:]
                if rest:
                    yield rest
            else:
                resp.app_status, resp.protocol_status = data
                resp.complete = True
        if not in_body and head:
            raise FcgiError("response ended inside its headers: %r" % head[:200])
        resp.send_error = self.send_error

    def read_response(self, timeout=None):
        """Reads the whole response (until END_REQUEST)."""
        resp = Response()
        body = []
        for chunk in self.stream(resp, timeout):
            body.append(chunk)
        resp.body = b"".join(body)
        return resp

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def request(address, method, uri, body=b"", headers=None, params=None,
            content_length=True, chunk_size=None, delay=0.0, timeout=30.0):
    """One request on a new connection; returns the complete Response.

    content_length: True sends the body's length, False none, and a string
    or number sends that value (to test wrong ones). params: extra or
    replaced CGI parameters."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    if content_length is True:
        body_len = len(body) if (body or method not in ("GET", "HEAD")) else None
    elif content_length is False:
        body_len = None
    else:
        body_len = content_length
    p = cgi_params(method, uri, body_len, headers, params)
    with Connection(address, timeout) as c:
        if c.begin() and c.send_params(p):
            c.send_stdin(body, chunk_size, delay)
        return c.read_response()
