"""contenttypes.py: discovery from the rewrite_rules WordPress wrote for each oracle variant."""

from __future__ import annotations

import pytest

from tests.support import oracle_data
from tests.support.oracle_data import OracleCase
from wpsitemaps.config import load_settings
from wpsitemaps.wordpress.discovery import discover
from wpsitemaps.wordpress.rewrite import read_rules

# Expected rewrite bases: with_front types sit under the structure's front ('/blog/' in e),
# others only under the root ('index.php/' in d); plain permalinks have no bases at all.
BASES = {
    "a": {"book": "library", "event": "happenings", "recipe": "recipe", "genre": "genres",
          "region": "where", "shelf": "shelf"},
    "d": {"book": "index.php/library", "event": "index.php/happenings",
          "recipe": "index.php/recipe", "genre": "index.php/genres", "region": "index.php/where",
          "shelf": "index.php/shelf"},
    "e": {"book": "blog/library", "event": "happenings", "recipe": "blog/recipe",
          "genre": "blog/genres", "region": "blog/where", "shelf": "shelf"},
}
BASES["b"] = BASES["a"]
BASES["c"] = dict.fromkeys(BASES["a"])


@pytest.fixture(scope="module", params=oracle_data.VARIANTS)
def case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> OracleCase:
    """One oracle variant loaded into SQLite and discovered with the site's configuration."""
    return oracle_data.load_case(request.param, tmp_path_factory.mktemp("types"))


def test_listed_post_types_are_exactly_the_public_ones(case: OracleCase) -> None:
    """Discovery lists the post types WordPress registered as public and viewable."""
    want = sorted(n for n, i in case.truth["post_types"].items() if i["listed"])
    assert sorted(t.name for t in case.types.post_types) == want


def test_listed_taxonomies_are_exactly_the_public_ones(case: OracleCase) -> None:
    """Discovery lists the taxonomies WordPress registered as public and viewable."""
    want = sorted(n for n, i in case.truth["taxonomies"].items() if i["listed"])
    assert sorted(t.name for t in case.types.taxonomies) == want


def test_custom_bases_follow_rewrite_slug_and_front(case: OracleCase) -> None:
    """Each custom type's base is its rewrite slug under the front or root WordPress used."""
    got = {n: case.post_type(n).base for n in ("book", "event", "recipe")}
    got |= {n: case.taxonomy(n).base for n in ("genre", "region", "shelf")}
    assert got == BASES[case.variant]


def test_post_type_hierarchy_matches_registration(case: OracleCase) -> None:
    """book is hierarchical, event and recipe are not, as registered."""
    got = {n: case.post_type(n).hierarchical for n in ("book", "event", "recipe")}
    assert got == {n: case.truth["post_types"][n]["hierarchical"] for n in got}


def test_taxonomy_link_hierarchy_matches_rewrite(case: OracleCase) -> None:
    """Only taxonomies with rewrite hierarchical = true link their ancestors (shelf does not)."""
    got = {n: case.taxonomy(n).hierarchical for n in ("genre", "region", "shelf")}
    assert got == {"genre": False, "region": True, "shelf": False}


def test_archives_match_has_archive(case: OracleCase) -> None:
    """book and event have archives, recipe has none."""
    got = {n: case.post_type(n).has_archive for n in ("book", "event", "recipe")}
    assert got == {"book": True, "event": True, "recipe": False}


def test_non_public_type_has_rules_but_is_not_listed(tmp_path_factory: pytest.TempPathFactory,
                                                     ) -> None:
    """internal_note has rewrite rules WordPress wrote, yet discovery never lists it."""
    case = oracle_data.load_case("a", tmp_path_factory.mktemp("internal"))
    conf = oracle_data.settings("a", case.url)
    rules = oracle_data.read_options(case.url, conf).rewrite_rules
    assert "internal_note" in read_rules(rules).singles
    assert case.types.post_type("internal_note") is None


@pytest.mark.parametrize("variant", ["a", "b", "d", "e"])
def test_archived_types_need_no_configuration(variant: str,
                                              tmp_path_factory: pytest.TempPathFactory) -> None:
    """Without any configuration the archive rules alone list book and event, nothing else."""
    path = oracle_data.to_sqlite(variant, tmp_path_factory.mktemp("bare") / "x.sqlite")
    conf = load_settings({"DATABASE_URL": f"sqlite:///{path}",
                          "TABLE_PREFIX": oracle_data.prefix(variant)}, environ={})
    types = discover(oracle_data.read_options(conf.database_url, conf), conf)
    assert [t.name for t in types.post_types] == ["post", "page", "book", "event"]
    assert [t.name for t in types.taxonomies] == ["category", "post_tag"]


@pytest.mark.parametrize(("name", "slug", "want"), [
    ("event", "happenings", "happenings"), ("book", "library", "blog/library"),
])
def test_configured_slug_keeps_the_front_wordpress_used(
        name: str, slug: str, want: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A configured rewrite slug the rules confirm keeps the rules' front (with_front)."""
    path = oracle_data.to_sqlite("e", tmp_path_factory.mktemp("slug") / "e.sqlite")
    conf = load_settings({"DATABASE_URL": f"sqlite:///{path}",
                          "POST_TYPES": {name: {"rewrite_slug": slug}}}, environ={})
    found = discover(oracle_data.read_options(conf.database_url, conf), conf).post_type(name)
    assert found is not None and found.base == want


def test_configured_archive_keeps_the_front_wordpress_used(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """A configured has_archive slug the rules confirm keeps the rules' path."""
    path = oracle_data.to_sqlite("e", tmp_path_factory.mktemp("arch") / "e.sqlite")
    conf = load_settings({"DATABASE_URL": f"sqlite:///{path}",
                          "POST_TYPES": {"event": {"has_archive": "happenings-archive"}}},
                         environ={})
    found = discover(oracle_data.read_options(conf.database_url, conf), conf).post_type("event")
    assert found is not None and found.archive == "happenings-archive"


def test_configured_slug_unknown_to_rules_goes_under_the_front(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """A slug the rules do not show is put under the structure's front, as with_front does."""
    path = oracle_data.to_sqlite("e", tmp_path_factory.mktemp("new") / "e.sqlite")
    conf = load_settings({"DATABASE_URL": f"sqlite:///{path}",
                          "POST_TYPES": {"movie": {"rewrite_slug": "films"}}}, environ={})
    found = discover(oracle_data.read_options(conf.database_url, conf), conf).post_type("movie")
    assert found is not None and found.base == "blog/films"
