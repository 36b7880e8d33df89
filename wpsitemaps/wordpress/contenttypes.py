"""Which post types and taxonomies a site exposes, and where their URLs live.

WordPress registers custom post types and taxonomies in PHP code, so the database only shows
their traces: the `rewrite_rules` option (e.g. `events/([^/]+)(?:/([0-9]+))?/?$ =>
index.php?event=$matches[1]&page=$matches[2]`), Yoast's per-type settings, and the rows.

Rewrite rules alone do not prove a type is public: WordPress writes rules for every type
registered with the default `rewrite => true`, public or not (peer-small's non-public
`peer_internal` has them). So a custom type is listed only with evidence that it is public:
it is configured, Yoast's `wpseo_titles` has settings for it (Yoast keeps those for public
types only), or, for post types, WordPress wrote an archive rule for it (`has_archive`).
`trust_rewrite_rules = true` lists every type found in the rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from wpsitemaps.config import Settings
from wpsitemaps.config import TypeConfig
from wpsitemaps.wordpress.options import SiteOptions

BUILTIN_QUERY_VARS = frozenset({
    "name", "pagename", "p", "page_id", "attachment", "attachment_id", "category_name", "cat",
    "tag", "tag_id", "post_format", "author_name", "author", "s", "feed", "paged", "page",
    "cpage", "year", "monthnum", "day", "hour", "minute", "second", "w", "m", "preview",
    "embed", "tb", "withcomments", "withoutcomments", "sitemap", "sitemap-subtype",
    "sitemap-stylesheet", "rest_route", "favicon", "robots", "error", "register", "post_type",
    "taxonomy", "term", "subpost", "subpost_id", "static", "pb", "comments_popup",
})
NEVER_LISTED_POST_TYPES = frozenset({
    "attachment", "revision", "nav_menu_item", "custom_css", "customize_changeset",
    "oembed_cache", "user_request", "wp_block", "wp_template", "wp_template_part",
    "wp_global_styles", "wp_navigation", "wp_font_family", "wp_font_face",
})
NEVER_LISTED_TAXONOMIES = frozenset({
    "post_format", "nav_menu", "link_category", "wp_pattern_category", "wp_theme",
    "wp_template_part_area",
})
SINGLE_RE = re.compile(r"^\^?(?P<base>[^()?*+\[\]\\]+?)/(?P<slug>\(\[\^/\]\+\)|\(\.\+\?\))"
                       r"\(\?:/\(\[0-9\]\+\)\)\?/\?\$$")
TERM_RE = re.compile(r"^\^?(?P<base>[^()?*+\[\]\\]+?)/(?P<slug>\(\[\^/\]\+\)|\(\.\+\?\))/\?\$$")
ARCHIVE_RE = re.compile(r"^\^?(?P<base>[^()?*+\[\]\\]+?)/\?\$$")
QUERY_SINGLE_RE = re.compile(r"^index\.php\?(?P<qv>[A-Za-z0-9_-]+)=\$matches\[1\]"
                             r"&page=\$matches\[2\]$")
QUERY_TERM_RE = re.compile(r"^index\.php\?(?P<qv>[A-Za-z0-9_-]+)=\$matches\[1\]$")
QUERY_ARCHIVE_RE = re.compile(r"^index\.php\?post_type=(?P<qv>[A-Za-z0-9_-]+)$")


@dataclass(frozen=True)
class ContentType:
    """A post type or taxonomy as far as URLs and listing are concerned.

    `base` is the URL path before the object's slug without surrounding slashes
    ('events', 'blog/category'), or None when the site uses plain (?p=) links.
    """

    name: str
    base: str | None
    hierarchical: bool
    builtin: bool
    query_var: str
    archive: str | None = None
    has_archive: bool = False


@dataclass(frozen=True)
class SiteTypes:
    """The post types and taxonomies a site lists, in sitemap order."""

    post_types: tuple[ContentType, ...]
    taxonomies: tuple[ContentType, ...]

    def post_type(self, name: str) -> ContentType | None:
        """Look a listed post type up by name."""
        return next((t for t in self.post_types if t.name == name), None)

    def taxonomy(self, name: str) -> ContentType | None:
        """Look a listed taxonomy up by name."""
        return next((t for t in self.taxonomies if t.name == name), None)


@dataclass(frozen=True)
class RuleFindings:
    """What the rewrite rules reveal: {query var: (base, hierarchical)} and archives."""

    singles: Mapping[str, tuple[str, bool]]
    terms: Mapping[str, tuple[str, bool]]
    archives: Mapping[str, str]


def read_rules(rules: Mapping[str, str]) -> RuleFindings:
    """Find custom post type singles, taxonomy terms and archives in rewrite_rules."""
    singles: dict[str, tuple[str, bool]] = {}
    terms: dict[str, tuple[str, bool]] = {}
    archives: dict[str, str] = {}
    for pattern, query in rules.items():
        if (m := SINGLE_RE.match(pattern)) and (q := QUERY_SINGLE_RE.match(query)):
            if q["qv"] not in BUILTIN_QUERY_VARS:
                singles.setdefault(q["qv"], (m["base"].strip("/"), m["slug"] == "(.+?)"))
        elif (m := TERM_RE.match(pattern)) and (q := QUERY_TERM_RE.match(query)):
            if q["qv"] not in BUILTIN_QUERY_VARS:
                terms.setdefault(q["qv"], (m["base"].strip("/"), m["slug"] == "(.+?)"))
        elif (m := ARCHIVE_RE.match(pattern)) and (q := QUERY_ARCHIVE_RE.match(query)):
            archives.setdefault(q["qv"], m["base"].strip("/"))
    return RuleFindings(singles, terms, archives)


def front(structure: str) -> str:
    """WP_Rewrite::$front: the static part of the permalink structure ('/blog/' or '/')."""
    if not structure:
        return "/"
    cut = structure.find("%")
    return structure[:cut] if cut >= 0 else structure


def index_root(structure: str) -> str:
    """WP_Rewrite::$root: 'index.php/' for PATHINFO permalinks, else ''."""
    return "index.php/" if structure.lstrip("/").startswith("index.php") else ""


def _join(*parts: str) -> str:
    return "/".join(p.strip("/") for p in parts if p.strip("/"))


def _yoast_public(opts: SiteOptions, name: str, taxonomy: bool) -> bool:
    """Yoast keeps title/noindex settings for public types only."""
    key = f"tax-{name}" if taxonomy else name
    return any(f"{prefix}-{key}" in opts.wpseo_titles for prefix in ("noindex", "title"))


def builtin_types(opts: SiteOptions, author_base: str) -> tuple[ContentType, ...]:
    """post, page, category and post_tag (their URLs come from options, not rules)."""
    pretty = bool(opts.permalink_structure)
    fr = front(opts.permalink_structure)
    root = index_root(opts.permalink_structure)
    cat_base = _join(root, opts.category_base) if opts.category_base.strip("/") else _join(
        fr, "category")
    tag_base = _join(root, opts.tag_base) if opts.tag_base.strip("/") else _join(fr, "tag")
    return (
        ContentType("post", "" if pretty else None, False, True, "p"),
        ContentType("page", root.strip("/") if pretty else None, True, True, "page_id"),
        ContentType("category", cat_base if pretty else None, True, True, "cat"),
        ContentType("post_tag", tag_base if pretty else None, False, True, "tag"),
        ContentType("author", _join(fr, author_base) if pretty else None, False, True, "author"),
    )


def _configured(found: str | None, slug: str, structure: str) -> str:
    """A configured slug as a path: keep the rules' path when it ends in that slug.

    The rules carry the front WordPress really used ('blog/library', or 'happenings' for
    with_front = false), which configuration cannot express; only a slug the rules do not
    show is put under the structure's front (WP_Rewrite::$front).
    """
    slug = slug.strip("/")
    if found is not None and (found == slug or found.endswith("/" + slug)):
        return found
    return _join(front(structure), slug)


def _custom(name: str, found: tuple[str, bool] | None, cfg: TypeConfig | None,
            opts: SiteOptions, archive: str | None) -> ContentType:
    """Merge what the rules say with what configuration says (configuration wins)."""
    pretty = bool(opts.permalink_structure)
    base = found[0] if found else None
    if cfg is not None and cfg.rewrite_slug is not None:
        base = _configured(base, cfg.rewrite_slug, opts.permalink_structure)
    hierarchical = bool(found[1]) if found else False
    if cfg is not None and cfg.hierarchical is not None:
        hierarchical = cfg.hierarchical
    if cfg is not None and cfg.has_archive is not None:
        if cfg.has_archive is False:
            archive = None
        elif isinstance(cfg.has_archive, str) and cfg.has_archive.strip("/"):
            archive = _configured(archive, cfg.has_archive, opts.permalink_structure)
        elif cfg.has_archive is True and archive is None:
            archive = base
    # With plain permalinks there are no rules and no bases, but a configured archive still
    # exists: get_post_type_archive_link() returns ?post_type=NAME then.
    wanted = archive is not None or (cfg is not None and bool(cfg.has_archive))
    return ContentType(name, base if pretty else None, hierarchical, False, name,
                       archive if pretty else None, has_archive=wanted)


BUILTIN_NAMES = frozenset({"post", "page", "category", "post_tag"})


def _exclusion(name: str, cfg: TypeConfig | None, public: bool, never: frozenset[str],
               ) -> str | None:
    """Why a type is not listed: 'never' (WordPress's own internal types), 'config'
    (excluded by configuration), 'not_public' (no evidence it is public); None if listed."""
    if cfg is not None and cfg.exclude:
        return "config"
    if name in BUILTIN_NAMES:
        return None
    if name in never:
        return "never"
    return None if public else "not_public"


def type_exclusion(name: str, opts: SiteOptions, settings: Settings,
                   taxonomy: bool = False) -> str | None:
    """discover()'s verdict on one post type (or taxonomy), by the same rules."""
    found = read_rules(opts.rewrite_rules)
    trust = settings.trust_rewrite_rules
    if taxonomy:
        cfg = settings.taxonomies.get(name)
        public = cfg is not None or (name in found.terms and (
            trust or _yoast_public(opts, name, taxonomy=True)))
        return _exclusion(name, cfg, public, NEVER_LISTED_TAXONOMIES)
    cfg = settings.post_types.get(name)
    public = cfg is not None or (name in found.singles and (
        trust or name in found.archives or _yoast_public(opts, name, taxonomy=False)))
    return _exclusion(name, cfg, public, NEVER_LISTED_POST_TYPES)


def discover(opts: SiteOptions, settings: Settings) -> SiteTypes:
    """Work out the listed post types and taxonomies (order: builtin, then by name)."""
    found = read_rules(opts.rewrite_rules)
    post, page, category, tag, _author = builtin_types(opts, settings.author_base)
    post_types = [t for t in (post, page)
                  if type_exclusion(t.name, opts, settings) is None]
    for name in sorted(set(found.singles) | set(settings.post_types)):
        if name not in ("post", "page") and type_exclusion(name, opts, settings) is None:
            post_types.append(_custom(name, found.singles.get(name),
                                      settings.post_types.get(name), opts,
                                      found.archives.get(name)))
    taxonomies = [t for t in (category, tag)
                  if type_exclusion(t.name, opts, settings, taxonomy=True) is None]
    for name in sorted(set(found.terms) | set(settings.taxonomies)):
        if name not in ("category", "post_tag") and type_exclusion(
                name, opts, settings, taxonomy=True) is None:
            taxonomies.append(_custom(name, found.terms.get(name),
                                      settings.taxonomies.get(name), opts, None))
    return SiteTypes(tuple(post_types), tuple(taxonomies))
