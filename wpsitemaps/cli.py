"""The `wpsitemaps` command: serve, check, demo, robots-lines, export, audit."""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from typing import NoReturn

import click
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.config import ConfigError
from wpsitemaps.config import Settings
from wpsitemaps.config import load_settings

if TYPE_CHECKING:
    from wpsitemaps.serving.service import Service

# Commands that render once (export, robots-lines) never read or fill the page store.
ONE_SHOT = {"STORE": "off"}


def fail(message: str) -> NoReturn:
    """Stop with one line on stderr and exit code 2 (bad setting or unusable input)."""
    click.echo(f"wpsitemaps: {message}", err=True)
    sys.exit(2)


def build_service(overrides: dict[str, Any] | None = None) -> Service:
    """The service of the configured database (no HTTP), a ConfigError as one line and exit
    code 2."""
    from wpsitemaps.app import service_for

    try:
        return service_for(load_settings(overrides))
    except ConfigError as exc:
        fail(str(exc))


PORT = click.IntRange(1, 65535)


def check_listen(host: str, port: int, what: str = "--host/--port") -> None:
    """Stop with one line unless `host:port` can be listened on now (before anything is
    printed or gunicorn starts, which would otherwise retry for seconds and exit 1)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        fail(f"{what}: cannot resolve {host!r} ({getattr(exc, 'strerror', None) or exc})")
    with socket.socket(family, kind, proto) as sock:
        # As gunicorn binds: a port left in TIME_WAIT by a server just stopped is free.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            hint = (" (port in use: is another server running there?)"
                    if exc.errno == errno.EADDRINUSE else "")
            fail(f"{what}: cannot listen on {host}:{port}: {exc.strerror or exc}{hint}")


@click.group()
@click.version_option(package_name="wpsitemaps", prog_name="wpsitemaps")
def main() -> None:
    """Yoast-compatible XML sitemaps straight from a WordPress database."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8000, show_default=True, type=PORT, help="Port to bind.")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(min=1),
              help="gunicorn workers.")
def serve(host: str, port: int, workers: int) -> None:
    """Serve the configured database with gunicorn (production server)."""
    from wpsitemaps.store import open_store

    try:
        settings = load_settings()
        if settings.cache_ttl > 0:
            open_store(settings)  # checked once here: one line, not one per worker
    except ConfigError as exc:
        fail(str(exc))
    check_listen(host, port)
    if settings.metrics_bind:
        from wpsitemaps.metrics import split_bind

        check_listen(*split_bind(settings.metrics_bind), what="metrics_bind")
    check_readiness(settings)
    run_gunicorn(host, port, workers, os.environ.copy())


def check_readiness(settings: Settings) -> None:
    """Stop when a table the site needs cannot be read; name the optional ones skipped."""
    from wpsitemaps.startup import serve_verdict

    stop, warnings = serve_verdict(settings)
    if stop is not None:
        fail(stop)
    for line in warnings:
        click.echo(f"wpsitemaps: {line}", err=True)


def run_gunicorn(host: str, port: int, workers: int, env: dict[str, str]) -> None:
    """Replace this process with gunicorn serving wpsitemaps.wsgi:app."""
    # --timeout 120: filling an empty page-bounds cache is one pass over the site; on a
    # million posts that can take longer than gunicorn's default 30 s. The config module
    # holds the hooks that give a stopping worker's leases back (cache.leases).
    args = [sys.executable, "-m", "gunicorn", "--config", "python:wpsitemaps.gunicorn_conf",
            "--bind", f"{host}:{port}", "--workers", str(workers), "--timeout", "120",
            "--access-logfile", "-", "wpsitemaps.wsgi:app"]
    os.execve(sys.executable, args, env)


@main.command()
@click.option("--compare-yoast", is_flag=True,
              help="Compare every served URL with Yoast's indexables table (exit 1 if any "
                   "differs).")
def check(compare_yoast: bool) -> None:
    """Connect, read the options and print what would be served."""
    from wpsitemaps.check import run_check

    try:
        settings = load_settings()
    except ConfigError as exc:
        fail(str(exc))
    sys.exit(run_check(settings, click.echo, compare_yoast=compare_yoast))


@main.command()
@click.option("--size", default=300, show_default=True, type=click.IntRange(min=1),
              help="Number of public posts to generate.")
@click.option("--seed", default=1, show_default=True, type=int, help="Random seed.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8000, show_default=True, type=PORT, help="Port to bind.")
@click.option("--db", "db_path", default=None, type=click.Path(dir_okay=False),
              help="SQLite file to (re)generate [default: in the user's cache dir].")
@click.option("--generate-only", is_flag=True, help="Write the database, do not serve it.")
def demo(size: int, seed: int, host: str, port: int, db_path: str | None,
         generate_only: bool) -> None:
    """Generate a realistic WordPress database in SQLite and serve its sitemaps."""
    from pathlib import Path

    from wpsitemaps.demo import run as demo_run

    home = f"http://{host}:{port}"
    if not generate_only:
        check_listen(host, port)
    db = Path(db_path) if db_path else demo_run.default_db_path(size, seed, port)
    if db_path and not db.resolve().parent.is_dir():
        # An explicit path is the user's: its folder is not made behind their back (a typo
        # would leave a tree of directories); the default one in the cache dir is ours.
        fail(f"--db: {db.resolve().parent} does not exist (create it first)")
    try:
        made = demo_run.ensure_db(db, size, seed, home)
    except OSError as exc:
        fail(f"--db: cannot write {db.resolve()}: {exc.strerror or exc}")
    env = demo_run.environment(db, home, os.environ.copy())
    click.echo(f"{'Generated' if made else 'Reusing'} demo WordPress database {db} "
               f"({size} posts, seed {seed})")
    click.echo(f"Sitemap index: {home}/sitemap_index.xml")
    if not generate_only:
        run_gunicorn(host, port, 2, env)


@main.command()
@click.argument("target")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def explain(target: str, as_json: bool) -> None:
    """Tell whether each sitemap lists TARGET (URL, ?p=ID URL, old-slug URL, ID, term:ID,
    author:ID) and, if not, every reason."""
    from wpsitemaps.explain.command import run_explain

    try:
        settings = load_settings()
    except ConfigError as exc:
        fail(str(exc))
    sys.exit(run_explain(settings, target, as_json, click.echo))


@main.command("robots-lines")
@click.option("--full", is_flag=True, help="Print the whole robots.txt, not only Sitemap: lines.")
@click.option("--feeds", is_flag=True,
              help="Print the <link rel=\"alternate\"> tags of the feeds for the site's <head>.")
def robots_lines(full: bool, feeds: bool) -> None:
    """Print the robots.txt lines to paste into an existing robots.txt."""
    from wpsitemaps.export import ExportError
    from wpsitemaps.export import open_site
    from wpsitemaps.serving.robots import robots_text
    from wpsitemaps.sitemaps.feeds import head_links

    service = build_service(ONE_SHOT)
    try:
        # robots.txt of the address the service answers at without a Host (localhost).
        with open_site(service, "localhost", "/robots.txt") as session:
            if feeds:
                for line in head_links(session.site):
                    click.echo(line)
                return
            text = robots_text(session)
    except SQLAlchemyError as exc:
        fail(f"robots.txt answered 503: the database cannot be read: "
             f"{service.outage.describe(exc)}")
    except ExportError as exc:
        fail(str(exc))
    lines = text.splitlines() if full else [
        line for line in text.splitlines() if line.startswith("Sitemap:")]
    if not lines:
        click.echo("wpsitemaps: no Sitemap: lines (blog_public is 0 or [robots] sitemap = false)",
                   err=True)
    for line in lines:
        click.echo(line)


@main.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--gzip", "with_gzip", is_flag=True, help="Also write a .xml.gz beside every .xml.")
@click.option("--site", "blog_id", type=click.IntRange(min=1), default=None,
              help="Network: export the site with this blog_id into DIRECTORY.")
@click.option("--all-sites", is_flag=True,
              help="Network: export every site into DIRECTORY/blogN/.")
def export(directory: Path, with_gzip: bool, blog_id: int | None, all_sites: bool) -> None:
    """Write the index, every sitemap page, the XSLs and robots lines to DIRECTORY."""
    from wpsitemaps.export import ExportError
    from wpsitemaps.export import network_targets

    service = build_service(ONE_SHOT)
    try:
        targets = network_targets(service, blog_id) if (blog_id or all_sites) else None
    except ExportError as exc:
        fail(str(exc))
    if targets is None:
        if blog_id or all_sites:
            fail("--site and --all-sites need a network (a {base}blogs table)")
        _export_one(service, directory, with_gzip)
        return
    if blog_id is not None:
        target = targets[0]
        if target.skip:
            fail(f"site {blog_id} answers {target.skip}: nothing to export")
        _export_one(service, directory, with_gzip, target.base_url, target.prefix)
        return
    for target in targets:
        if target.skip:
            click.echo(f"{target.name}: skipped, it answers {target.skip}")
            continue
        _export_one(service, directory / target.name, with_gzip, target.base_url, target.prefix)


def _export_one(service: Service, directory: Path, with_gzip: bool, base_url: str = "http://localhost",
                prefix: str = "") -> None:
    """Export one site into directory, atomically, with a progress bar on a terminal."""
    from wpsitemaps.export import ExportError
    from wpsitemaps.export import site_files
    from wpsitemaps.export import write_atomically

    with contextlib.ExitStack() as stack:

        def start(length: int) -> Callable[[int], None]:
            bar = stack.enter_context(click.progressbar(length=length, label="Exporting",
                                                        file=sys.stderr))
            return bar.update

        # A progress bar only on a terminal: cron jobs and pipes get the summary line.
        try:
            files = site_files(service, with_gzip, start if sys.stderr.isatty() else None,
                               base_url, prefix)
            count = write_atomically(directory, files)
        except (ExportError, OSError) as exc:
            fail(f"export failed, {directory} left as it was: {exc}")
        except SQLAlchemyError as exc:
            fail(f"export failed, {directory} left as it was: the database cannot be read: "
                 f"{service.outage.describe(exc)}")
    click.echo(f"wrote {count} files to {directory}")


@main.command()
@click.argument("url")
@click.option("--sample", type=click.IntRange(min=1), default=None,
              help="Check N random listed URLs instead of all.")
@click.option("--concurrency", type=click.IntRange(1, 64), default=8, show_default=True,
              help="Requests in flight at once.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True,
              help="Seconds per request.")
@click.option("--user-agent", "agent", default="Googlebot", show_default=True,
              help="Crawler whose robots.txt rules apply.")
@click.option("--seed", type=int, default=0, show_default=True, help="Sample seed.")
def audit(url: str, sample: int | None, concurrency: int, timeout: float, agent: str,
          seed: int) -> None:
    """Audit robots.txt, sitemaps and listed URLs of URL (exit 0 clean, 1 problems, 2 error)."""
    from wpsitemaps.audit.command import CannotRun
    from wpsitemaps.audit.command import format_report
    from wpsitemaps.audit.command import run_audit

    try:
        report = run_audit(url, sample=sample, concurrency=concurrency, timeout=timeout,
                           agent=agent, seed=seed)
    except CannotRun as exc:
        fail(f"audit could not run: {exc}")
    for line in format_report(report):
        click.echo(line)
    sys.exit(1 if report.problems else 0)


if __name__ == "__main__":
    main()


@main.command()
@click.option("--user", required=True, help="The read-only user the statements grant to.")
@click.option("--host", "user_host", required=True,
              help="The host part of that user ('10.0.0.%', 'localhost').")
def grants(user: str, user_host: str) -> None:
    """Print the GRANT SELECT statements for every table this site reads (run it with a user
    that can see the tables, such as WordPress's own)."""
    from sqlalchemy.engine import make_url

    from wpsitemaps.startup import grant_lines
    from wpsitemaps.startup import startup_check

    try:
        settings = load_settings()
    except ConfigError as exc:
        fail(str(exc))
    url = make_url(settings.database_url)
    if url.get_backend_name() == "sqlite":
        fail("grants are for MariaDB and MySQL; an SQLite file is read with file permissions")
    report, line = startup_check(settings)
    if report is None:
        fail(str(line).removeprefix("unreachable: "))
    if report.prefix_exists is False:
        fail(str(report.stop_line()))
    lines, notes = grant_lines(report, str(url.database), user, user_host)
    for note in notes:
        click.echo(f"-- {note}", err=True)
    for statement in lines:
        click.echo(statement)


@main.group()
def indexnow() -> None:
    """IndexNow: what is queued and answered; queue URLs by hand (docs/indexnow.md)."""


def _indexnow_feature() -> Any:
    """The configured service's IndexNow, or one line and exit code 2."""
    from wpsitemaps.indexnow.commands import Unavailable
    from wpsitemaps.indexnow.commands import feature_of

    try:
        return feature_of(build_service())
    except Unavailable as exc:
        fail(str(exc))


@indexnow.command("status")
def indexnow_status() -> None:
    """Key, endpoints, queue length, last answers, holds and stops."""
    from wpsitemaps.indexnow.commands import status

    status(_indexnow_feature(), click.echo)


@indexnow.command("submit")
@click.argument("urls", nargs=-1, required=True)
def indexnow_submit(urls: tuple[str, ...]) -> None:
    """Queue URLs (a running service submits them)."""
    from wpsitemaps.indexnow.commands import submit

    try:
        count = submit(_indexnow_feature(), list(urls))
    except ValueError as exc:
        fail(str(exc))
    click.echo(f"queued {count} (URL, endpoint) pair(s)")


@indexnow.command("backfill")
@click.option("--since", required=True, help="Date or ISO date-time (UTC unless it says).")
def indexnow_backfill(since: str) -> None:
    """Queue every listed URL whose lastmod is SINCE or later."""
    from wpsitemaps.indexnow.commands import backfill
    from wpsitemaps.indexnow.commands import parse_since

    try:
        when = parse_since(since)
    except ValueError:
        fail(f"--since: {since!r} is not a date (2026-11-01 or 2026-11-01T12:00:00+00:00)")
    feature = _indexnow_feature()
    click.echo(f"queued {backfill(feature.service, feature, when)} URL(s) listed since "
               f"{when.isoformat()}")
