"""The `wpsitemaps` command: serve, demo, check (more subcommands register themselves here)."""

from __future__ import annotations

import os
import sys
from typing import Any

import click
from flask import Flask

from wpsitemaps.config import ConfigError
from wpsitemaps.config import load_settings


def fail(message: str) -> None:
    """Stop with one line on stderr and exit code 2 (bad setting or unusable input)."""
    click.echo(f"wpsitemaps: {message}", err=True)
    sys.exit(2)


def build_app(overrides: dict[str, Any] | None = None) -> Flask:
    """create_app() that turns a ConfigError into one line and exit code 2."""
    from wpsitemaps import create_app

    try:
        return create_app(overrides)
    except ConfigError as exc:
        fail(str(exc))
        raise  # unreachable; keeps type checkers happy


@click.group()
def main() -> None:
    """Yoast-compatible XML sitemaps straight from a WordPress database."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to bind.")
@click.option("--workers", default=2, show_default=True, type=int, help="gunicorn workers.")
def serve(host: str, port: int, workers: int) -> None:
    """Serve the configured database with gunicorn (production server)."""
    try:
        load_settings()
    except ConfigError as exc:
        fail(str(exc))
    run_gunicorn(host, port, workers, os.environ.copy())


def run_gunicorn(host: str, port: int, workers: int, env: dict[str, str]) -> None:
    """Replace this process with gunicorn serving wpsitemaps.wsgi:app."""
    args = [sys.executable, "-m", "gunicorn", "--bind", f"{host}:{port}",
            "--workers", str(workers), "--access-logfile", "-", "wpsitemaps.wsgi:app"]
    os.execve(sys.executable, args, env)


@main.command()
def check() -> None:
    """Connect, read the options and print what would be served."""
    from wpsitemaps.checks import run_check

    app = build_app()
    with app.app_context():
        sys.exit(run_check(click.echo))


@main.command()
@click.option("--size", default=300, show_default=True, type=click.IntRange(min=1),
              help="Number of public posts to generate.")
@click.option("--seed", default=1, show_default=True, type=int, help="Random seed.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to bind.")
@click.option("--db", "db_path", default=None, type=click.Path(dir_okay=False),
              help="SQLite file to (re)generate [default: in the user's cache dir].")
@click.option("--generate-only", is_flag=True, help="Write the database, do not serve it.")
def demo(size: int, seed: int, host: str, port: int, db_path: str | None,
         generate_only: bool) -> None:
    """Generate a realistic WordPress database in SQLite and serve its sitemaps."""
    from pathlib import Path

    from wpsitemaps import demo_run

    home = f"http://{host}:{port}"
    db = Path(db_path) if db_path else demo_run.default_db_path(size, seed, port)
    made = demo_run.ensure_db(db, size, seed, home)
    env = demo_run.environment(db, home, os.environ.copy())
    click.echo(f"{'Generated' if made else 'Reusing'} demo WordPress database {db} "
               f"({size} posts, seed {seed})")
    click.echo(f"Sitemap index: {home}/sitemap_index.xml")
    if not generate_only:
        run_gunicorn(host, port, 2, env)


if __name__ == "__main__":
    main()
