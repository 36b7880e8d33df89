"""Request -> site: which site of the database a request is for and under which path prefix,
and the site contexts, built on first request and kept in a bounded LRU (issues #15, #17).

* A single site (no `{base}blogs`, a sub-site's own prefix such as `wp_2_`, or
  `network = false`) answers every request; its routes are served at the root and under the
  path of its home URL (`/blog/sitemap_index.xml` for `home = http://example.test/blog`).
* A network (`{base}blogs` present, the base prefix configured) answers for every site:
  host and path are matched as WordPress's get_site_by_path() does, and the site's path
  (`/fr`) is the prefix its routes are served under.

No Flask here: web.context calls it with the request's host and path, commands with a
blog_id.
Every database read is cached for `cache_ttl` seconds, so a site created, archived or
mapped in WordPress is seen within that time, without a restart. When the database fails
to answer a read that expired, the last answer is used (kept until the LRU drops it): every
document is found through its site, so without it nothing stored could be served.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from dataclasses import replace
from typing import Any
from typing import Protocol
from urllib.parse import urlsplit

from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.cache.lru import MISSING
from wpsitemaps.cache.lru import TTLCache
from wpsitemaps.config import Settings
from wpsitemaps.wordpress.network import Blog
from wpsitemaps.wordpress.network import Network
from wpsitemaps.wordpress.network import blog_id_of
from wpsitemaps.wordpress.network import blog_prefix
from wpsitemaps.wordpress.network import pick_site
from wpsitemaps.wordpress.network import request_domains
from wpsitemaps.wordpress.network import request_paths
from wpsitemaps.wordpress.options import parse_options
from wpsitemaps.wordpress.options import read_options
from wpsitemaps.wordpress.queries import network as qnet
from wpsitemaps.wordpress.queries import options as qo
from wpsitemaps.wordpress.schema import build_tables
from wpsitemaps.wordpress.site import SiteContext
from wpsitemaps.wordpress.site import blog_id_of_site
from wpsitemaps.wordpress.site import build_site
from wpsitemaps.wordpress.site import host_languages
from wpsitemaps.wordpress.site import resolve_now
from wpsitemaps.wordpress.site import site_key

Connect = Callable[[], AbstractContextManager[Connection]]


def read_through(cache: TTLCache, key: Any, compute: Callable[[], Any],
                 recall: Recall | None = None) -> Any:
    """The cached value, else compute() (cached, and given to `recall` when it changed);
    when compute() fails on the database, the last known value: the cache's, else the one
    `recall` kept (a process started during the failure)."""
    found = cache.get(key)
    if found is not MISSING:
        return found
    try:
        found = compute()
    except SQLAlchemyError:
        found = cache.last(key)
        if found is MISSING and recall is not None:
            found = recall.load(key)
        if found is MISSING:
            raise
        return found
    if recall is not None and cache.last(key) != found:
        recall.save(key, found)
    cache.put(key, found)
    return found


class Recall(Protocol):
    """A second memory of resolutions that outlives the process (serving.recall: the store)."""

    def save(self, cache_key: Any, value: Any) -> None:
        """Keep an answer just read from the database."""

    def load(self, cache_key: Any) -> Any:
        """The kept answer, or MISSING."""


@dataclass(frozen=True)
class Resolved:
    """What a request is for: a site (its network row, if any) and its path prefixes."""

    blog: Blog | None
    network: Network | None
    prefixes: tuple[str, ...] = ("",)  # longest first; '' is the root
    missing: bool = False  # a network with no site at this host and path
    key: str = "blog1"  # the site's name in caches and stores (SiteContext.key)
    # Polylang with subdomains or domains: the language of the request's host ('' else).
    language: str = ""

    @property
    def blog_id(self) -> int:
        """The site's blog_id (1 for a single site)."""
        return self.blog.blog_id if self.blog is not None else 1


@dataclass(frozen=True)
class Mode:
    """How the database is served: a whole network, or one site."""

    network: Network | None  # set for a network service
    single: Resolved | None  # set for a single site
    # A single site whose languages have hosts of their own: host names and their
    # languages, side by side (the single site's own language is its home host's).
    hosts: tuple[str, ...] = ()
    host_languages: tuple[str, ...] = ()

    def language_of(self, host: str) -> str:
        """The language a request's Host is for ('' when languages share one host); a host
        no language has gets the home host's language."""
        for name in request_domains(host):
            if name in self.hosts:
                return self.host_languages[self.hosts.index(name)]
        return self.single.language if self.single is not None else ""


class Sites:
    """The app's sites: mode, host/path resolution and the site context LRU."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        ttl = settings.cache_ttl
        self._facts = TTLCache(ttl, 64, clock)
        self._routes = TTLCache(ttl, 4096, clock)
        self._contexts = TTLCache(ttl, settings.site_cache_size, clock)
        self.recall: Recall | None = None  # set when a page store is configured

    @property
    def base_prefix(self) -> str:
        """Where the network tables are: base_prefix, else the table prefix."""
        return self.settings.base_prefix or self.settings.table_prefix

    def mode(self, connect: Connect) -> Mode:
        """Network or single site (read once per cache_ttl)."""

        def read() -> Mode:
            with connect() as conn:
                return self._read_mode(conn)

        mode: Mode = read_through(self._facts, "mode", read, self.recall)
        return mode

    def _read_mode(self, conn: Connection) -> Mode:
        settings, base = self.settings, self.base_prefix
        is_network = qnet.is_network(conn, base)
        if is_network and settings.table_prefix == base and settings.network is not False:
            return Mode(qnet.network(conn, base), None)
        blog = network = None
        own_id = blog_id_of(base, settings.table_prefix)
        if is_network and own_id is not None:
            blog = qnet.blog(conn, base, own_id)
            network = qnet.network(conn, base, blog.site_id if blog else 1)
        home = settings.home_url
        if home is None:
            tables = build_tables(settings.table_prefix, settings.base_prefix)
            home = qo.options(conn, tables, ["home"]).get("home", "")
        path = urlsplit(home.strip()).path.rstrip("/")
        prefixes = (path, "") if path else ("",)
        single = self._resolved(blog, network, prefixes)
        hosts = host_languages(conn, settings)
        if not hosts:
            return Mode(None, single)
        own = hosts.get((urlsplit(home.strip()).hostname or "").lower(), "")
        return Mode(None, self._with_language(single, own), tuple(hosts),
                    tuple(hosts.values()))

    def _with_language(self, res: Resolved, language: str) -> Resolved:
        """The site as served on one language's own host (its own cache and store key)."""
        return replace(res, language=language,
                       key=site_key(blog_id_of_site(self.settings, res.blog), language))

    def resolve(self, connect: Connect, host: str, path: str) -> Resolved:
        """The site a request for `host` + `path` is for (get_site_by_path())."""
        mode = self.mode(connect)
        if mode.single is not None:
            language = mode.language_of(host) if mode.hosts else ""
            if language == mode.single.language:
                return mode.single
            return self._with_language(mode.single, language)
        assert mode.network is not None
        net = mode.network
        depth = len([p for p in net.path.split("/") if p])
        segments = 1 + depth if path.lower().startswith(net.path.lower()) else 1
        domains, paths = request_domains(host), request_paths(path, segments)
        def read() -> Resolved:
            with connect() as conn:
                return self._route(conn, net, domains, paths)

        key = ("route", tuple(domains), tuple(paths))
        resolved: Resolved = read_through(self._routes, key, read, self.recall)
        return resolved

    def _route(self, conn: Connection, main: Network, domains: list[str],
               paths: list[str]) -> Resolved:
        blog = pick_site(qnet.blogs_at(conn, main.base_prefix, domains, paths), domains, paths)
        if blog is None:
            return Resolved(None, main, (), missing=True)
        network = main if blog.site_id in (main.network_id, 0) else self.network(
            conn, blog.site_id)
        return self._resolved(blog, network, (blog.prefix,))

    def network(self, conn: Connection, site_id: int) -> Network:
        """The facts of one network (cached)."""
        net: Network = read_through(self._facts,
            ("network", site_id), lambda: qnet.network(conn, self.base_prefix, site_id))
        return net

    def resolve_blog(self, conn: Connection, blog_id: int) -> Resolved:
        """A network's site by blog_id (commands: check, export)."""
        base = self.base_prefix
        blog = qnet.blog(conn, base, blog_id)
        if blog is None:
            return Resolved(None, None, (), missing=True)
        return self._resolved(blog, self.network(conn, blog.site_id), (blog.prefix,))

    def settings_for(self, res: Resolved) -> Settings:
        """The settings a site is read with: a network site's own prefix and [sites.N]."""
        if res.blog is None or self.settings.table_prefix != self.base_prefix or (
                self.settings.network is False):
            return self.settings
        base = self.base_prefix
        return self.settings.for_site(res.blog.blog_id, blog_prefix(base, res.blog.blog_id),
                                      base)

    def _resolved(self, blog: Blog | None, network: Network | None,
                  prefixes: tuple[str, ...]) -> Resolved:
        """A found site, with the key its SiteContext will have (known without reading its
        options: every cache and store key of the site is derived here, once)."""
        return Resolved(blog, network, prefixes,
                        key=site_key(blog_id_of_site(self.settings, blog)))

    def context(self, conn: Connection, res: Resolved) -> SiteContext:
        """The site's context: rebuilt when its options changed, else taken from the LRU
        (only the clock is renewed)."""
        settings = self.settings_for(res)
        tables = build_tables(settings.table_prefix, settings.base_prefix)
        raw = read_options(conn, tables, settings)
        hit = self._contexts.get((res.blog_id, res.language))
        # Reused only while the options and the site's wp_blogs row are what it was built on.
        if hit is not MISSING and hit[0] == raw and hit[1].blog == res.blog:
            ctx: SiteContext = hit[1]
            return replace(ctx, now=resolve_now(settings, ctx.options))
        ctx = build_site(conn, settings, res.blog, res.network, parse_options(raw, settings),
                         res.language)
        self._contexts.put((res.blog_id, res.language), (raw, ctx))
        return ctx

    def network_indexes(self, conn: Connection, network: Network) -> list[str]:
        """The index URL of every public, live site of a network, by blog_id (what Yoast
        adds to robots.txt on a subdirectory network; mapped domains included)."""
        urls: list[str] = read_through(self._facts, ("indexes", network.network_id),
                                           lambda: self._read_indexes(conn, network))
        return urls

    def _read_indexes(self, conn: Connection, network: Network) -> list[str]:
        ids: list[int] = []
        after = 0
        while rows := qnet.blogs(conn, self.base_prefix, after):
            ids += [b.blog_id for b in rows
                    if b.site_id == network.network_id and b.state == "live"]
            after = rows[-1].blog_id
        homes = qnet.homes(conn, self.base_prefix, ids)
        for blog_id, own in self.settings.sites.items():
            if own.home_url and blog_id in homes:
                homes[blog_id] = own.home_url
        return [homes[i] + "/sitemap_index.xml" for i in ids if homes.get(i)]

    def cached_contexts(self) -> int:
        """How many site contexts the LRU holds (bench, tests)."""
        return len(self._contexts)
