"""GET /{key}.txt: the IndexNow key file (indexnow.feature), on every host the service
answers, so an endpoint can check that the submitter speaks for the host. Any other
`/*.txt` is a 404, as before."""

from __future__ import annotations

from flask import Blueprint
from flask import Flask
from flask import Response
from flask import abort

from wpsitemaps.indexnow.feature import active
from wpsitemaps.serving.service import Service
from wpsitemaps.web.context import service

bp = Blueprint("wpsitemaps_keyfile", __name__)


@bp.get("/<string:name>.txt")
def key_file(name: str) -> Response:
    """The key as text when `name` is the IndexNow key in use, else 404."""
    feature = active(service())
    if feature is None or not feature.plan.endpoints or name != feature.key:
        abort(404)
    return Response(feature.key, content_type="text/plain; charset=utf-8",
                    headers={"Cache-Control": "max-age=300"})


def init_app(app: Flask, _service: Service) -> None:
    """Register the route."""
    app.register_blueprint(bp)
