"""`wpsitemaps export DIR`: completeness, byte identity with the server, atomicity."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask

from tests.support.sitemaps import parse_index
from wpsitemaps import cli
from wpsitemaps import export
from wpsitemaps.export import ExportError
from wpsitemaps.export import site_files
from wpsitemaps.export import write_atomically
from wpsitemaps.paths import XSL_DIR
from wpsitemaps.web.context import service_of


def run_export(app: Flask, target: Path, monkeypatch: pytest.MonkeyPatch,
               *args: str) -> str:
    """Run the CLI command against `app`; return its output."""
    monkeypatch.setattr(cli, "build_service", lambda overrides=None: service_of(app))
    result = CliRunner().invoke(cli.main, ["export", str(target), *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_every_file_equals_the_server_answer(app: Flask, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Each exported file is byte-identical to what the server answers for its path."""
    run_export(app, tmp_path / "out", monkeypatch, "--gzip")
    client = app.test_client()
    files = sorted(p for p in (tmp_path / "out").iterdir() if p.name != "robots-sitemap.txt")
    assert len(files) > 4
    for path in files:
        assert path.read_bytes() == client.get(f"/{path.name}").data, path.name


def test_export_is_complete(app: Flask, tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The index, every sitemap it lists (and .gz), the XSLs, robots.txt and its lines are there."""
    run_export(app, tmp_path / "out", monkeypatch, "--gzip")
    index = (tmp_path / "out" / "sitemap_index.xml").read_bytes()
    names = {loc.rsplit("/", 1)[1] for loc, _ in parse_index(index)}
    expected = {"sitemap_index.xml", "robots.txt", "robots-sitemap.txt"} | names
    expected |= {f"{n}.gz" for n in names | {"sitemap_index.xml"}}
    expected |= {p.name for p in XSL_DIR.glob("*.xsl")}
    assert {p.name for p in (tmp_path / "out").iterdir()} == expected


def test_robots_lines_file(app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """robots-sitemap.txt holds the Sitemap: lines to paste."""
    run_export(app, tmp_path / "out", monkeypatch)
    text = (tmp_path / "out" / "robots-sitemap.txt").read_text()
    assert text == "Sitemap: http://example.test/sitemap_index.xml\n"


def test_xsl_files_are_copied(app: Flask, tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Stylesheets in xsl/ are exported (served bytes when routed, else the file)."""
    xsl = tmp_path / "xsl"
    xsl.mkdir()
    (xsl / "extra-sitemap.xsl").write_bytes(b"<xsl/>\n")
    monkeypatch.setattr(export, "XSL_DIR", xsl)
    run_export(app, tmp_path / "out", monkeypatch)
    assert (tmp_path / "out" / "extra-sitemap.xsl").read_bytes() == b"<xsl/>\n"


def test_gz_files_only_with_flag(app: Flask, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --gzip no .gz file is written."""
    run_export(app, tmp_path / "out", monkeypatch)
    assert not list((tmp_path / "out").glob("*.gz"))


def test_no_progress_bar_off_terminal(app: Flask, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Off a terminal the command prints one summary line and no bar."""
    output = run_export(app, tmp_path / "out", monkeypatch)
    written = sum(1 for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert output.splitlines() == [f"wrote {written} files to {tmp_path / 'out'}"]


def test_export_replaces_previous_directory(app: Flask, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A second export replaces the directory: stale files disappear, no temp dirs remain."""
    target = tmp_path / "out"
    target.mkdir()
    (target / "stale.xml").write_text("old")
    run_export(app, target, monkeypatch)
    assert not (target / "stale.xml").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "site0.sqlite"]


def test_failed_export_leaves_previous_directory(app: Flask, tmp_path: Path) -> None:
    """An error half-way leaves the old directory exactly as it was, and no temp dir."""
    target = tmp_path / "out"
    target.mkdir()
    (target / "sitemap_index.xml").write_text("previous")

    def failing() -> Iterator[tuple[str, bytes]]:
        files = site_files(service_of(app), with_gzip=False)
        yield next(files)
        yield next(files)
        raise ExportError("/page-sitemap.xml answered 503 SERVICE UNAVAILABLE")

    with pytest.raises(ExportError):
        write_atomically(target, failing())
    assert [p.name for p in target.iterdir()] == ["sitemap_index.xml"]
    assert (target / "sitemap_index.xml").read_text() == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "site0.sqlite"]


def test_server_error_fails_the_command(app: Flask, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A non-200 answer stops the command with exit code 2 and names the path."""
    monkeypatch.setattr(cli, "build_service", lambda overrides=None: service_of(app))
    real = export.fetch

    def broken(session: object, path: str) -> object:
        if path == "/page-sitemap.xml":
            raise ExportError(f"{path} answered 503 SERVICE UNAVAILABLE")
        return real(session, path)  # type: ignore[arg-type]

    monkeypatch.setattr(export, "fetch", broken)
    result = CliRunner().invoke(cli.main, ["export", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "/page-sitemap.xml answered 503" in result.output
    assert not (tmp_path / "out").exists()


def test_exported_files_are_world_readable(app: Flask, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The directory is 0755 and files 0644 so a web server can serve them."""
    run_export(app, tmp_path / "out", monkeypatch)
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o755
    assert (tmp_path / "out" / "robots.txt").stat().st_mode & 0o777 == 0o644


def test_progress_counts_every_sitemap(app: Flask) -> None:
    """The progress callback is sized to the index plus its sitemaps and reaches the end."""
    calls: list[int] = []

    def start(length: int) -> export.Progress:
        calls.append(length)
        return calls.append

    list(site_files(service_of(app), with_gzip=False, start=start))
    listed = app.test_client().get("/sitemap_index.xml").data.count(b"<sitemap>")
    assert listed >= 5
    assert calls[0] == listed + 1 and sum(calls[1:]) == listed + 1
