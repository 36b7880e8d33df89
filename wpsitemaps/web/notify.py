"""POST {notify_path} (default /.well-known/wpsitemaps/notify): the companion plugin's
signed change notifications (changes.notify verifies them; the service's ledger takes the
changes). Not routed at all without `notify_secret`; never cached; never tied to a site's
host (the body names the blog), so it answers before and without site resolution."""

from __future__ import annotations

import time

from flask import Flask
from flask import Response
from flask import request

from wpsitemaps.changes.model import SourceHealth
from wpsitemaps.changes.notify import MAX_BODY
from wpsitemaps.changes.notify import SIGNATURE_HEADER
from wpsitemaps.changes.notify import TIMESTAMP_HEADER
from wpsitemaps.changes.notify import NotifyError
from wpsitemaps.changes.notify import Verifier
from wpsitemaps.serving.changefeed import PLUGIN
from wpsitemaps.serving.changefeed import verifier
from wpsitemaps.serving.service import Service

ENDPOINT = "wpsitemaps_notify"


def answer(status: int, text: str) -> Response:
    """A short plain-text answer that no cache keeps."""
    resp = Response(text + "\n", status=status, content_type="text/plain; charset=utf-8")
    resp.headers["Cache-Control"] = "no-store"
    return resp


def receive(service: Service, check: Verifier) -> Response:
    """Verify the notification and hand its changes to the service: 202, or 401 (unsigned,
    wrong signature), 403 (stale, replayed), 400 (malformed)."""
    if (request.content_length or 0) > MAX_BODY:
        return answer(400, "too large")
    body = request.stream.read(MAX_BODY + 1)
    try:
        changes = check.verify(request.headers.get(TIMESTAMP_HEADER),
                               request.headers.get(SIGNATURE_HEADER), body)
    except NotifyError as exc:
        return answer(exc.status, str(exc))
    if changes:
        service.apply_changes(changes, PLUGIN)  # counts as a beat too
    else:
        # The plugin's beat: it is there, and nothing changed.
        sent = float(request.headers.get(TIMESTAMP_HEADER) or 0)
        now = time.time()
        service.report_health(SourceHealth(PLUGIN, True, max(0.0, now - sent), now, "beat"))
    return answer(202, f"accepted {len(changes)}")


def init_app(app: Flask, service: Service) -> None:
    """Route the endpoint when a secret is configured (404 otherwise, as any unknown path)."""
    check = verifier(service)
    if check is None:
        return
    app.add_url_rule(service.settings.notify_path, ENDPOINT,
                     view_func=lambda: receive(service, check), methods=["POST"])
