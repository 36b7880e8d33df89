"""`wpsitemaps explain URL-or-ID [--json]`: run the explanation and print it."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.config import Settings
from wpsitemaps.explain.model import Explanation
from wpsitemaps.explain.model import Listing
from wpsitemaps.explain.model import NotFound
from wpsitemaps.explain.others import explain_author
from wpsitemaps.explain.others import explain_term
from wpsitemaps.explain.posts import explain_post
from wpsitemaps.explain.resolve import resolve
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.wordpress.causes import cause
from wpsitemaps.wordpress.dates import w3c
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.queries import lookup
from wpsitemaps.wordpress.site import build_site

LABELS = {"content": "content sitemap", "video": "video sitemap", "news": "news sitemap"}


def explain(registry: Registry, text: str) -> list[Explanation]:
    """Every object `text` names, explained (NotFound when it names none)."""
    out: list[Explanation] = []
    for target in resolve(registry, text):
        if target.kind == "term":
            out.extend(explain_term(registry, target.id, target.found_by))
        elif target.kind == "author":
            out.append(explain_author(registry, target.id, target.found_by))
        else:
            row = lookup.post(registry.conn, registry.site.tables, target.id)
            if row is None:
                raise NotFound(f"no post with ID {target.id}")
            out.append(explain_post(registry, row, target.found_by))
    return out


def explain_with(conn: Connection, settings: Settings, text: str) -> list[Explanation]:
    """explain() on a connection: the site and the registry built as a command builds them."""
    return explain(Registry(conn, build_site(conn, settings)), text)


def run_explain(settings: Settings, text: str, as_json: bool,
                echo: Callable[[str], None]) -> int:
    """Print the explanation; 0 when found, 1 when nothing answers to `text`, 2 when the
    database cannot be read."""
    engine = make_engine(settings)
    try:
        with engine.connect() as conn:
            found = explain_with(conn, settings, text)
    except NotFound as exc:
        echo(f"wpsitemaps explain: {exc}")
        return 1
    except SQLAlchemyError as exc:
        echo(f"wpsitemaps: {cause(exc, settings.database_url, settings.table_prefix)}")
        return 2
    finally:
        engine.dispose()
    if as_json:
        echo(json.dumps([asdict(e) for e in found], default=_json_value, ensure_ascii=False,
                        indent=2))
    else:
        for number, ex in enumerate(found):
            if number:
                echo("")
            for line in format_text(ex):
                echo(line)
    return 0


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return w3c(value)
    raise TypeError(f"not JSON: {type(value).__name__}")


def format_text(ex: Explanation) -> list[str]:
    """The explanation as lines a person reads."""
    status = f", {ex.status}" if ex.status else ""
    lines = [f"{ex.kind} {ex.id} ({ex.subtype}{status}) {ex.title!r}, found by {ex.found_by}"]
    if ex.url:
        lines.append(f"  URL: {ex.url}")
    for listing in ex.listings:
        lines.extend(_listing_lines(listing))
        if listing.sitemap == "content" and ex.images:
            lines.append(f"    images ({len(ex.images)}):")
            lines.extend(f"      {img.source:<8} {img.url}" for img in ex.images)
        if listing.sitemap == "video":
            for video in ex.videos:
                verdict = "listed" if video.listed else f"left out: {video.reason}"
                lines.append(f"    {video.video}: {verdict}")
    return lines


def _listing_lines(listing: Listing) -> list[str]:
    label = LABELS.get(listing.sitemap, listing.sitemap)
    if listing.listed:
        where = f"{listing.file}, page {listing.page} of {listing.pages}" if listing.file else (
            "yes")
        head = f"  {label}: LISTED in {where}"
    else:
        head = f"  {label} ({listing.name}): NOT LISTED"
    lines = [head]
    lines.extend(f"    - {reason}" for reason in listing.reasons)
    lines.extend(f"    {note}" for note in listing.notes)
    return lines
