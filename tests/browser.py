"""Open a local HTML page in headless Chromium with name resolution switched off, take a
screenshot and list every network request the page itself made (from Chromium's NetLog).

Used by the report test: it checks that the report renders (styles applied, embedded
PNG figures decoded) and that it asks the network for nothing. Chromium is Debian's
``chromium`` package; without it the caller skips with that instruction.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np

__all__ = ["CHROMIUM", "INSTALL_HINT", "render_offline", "served_dom"]

CHROMIUM = next((path for name in ("chromium", "chromium-browser", "google-chrome")
                 if (path := shutil.which(name))), None)
INSTALL_HINT = "no Chromium on PATH: `apt-get install chromium` to render the report in a browser"

# Chromium's own background traffic (updates, sync, spell-check dictionaries) is
# switched off where a flag allows and told apart from the page's requests below.
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--disable-default-apps",
         "--disable-features=AutofillServerCommunication",
         "--host-resolver-rules=MAP * ~NOTFOUND")


def _page_requests(net_log: Path, origin: str = "file://") -> list[str]:
    """URLs outside ``origin`` that the page (a document of ``origin``) asked for,
    from a Chromium NetLog.

    Requests on the page's behalf carry the page's network isolation key (its
    scheme and host); the browser's own service requests carry another or none.
    """
    log = json.loads(net_log.read_text())
    start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    site = origin.rsplit(":", 1)[0] if origin.count(":") > 1 else origin  # no port
    return sorted({event["params"]["url"] for event in log["events"]
                   if event["type"] == start_job
                   and event.get("params", {}).get("network_isolation_key", "").startswith(site)
                   and not event["params"]["url"].startswith(("file:", "data:", origin))})


def render_offline(page: Path, workdir: Path, width: int = 1280,
                   height: int = 8000) -> tuple[np.ndarray, list[str]]:
    """Screenshot ``page`` in headless Chromium with DNS disabled.

    Returns
    -------
    pixels : ndarray of shape (height, width, 3), uint8
        The rendered page.
    requests : list of str
        The non-local URLs the page requested (empty for a self-contained page).
    """
    from PIL import Image

    if CHROMIUM is None:
        raise RuntimeError(INSTALL_HINT)
    workdir.mkdir(parents=True, exist_ok=True)
    screenshot, net_log = workdir / "page.png", workdir / "netlog.json"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={workdir / 'profile'}",
                    f"--window-size={width},{height}", f"--log-net-log={net_log}",
                    f"--screenshot={screenshot}", page.resolve().as_uri()],
                   check=True, capture_output=True, timeout=120)
    pixels = np.asarray(Image.open(screenshot).convert("RGB"))
    return pixels, _page_requests(net_log)


def served_dom(url: str, origin: str, workdir: Path,
               budget_ms: int = 15000) -> tuple[str, list[str]]:
    """The DOM of a page served at ``url`` (e.g. by a local ``http.server`` on
    127.0.0.1) after its scripts ran for ``budget_ms`` of virtual time, in headless
    Chromium with name resolution off.

    Returns
    -------
    dom : str
        The serialised DOM (what the scripts drew: canvases, labels, legends).
    requests : list of str
        The URLs outside ``origin`` that the page requested (empty when it needs no
        network).
    """
    if CHROMIUM is None:
        raise RuntimeError(INSTALL_HINT)
    workdir.mkdir(parents=True, exist_ok=True)
    net_log = workdir / "netlog.json"
    # every name still resolves to nothing; the loopback address the page is served
    # from is let through (the rule maps IP literals too)
    flags = [f"{flag}, EXCLUDE 127.0.0.1" if flag.startswith("--host-resolver-rules")
             else flag for flag in FLAGS]
    done = subprocess.run([CHROMIUM, *flags, f"--user-data-dir={workdir / 'profile'}",
                           "--window-size=1280,1000", f"--log-net-log={net_log}",
                           f"--virtual-time-budget={budget_ms}", "--dump-dom", url],
                          check=True, capture_output=True, text=True, timeout=180)
    return done.stdout, _page_requests(net_log, origin)
