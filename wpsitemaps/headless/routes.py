"""GET /api/sitemap: sitemaps of a headless front end's detail URLs (issue #7).

The front end (another domain, its own URL scheme) references the call from its robots.txt;
the answer lists `{baseUrl}/detail/{dataType}/{id}/{slug}` for the published, indexable,
non-canonicalised posts of one type in one language, 1,000 per page. Parameters are checked
in params.py, SQL lives in queries.py and wordpress/queries/posts.py, URLs in urls.py.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC
from datetime import datetime
from urllib.parse import quote
from urllib.parse import urlencode
from urllib.parse import urlsplit

from flask import Blueprint
from flask import Flask
from flask import Response
from flask import abort
from flask import request
from flask import url_for
from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import and_
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.wrappers.response import Response as BaseResponse

from wpsitemaps.cache.values import ValueCache
from wpsitemaps.cache.values import Values
from wpsitemaps.entries import SitemapRef
from wpsitemaps.entries import UrlEntry
from wpsitemaps.headless import queries as qa
from wpsitemaps.headless.config import DEFAULT_DATA_TYPES
from wpsitemaps.headless.config import EventsConfig
from wpsitemaps.headless.config import HeadlessConfig
from wpsitemaps.headless.config import from_settings
from wpsitemaps.headless.params import ApiParams
from wpsitemaps.headless.params import bad
from wpsitemaps.headless.params import parse_params
from wpsitemaps.headless.urls import detail_url
from wpsitemaps.serving.service import Service
from wpsitemaps.sitemaps.providers.posts import PostTypeProvider
from wpsitemaps.sitemaps.render import render_index
from wpsitemaps.sitemaps.render import render_urlset
from wpsitemaps.web.context import session
from wpsitemaps.web.headers import RETRY_AFTER_SECONDS
from wpsitemaps.web.headers import XML_TYPE
from wpsitemaps.web.headers import cached
from wpsitemaps.web.headers import plain
from wpsitemaps.wordpress.dates import latest
from wpsitemaps.wordpress.dates import utc
from wpsitemaps.wordpress.queries import posts as qp
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.site import SiteContext

log = logging.getLogger(__name__)
PAGE_SIZE = 1000
EVENT_YEARS = 2


@dataclass(frozen=True)
class DataType:
    """A resolved data type: its canonical spelling and its post type."""

    data_type: str
    post_type: str


@dataclass(frozen=True)
class Language:
    """How to select posts of one language: all (one-language site), Polylang or WPML."""

    kind: str  # "site", "polylang" or "wpml"
    term_ids: tuple[int, ...] = ()
    codes: tuple[str, ...] = ()


def data_types(site: SiteContext, cfg: HeadlessConfig) -> dict[str, DataType]:
    """Lower-cased name -> DataType: defaults, then public custom types, then configuration."""
    out = {name.lower(): DataType(name, pt) for name, pt in DEFAULT_DATA_TYPES.items()}
    for ctype in site.types.post_types:
        if not ctype.builtin:
            out.setdefault(ctype.name.lower(), DataType(ctype.name, ctype.name))
    for name, pt in cfg.data_types.items():
        out[name.lower()] = DataType(name, pt)
    return out


def primary(code: str) -> str:
    """The primary language subtag: 'de_DE' and 'de-ch' -> 'de'."""
    return code.replace("_", "-").split("-")[0].lower()


def resolve_language(conn: Connection, site: SiteContext, code: str) -> Language:
    """Polylang's language terms, else WPML's codes, else the site locale; 400 if not served."""
    polylang = qa.polylang_languages(conn, site.tables)
    if polylang:
        ids = tuple(tt for tt, slug in polylang if primary(slug) == code)
        if ids:
            return Language("polylang", term_ids=ids)
    elif qa.wpml_present(conn, site.settings.table_prefix):
        codes = tuple(c for c in qa.wpml_languages(conn, site.settings.table_prefix)
                      if primary(c) == code)
        if codes:
            return Language("wpml", codes=codes)
    elif primary(site.options.locale) == code:
        return Language("site")
    bad("language: not served by this site")


def language_condition(conn: Connection, site: SiteContext, lang: Language,
                       post_type: str) -> ColumnElement[bool] | None:
    """The SQL for 'in that language'; None when the type is not translated (all posts)."""
    t, prefix = site.tables, site.settings.table_prefix
    if lang.kind == "polylang" and qa.polylang_translates(conn, t, post_type):
        return qa.in_polylang_language(t, lang.term_ids)
    if lang.kind == "wpml" and qa.wpml_translates(conn, prefix, post_type):
        return qa.in_wpml_language(t, prefix, post_type, lang.codes)
    return None


def plus_years(moment: datetime, years: int) -> datetime:
    """The same wall time `years` later (29 February becomes 28 February)."""
    try:
        return moment.replace(year=moment.year + years)
    except ValueError:
        return moment.replace(year=moment.year + years, day=28)


def event_window(site: SiteContext, events: EventsConfig) -> tuple[str, str]:
    """[now, now + 2 years] as meta-value text in the meta's time zone (site local or UTC)."""
    zone = site.options.zone if events.start_meta_timezone == "site" else UTC
    low, high = site.now, plus_years(site.now, EVENT_YEARS)
    fmt = "%Y-%m-%d %H:%M:%S"
    return low.astimezone(zone).strftime(fmt), high.astimezone(zone).strftime(fmt)


def selection(conn: Connection, site: SiteContext, cfg: HeadlessConfig, params: ApiParams,
              target: DataType, lang: Language) -> ColumnElement[bool] | None:
    """The SQL condition for listed posts; None when a rule removes the whole type."""
    rules = [r for r in cfg.experiences[params.experience]
             if r.data_type.lower() == target.data_type.lower()]
    if any(r.category is None for r in rules) or site.yoast_on(
            f"noindex-{target.post_type}"):
        return None
    # The canonical rule (an override that is not the post's own permalink leaves it out) is
    # settled on the page's rows (page_rows), as in the sitemaps; a type the site does not
    # register has no permalink to compare, so any override leaves its posts out.
    known = site.types.post_type(target.post_type) is not None
    conds = [qp.listable(site.tables, [target.post_type], canonical=not known, seo=site.seo)]
    by_taxonomy: dict[str, list[str]] = {}
    for rule in rules:
        by_taxonomy.setdefault(rule.taxonomy, []).append(str(rule.category))
    conds.extend(~qa.in_terms(site.tables, tx, values) for tx, values in by_taxonomy.items())
    if cfg.events is not None and cfg.events.post_type == target.post_type:
        low, high = event_window(site, cfg.events)
        conds.append(qa.starts_between(site.tables, cfg.events.start_meta_key, low, high))
    in_language = language_condition(conn, site, lang, target.post_type)
    if in_language is not None:
        conds.append(in_language)
    return and_(*conds)


def page_url(endpoint: str, params: ApiParams, target: DataType, page: int) -> str:
    """This call with `page=n` (the canonical data type spelling), for the index."""
    query = urlencode([("baseUrl", params.base_url), ("dataType", target.data_type),
                       ("experience", params.experience), ("language", params.language),
                       ("page", str(page))], quote_via=quote)
    return endpoint + "?" + query


def api_endpoint(home: str) -> tuple[str, bool]:
    """The absolute URL of this call for the index's pages, and whether it is the site's own
    (its home URL's scheme and host: the same answer for everyone, publicly cacheable).

    Any other Host (an alias, a proxy's, a forged one) still gets an index on the host it
    asked, but one only that client may cache: a shared cache keyed without the Host
    (nginx's default key) must never hand a forged host's URLs to everyone."""
    origin = urlsplit(home)
    if same_host(request.host, origin.scheme, origin.netloc):
        return f"{origin.scheme}://{origin.netloc}{url_for('api.sitemap')}", True
    return url_for("api.sitemap", _external=True), False


def same_host(asked: str, scheme: str, netloc: str) -> bool:
    """Whether a request's Host names the host and port of `scheme://netloc` (a default
    port written or not)."""
    default = {"http": ":80", "https": ":443"}.get(scheme.lower(), "")
    asked, netloc = asked.lower(), netloc.lower()
    return asked.removesuffix(default) == netloc.removesuffix(default)


def private_to_host(resp: BaseResponse) -> BaseResponse:
    """An answer built from the request's Host: cached by that client only, keyed by Host."""
    resp.headers["Cache-Control"] = "private, max-age=300"
    resp.vary.add("Host")
    return resp


@dataclass(frozen=True)
class Api:
    """The API of one app: its validated `[headless]` table and its own value cache."""

    cfg: HeadlessConfig
    cache: ValueCache


def sitemap(api: Api) -> BaseResponse:
    """A <urlset> for 0..1,000 results, else a <sitemapindex> of the pages; 404 past the end."""
    cfg = api.cfg
    params = parse_params(request.args, cfg)
    current = session()
    site, conn = current.site, current.conn
    target = data_types(site, cfg).get(params.data_type.lower())
    if target is None:
        bad("dataType: unknown data type")
    lang = resolve_language(conn, site, params.language)
    where = selection(conn, site, cfg, params, target, lang)
    bounds = [] if where is None else cached_spans(
        api.cache, site, (params.experience, target.data_type, params.language),
        lambda: qp.page_bounds(conn, site.tables, where, PAGE_SIZE))
    if params.page is None and len(bounds) > 1:
        endpoint, own = api_endpoint(site.options.home)
        refs = [SitemapRef(page_url(endpoint, params, target, n), span.max_modified)
                for n, span in enumerate(bounds, start=1)]
        resp = xml_answer(render_index(refs, None), latest(*(r.lastmod for r in refs)))
        return resp if own else private_to_host(resp)
    page = params.page or 1
    if where is None or page > len(bounds):
        if params.page is not None:
            abort(404, "page: no such page")
        return xml_answer(render_urlset([], None), None)
    rows = listed_rows(conn, site, target, where, bounds, page)
    entries = [UrlEntry(detail_url(params.base_url, target.data_type, int(r.ID),
                                   str(r.post_title or "")), utc(r.post_modified_gmt))
               for r in rows]
    return xml_answer(render_urlset(entries, None), latest(*(e.lastmod for e in entries)))


def xml_answer(body: bytes, lastmod: datetime | None) -> BaseResponse:
    """The XML with the sitemap headers (no stylesheet, no HTML view: a machine reads it)."""
    return cached(Response(body, content_type=XML_TYPE), body, lastmod)


def cached_spans(cache: ValueCache, site: SiteContext, key: tuple[str, ...],
                compute: Callable[[], list[qp.PageSpan]]) -> list[qp.PageSpan]:
    """A selection's page bounds, a pass over every post of the type: computed at most once
    per `cache_ttl` per worker and selection (issue #13), not on every call. A page's rows
    are read with the selection itself, so stale bounds shift where pages start, never
    what they list."""
    return Values(cache).get(site, ("headless", *key), compute)


def listed_rows(conn: Connection, site: SiteContext, target: DataType, where: ColumnElement[bool],
              bounds: list[qp.PageSpan], page: int) -> list[PostRow]:
    """Up to PAGE_SIZE rows of the page's ID range, the canonical rule settled on them as a
    sitemap page does (PostTypeProvider.listed)."""
    after = bounds[page].first_id if page < len(bounds) else None
    rows = qp.page_rows(conn, site.tables, where, bounds[page - 1].first_id, 2 * PAGE_SIZE,
                        with_content=False, before_id=after)
    ctype = site.types.post_type(target.post_type)
    if ctype is not None:
        rows = PostTypeProvider(conn, site, Values(), ctype).listed(rows)
    return rows[:PAGE_SIZE]


def bad_gateway(exc: Exception) -> Response:
    """WordPress data cannot be read right now: 502 with Retry-After (the issue's contract)."""
    log.error("api: database unavailable: %s", exc.__class__.__name__, exc_info=exc)
    return plain("502 Bad Gateway: the WordPress database cannot be read right now.", 502,
                 **{"Retry-After": str(RETRY_AFTER_SECONDS)})


def init_app(app: Flask, service: Service) -> None:
    """Validate `[headless]` (ConfigError at start-up) and serve the API when it is set.

    Its own value cache, refreshed by the call that finds a value stale (the sitemaps'
    background refresh reads the index, which knows nothing of API selections)."""
    cfg = from_settings(service.settings)
    if cfg is None:
        return
    api = Api(cfg, ValueCache(service.settings.cache_ttl, max_entries=1_000, peer=service.peer))
    bp = Blueprint("api", __name__)
    bp.add_url_rule("/api/sitemap", "sitemap", lambda: sitemap(api), methods=["GET"])
    bp.register_error_handler(DBAPIError, bad_gateway)
    bp.register_error_handler(PoolTimeout, bad_gateway)
    app.register_blueprint(bp)
