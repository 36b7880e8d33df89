"""What the `rewrite_rules` option reveals about custom post types and taxonomies.

WordPress writes one group of rules per permastruct (WP_Rewrite::generate_rewrite_rules()):
`events/([^/]+)(?:/([0-9]+))?/?$ => index.php?event=$matches[1]&page=$matches[2]` for a
single, `genre/([^/]+)/?$ => index.php?genre=$matches[1]` for a term and
`events/?$ => index.php?post_type=event` for an archive.

Language plugins rewrite these rules, so they are read back to WordPress's own form first:
* Polylang (PLL_Links_Directory::rewrite_rules(), polylang/polylang
  `include/links-directory.php`) prefixes the pattern with `(de|fr)/` (or `language/(de|fr)/`
  without its `rewrite` option), puts `lang=$matches[1]&` first in the query and shifts every
  other match by one; with `hide_default` it also keeps the unprefixed rule with the default
  language fixed: `events/?$ => index.php?lang=en&post_type=event`.
* WPML negotiates the language in the request (directory, domain or `?lang=`), not in the
  stored rules; not verified against its source (commercial, not in the public corpus). Extra
  rules for translated slugs would map to the same query var; the first base seen for a query
  var is kept, and the companion plugin records the registered slug exactly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

BUILTIN_QUERY_VARS = frozenset({
    "name", "pagename", "p", "page_id", "attachment", "attachment_id", "category_name", "cat",
    "tag", "tag_id", "post_format", "author_name", "author", "s", "feed", "paged", "page",
    "cpage", "year", "monthnum", "day", "hour", "minute", "second", "w", "m", "preview",
    "embed", "tb", "withcomments", "withoutcomments", "sitemap", "sitemap-subtype",
    "sitemap-stylesheet", "rest_route", "favicon", "robots", "error", "register", "post_type",
    "taxonomy", "term", "subpost", "subpost_id", "static", "pb", "comments_popup", "lang",
})
SINGLE_RE = re.compile(r"^\^?(?P<base>[^()?*+\[\]\\]+?)/(?P<slug>\(\[\^/\]\+\)|\(\.\+\?\))"
                       r"\(\?:/\(\[0-9\]\+\)\)\?/\?\$$")
TERM_RE = re.compile(r"^\^?(?P<base>[^()?*+\[\]\\]+?)/(?P<slug>\(\[\^/\]\+\)|\(\.\+\?\))/\?\$$")
ARCHIVE_RE = re.compile(r"^\^?(?P<base>[^()?*+\[\]\\]+?)/\?\$$")
QUERY_SINGLE_RE = re.compile(r"^index\.php\?(?P<qv>[A-Za-z0-9_-]+)=\$matches\[1\]"
                             r"&page=\$matches\[2\]$")
QUERY_TERM_RE = re.compile(r"^index\.php\?(?P<qv>[A-Za-z0-9_-]+)=\$matches\[1\]$")
QUERY_ARCHIVE_RE = re.compile(r"^index\.php\?post_type=(?P<qv>[A-Za-z0-9_-]+)$")
# Polylang's prefix: optional root (index.php/), optional 'language/', a group of slugs.
PLL_PREFIX_RE = re.compile(r"^(?P<root>\^?(?:index\.php/)?)(?:language/)?"
                           r"\((?:[a-z0-9_-]+\|)*[a-z0-9_-]+\)/")
PLL_LANG_MATCH = "lang=$matches[1]&"
PLL_LANG_FIXED_RE = re.compile(r"(?<=\?)lang=[a-z0-9_-]+&")
MATCH_RE = re.compile(r"\$matches\[(\d+)\]")


@dataclass(frozen=True)
class RuleFindings:
    """What the rewrite rules reveal: {query var: (base, hierarchical)} and archives;
    `language_prefixed` when a language plugin had rewritten some of them."""

    singles: Mapping[str, tuple[str, bool]]
    terms: Mapping[str, tuple[str, bool]]
    archives: Mapping[str, str]
    language_prefixed: bool = False


def _shift_down(query: str) -> str:
    """$matches[n] -> $matches[n-1]: undo Polylang's shift after removing its first group."""
    return MATCH_RE.sub(lambda m: f"$matches[{int(m[1]) - 1}]", query)


def unlanguage(pattern: str, query: str) -> tuple[str, str, bool]:
    """A rule as WordPress wrote it before Polylang rewrote it; the flag says it was."""
    if PLL_LANG_MATCH in query and (m := PLL_PREFIX_RE.match(pattern)):
        stripped = m["root"] + pattern[m.end():]
        return stripped, _shift_down(query.replace(PLL_LANG_MATCH, "", 1)), True
    if PLL_LANG_FIXED_RE.search(query):
        return pattern, PLL_LANG_FIXED_RE.sub("", query, count=1), True
    return pattern, query, False


def read_rules(rules: Mapping[str, str]) -> RuleFindings:
    """Find custom post type singles, taxonomy terms and archives in rewrite_rules."""
    singles: dict[str, tuple[str, bool]] = {}
    terms: dict[str, tuple[str, bool]] = {}
    archives: dict[str, str] = {}
    prefixed = False
    for raw_pattern, raw_query in rules.items():
        pattern, query, changed = unlanguage(str(raw_pattern), str(raw_query))
        prefixed = prefixed or changed
        if (m := SINGLE_RE.match(pattern)) and (q := QUERY_SINGLE_RE.match(query)):
            if q["qv"] not in BUILTIN_QUERY_VARS:
                singles.setdefault(q["qv"], (m["base"].strip("/"), m["slug"] == "(.+?)"))
        elif (m := TERM_RE.match(pattern)) and (q := QUERY_TERM_RE.match(query)):
            if q["qv"] not in BUILTIN_QUERY_VARS:
                terms.setdefault(q["qv"], (m["base"].strip("/"), m["slug"] == "(.+?)"))
        elif (m := ARCHIVE_RE.match(pattern)) and (q := QUERY_ARCHIVE_RE.match(query)):
            archives.setdefault(q["qv"], m["base"].strip("/"))
    return RuleFindings(singles, terms, archives, prefixed)


def front(structure: str) -> str:
    """WP_Rewrite::$front: the static part of the permalink structure ('/blog/' or '/')."""
    if not structure:
        return "/"
    cut = structure.find("%")
    return structure[:cut] if cut >= 0 else structure


def index_root(structure: str) -> str:
    """WP_Rewrite::$root: 'index.php/' for PATHINFO permalinks, else ''."""
    return "index.php/" if structure.lstrip("/").startswith("index.php") else ""


def join(*parts: str) -> str:
    """Path parts joined with single slashes, without leading or trailing slash."""
    return "/".join(p.strip("/") for p in parts if p.strip("/"))


QUERY_VAR_RE = re.compile(r"[?&](?P<qv>[A-Za-z0-9_-]+)=(?P<value>[A-Za-z0-9_-]*)")


def rule_names(rules: Mapping[str, str]) -> frozenset[str]:
    """Every query var a rule sets, and every post type an archive rule names: a type or
    taxonomy registered with rewrite rules right now shows up here."""
    out: set[str] = set()
    for query in rules.values():
        for m in QUERY_VAR_RE.finditer(str(query)):
            out.add(m["qv"])
            if m["qv"] in ("post_type", "taxonomy") and m["value"]:
                out.add(m["value"])
    return frozenset(out)
