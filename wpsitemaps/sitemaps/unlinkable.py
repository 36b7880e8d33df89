"""The objects no URL reaches, which the sitemaps leave out, for `wpsitemaps check`.

The sitemaps drop them one by one as they build their pages (permalinks.post_problem(),
term_problem(), author_problem()); this module finds them all at once, with the same rules,
so that an operator learns about them: kind, rule, how many and one ID to look at.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Connection

from wpsitemaps.sitemaps.providers.authors import author_rows
from wpsitemaps.wordpress import permalinks
from wpsitemaps.wordpress.queries import posts as qp
from wpsitemaps.wordpress.queries import terms as qt
from wpsitemaps.wordpress.site import SiteContext


@dataclass(frozen=True)
class Unlinkable:
    """One kind of object left out for one reason: how many, and the lowest ID."""

    kind: str  # a post type, a taxonomy or 'author'
    problem: str  # what permalinks.*_problem() said
    count: int
    example_id: int

    def line(self) -> str:
        """The `check` line."""
        return (f"{self.kind}: {self.count} left out of the sitemaps, no URL reaches it "
                f"({self.problem}); e.g. ID {self.example_id}; fix it in WordPress")


def find_unlinkable(conn: Connection, site: SiteContext) -> list[Unlinkable]:
    """Every listed post, term and author that the sitemaps leave out for its URL."""
    found = _grouped([*_posts(conn, site), *_terms(conn, site), *_authors(conn, site)])
    return [*_structure(conn, site), *found]


def _structure(conn: Connection, site: SiteContext) -> list[Unlinkable]:
    """Every post of type post, when the structure keeps every post's URL from it
    (permalinks.structure_problem())."""
    problem = permalinks.structure_problem(site.links.structure)
    if problem is None or site.types.post_type("post") is None:
        return []
    count, first = qp.listable_count(conn, site.tables, ["post"])
    return [Unlinkable("post", problem, count, first)] if count else []


def _posts(conn: Connection, site: SiteContext) -> Iterable[tuple[str, str, int]]:
    types = {t.name: t for t in site.types.post_types}
    if permalinks.structure_problem(site.links.structure) is not None:
        types.pop("post", None)  # all of them: _structure()
    for row in qp.odd_slugs(conn, site.tables, list(types)):
        ctype = types[str(row.post_type)]
        link = permalinks.PostLink(int(row.ID), ctype.name, str(row.post_name or ""))
        problem = permalinks.post_problem(site.links, ctype, link)
        if problem is not None:
            yield ctype.name, problem, int(row.ID)


def _terms(conn: Connection, site: SiteContext) -> Iterable[tuple[str, str, int]]:
    for ctype in site.types.taxonomies:
        rows = qt.taxonomy_terms(conn, site.tables, ctype.name)
        slugs = {int(r.term_id): (str(r.slug or ""), int(r.parent or 0)) for r in rows}
        for r in rows:
            if not r.posts:
                continue  # an empty term is not listed anyway
            problem = permalinks.term_problem(ctype, str(r.slug or ""),
                                              _ancestors(int(r.term_id), slugs))
            if problem is not None:
                yield ctype.name, problem, int(r.term_id)


def _ancestors(term_id: int, slugs: dict[int, tuple[str, int]]) -> tuple[str, ...]:
    """The ancestors' slugs from the root (a loop in the parents ends the walk)."""
    out: list[str] = []
    seen = {term_id}
    parent = slugs[term_id][1]
    while parent in slugs and parent not in seen:
        seen.add(parent)
        out.append(slugs[parent][0])
        parent = slugs[parent][1]
    return tuple(reversed(out))


def _authors(conn: Connection, site: SiteContext) -> Iterable[tuple[str, str, int]]:
    for uid, nicename, _ in author_rows(conn, site):
        problem = permalinks.author_problem(site.author_type, str(nicename or ""))
        if problem is not None:
            yield "author", problem, int(uid)


def _grouped(found: list[tuple[str, str, int]]) -> list[Unlinkable]:
    """One Unlinkable per (kind, problem), in the order first met."""
    groups: dict[tuple[str, str], list[int]] = {}
    for kind, problem, oid in found:
        groups.setdefault((kind, problem), []).append(oid)
    return [Unlinkable(kind, problem, len(ids), min(ids))
            for (kind, problem), ids in groups.items()]
