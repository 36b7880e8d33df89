"""What the operator named: an ID (`123`, `post:123`, `term:5`, `author:2`), a `?p=123`-style
URL, a public URL, or a URL under an old slug (`_wp_old_slug`, which WordPress redirects)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl
from urllib.parse import quote
from urllib.parse import unquote
from urllib.parse import urlsplit

from wpsitemaps.explain.model import NotFound
from wpsitemaps.sitemaps.links import post_links
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.wordpress.queries import lookup

PREFIXED = re.compile(r"(post|term|author|user):([0-9]{1,19})")
# Query variables that carry an ID, as WordPress's ?p=, ?page_id=, ?cat= and ?author= links.
ID_VARS = {"p": "post", "page_id": "post", "attachment_id": "post", "preview_id": "post",
           "cat": "term", "tag_id": "term", "author": "author"}
SLUG_VARS = {"name", "pagename", "tag", "category_name", "attachment"}


@dataclass(frozen=True)
class Target:
    """One object to explain and how it was found."""

    kind: str  # 'post', 'term' or 'author'
    id: int
    found_by: str


def resolve(registry: Registry, text: str) -> list[Target]:
    """The objects `text` names (usually one); NotFound when none, or too many to choose."""
    text = text.strip()
    if text.isascii() and text.isdigit():
        return [Target("post", int(text), "ID")]
    if match := PREFIXED.fullmatch(text):
        kind = "author" if match[1] == "user" else match[1]
        return [Target(kind, int(match[2]), "ID")]
    parts = urlsplit(text)
    for key, value in parse_qsl(parts.query):
        if key.lower() in ID_VARS and value.isascii() and value.isdigit():
            return [Target(ID_VARS[key.lower()], int(value), f"?{key}={value}")]
    for key, value in parse_qsl(parts.query):
        if key in SLUG_VARS or _query_var(registry, key):
            return _by_slug(registry, _slug(value.split("/")[-1]), text, f"?{key}=")
    return _by_path(registry, parts.path, text)


def _query_var(registry: Registry, key: str) -> bool:
    types = registry.site.types
    return any(t.query_var == key for t in (*types.post_types, *types.taxonomies))


def _slug(segment: str) -> str:
    """A URL segment as WordPress stores slugs: lower-case, non-ASCII percent-encoded."""
    return quote(unquote(segment), safe="-_.~!$&'()*+,;=:@").lower()


def _by_path(registry: Registry, path: str, text: str) -> list[Target]:
    """A pretty permalink: the author base, else the last slug (before a page number)."""
    site = registry.site
    home_path = urlsplit(site.options.home).path.strip("/")
    rel = unquote(path).strip("/")
    if home_path and rel.startswith(home_path):
        rel = rel[len(home_path):].strip("/")
    if not rel:
        raise NotFound(f"{text}: the home URL is not a post, term or author")
    segments = rel.split("/")
    author_base = site.author_type.base
    if author_base and rel.startswith(author_base + "/"):
        uid = lookup.user_named(registry.conn, site.tables, _slug(segments[-1]))
        if uid is not None:
            return [Target("author", uid, "URL")]
    if len(segments) > 1 and segments[-1].isdigit():
        segments = segments[:-1]  # /slug/2/: page 2 of a <!--nextpage--> post
    return _by_slug(registry, _slug(segments[-1]), text, "URL", "/".join(segments))


def _by_slug(registry: Registry, slug: str, text: str, how: str,
             rel: str | None = None) -> list[Target]:
    """Posts and terms with this slug (the one whose URL is `text` first), then old slugs."""
    conn, site = registry.conn, registry.site
    posts = lookup.posts_named(conn, site.tables, slug)
    terms = lookup.terms_named(conn, site.tables, slug)
    exact = [Target("post", pid, how) for pid in posts
             if rel is not None and _post_path(registry, pid) == rel]
    for term_id, taxonomy in terms:
        ctype = site.types.taxonomy(taxonomy)
        if rel is not None and ctype is not None and ctype.base and rel.startswith(
                ctype.base + "/"):
            exact.append(Target("term", term_id, how))
    if exact:
        return exact
    candidates = [Target("post", pid, how) for pid in posts] + [
        Target("term", tid, how) for tid, _ in terms]
    if len(candidates) == 1:
        return candidates
    old = lookup.posts_by_old_slug(conn, site.tables, slug)
    if len(old) == 1 and not candidates:
        return [Target("post", old[0], f"old slug '{slug}'")]
    found = candidates or [Target("post", pid, "old slug") for pid in old]
    if not found:
        raise NotFound(f"{text}: no post, term or author has the slug '{slug}'")
    names = ", ".join(f"{t.kind}:{t.id}" for t in found)
    raise NotFound(f"{text}: several objects have the slug '{slug}' ({names}); "
                   "name one by ID")


def _post_path(registry: Registry, post_id: int) -> str | None:
    """The post's permalink path relative to home (None when its type has no URL here)."""
    site = registry.site
    row = lookup.post(registry.conn, site.tables, post_id)
    ctype = site.types.post_type(str(row.post_type)) if row is not None else None
    if row is None or ctype is None:
        return None
    url = post_links(registry.conn, site, ctype, [row]).get(post_id)
    if url is None:
        return None  # no URL reaches it (permalinks.post_problem())
    path = unquote(urlsplit(url).path).strip("/")
    home_path = urlsplit(site.options.home).path.strip("/")
    return path[len(home_path):].strip("/") if home_path and path.startswith(home_path) else path
