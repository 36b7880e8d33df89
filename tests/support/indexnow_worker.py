"""A service process as `wpsitemaps serve` runs one (wpsitemaps.wsgi: IndexNow's sweeper and
submitter started), on a werkzeug server; it prints its port, then serves until killed.
Configured from the environment like a worker."""

from __future__ import annotations

from werkzeug.serving import make_server

from wpsitemaps.wsgi import app

if __name__ == "__main__":
    server = make_server("127.0.0.1", 0, app, threaded=True)
    print(server.server_port, flush=True)
    server.serve_forever()
