"""A test run leaves nothing on a shared MariaDB server: the read-only user the suite reads
through has a random password and is dropped when the session ends."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pymysql
import pytest

from tests.conftest import require_mariadb
from tests.support import wpdb

INNER = '''
import json
from tests.support import wpdb

def test_make_a_database():
    name = wpdb.create_mariadb("hygiene", "SELECT 1;")
    wpdb.drop_mariadb(name)
    assert wpdb.read_only_user_exists()
    print("USER=" + json.dumps([wpdb.RO_USER, wpdb.RO_PASSWORD]))
'''


@pytest.mark.mariadb
def test_read_only_user_is_dropped_after_a_session(tmp_path: Path) -> None:
    """A pytest session that created a MariaDB test database leaves no user behind."""
    require_mariadb()
    (tmp_path / "test_inner.py").write_text(INNER, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:randomly",
                          "-p", "tests.conftest", "--rootdir", str(tmp_path),
                          str(tmp_path / "test_inner.py")],
                         cwd=wpdb.REPO, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    user, password = json.loads(run.stdout.split("USER=", 1)[1].splitlines()[0])
    with wpdb.root_conn() as con, con.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM mysql.user WHERE User = %s", (user,))
        assert cur.fetchone() == (0,)
    assert password != user and len(password) >= 24
    with pytest.raises(pymysql.err.OperationalError):
        pymysql.connect(host=wpdb.MARIADB_HOST, port=wpdb.MARIADB_PORT, user=user,
                        password=password, connect_timeout=5).close()


def test_read_only_password_is_not_known() -> None:
    """The read-only user's password is random per run, not written in the source."""
    source = (wpdb.REPO / "tests" / "support" / "wpdb.py").read_text(encoding="utf-8")
    assert wpdb.RO_PASSWORD not in source
