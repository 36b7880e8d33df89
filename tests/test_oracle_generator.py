"""The oracle generator itself: real WordPress still writes the committed truth (opt-in, PHP)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_mariadb
from tests.support import oracle_data

GENERATOR = Path(__file__).resolve().parent / "oracle" / "generate.py"
# Values that depend on the moment of generation, not on WordPress's URL rules.
VOLATILE = {"gmt_offset"}

pytestmark = [
    pytest.mark.wordpress,
    pytest.mark.skipif(os.environ.get("WPSITEMAPS_WORDPRESS_TESTS") != "1",
                       reason="runs PHP and WordPress; set WPSITEMAPS_WORDPRESS_TESTS=1"),
]


def urls(truth: dict[str, Any]) -> dict[str, Any]:
    """Everything a truth says about URLs and their inputs."""
    opts = {k: v for k, v in truth["options"].items() if k not in VOLATILE}
    return {"options": opts, "home": truth["home_url_slash"], "posts": truth["posts"],
            "terms": truth["terms"], "users": truth["users"], "types": truth["post_types"],
            "taxonomies": truth["taxonomies"]}


@pytest.mark.parametrize("variant", oracle_data.VARIANTS)
def test_regenerated_truth_equals_committed(variant: str, tmp_path: Path) -> None:
    """Running the generator again yields the committed truth for the variant."""
    if not (shutil.which("php") and Path("/usr/share/wordpress/wp-settings.php").exists()):
        pytest.fail("WPSITEMAPS_WORDPRESS_TESTS=1 but php or /usr/share/wordpress is missing")
    require_mariadb()
    subprocess.run([sys.executable, str(GENERATOR), "--out", str(tmp_path), variant],
                   check=True, capture_output=True)
    fresh = json.loads((tmp_path / f"{variant}.truth.json").read_text(encoding="utf-8"))
    assert urls(fresh) == urls(oracle_data.truth(variant))
