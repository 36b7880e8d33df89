"""Post types and taxonomies as URLs and listing see them, and the report of why.

discovery.py decides which are listed; this module holds the shapes and the builtins.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field

from wpsitemaps.wordpress.options import SiteOptions
from wpsitemaps.wordpress.registration import Registration
from wpsitemaps.wordpress.rewrite import front
from wpsitemaps.wordpress.rewrite import index_root
from wpsitemaps.wordpress.rewrite import join


@dataclass(frozen=True)
class ContentType:
    """A post type or taxonomy as far as URLs and listing are concerned.

    `base` is the URL path before the object's slug without surrounding slashes
    ('events', 'blog/category'), or None for query links (plain permalinks, rewrite off).
    `query_var` '' means none: `?taxonomy=NAME&term=SLUG` / `?post_type=NAME&p=ID`.
    """

    name: str
    base: str | None
    hierarchical: bool
    builtin: bool
    query_var: str
    archive: str | None = None
    has_archive: bool = False
    evidence: str = ""


@dataclass(frozen=True)
class TypeReport:
    """Why a post type or taxonomy is listed or not, for `check` and the start-up log."""

    kind: str  # 'post type' | 'taxonomy'
    name: str
    listed: bool
    evidence: str
    fix: str = ""  # the configuration line that would list it


@dataclass(frozen=True)
class SiteTypes:
    """The post types and taxonomies a site lists, in sitemap order, and the report."""

    post_types: tuple[ContentType, ...]
    taxonomies: tuple[ContentType, ...]
    report: tuple[TypeReport, ...] = ()

    def post_type(self, name: str) -> ContentType | None:
        """Look a listed post type up by name."""
        return next((t for t in self.post_types if t.name == name), None)

    def taxonomy(self, name: str) -> ContentType | None:
        """Look a listed taxonomy up by name."""
        return next((t for t in self.taxonomies if t.name == name), None)


@dataclass(frozen=True)
class Evidence:
    """What the database shows besides options: registrations by source, per kind."""

    post_types: Mapping[str, Sequence[Registration]] = field(default_factory=dict)
    taxonomies: Mapping[str, Sequence[Registration]] = field(default_factory=dict)
    companion: bool = False  # the companion's registry is present: it decides public-ness


def builtin_types(opts: SiteOptions, author_base: str) -> tuple[ContentType, ...]:
    """post, page, category and post_tag (their URLs come from options, not rules)."""
    pretty = bool(opts.permalink_structure)
    fr = front(opts.permalink_structure)
    root = index_root(opts.permalink_structure)
    cat_base = join(root, opts.category_base) if opts.category_base.strip("/") else join(
        fr, "category")
    tag_base = join(root, opts.tag_base) if opts.tag_base.strip("/") else join(fr, "tag")
    return (
        ContentType("post", "" if pretty else None, False, True, "p", evidence="builtin"),
        ContentType("page", root.strip("/") if pretty else None, True, True, "page_id",
                    evidence="builtin"),
        ContentType("category", cat_base if pretty else None, True, True, "cat",
                    evidence="builtin"),
        ContentType("post_tag", tag_base if pretty else None, False, True, "tag",
                    evidence="builtin"),
        ContentType("author", join(fr, author_base) if pretty else None, False, True, "author"),
    )


def config_line(kind: str, name: str, archive: bool = True) -> str:
    """The TOML table that lists a type (lines joined by newlines); the slug is the name, as
    register_post_type() / register_taxonomy() default it."""
    table = "post_types" if kind == "post type" else "taxonomies"
    lines = [f"[{table}.{name}]", f'rewrite_slug = "{name}"']
    if kind == "post type" and archive:
        lines.append("has_archive = true")
    return "\n".join(lines)
