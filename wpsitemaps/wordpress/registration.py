"""One source's knowledge of how a post type or taxonomy is registered.

register_post_type() / register_taxonomy() run in PHP on every request and leave no row, so
each source (configuration, the companion plugin, a plugin's own options, rewrite rules) is
turned into `Registration`s and contenttypes.discover() merges them, the more exact first.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Registration:
    """What one source says about a post type or taxonomy.

    `base` is the URL path before the object's slug, front or root included, without outer
    slashes ('blog/events', 'shop/%product_cat%'); None when this source does not know it.
    `rewrite` False means WordPress has no pretty URLs for it (query links even on a site with
    pretty permalinks). `query_var` None means the name itself; '' means none (WordPress then
    links `?taxonomy=NAME&term=SLUG` / `?post_type=NAME&p=ID`). `archive` is the archive path
    (no outer slashes) when known; `has_archive` None when unknown.
    """

    name: str
    source: str
    taxonomy: bool = False
    public: bool = True
    reason: str = ""
    base: str | None = None
    hierarchical: bool | None = None
    has_archive: bool | None = None
    archive: str | None = None
    query_var: str | None = None
    rewrite: bool = True
