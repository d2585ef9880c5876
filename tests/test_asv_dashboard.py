"""The asv dashboard opens with no network (harness.asv_dashboard, `make bench-history`).

The unit tests build small npm-shaped tarballs here (no network); the end-to-end test
records two commits of the MVU solver benchmark with asv, publishes them, rewrites the
page and opens it in headless Chromium served from 127.0.0.1 with name resolution off.
It needs the real npm packages in the cache (`make bench-assets`; CI runs it) and
Chromium, and is skipped with that instruction otherwise.
"""

from __future__ import annotations

import functools
import http.server
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import threading
from pathlib import Path

import pytest

import harness.asv_dashboard as dash
from harness.asv_dashboard import (ASSETS, PACKAGES, NpmUnavailableError, fetch_packages,
                                   make_offline, sri, verify_tarball)
from harness.package_clients import CLIENT_COMMANDS
from tests.browser import CHROMIUM, INSTALL_HINT, served_dom

ASV_WWW = Path(__import__("asv").__file__).parent / "www"


def _tarball(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.fixture
def fake_registry(tmp_path, monkeypatch):
    """npm-shaped tarballs of every pinned package (small stand-in files), with
    PACKAGES pinned to their hashes; returns {spec: tarball bytes}."""
    members: dict[str, dict[str, bytes]] = {spec: {} for spec in PACKAGES}
    for asset in ASSETS:
        members[asset.package][asset.member] = f"/* {asset.member} */\n".encode()
    members["bootstrap@3.1.1"]["dist/fonts/glyphicons-halflings-regular.woff"] = b"font"
    members["jquery@3.3.1"]["dist/jquery.js"] = b"not copied"
    tarballs = {spec: _tarball(files) for spec, files in members.items()}
    monkeypatch.setattr(dash, "PACKAGES",
                        {spec: sri(data, "sha512") for spec, data in tarballs.items()})
    return tarballs


def _fill_cache(cache: Path, tarballs: dict[str, bytes]) -> Path:
    cache.mkdir(parents=True, exist_ok=True)
    for spec, data in tarballs.items():
        (cache / dash._tarball_name(spec)).write_bytes(data)
    return cache


def _asv_page(html: Path) -> Path:
    shutil.copytree(ASV_WWW, html)
    return html


def _tags(page: Path) -> list[str]:
    return re.findall(r"<(?:script|link)\b[^>]*>", page.read_text())


def test_every_external_file_of_asvs_page_is_mapped_and_rewritten(tmp_path, fake_registry):
    cache = _fill_cache(tmp_path / "cache", fake_registry)
    html = _asv_page(tmp_path / "html")
    external = [t for t in _tags(html / "index.html") if "https://" in t]
    assert len(external) == len(ASSETS)  # the installed asv's page, every CDN file known
    assert make_offline(html, cache) == [html / "index.html"]
    for tag in _tags(html / "index.html"):
        assert "http://" not in tag and "https://" not in tag, tag
        local = re.search(r'(?:src|href)="([^"]+)"', tag)
        if local is None or not local.group(1).startswith("vendor/"):
            continue
        copy = html / local.group(1)
        assert copy.read_bytes().startswith(b"/* ")  # the package's file, not a stub
        integrity = re.search(r'integrity="([^"]+)"', tag).group(1)
        assert integrity == sri(copy.read_bytes(), integrity.split("-")[0])
    # the stylesheet's relative font URLs resolve; files no asset names are not copied
    assert (html / "vendor/bootstrap@3.1.1/dist/fonts/glyphicons-halflings-regular.woff").is_file()
    assert not (html / "vendor/jquery@3.3.1/dist/jquery.js").exists()
    assert make_offline(html, cache) == []  # a second pass changes nothing


def test_an_external_file_no_package_maps_is_refused(tmp_path, fake_registry):
    cache = _fill_cache(tmp_path / "cache", fake_registry)
    html = _asv_page(tmp_path / "html")
    page = html / "index.html"
    page.write_text(page.read_text().replace(
        "</head>", '<script src="https://cdn.example.org/new.js"></script></head>'))
    with pytest.raises(ValueError, match="cdn.example.org/new.js.*ASSETS"):
        make_offline(html, cache)


def test_a_missing_page_names_asv_publish(tmp_path):
    with pytest.raises(FileNotFoundError, match="asv publish"):
        make_offline(tmp_path)


def _fake_npm(bin_dir: Path, tarballs: dict[str, bytes], log: Path, monkeypatch) -> None:
    """An `npm` that logs its arguments and packs the given tarballs into its working
    directory, put in place of the real one."""
    store = bin_dir / "store"
    _fill_cache(store, tarballs)
    script = bin_dir / "npm"
    script.write_text(
        f"#!{sys.executable}\n"
        "import shutil, sys\n"
        f"open({str(log)!r}, 'a').write(' '.join(sys.argv[1:]) + '\\n')\n"
        "spec = sys.argv[2]\n"
        "name, _, version = spec.rpartition('@')\n"
        f"shutil.copy({str(store)!r} + f'/{{name}}-{{version}}.tgz', '.')\n")
    script.chmod(0o755)
    monkeypatch.setitem(CLIENT_COMMANDS, "npm", lambda spec: [str(script), "pack", spec])


def test_packages_are_fetched_with_npm_pack_and_verified(tmp_path, fake_registry,
                                                         monkeypatch):
    log = tmp_path / "npm.log"
    _fake_npm(tmp_path / "bin", fake_registry, log, monkeypatch)
    cache = tmp_path / "cache"
    paths = fetch_packages(cache)
    assert [p.name for p in paths] == [dash._tarball_name(s) for s in PACKAGES]
    assert all(verify_tarball(p, s) for p, s in zip(paths, dash.PACKAGES))
    calls = log.read_text().splitlines()
    assert [c.split()[:2] for c in calls] == [["pack", s] for s in PACKAGES]
    fetch_packages(cache)  # verified tarballs are not fetched again
    assert len(log.read_text().splitlines()) == len(PACKAGES)


def test_a_tarball_that_is_not_the_published_one_is_refused(tmp_path, fake_registry,
                                                            monkeypatch):
    spec = "jquery@3.3.1"
    tampered = dict(fake_registry, **{spec: _tarball({"dist/jquery.min.js": b"evil"})})
    _fake_npm(tmp_path / "bin", tampered, tmp_path / "npm.log", monkeypatch)
    cache = tmp_path / "cache"
    with pytest.raises(NpmUnavailableError, match="jquery@3.3.1 is not the published one"):
        fetch_packages(cache)
    assert not (cache / dash._tarball_name(spec)).exists()  # nothing kept
    assert not any(cache.glob("tmp*"))


def test_without_npm_the_error_says_what_to_do(tmp_path, fake_registry, monkeypatch):
    monkeypatch.setitem(CLIENT_COMMANDS, "npm", lambda spec: ["no-such-npm-here", spec])
    with pytest.raises(NpmUnavailableError, match=r"apt-get install npm.*integrity sha512-"):
        fetch_packages(tmp_path / "cache")


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason=INSTALL_HINT)
def test_published_dashboard_draws_the_solver_benchmark_offline(tmp_path, repo_root):
    """asv records the MVU solver benchmark for two commits; the published page,
    made self-sufficient, draws its graph in Chromium and requests nothing outside
    127.0.0.1."""
    if not all(verify_tarball(dash.package_cache() / dash._tarball_name(s), s)
               for s in PACKAGES):
        pytest.skip(f"the npm packages are not in {dash.package_cache()}: run `make "
                    f"bench-assets` (CI does)")
    commits = subprocess.run(["git", "rev-list", "--max-count=2", "HEAD"], cwd=repo_root,
                             capture_output=True, text=True, check=True).stdout.split()
    branch = subprocess.run(["git", "rev-parse", "--abbrev-ref", "HEAD"], cwd=repo_root,
                            capture_output=True, text=True, check=True).stdout.strip()
    if len(commits) < 2 or branch == "HEAD":
        pytest.skip("needs a checked-out branch with two commits")
    conf = tmp_path / "asv.conf.json"
    conf.write_text(json.dumps({
        "version": 1, "project": "weinberger-harness", "repo": str(repo_root),
        "branches": [branch], "environment_type": "virtualenv",
        "benchmark_dir": str(repo_root / "benchmarks"),
        "results_dir": str(tmp_path / "results"), "html_dir": str(tmp_path / "html"),
        "env_dir": str(tmp_path / "env")}))
    bin_dir = Path(sys.executable).parent
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
               HARNESS_BENCH_MVU_SIZES="20,30", HARNESS_BENCH_MVU_BACKENDS="native")

    def asv(*args):
        return subprocess.run([str(bin_dir / "asv"), *args, "--config", str(conf)],
                              env=env, capture_output=True, text=True, timeout=600,
                              cwd=repo_root)

    asv("machine", "--yes")
    for commit in reversed(commits):
        done = asv("run", "--python=same", "--quick", "--set-commit-hash", commit,
                   "--bench", "MVUSolvers.time_solve")
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    done = asv("publish")
    assert done.returncode == 0, done.stderr[-2000:]
    make_offline(tmp_path / "html")

    handler = functools.partial(_QuietHandler, directory=str(tmp_path / "html"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        dom, requests = served_dom(f"{origin}/#bench_mvu_solvers.MVUSolvers.time_solve",
                                   origin, tmp_path / "chromium")
    finally:
        server.shutdown()
    assert requests == []
    assert "failed to load" not in dom
    assert dom.count('class="flot-base"') >= 1  # flot drew the graph's canvas
    ticks = re.findall(r'class="flot-tick-label[^"]*"[^>]*>([^<]*)<', dom)
    assert len(ticks) >= 3, ticks  # a labelled time axis


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_make_bench_history_publishes_an_offline_page_and_bench_show_serves_loopback(repo_root):
    """The Makefile's targets chain what the end-to-end test above checks."""
    done = subprocess.run(["make", "-n", "bench-history", "bench-show", "COMMITS=2",
                           "BENCH=MVUSolvers"], cwd=repo_root, capture_output=True,
                          text=True, check=True)
    lines = [line for line in done.stdout.splitlines() if "asv" in line or "http" in line]
    run = next(i for i, line in enumerate(lines) if " run " in line)
    publish = next(i for i, line in enumerate(lines) if line.endswith("asv publish"))
    offline = next(i for i, line in enumerate(lines) if "asv-offline .asv/html" in line)
    assert run < publish < offline
    assert "HEAD~2..HEAD" in lines[run] and "--bench 'MVUSolvers'" in lines[run]
    assert any("http.server --bind 127.0.0.1 --directory .asv/html" in line for line in lines)
