"""Reasons that hold for a whole site or a whole type, in words a person reads."""

from __future__ import annotations

from typing import Any

from wpsitemaps.wordpress import permalinks
from wpsitemaps.wordpress.contenttypes import SiteTypes
from wpsitemaps.wordpress.discovery import NEVER_LISTED
from wpsitemaps.wordpress.site import SiteContext

DISCOURAGED = ("the site discourages search engines (Settings > Reading, blog_public = 0): "
               "every sitemap is empty")


def site_reasons(site: SiteContext) -> list[str]:
    """What keeps every object of the site out (the routes serve empty sitemaps then)."""
    return [] if site.options.blog_public else [DISCOURAGED]


def type_exclusion(types: SiteTypes, kind: str, name: str) -> tuple[str | None, str]:
    """discover()'s own verdict on one type: (None if listed, else 'config' / 'never' /
    'not_public'; the evidence or reason its report gives)."""
    listed = types.taxonomy(name) if kind == "taxonomy" else types.post_type(name)
    if listed is not None:
        return None, ""
    report = next((r for r in types.report if r.kind == kind and r.name == name), None)
    why = report.evidence if report is not None else ""
    if why == "excluded by configuration":
        return "config", why
    if name in NEVER_LISTED[kind]:
        return "never", why
    return "not_public", why


def type_reason(site: SiteContext, name: str, taxonomy: bool = False) -> str:
    """Why a post type or taxonomy has no sitemap (discover()'s own verdict, then the
    registry's Yoast switch)."""
    kind = "taxonomy" if taxonomy else "post type"
    why, evidence = type_exclusion(site.types, kind, name)
    section = "taxonomies" if taxonomy else "post_types"
    if why == "config":
        return f"{kind} '{name}' is excluded by configuration ({section}.{name}.exclude)"
    if why == "never":
        extra = "; attachments appear as image entries of the posts that show them" if (
            name == "attachment") else ""
        return f"{kind} '{name}' is internal to WordPress and never listed{extra}"
    if why == "not_public":
        found = f"{evidence}; " if evidence and evidence != "no trace" else ""
        return (f"{kind} '{name}' is not public ({found}no public registration found; if it "
                f"is public, configure it under [{section}.{name}])")
    key = f"noindex-tax-{name}" if taxonomy else f"noindex-{name}"
    if site.yoast_on(key):
        return f"{kind} '{name}' is noindexed as a whole in Yoast's settings ({key})"
    plugin = site.seo_off_by(name, taxonomy)
    if plugin is not None:
        return f"{kind} '{name}' is not in {plugin}'s sitemap settings"
    return f"{kind} '{name}' has no sitemap"


def url_problem(site: SiteContext, row: Any) -> str | None:
    """Why no URL reaches this post (permalinks.post_problem(), in words), or None."""
    ctype = site.types.post_type(str(row.post_type))
    if ctype is None:
        return None
    link = permalinks.PostLink(int(row.ID), ctype.name, str(row.post_name or ""))
    problem = permalinks.post_problem(site.links, ctype, link)
    return None if problem is None else f"no URL reaches it: {problem} (wpsitemaps check)"
