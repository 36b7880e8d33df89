"""The `rewrite_rules` option of the demo site, as WP_Rewrite::rewrite_rules() writes it.

Permalink structure `/%postname%/`, empty category and tag bases, the custom post type
`event` (rewrite slug `events`, has_archive) and the taxonomy `genre`; the same rules, in
the same order, as peer-small's dump (minus its non-public `peer_internal`).
"""

from __future__ import annotations

from collections.abc import Iterator

FEEDS = "(feed|rdf|rss|rss2|atom)"
PAGED = "page/?([0-9]{1,})/?$"


def _archive(base: str, query: str, first: int = 1) -> Iterator[tuple[str, str]]:
    """Feeds, embed, paging and the archive itself below `base` (generate_rewrite_rules)."""
    n = first + 1
    sep = "/" if base else ""
    yield f"{base}{sep}feed/{FEEDS}/?$", f"index.php?{query}&feed=$matches[{n}]"
    yield f"{base}{sep}{FEEDS}/?$", f"index.php?{query}&feed=$matches[{n}]"
    yield f"{base}{sep}embed/?$", f"index.php?{query}&embed=true"
    yield f"{base}{sep}{PAGED}", f"index.php?{query}&paged=$matches[{n}]"
    yield f"{base}/?$", f"index.php?{query}"


def _attachments(prefix: str) -> Iterator[tuple[str, str]]:
    """Attachment rules WordPress writes below every single-object permastruct."""
    att = "index.php?attachment=$matches[1]"
    yield f"{prefix}/?$", att
    yield f"{prefix}/trackback/?$", att + "&tb=1"
    yield f"{prefix}/feed/{FEEDS}/?$", att + "&feed=$matches[2]"
    yield f"{prefix}/{FEEDS}/?$", att + "&feed=$matches[2]"
    yield f"{prefix}/comment-page-([0-9]{{1,}})/?$", att + "&cpage=$matches[2]"
    yield f"{prefix}/embed/?$", att + "&embed=true"


def _single(base: str, var: str, hierarchical: bool) -> Iterator[tuple[str, str]]:
    """Rules of single posts, pages or custom post type objects."""
    slug, inner = ("(.?.+?)", ".?.+?") if hierarchical else ("([^/]+)", "[^/]+")
    yield from _attachments(f"{base}{inner}/attachment/([^/]+)")
    q = f"index.php?{var}=$matches[1]"
    yield f"{base}{slug}/embed/?$", q + "&embed=true"
    yield f"{base}{slug}/trackback/?$", q + "&tb=1"
    yield f"{base}{slug}/feed/{FEEDS}/?$", q + "&feed=$matches[2]"
    yield f"{base}{slug}/{FEEDS}/?$", q + "&feed=$matches[2]"
    yield f"{base}{slug}/{PAGED}", q + "&paged=$matches[2]"
    yield f"{base}{slug}/comment-page-([0-9]{{1,}})/?$", q + "&cpage=$matches[2]"
    yield f"{base}{slug}(?:/([0-9]+))?/?$", q + "&page=$matches[2]"
    if not hierarchical:
        yield from _attachments(f"{base}[^/]+/([^/]+)")


def _terms() -> Iterator[tuple[str, str]]:
    """Category, tag, post format and genre archives (extra permastructs)."""
    for base, var, slug in (("category", "category_name", "(.+?)"), ("tag", "tag", "([^/]+)"),
                            ("type", "post_format", "([^/]+)"), ("genre", "genre", "([^/]+)")):
        yield from _archive(f"{base}/{slug}", f"{var}=$matches[1]", first=1)


def _dates() -> Iterator[tuple[str, str]]:
    """Day, month and year archives."""
    parts = ("([0-9]{4})", "([0-9]{1,2})", "([0-9]{1,2})")
    names = ("year", "monthnum", "day")
    for depth in (3, 2, 1):
        base = "/".join(parts[:depth])
        query = "&".join(f"{names[i]}=$matches[{i + 1}]" for i in range(depth))
        yield from _archive(base, query, first=depth)


def _root() -> Iterator[tuple[str, str]]:
    """Robots, favicon, legacy files, the home feeds and comments feeds."""
    yield r"robots\.txt$", "index.php?robots=1"
    yield r"favicon\.ico$", "index.php?favicon=1"
    yield r".*wp-(atom|rdf|rss|rss2|feed|commentsrss2)\.php$", "index.php?feed=old"
    yield r".*wp-app\.php(/.*)?$", "index.php?error=403"
    yield ".*wp-register.php$", "index.php?register=true"
    yield f"feed/{FEEDS}/?$", "index.php?&feed=$matches[1]"
    yield f"{FEEDS}/?$", "index.php?&feed=$matches[1]"
    yield "embed/?$", "index.php?&embed=true"
    yield PAGED, "index.php?&paged=$matches[1]"
    yield f"comments/feed/{FEEDS}/?$", "index.php?&feed=$matches[1]&withcomments=1"
    yield f"comments/{FEEDS}/?$", "index.php?&feed=$matches[1]&withcomments=1"
    yield "comments/embed/?$", "index.php?&embed=true"


def _api() -> Iterator[tuple[str, str]]:
    """REST API and core sitemap routes (added by rest_api_init / WP_Sitemaps)."""
    yield "^wp-json/?$", "index.php?rest_route=/"
    yield "^wp-json/(.*)?", "index.php?rest_route=/$matches[1]"
    yield "^index.php/wp-json/?$", "index.php?rest_route=/"
    yield "^index.php/wp-json/(.*)?", "index.php?rest_route=/$matches[1]"
    yield r"^wp-sitemap\.xml$", "index.php?sitemap=index"
    yield r"^wp-sitemap\.xsl$", "index.php?sitemap-stylesheet=sitemap"
    yield r"^wp-sitemap-index\.xsl$", "index.php?sitemap-stylesheet=index"
    yield (r"^wp-sitemap-([a-z]+?)-([a-z\d_-]+?)-(\d+?)\.xml$",
           "index.php?sitemap=$matches[1]&sitemap-subtype=$matches[2]&paged=$matches[3]")
    yield r"^wp-sitemap-([a-z]+?)-(\d+?)\.xml$", "index.php?sitemap=$matches[1]&paged=$matches[2]"


def rewrite_rules() -> dict[str, str]:
    """The rules in WordPress's order: CPT archive, API, terms, CPT, root, search, ..."""
    rules: dict[str, str] = {"events/?$": "index.php?post_type=event"}
    rules[f"events/feed/{FEEDS}/?$"] = "index.php?post_type=event&feed=$matches[1]"
    rules[f"events/{FEEDS}/?$"] = "index.php?post_type=event&feed=$matches[1]"
    rules["events/page/([0-9]{1,})/?$"] = "index.php?post_type=event&paged=$matches[1]"
    for part in (_api(), _terms(), _single("events/", "event", False), _root(),
                 _archive("search/(.+)", "s=$matches[1]", first=1),
                 _archive("author/([^/]+)", "author_name=$matches[1]", first=1), _dates(),
                 _single("", "pagename", True), _single("", "name", False)):
        rules.update(part)
    return rules
