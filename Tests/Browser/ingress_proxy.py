"""A small reverse proxy that serves switchd under a prefix and strips it, as Home Assistant's
ingress does (/api/hassio_ingress/<token>/admin/ is switchd's /admin/), for the ingress browser
test. Python's standard library only, on 127.0.0.1. Responses are passed on as they arrive, so
a server-sent-event stream flows through unbuffered. Every request is logged with its path;
one outside the prefix is answered 404 and marks the page as escaping the prefix.
"""

import http.client
import http.server
import threading
import urllib.parse

# Headers of one hop, never passed on (RFC 9110 section 7.6.1).
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"}


class IngressProxy:
    def __init__(self, upstream, prefix):
        """`upstream`: switchd's base URL (http://127.0.0.1:PORT); `prefix`: without a trailing slash."""
        target = urllib.parse.urlsplit(upstream)
        self.host, self.port = target.hostname, target.port
        self.prefix = prefix.rstrip("/")
        self.requests = []  # (method, path as the browser asked for it)
        self.lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            # HTTP/1.0 towards the browser: a body ends when the connection closes, which suits a stream.
            protocol_version = "HTTP/1.0"

            def log_message(self, *_):
                pass

            def forward(self):
                with proxy.lock:
                    proxy.requests.append((self.command, self.path))
                if not (self.path == proxy.prefix or self.path.startswith(proxy.prefix + "/")):
                    self.send_error(404, "outside the ingress prefix")
                    return
                inner = self.path[len(proxy.prefix):] or "/"
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP | {"host"}}
                headers["X-Ingress-Path"] = proxy.prefix
                upstream = http.client.HTTPConnection(proxy.host, proxy.port, timeout=300)
                try:
                    upstream.request(self.command, inner, body=body, headers=headers)
                    answer = upstream.getresponse()
                    self.send_response(answer.status, answer.reason)
                    for name, value in answer.getheaders():
                        if name.lower() not in HOP_BY_HOP:
                            self.send_header(name, value)
                    self.end_headers()
                    while True:
                        piece = answer.read1(65536)  # what has arrived, without waiting for more
                        if not piece:
                            break
                        self.wfile.write(piece)
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the browser closed a stream
                finally:
                    upstream.close()

            do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = forward

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def escaped(self):
        """The requests that were not under the prefix."""
        with self.lock:
            return [(method, path) for method, path in self.requests if not (path == self.prefix or path.startswith(self.prefix + "/"))]
