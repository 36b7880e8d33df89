"""Which post types and taxonomies a site lists, decided from every trace in the database.

WordPress registers custom post types and taxonomies in PHP code, so the database shows only
traces. Sources, the more exact first:
1. configuration (`[post_types.NAME]`, `[taxonomies.NAME]`, `exclude_*`);
2. the companion plugin's record of WordPress's registry (companion.py): when present it
   alone decides what is public;
3. the options of the plugins that register the types (plugintypes.py: WooCommerce, The
   Events Calendar);
4. the `rewrite_rules` option (rewrite.py), read back through language plugins' rewriting;
5. SEO plugins' per-type settings (traces.py: Yoast, Rank Math, All in One SEO, SEOPress).

Public-ness when no exact source speaks:
* a post type is listed with an archive rule (`has_archive`) or SEO settings naming it; rules
  alone are not enough, because WordPress writes rules for non-public types too and
  register_post_type() defaults to `public => false`;
* a taxonomy is listed with SEO settings naming it, or, the ambiguous case, when its term
  rules use its own query var *and* it has terms on published posts of listed types:
  register_taxonomy() defaults to `public => true`, and a non-public taxonomy only gets a
  query var in the admin, so this is what a public taxonomy with default arguments leaves;
* plugins' options and SEO settings outlive a deactivated plugin, so on a site with pretty
  permalinks a type they name must also appear in the rules.
Everything else is reported (`SiteTypes.report`) with the configuration line that lists it.
URL facts merge in the same order: configuration over the companion over plugin options over
rules (rules carry the front WordPress really used; plugin options win where a filter
changes the URL, such as The Events Calendar's archive).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace

from wpsitemaps.config import Settings
from wpsitemaps.config import TypeConfig
from wpsitemaps.wordpress.companion import SOURCE as COMPANION
from wpsitemaps.wordpress.contenttypes import ContentType
from wpsitemaps.wordpress.contenttypes import Evidence
from wpsitemaps.wordpress.contenttypes import SiteTypes
from wpsitemaps.wordpress.contenttypes import TypeReport
from wpsitemaps.wordpress.contenttypes import builtin_types
from wpsitemaps.wordpress.contenttypes import config_line
from wpsitemaps.wordpress.options import SiteOptions
from wpsitemaps.wordpress.registration import Registration
from wpsitemaps.wordpress.rewrite import front
from wpsitemaps.wordpress.rewrite import join
from wpsitemaps.wordpress.rewrite import read_rules
from wpsitemaps.wordpress.rewrite import rule_names
from wpsitemaps.wordpress.traces import seo_traces

NEVER_LISTED = {
    "post type": frozenset({
        "post", "page", "attachment", "revision", "nav_menu_item", "custom_css",
        "customize_changeset", "oembed_cache", "user_request", "wp_block", "wp_template",
        "wp_template_part", "wp_global_styles", "wp_navigation", "wp_font_family",
        "wp_font_face"}),
    "taxonomy": frozenset({
        "category", "post_tag", "post_format", "nav_menu", "link_category",
        "wp_pattern_category", "wp_theme", "wp_template_part_area", "language",
        "term_language", "post_translations", "term_translations"}),
}
AMBIGUOUS = ("rewrite rules with its own query var + terms on published posts of listed "
             "types (register_taxonomy() defaults to public)")
RULES_ONLY = {
    "post type": "rewrite rules only (register_post_type() defaults to public = false)",
    "taxonomy": "rewrite rules only, no terms on published posts of listed types",
}
# (taxonomies, listed post types) -> the taxonomies with terms on published posts of them.
Probe = Callable[[Sequence[str], Sequence[str]], set[str]]


@dataclass(frozen=True)
class Scene:
    """Everything one kind's decisions read."""

    kind: str
    opts: SiteOptions
    configs: Mapping[str, TypeConfig]
    known: Mapping[str, Sequence[Registration]]
    rules: Mapping[str, tuple[str, bool]]
    archives: Mapping[str, str]
    named: Mapping[str, list[str]]
    in_rules: frozenset[str]
    companion: bool
    trust: bool
    ambiguous: frozenset[str] = frozenset()

    @property
    def pretty(self) -> bool:
        """Whether the site has pretty permalinks (and so rewrite rules)."""
        return bool(self.opts.permalink_structure)


def discover(opts: SiteOptions, settings: Settings, evidence: Evidence | None = None,
             probe: Probe | None = None) -> SiteTypes:
    """Work out the listed post types and taxonomies (order: builtin, then by name)."""
    evidence = evidence or Evidence()
    found, seo = read_rules(opts.rewrite_rules), seo_traces(opts.raw, opts.wpseo_titles)
    pts = Scene("post type", opts, settings.post_types, evidence.post_types, found.singles,
                found.archives, seo.post_types, rule_names(opts.rewrite_rules),
                evidence.companion, settings.trust_rewrite_rules)
    post, page, category, tag, _author = builtin_types(opts, settings.author_base)
    post_types, pt_report = decide(pts)
    txs = replace(pts, kind="taxonomy", configs=settings.taxonomies,
                  known=evidence.taxonomies, rules=found.terms, archives={},
                  named=seo.taxonomies)
    if probe is not None and not evidence.companion:
        open_names = [n for n in sorted(found.terms) if verdict(txs, n)[1] == "rules only"
                      and n not in NEVER_LISTED["taxonomy"]]
        listed = ["post", "page"] + [t.name for t in post_types]
        hits = probe(open_names, listed) if open_names else set()
        txs = replace(txs, ambiguous=frozenset(hits))
    taxonomies, tx_report = decide(txs)
    return SiteTypes((post, page, *post_types), (category, tag, *taxonomies),
                     tuple(pt_report + tx_report))


def decide(scene: Scene) -> tuple[list[ContentType], list[TypeReport]]:
    """The listed types of one kind, and a report line for every name any source shows."""
    names = set(scene.configs) | set(scene.known) | set(scene.rules) | set(scene.named)
    names |= set(scene.archives)
    listed: list[ContentType] = []
    report: list[TypeReport] = []
    for name in sorted(names - NEVER_LISTED[scene.kind]):
        ok, why = verdict(scene, name)
        if why == "rules only":
            why = RULES_ONLY[scene.kind]
        if ok:
            listed.append(build(scene, name, why))
        private = any(not r.public for r in scene.known.get(name, ()))
        quiet = ok or private or why.startswith("excluded")
        # On a site with rules, an archive would have shown as a rule.
        archive = not scene.pretty or name in scene.archives
        fix = "" if quiet else config_line(scene.kind, name, archive)
        report.append(TypeReport(scene.kind, name, ok, why, fix))
    return listed, report


def verdict(scene: Scene, name: str) -> tuple[bool, str]:
    """(listed, evidence or reason) for one name; 'rules only' marks the ambiguous case."""
    cfg, regs = scene.configs.get(name), scene.known.get(name, ())
    if cfg is not None:
        return (False, "excluded by configuration") if cfg.exclude else (True, "configuration")
    if scene.companion:
        comp = [r for r in regs if r.source == COMPANION]
        return (True, COMPANION) if comp else (
            False, "not public in WordPress's registry (companion plugin)")
    stale = scene.pretty and name not in scene.in_rules
    for reg in regs:
        if not reg.public:
            return False, reg.reason or f"not public ({reg.source})"
        if stale and reg.rewrite:
            return False, f"{reg.source} describes it, but the rewrite rules do not (inactive?)"
        return True, reg.source
    if scene.trust and name in scene.rules:
        return True, "rewrite rules (trust_rewrite_rules)"
    if plugins := scene.named.get(name):
        if stale:
            return False, f"settings of {', '.join(plugins)}, but no rewrite rules (inactive?)"
        return True, f"settings of {', '.join(plugins)}"
    if name in scene.archives:
        return True, "rewrite rules: archive (has_archive)"
    if name in scene.ambiguous:
        return True, AMBIGUOUS
    if name in scene.rules:
        return False, "rules only"
    return False, "no trace"


def build(scene: Scene, name: str, evidence: str) -> ContentType:
    """Merge the URL facts of every source (configuration wins) into a ContentType."""
    base, hierarchical = scene.rules.get(name, (None, False))
    facts: dict[str, object] = {"base": base, "hierarchical": hierarchical,
                                "archive": scene.archives.get(name), "query_var": name,
                                "rewrite": True}
    facts["has_archive"] = facts["archive"] is not None
    regs = scene.known.get(name, ())
    for reg in [r for r in regs if r.source != COMPANION] + [
            r for r in regs if r.source == COMPANION]:
        for key in ("base", "hierarchical", "has_archive", "archive", "query_var"):
            if getattr(reg, key) is not None:
                facts[key] = getattr(reg, key)
        facts["rewrite"] = reg.rewrite
    cfg = scene.configs.get(name)
    if cfg is not None:
        _configure(facts, cfg, scene.opts.permalink_structure)
    pretty = scene.pretty and bool(facts["rewrite"])
    archive = facts["archive"] if scene.pretty else None
    # On a site with rules an archive WordPress wrote no rule for does not exist (has_archive
    # false when the rules were written), unless configured or recorded by the companion.
    has_archive = bool(facts["has_archive"]) and (archive is not None or not scene.pretty)
    return ContentType(name, str(facts["base"]) if pretty and facts["base"] is not None
                       else None, bool(facts["hierarchical"]), False, str(facts["query_var"]),
                       str(archive) if archive is not None and has_archive else None,
                       has_archive, evidence)


def _configure(facts: dict[str, object], cfg: TypeConfig, structure: str) -> None:
    """Apply a [post_types.NAME] / [taxonomies.NAME] table over the discovered facts."""
    if cfg.rewrite_slug is not None:
        facts["base"] = _configured(facts["base"], cfg.rewrite_slug, structure)
        facts["rewrite"] = True
    if cfg.hierarchical is not None:
        facts["hierarchical"] = cfg.hierarchical
    if cfg.has_archive is False:
        facts["archive"], facts["has_archive"] = None, False
    elif isinstance(cfg.has_archive, str) and cfg.has_archive.strip("/"):
        facts["archive"] = _configured(facts["archive"], cfg.has_archive, structure)
        facts["has_archive"] = True
    elif cfg.has_archive is True:
        facts["has_archive"] = True
        if facts["archive"] is None:
            facts["archive"] = facts["base"]


def _configured(found: object, slug: str, structure: str) -> str:
    """A configured slug as a path: keep the rules' path when it ends in that slug.

    The rules carry the front WordPress really used ('blog/library', or 'happenings' for
    with_front = false), which configuration cannot express; only a slug the rules do not
    show is put under the structure's front (WP_Rewrite::$front).
    """
    slug = slug.strip("/")
    if isinstance(found, str) and (found == slug or found.endswith("/" + slug)):
        return found
    return join(front(structure), slug)
