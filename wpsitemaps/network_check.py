"""`wpsitemaps check` on a network: every site with its state and what it serves."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from contextlib import AbstractContextManager
from contextlib import nullcontext

from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.serving.sites import Resolved
from wpsitemaps.serving.sites import Sites
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.wordpress.network import Blog
from wpsitemaps.wordpress.queries import network as qnet


def connector(conn: Connection) -> Callable[[], AbstractContextManager[Connection]]:
    """A Sites connector that hands out one open connection (commands)."""
    return lambda: nullcontext(conn)


def all_blogs(conn: Connection, base_prefix: str) -> Iterator[Blog]:
    """Every site of the database, by blog_id, a thousand rows per query."""
    after = 0
    while rows := qnet.blogs(conn, base_prefix, after):
        yield from rows
        after = rows[-1].blog_id


def serves(conn: Connection, sites: Sites, res: Resolved) -> str:
    """What a site answers: 410, nothing, or its sitemaps by name."""
    assert res.blog is not None
    if res.blog.gone:
        return f"nothing: 410 {res.blog.gone}"
    try:
        site = sites.context(conn, res)
    except SQLAlchemyError as exc:
        return f"nothing: cannot read its tables ({exc.__class__.__name__})"
    if not site.options.blog_public:
        return "nothing: not public (empty index)"
    names = [p.name for p in Registry(conn, site).providers]
    return "sitemaps " + ", ".join(names)


def site_lines(conn: Connection, sites: Sites) -> Iterator[str]:
    """One line per site: blog_id, state, where it answers, its home, what it serves."""
    for blog in all_blogs(conn, sites.base_prefix):
        res = sites.resolve_blog(conn, blog.blog_id)
        try:
            home = sites.context(conn, res).options.home if not blog.gone else ""
        except SQLAlchemyError:
            home = "?"
        yield (f"site {blog.blog_id:<5} {blog.state:<10} {blog.domain}{blog.path}  "
               f"home {home or '-'}  {serves(conn, sites, res)}")


def run_network_check(sites: Sites, conn: Connection, echo: Callable[[str], None]) -> bool:
    """Print the network and its sites; False when the database is not a served network."""
    mode = sites.mode(connector(conn))
    net = mode.network
    if net is None:
        return False
    kind = "subdomain" if net.subdomain_install else "subdirectory"
    echo(f"network       {net.domain}{net.path} ({kind} install), main site {net.main_site_id}, "
         f"base prefix {net.base_prefix}")
    for line in site_lines(conn, sites):
        echo(line)
    return True
