"""Which SEO plugin decides: the known plugins, found in `active_plugins` (and a network's
`active_sitewide_plugins`), or named by the setting `seo_plugins`.

A site that switched plugins keeps the old plugin's post meta, term meta and options; that
plugin no longer runs, so its markers print nothing on the pages and the running plugin
lists those objects. Where one or more known plugins are active, only their markers count.
Where none is (a plugin we cannot see, an unknown one, or none), every known marker counts,
as before this rule (`SeoChoice.fallback`). Where each plugin stores its data:
tests/oracle/seoplugins/README.md.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

log = logging.getLogger(__name__)

YOAST = "Yoast"
RANK_MATH = "Rank Math"
AIOSEO = "All in One SEO"
SEOPRESS = "SEOPress"
TSF = "The SEO Framework"
KNOWN = (YOAST, RANK_MATH, AIOSEO, SEOPRESS, TSF)

# Plugin folder (the part of a plugin file before '/') -> plugin. Premium/pro editions run
# with or instead of the free one and keep the same data.
FOLDERS = {
    "wordpress-seo": YOAST, "wordpress-seo-premium": YOAST,
    "seo-by-rank-math": RANK_MATH, "seo-by-rank-math-pro": RANK_MATH,
    "all-in-one-seo-pack": AIOSEO, "all-in-one-seo-pack-pro": AIOSEO,
    "wp-seopress": SEOPRESS, "wp-seopress-pro": SEOPRESS,
    "autodescription": TSF,
}
# The setting's spellings: a plugin's name, its folder, or a short name.
ALIASES = {
    **{name.lower(): name for name in KNOWN}, **FOLDERS,
    "yoast-seo": YOAST, "rankmath": RANK_MATH, "rank-math": RANK_MATH, "aioseo": AIOSEO,
    "tsf": TSF, "the-seo-framework": TSF,
}
# What every marker means when no known plugin is active: the plugins whose markers were
# honoured before this rule (AIOSEO's as its 3.x post meta, not its 4.x table).
FALLBACK = (YOAST, RANK_MATH, AIOSEO, SEOPRESS)


def plugin_named(text: str) -> str | None:
    """The known plugin a setting value names (any case), or None."""
    return ALIASES.get(text.strip().lower())


def active_known(plugin_files: Iterable[str]) -> tuple[str, ...]:
    """The known SEO plugins among active plugin files (`folder/file.php`), in KNOWN order."""
    found = {FOLDERS.get(str(f).split("/", 1)[0]) for f in plugin_files}
    return tuple(name for name in KNOWN if name in found)


@dataclass(frozen=True)
class SeoChoice:
    """The SEO plugins whose markers count on one site, and why.

    `active`: the known plugins the site runs (or the setting names); `source`:
    'active_plugins', 'setting' or 'none'; `unreadable`: plugin tables that could not be
    read (the plugin's markers in them are then not applied, and `check` says so).
    """

    active: tuple[str, ...] = ()
    source: str = "none"
    unreadable: tuple[str, ...] = ()

    @property
    def fallback(self) -> bool:
        """No known plugin active: every known marker counts."""
        return not self.active

    @property
    def honoured(self) -> tuple[str, ...]:
        """The plugins whose markers count."""
        return self.active or FALLBACK

    def counts(self, plugin: str) -> bool:
        """Whether `plugin`'s markers count."""
        return plugin in self.honoured

    def runs(self, plugin: str) -> bool:
        """Whether `plugin` is known to run (its settings, not only its markers, apply)."""
        return plugin in self.active

    def describe(self) -> str:
        """One line for `check` and the logs."""
        if self.fallback:
            return ("none of Yoast, Rank Math, All in One SEO, SEOPress, The SEO Framework "
                    "is active: every known plugin's noindex and canonical markers count")
        why = "the setting seo_plugins" if self.source == "setting" else "active_plugins"
        return f"{', '.join(self.active)} (from {why}): only its markers count"


EVERY = SeoChoice()


def choose(active_plugins: Iterable[str], sitewide: Iterable[str] = (),
           setting: Iterable[str] = ()) -> SeoChoice:
    """The choice from the setting when it names plugins, else from the active plugins."""
    unknown = [s for s in setting if plugin_named(s) is None]
    if unknown:
        log.warning("seo_plugins: %s not a known SEO plugin (yoast, rankmath, aioseo, "
                    "seopress, tsf): ignored", ", ".join(map(repr, unknown)))
    named = tuple(dict.fromkeys(n for n in map(plugin_named, setting) if n))
    if named:
        return SeoChoice(tuple(n for n in KNOWN if n in named), "setting")
    found = active_known([*active_plugins, *sitewide])
    return SeoChoice(found, "active_plugins") if found else EVERY
