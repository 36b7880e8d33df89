"""SQL of a multisite network: `{base}blogs`, `{base}site`, `{base}sitemeta`, and the home
URLs of many sites at once."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import literal
from sqlalchemy import select
from sqlalchemy import text
from sqlalchemy import union_all
from sqlalchemy.exc import DBAPIError

from wpsitemaps.wordpress.network import Blog
from wpsitemaps.wordpress.network import Network
from wpsitemaps.wordpress.network import blog_prefix
from wpsitemaps.wordpress.phpdata import as_dict
from wpsitemaps.wordpress.phpdata import unserialize
from wpsitemaps.wordpress.queries.rows import HomeRow
from wpsitemaps.wordpress.schema import NetworkTables
from wpsitemaps.wordpress.schema import network_tables
from wpsitemaps.wordpress.schema import options_table

HOMES_PER_QUERY = 200
# Untyped on purpose: mypy 2.4 crashes expanding union_all()'s variadic generic types.
UNION_ALL: Any = union_all  # sites per UNION ALL when reading many home options


def is_network(conn: Connection, base_prefix: str) -> bool:
    """Whether the database holds a network: `{base}blogs` and `{base}site` exist.

    Asked of the catalog with a SELECT (the app never sends anything else; SQLAlchemy's
    has_table() uses PRAGMA on SQLite).
    """
    t = network_tables(base_prefix)
    names = [t.blogs.name, t.site.name]
    if conn.dialect.name == "sqlite":
        stmt = text("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN "
                    "(:a, :b)")
    else:
        stmt = text("SELECT table_name FROM information_schema.tables WHERE "
                    "table_schema = DATABASE() AND table_name IN (:a, :b)")
    found = {str(row[0]) for row in conn.execute(stmt, {"a": names[0], "b": names[1]})}
    return found == set(names)


def _blog(row: Any) -> Blog:
    return Blog(int(row.blog_id), int(row.site_id or 0), str(row.domain or ""),
                str(row.path or "/"), bool(int(row.public or 0)), bool(int(row.archived or 0)),
                bool(int(row.spam or 0)), int(row.deleted or 0), bool(int(row.mature or 0)))


def _blog_columns(t: NetworkTables) -> list[ColumnElement[Any]]:
    b = t.blogs.c
    return [b.blog_id, b.site_id, b.domain, b.path, b.public, b.archived, b.spam, b.deleted,
            b.mature]


def blog(conn: Connection, base_prefix: str, blog_id: int) -> Blog | None:
    """The `{base}blogs` row of one site."""
    t = network_tables(base_prefix)
    row = conn.execute(select(*_blog_columns(t)).where(t.blogs.c.blog_id == blog_id)).first()
    return _blog(row) if row is not None else None


def blogs_at(conn: Connection, base_prefix: str, domains: Sequence[str],
             paths: Sequence[str]) -> list[Blog]:
    """Rows whose domain and path are among the candidates (get_site_by_path()'s query)."""
    t = network_tables(base_prefix)
    stmt = (select(*_blog_columns(t)).where(t.blogs.c.domain.in_(list(domains)),
                                            t.blogs.c.path.in_(list(paths)))
            .order_by(t.blogs.c.blog_id))
    return [_blog(row) for row in conn.execute(stmt)]


def blogs(conn: Connection, base_prefix: str, after: int = 0, limit: int = 1000) -> list[Blog]:
    """Sites by blog_id, `limit` at a time after `after` (keyset: check, robots, export)."""
    t = network_tables(base_prefix)
    stmt = (select(*_blog_columns(t)).where(t.blogs.c.blog_id > after)
            .order_by(t.blogs.c.blog_id).limit(limit))
    return [_blog(row) for row in conn.execute(stmt)]


def network(conn: Connection, base_prefix: str, site_id: int = 1) -> Network:
    """The network a site belongs to: `{base}site` and the sitemeta values we need."""
    t = network_tables(base_prefix)
    row = conn.execute(select(t.site.c.domain, t.site.c.path)
                       .where(t.site.c.id == site_id)).first()
    sm = t.sitemeta.c
    meta = {str(k): str(v or "") for k, v in conn.execute(
        select(sm.meta_key, sm.meta_value).where(
            sm.site_id == site_id,
            sm.meta_key.in_(["subdomain_install", "ms_files_rewriting", "main_site",
                             "active_sitewide_plugins"])))}
    domain, path = (str(row.domain or ""), str(row.path or "/")) if row else ("", "/")
    main = _int(meta.get("main_site")) or _main_site(conn, t, domain, path) or 1
    sitewide = as_dict(unserialize(meta.get("active_sitewide_plugins"), "sitemeta"))
    return Network(base_prefix, site_id, domain, path, _on(meta.get("subdomain_install")),
                   main, _on(meta.get("ms_files_rewriting")), tuple(map(str, sitewide)))


def _main_site(conn: Connection, t: NetworkTables, domain: str, path: str) -> int | None:
    """WP_Network::get_main_site_id(): the site at the network's own domain and path."""
    b = t.blogs.c
    value = conn.execute(select(b.blog_id).where(b.domain == domain, b.path == path)
                         .order_by(b.blog_id).limit(1)).scalar()
    return int(value) if value is not None else None


def _int(value: str | None) -> int:
    text = (value or "").strip()
    return int(text) if text.isdigit() and text.isascii() else 0


def _on(value: str | None) -> bool:
    """A sitemeta boolean: '1' / 'yes' (subdomain_install), a serialized true, ..."""
    text = (value or "").strip().lower()
    if text.startswith("b:"):
        return bool(unserialize(text, "sitemeta"))
    return text not in ("", "0", "no", "false")


def _home_query(base_prefix: str, blog_id: int) -> Any:
    opts = options_table(blog_prefix(base_prefix, blog_id))
    return (select(literal(blog_id).label("blog_id"), opts.c.option_value.label("home"))
            .where(opts.c.option_name == "home"))


def _run_homes(conn: Connection, queries: list[Any]) -> list[HomeRow]:
    # Not kept in the compiled cache: each statement names other tables and is used once.
    stmt: Any = UNION_ALL(*queries) if len(queries) > 1 else queries[0]
    uncached = conn.execution_options(compiled_cache=None)
    return list(map(HomeRow._make, uncached.execute(stmt)))


def homes(conn: Connection, base_prefix: str, blog_ids: Iterable[int]) -> dict[int, str]:
    """{blog_id: home option} of many sites, a few hundred per UNION ALL query.

    A site whose options table is missing (a row left in `{base}blogs`) is left out: its
    chunk is read again one site at a time.
    """
    ids = list(blog_ids)
    rows: list[HomeRow] = []
    for start in range(0, len(ids), HOMES_PER_QUERY):
        chunk = ids[start:start + HOMES_PER_QUERY]
        try:
            rows += _run_homes(conn, [_home_query(base_prefix, i) for i in chunk])
        except DBAPIError:
            conn.rollback()
            rows += _one_by_one(conn, base_prefix, chunk)
    return {int(blog_id): str(home or "").strip().rstrip("/") for blog_id, home in rows}


def _one_by_one(conn: Connection, base_prefix: str, chunk: list[int]) -> list[HomeRow]:
    """The homes of a chunk, skipping sites without tables (all failing: the database)."""
    rows: list[HomeRow] = []
    errors: list[Exception] = []
    for blog_id in chunk:
        try:
            rows += _run_homes(conn, [_home_query(base_prefix, blog_id)])
        except DBAPIError as exc:
            conn.rollback()
            errors.append(exc)
    if errors and not rows:
        raise errors[-1]
    return rows
