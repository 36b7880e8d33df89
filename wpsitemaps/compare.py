"""`wpsitemaps check --compare-yoast`: every URL we would serve against Yoast's indexables.

A site switching from Yoast SEO has `{prefix}yoast_indexable`, where Yoast stored the
permalink WordPress computed for each post, term, user, home page and post type archive.
Two lists come out: URLs we serve that no indexable has, and indexables Yoast would list
(published, not password-protected, not noindex, no canonical elsewhere) whose permalink we
do not serve. Both empty means switching changes no URL.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from sqlalchemy import Connection

from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.wordpress.queries.yoast import indexables
from wpsitemaps.wordpress.site import SiteContext

NOT_CONTENT = ("video", "news", "yoast-news")
PAGED = re.compile(r"/(?:page/)?[0-9]+/?$")


@dataclass
class Comparison:
    """The outcome: what only we serve, and what only Yoast's indexables hold."""

    served: dict[str, str] = field(default_factory=dict)  # loc -> sitemap name
    compared: int = 0
    only_served: list[tuple[str, str]] = field(default_factory=list)
    only_yoast: list[tuple[str, str]] = field(default_factory=list)

    @property
    def differences(self) -> int:
        """How many URLs differ."""
        return len(self.only_served) + len(self.only_yoast)


def served_urls(conn: Connection, site: SiteContext) -> Iterator[tuple[str, str]]:
    """(sitemap name, loc) of every URL the content sitemaps would serve."""
    for provider in Registry(conn, site).providers:
        if provider.name in NOT_CONTENT:
            continue
        for page, bound in enumerate(provider.live_bounds(), start=1):
            for entry in provider.entries(page, bound):
                yield provider.name, entry.loc


def yoast_would_list(row: Any) -> bool:
    """Whether Yoast lists an indexable: published, unprotected, indexable, self-canonical;
    terms and users only with public posts (has_public_posts, when Yoast has set it)."""
    if row.object_type == "post" and (row.post_status != "publish" or row.is_protected):
        return False
    if row.object_type in ("term", "user") and row.has_public_posts is not None and not (
            row.has_public_posts):
        return False
    if row.is_robots_noindex:
        return False
    canonical = str(row.canonical or "").strip()
    return not canonical or canonical == str(row.permalink or "")


def compare(conn: Connection, site: SiteContext) -> Comparison:
    """Compare the served URLs with `{prefix}yoast_indexable`."""
    result = Comparison()
    for name, loc in served_urls(conn, site):
        result.served.setdefault(loc, name)
    rows = indexables(conn, site.settings.table_prefix)
    known = {str(r.permalink or "") for r in rows}
    # Pages 2..n of a <!--nextpage--> post have no indexable of their own.
    result.only_served = [(name, loc) for loc, name in result.served.items()
                          if loc not in known and PAGED.sub("/", loc) not in known]
    for row in rows:
        if not yoast_would_list(row):
            continue
        result.compared += 1
        permalink = str(row.permalink or "")
        if permalink not in result.served:
            label = "/".join(str(p) for p in (row.object_type, row.object_sub_type,
                                               row.object_id) if p not in (None, ""))
            result.only_yoast.append((label, permalink))
    return result


def report(result: Comparison, echo: Callable[[str], None]) -> None:
    """Print the comparison, one URL per line."""
    echo(f"compare-yoast {len(result.served)} URLs served, {result.compared} Yoast indexables "
         f"listable, {result.differences} differences")
    if result.only_served:
        echo(f"served, but no Yoast indexable has this permalink ({len(result.only_served)}):")
        for name, loc in result.only_served:
            echo(f"  + {name:<12} {loc}")
    if result.only_yoast:
        echo(f"in Yoast's indexables, not served ({len(result.only_yoast)}):")
        for label, loc in result.only_yoast:
            echo(f"  - {label:<12} {loc}")
