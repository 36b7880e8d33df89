"""What `wpsitemaps check` prints and the service logs once: every post type and taxonomy with
published content, whether it is served, from which evidence, or why not and the exact
configuration line that would list it."""

from __future__ import annotations

from sqlalchemy import Connection

from wpsitemaps.wordpress.contenttypes import TypeReport
from wpsitemaps.wordpress.contenttypes import config_line
from wpsitemaps.wordpress.queries import types as qtypes
from wpsitemaps.wordpress.site import SiteContext

# Content that is never a sitemap of its own, whatever its rows say.
SILENT = frozenset({"attachment", "revision", "nav_menu_item", "custom_css",
                    "customize_changeset", "oembed_cache", "user_request", "wp_block",
                    "wp_template", "wp_template_part", "wp_global_styles", "wp_navigation",
                    "wp_font_family", "wp_font_face", "nav_menu", "post_format",
                    "link_category", "wp_theme", "wp_template_part_area", "language",
                    "term_language", "post_translations", "term_translations"})


def _line(kind: str, name: str, count: int, unit: str, report: TypeReport | None,
          listed: dict[str, str]) -> list[str]:
    """One object's lines: served with evidence, or not with the reason and the fix."""
    head = f"  {kind:<9} {name:<24} {count:>7} {unit}"
    if name in listed:
        return [f"{head}  served ({listed[name]})"]
    if report is not None and not report.fix:
        return [f"{head}  not served: {report.evidence}"]
    why = report.evidence if report is not None else "no trace in the database"
    fix = report.fix if report is not None else config_line(kind, name)
    return [f"{head}  NOT served: {why}", f"{'':>14}to list it, add to the configuration file:",
            *(f"{'':>16}{line}" for line in fix.splitlines())]


def type_report(conn: Connection, site: SiteContext) -> list[str]:
    """The report lines (one query per kind over the whole site)."""
    reports = {(r.kind, r.name): r for r in site.types.report}
    out = ["content with published objects (served or not, and why):"]
    published = qtypes.published_by_type(conn, site.tables)
    listed = {t.name: t.evidence or "builtin" for t in site.types.post_types}
    for name in sorted(published, key=lambda n: (n not in ("post", "page"), n)):
        if name not in SILENT:
            out += _line("post type", name, published[name], "published",
                         reports.get(("post type", name)), listed)
    used = qtypes.used_terms_by_taxonomy(conn, site.tables)
    listed = {t.name: t.evidence or "builtin" for t in site.types.taxonomies}
    for name in sorted(used, key=lambda n: (n not in ("category", "post_tag"), n)):
        if name not in SILENT:
            out += _line("taxonomy", name, used[name], "terms used",
                         reports.get(("taxonomy", name)), listed)
    return out


def unserved(conn: Connection, site: SiteContext) -> list[str]:
    """One line per post type or taxonomy with published content that is not served for
    want of evidence (the report above gives the configuration line that lists it)."""
    reports = {(r.kind, r.name): r for r in site.types.report}
    out: list[str] = []
    for kind, counts, listed, unit in (
            ("post type", qtypes.published_by_type(conn, site.tables),
             {t.name for t in site.types.post_types}, "published"),
            ("taxonomy", qtypes.used_terms_by_taxonomy(conn, site.tables),
             {t.name for t in site.types.taxonomies}, "terms used")):
        for name, count in sorted(counts.items()):
            report = reports.get((kind, name))
            if name in SILENT or name in listed or (report is not None and not report.fix):
                continue
            why = report.evidence if report is not None else "no trace in the database"
            out.append(f"{kind} {name}: {count} {unit}, NOT served ({why}); a "
                       f"[{'post_types' if kind == 'post type' else 'taxonomies'}.{name}] "
                       "table in the configuration lists it (see above)")
    return out
