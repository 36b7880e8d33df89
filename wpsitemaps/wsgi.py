"""WSGI entry point for gunicorn: `gunicorn wpsitemaps.wsgi:app` (config from the environment)."""

from __future__ import annotations

import sys

from wpsitemaps.config import ConfigError

try:
    from wpsitemaps.app import create_app
    from wpsitemaps.indexnow.feature import active
    from wpsitemaps.serving.refresh import log_types
    from wpsitemaps.serving.refresh import warm_up
    from wpsitemaps.web.context import service_of

    app = create_app()
    # Each worker fills its value cache in the background at start (large sites).
    warm_up(service_of(app))
    # IndexNow's sweeper and submitter (each under a lease: one worker or host at a time).
    if (indexnow := active(service_of(app))) is not None:
        indexnow.start()
    # What is served and what is not (the report `wpsitemaps check` prints): logged once by
    # gunicorn's master when it runs our hooks (gunicorn_conf.REPORTED, inherited by the
    # forked workers), else here.
    if not getattr(sys.modules.get("wpsitemaps.gunicorn_conf"), "REPORTED", False):
        log_types(service_of(app))
except ConfigError as exc:
    # One line naming the setting, then exit code 2, instead of a traceback per worker.
    print(f"wpsitemaps: {exc}", file=sys.stderr)
    sys.exit(2)
