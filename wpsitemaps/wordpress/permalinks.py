"""Canonical URLs exactly as WordPress builds them. Pure functions, no database access.

Mirrors get_permalink(), get_page_link() / _get_page_link(), get_post_permalink(),
get_term_link(), get_author_posts_url(), get_post_type_archive_link(), _wp_link_page(),
home_url() and user_trailingslashit() of WordPress 6.x. Slugs are used as stored:
WordPress keeps non-Latin slugs percent-encoded in post_name / terms.slug and pastes them
into URLs unchanged, so we do the same.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl
from urllib.parse import quote
from urllib.parse import quote_plus

from wpsitemaps.wordpress.contenttypes import ContentType

STRUCTURE_TAGS = ("%year%", "%monthnum%", "%day%", "%hour%", "%minute%", "%second%",
                  "%postname%", "%post_id%", "%category%", "%author%", "%pagename%")


@dataclass(frozen=True)
class LinkSite:
    """The site-wide facts links depend on."""

    home: str  # home option without trailing slash
    structure: str  # permalink_structure ('' = plain links)
    show_on_front: str = "posts"
    page_on_front: int = 0


@dataclass(frozen=True)
class PostLink:
    """What a post's URL depends on."""

    id: int
    post_type: str
    name: str  # post_name as stored (percent-encoded when non-Latin)
    date: str = ""  # post_date, site local time, 'YYYY-MM-DD HH:MM:SS'
    uri: str = ""  # get_page_uri(): ancestor slugs joined with '/', ending in name
    category: str = ""  # %category%: 'parent/child' slug path of the chosen category
    author: str = ""  # user_nicename of post_author


def home_url(site: LinkSite, path: str = "") -> str:
    """home_url($path): the home option plus '/' and the path without leading slashes."""
    if not path:
        return site.home
    return f"{site.home}/{path.lstrip('/')}"


def trailing(site: LinkSite, url: str) -> str:
    """user_trailingslashit(): follow the permalink structure's trailing slash."""
    if site.structure.endswith("/"):
        return url if url.endswith("/") else url + "/"
    return url.rstrip("/")


def post_url(site: LinkSite, ctype: ContentType, post: PostLink) -> str:
    """get_permalink() for a published post of any listed type."""
    if post.post_type == "page":
        return page_url(site, post)
    if ctype.builtin:
        return _post_link(site, post)
    slug = post.uri or post.name if ctype.hierarchical else post.name
    if ctype.base is None:
        # Plain permalinks or no rewrite: the type's query var (get_post_permalink()), or
        # post_type and p when it has none.
        if not ctype.query_var:
            return home_url(site, f"?post_type={ctype.name}&p={post.id}")
        return home_url(site, f"?{ctype.query_var}={slug}")
    base = fill_tags(ctype.base, post) if "%" in ctype.base else ctype.base
    return home_url(site, trailing(site, f"{base}/{slug}"))


def fill_tags(base: str, post: PostLink) -> str:
    """wc_product_post_type_link(): the date tags, %post_id%, and %category% /
    %product_cat% (post.category: the product category path chosen for the post)."""
    date = post.date.replace("-", " ").replace(":", " ").split(" ")
    date = (date + ["00"] * 6)[:6]
    values = dict(zip(STRUCTURE_TAGS[:6], date, strict=True))
    values |= {"%post_id%": str(post.id), "%category%": post.category,
               "%product_cat%": post.category}
    for tag, value in values.items():
        base = base.replace(tag, value)
    return base


def _post_link(site: LinkSite, post: PostLink) -> str:
    """get_permalink() for type post: fill the structure tags."""
    if not site.structure:
        return home_url(site, f"?p={post.id}")
    date = post.date.replace("-", " ").replace(":", " ").split(" ")
    date = (date + ["00"] * 6)[:6]
    values = (*date, post.name, str(post.id), post.category, post.author, post.name)
    link = site.structure
    for tag, value in zip(STRUCTURE_TAGS, values, strict=True):
        link = link.replace(tag, value)
    return trailing(site, home_url(site, link))


def page_url(site: LinkSite, post: PostLink) -> str:
    """get_page_link(): the static front page is the home URL, others their page URI."""
    if site.show_on_front == "page" and site.page_on_front == post.id:
        return home_url(site, "/")
    if not site.structure:
        return home_url(site, f"?page_id={post.id}")
    root = "index.php/" if site.structure.lstrip("/").startswith("index.php") else ""
    return trailing(site, home_url(site, root + (post.uri or post.name)))


def paged_url(site: LinkSite, post: PostLink, url: str, page: int) -> str:
    """_wp_link_page($page) for page >= 2 of a <!--nextpage--> post."""
    if not site.structure:
        return add_query_arg(url, "page", str(page))
    base = url if url.endswith("/") else url + "/"
    if site.show_on_front == "page" and site.page_on_front == post.id:
        return base + trailing(site, f"page/{page}")
    return base + trailing(site, str(page))


def php_urlencode(value: str) -> str:
    """PHP urlencode(): spaces as '+', every byte but [A-Za-z0-9_.-] as upper-case %XX."""
    return quote_plus(value, safe="-_.", encoding="latin-1").replace("~", "%7E")


def add_query_arg(url: str, key: str, value: str) -> str:
    """add_query_arg($key, $value, $url): WordPress re-encodes the query already in the URL.

    It parses the query (wp_parse_str, which decodes) and applies urlencode_deep() to the
    values, so '?book=a/b' becomes '?book=a%2Fb' and '%e7' becomes '%E7'; the new value is
    added as given and an existing key keeps its place. Bytes survive through latin-1.
    """
    base, _, query = url.partition("?")
    # Raw non-ASCII in the query (a slug stored unencoded) becomes UTF-8 %XX first, so the
    # latin-1 round trip below only ever sees bytes.
    query = quote(query, safe="&=+%;/?:@,$!*'()[]~", encoding="utf-8", errors="replace")
    args = {k: php_urlencode(v) for k, v in parse_qsl(query, keep_blank_values=True,
                                                       encoding="latin-1")}
    args[key] = value
    # build_query() writes 'k=' for empty values and add_query_arg() then drops the '='.
    return base + "?" + "&".join(f"{k}={v}" if v else k for k, v in args.items())


def term_url(site: LinkSite, ctype: ContentType, term_id: int, slug: str,
             ancestors: tuple[str, ...] = ()) -> str:
    """get_term_link(): `ancestors` are the parent slugs from the root (hierarchical rewrite)."""
    if ctype.base is None:
        if ctype.name == "category":
            return home_url(site, f"?cat={term_id}")
        if not ctype.query_var:
            # get_term_link() for a taxonomy without rewrite and without a query var.
            return home_url(site, f"?taxonomy={ctype.name}&term={slug}")
        return home_url(site, f"?{ctype.query_var}={slug}")
    path = "/".join((*ancestors, slug)) if ctype.hierarchical else slug
    return home_url(site, trailing(site, f"{ctype.base}/{path}"))


def author_url(site: LinkSite, ctype: ContentType, user_id: int, nicename: str) -> str:
    """get_author_posts_url()."""
    if ctype.base is None:
        return home_url(site, f"?author={user_id}")
    return home_url(site, trailing(site, f"{ctype.base}/{nicename}"))


def archive_url(site: LinkSite, ctype: ContentType) -> str | None:
    """get_post_type_archive_link() for a custom type with has_archive, else None."""
    if ctype.builtin or not ctype.has_archive:
        return None
    if ctype.archive is None:
        return home_url(site, f"?post_type={ctype.name}")
    return home_url(site, trailing(site, ctype.archive))


# Objects WordPress cannot link (docs/sitemaps.md, "Objects left out"). WordPress never
# stores these slugs itself (wp_insert_post() gives a published post without a title its ID
# as post_name; sanitize_title() turns '.' into '-' and drops '#', '?' and '/'), but a
# direct database write or an import can. get_permalink(), get_term_link() and
# get_author_posts_url() then paste them as they are: an empty slug gives the home URL,
# '/author/' or '/category/'; a '.' or '..' segment is resolved away by every client
# (RFC 3986 5.2.4); '#' or '?' cuts the path. None of those URLs reaches the object, so it
# is left out of the sitemaps and `wpsitemaps check` names it.
_DOT_SEGMENTS = frozenset({".", "..", "%2e", "%2e%2e", ".%2e", "%2e."})
_TAG = re.compile(r"%([^/%]+)%")
_HEX_PAIR = re.compile(r"[0-9A-Fa-f]{2}")


def slug_problem(slug: str, in_query: bool = False) -> str | None:
    """Why a slug (or a slug path 'parent/child') cannot be part of a URL, or None;
    `in_query`: it is a query value ('?book=slug'), where dots and '?' are harmless."""
    if not slug.strip("/"):
        return "empty slug"
    if "#" in slug:
        return "'#' in slug"
    if in_query:
        # add_query_arg() pastes the value unencoded: '&' starts another argument.
        return "'&' in slug" if "&" in slug else None
    if any(seg.lower() in _DOT_SEGMENTS for seg in slug.split("/")):
        return "dot segment in slug"
    if "?" in slug:
        return "'?' in slug"
    return None


def structure_problem(structure: str) -> str | None:
    """Why no post of type post has a URL reaching it under this permalink structure: a tag
    get_permalink() leaves in every URL, or a '#' that makes the rest of each URL a
    fragment (sanitize_option() keeps both)."""
    tags = unknown_tags(structure)
    if tags:
        return f"unknown permalink tag {tags[0]}"
    return "'#' in the permalink structure" if "#" in structure else None


def unknown_tags(structure: str) -> list[str]:
    """The %tags% of a permalink structure get_permalink() does not fill (WordPress 6.1
    accepts any '%tag%' in the setting and leaves an unknown one in the URL as it is:
    sanitize_option('permalink_structure') only asks for one tag)."""
    known = set(STRUCTURE_TAGS)
    return [m.group(0) for m in _TAG.finditer(structure)
            if m.group(0) not in known and not _HEX_PAIR.fullmatch(m.group(1))]


def post_problem(site: LinkSite, ctype: ContentType, post: PostLink) -> str | None:
    """Why get_permalink() gives no URL that reaches this post, or None."""
    if not site.structure and (ctype.builtin or not ctype.query_var):
        return None  # ?p=, ?page_id=, ?post_type=&p=: the ID alone
    if post.post_type == "page":
        if site.show_on_front == "page" and site.page_on_front == post.id:
            return None  # the home URL is its URL
        return _path_problem(post)
    if ctype.builtin:
        problem = structure_problem(site.structure)
        if problem is not None:
            return problem
        if "%postname%" not in site.structure and "%pagename%" not in site.structure:
            return None  # e.g. /%post_id%/: the slug is not in the URL
        return slug_problem(post.name)
    if ctype.base is None and not ctype.query_var:
        return None
    return _path_problem(post, in_query=ctype.base is None)


def _path_problem(post: PostLink, in_query: bool = False) -> str | None:
    """slug_problem() of the post's own slug, then of its page URI (ancestors' slugs)."""
    return (slug_problem(post.name, in_query)
            or (slug_problem(post.uri, in_query) if post.uri else None))


def term_problem(ctype: ContentType, slug: str, ancestors: tuple[str, ...] = ()) -> str | None:
    """Why get_term_link() gives no URL that reaches this term, or None."""
    if ctype.base is None:
        # ?cat=ID for categories, else the slug as a query value.
        return None if ctype.name == "category" else slug_problem(slug, in_query=True)
    path = (*ancestors, slug) if ctype.hierarchical else (slug,)
    return next(filter(None, map(slug_problem, path)), None)


def author_problem(ctype: ContentType, nicename: str) -> str | None:
    """Why get_author_posts_url() gives no URL that reaches this author, or None."""
    return None if ctype.base is None else slug_problem(nicename)
