"""Polylang's data in a builder Site, shaped exactly as Polylang 3.4 stores it.

Sources (polylang/polylang 3.4.6): admin/admin-model.php add_language() (a `language` term whose
description is serialize(['locale', 'rtl', 'flag_code']), term_group = order, and a
`term_language` twin with slug `pll_<slug>`), include/translated-object.php save_translations()
(a `post_translations` / `term_translations` term, slug `pll_<uniqid>`, description
serialize([lang => id]), every member related to it), set_language() (a relationship to the
language term; for terms object_id = term_id), include/options.php (the `polylang` option).
"""

from __future__ import annotations

from typing import Any

from tests.support.builder import Site
from tests.support.builder import php_serialize


class Polylang:
    """Languages, object languages and translation groups added to a Site."""

    def __init__(self, site: Site, languages: list[tuple[str, str]], **options: Any) -> None:
        self.site = site
        self.post_lang: dict[str, int] = {}
        self.term_lang: dict[str, int] = {}
        for order, (slug, locale) in enumerate(languages):
            tt = site.term(slug.upper(), "language", slug=slug)
            self._describe(tt, {"locale": locale, "rtl": 0, "flag_code": slug}, order)
            self.post_lang[slug] = tt
            self.term_lang[slug] = site.term(f"pll_{slug}", "term_language", slug=f"pll_{slug}")
        settings: dict[str, Any] = {
            "browser": 0, "rewrite": 1, "hide_default": 1, "force_lang": 1, "redirect_lang": 0,
            "media_support": 0, "uninstall": 0, "sync": [], "post_types": [], "taxonomies": [],
            "domains": {}, "version": "3.4.6", "default_lang": languages[0][0]}
        settings.update(options)
        site.option("polylang", settings)
        self.groups = 0

    def _describe(self, tt: int, description: dict[str, Any] | str, order: int = 0) -> None:
        for row in self.site.rows["term_taxonomy"]:
            if row["term_taxonomy_id"] == tt:
                row["description"] = (description if isinstance(description, str)
                                      else php_serialize(description))
        for row in self.site.rows["terms"]:
            if row["term_id"] == tt:
                row["term_group"] = order

    def post(self, post_id: int, lang: str) -> int:
        """pll_set_post_language()."""
        self.site.relate(post_id, self.post_lang[lang])
        return post_id

    def term(self, term_id: int, lang: str) -> int:
        """pll_set_term_language(): the relationship's object_id is the term_id."""
        self.site.relate(term_id, self.term_lang[lang], counts=False)
        return term_id

    def translations(self, kind: str, members: dict[str, int]) -> None:
        """pll_save_post_translations() / pll_save_term_translations()."""
        self.groups += 1
        tt = self.site.term(f"pll_{self.groups:013x}", f"{kind}_translations",
                            slug=f"pll_{self.groups:013x}")
        self._describe(tt, dict(members))
        for member in members.values():
            self.site.relate(member, tt, counts=False)
        for row in self.site.rows["term_taxonomy"]:
            if row["term_taxonomy_id"] == tt:
                row["count"] = len(members)
