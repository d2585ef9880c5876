"""Make the dashboard ``asv publish`` writes open with no network: its scripts and
styles are taken from the npm registry, verified, and stored beside the page.

asv 0.6's ``index.html`` loads jQuery, flot, bootstrap, stupidtable and blueimp-md5
from content-delivery hosts; offline it shows only "One or more external
(JavaScript) dependencies of airspeed velocity failed to load". :func:`make_offline`
rewrites every such ``<script src>`` / ``<link href>`` to a copy under
``vendor/<package>@<version>/`` next to the page, taken out of the npm package of
that name and version (:data:`ASSETS`). The packages are fetched by
:func:`fetch_packages` with the user's own ``npm pack`` (so a configured mirror or
proxy is honoured; :mod:`harness.package_clients`) and kept only if the tarball hashes to the integrity the registry
publishes for it (pinned in :data:`PACKAGES`: a changed package is refused, never
used).

Where the npm file is byte-identical to the page's CDN file (jQuery, bootstrap,
flot-orderbars, blueimp-md5) the page's own ``integrity`` attribute still holds and
is kept, so the browser checks the copy too. Two are not: npm's ``flot@0.8.3``
ships only the unminified sources of the files cdnjs serves minified, and
stupidtable 1.0.1 is not on npm at all (its npm name, ``stupid-table-plugin``, has
only 1.1.3, the same plugin's next release with the same ``$.fn.stupidtable`` API);
for these the attribute is replaced by the hash of the verified copy.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import re
import tarfile
from pathlib import Path

from harness.data_cache import data_dir
from harness.package_clients import fetch_with_client
from harness.records import write_bytes_atomic

__all__ = ["ASSETS", "PACKAGES", "Asset", "NpmUnavailableError", "fetch_packages",
           "make_offline", "package_cache", "sri", "verify_tarball"]

#: npm package -> the ``dist.integrity`` the registry publishes for its tarball
#: (``npm view SPEC dist.integrity``, read 2026-11-25)
PACKAGES = {
    "jquery@3.3.1": "sha512-Ubldcmxp5np52/ENotGxlLe6aGMvmF4R8S6tZjsP6Knsaxd/xp3Zrh50cG93lR6nPXyUFwzN3ZSOQI0wRJNdGg==",
    "flot@0.8.3": "sha512-xg2otcTJDvS+ERK+my4wxG/ASq90QURXtoM4LhacCq0jQW2jbyjdttbRNqU2cPykrpMvJ6b2uSp6SAgYAzj9tQ==",
    "flot-orderbars@1.0.0": "sha512-Jv51fvzevUjNXEeozpwEKfPjhiZhfiJddv0WHjduUTCmSF+7T5K7C9c9Y1wIVmUhDBv5fLMjgbwKecT0GIKPZA==",
    "stupid-table-plugin@1.1.3": "sha512-2Vk7XouQPxUQPRe9w0Fu7ZZ8kHLK7rDoLMsCgtKxRNJ7f4dSOGvW9CkHsq5wD6QsaEnWoyLBYH3xOEsrK3yWBg==",
    "blueimp-md5@2.19.0": "sha512-DRQrD6gJyy8FbiE4s+bDoXS9hiW3Vbx5uCdwvcCf3zLHL+Iv7LtGHLpr+GZV8rHG8tK766FGYBwRbu8pELTt+w==",
    "bootstrap@3.1.1": "sha512-TAzqS8E/ISpVHP29gYhy+1NSV+FJwApDVQhDfgLYsIuUDJiqJzH2DfORN5tiu+Ie2iBLrzEG34t4Rf465cigqg==",
}

_CDNJS = "https://cdnjs.cloudflare.com/ajax/libs/"
_JSDELIVR = "https://cdn.jsdelivr.net/npm/"


@dataclasses.dataclass(frozen=True)
class Asset:
    """One external file of the page and where npm has it.

    Attributes
    ----------
    url : str
        The URL as the page names it.
    package : str
        ``name@version`` of the npm package (a key of :data:`PACKAGES`).
    member : str
        The file's path inside the package (below the tarball's ``package/``).
    siblings : str
        A folder of the package copied along (the stylesheet's relative font URLs).
    """

    url: str
    package: str
    member: str
    siblings: str = ""

    @property
    def local(self) -> str:
        """The page-relative path of the copy."""
        return f"vendor/{self.package}/{self.member}"


ASSETS = (
    Asset("https://code.jquery.com/jquery-3.3.1.min.js", "jquery@3.3.1", "dist/jquery.min.js"),
    Asset(_CDNJS + "flot/0.8.3/jquery.flot.min.js", "flot@0.8.3", "jquery.flot.js"),
    Asset(_CDNJS + "flot/0.8.3/jquery.flot.time.min.js", "flot@0.8.3", "jquery.flot.time.js"),
    Asset(_CDNJS + "flot/0.8.3/jquery.flot.selection.min.js", "flot@0.8.3",
          "jquery.flot.selection.js"),
    Asset(_CDNJS + "flot/0.8.3/jquery.flot.categories.min.js", "flot@0.8.3",
          "jquery.flot.categories.js"),
    Asset(_JSDELIVR + "flot-orderbars@1.0.0/js/jquery.flot.orderBars.js", "flot-orderbars@1.0.0",
          "js/jquery.flot.orderBars.js"),
    Asset(_CDNJS + "stupidtable/1.0.1/stupidtable.min.js", "stupid-table-plugin@1.1.3",
          "stupidtable.min.js"),
    Asset(_CDNJS + "blueimp-md5/2.19.0/js/md5.min.js", "blueimp-md5@2.19.0", "js/md5.min.js"),
    Asset(_JSDELIVR + "bootstrap@3.1.1/dist/js/bootstrap.min.js", "bootstrap@3.1.1",
          "dist/js/bootstrap.min.js"),
    Asset(_JSDELIVR + "bootstrap@3.1.1/dist/css/bootstrap.min.css", "bootstrap@3.1.1",
          "dist/css/bootstrap.min.css", siblings="dist/fonts/"),
)

# a <script ...> or <link ...> start tag, and one src/href/integrity attribute in it
_TAG = re.compile(r"<(?:script|link)\b[^>]*>", re.IGNORECASE)
_URL_ATTR = re.compile(r'\b(src|href)="(https?://[^"]+)"')
_INTEGRITY = re.compile(r'\s*\bintegrity="([^"]*)"')


class NpmUnavailableError(RuntimeError):
    """A package could not be fetched (no npm, no registry) or failed its check."""


def package_cache() -> Path:
    """Where the verified npm tarballs are kept: ``<data cache>/npm``
    (``$HARNESS_DATA_DIR/npm`` when that is set)."""
    return data_dir() / "npm"


def sri(data: bytes, algorithm: str = "sha384") -> str:
    """The subresource-integrity string (``sha384-<base64>``) of ``data``."""
    return f"{algorithm}-" + base64.b64encode(hashlib.new(algorithm, data).digest()).decode()


def _tarball_name(spec: str) -> str:
    name, _, version = spec.rpartition("@")
    return f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"


def verify_tarball(path: Path, spec: str) -> bool:
    """Whether the tarball at ``path`` hashes to the pinned integrity of ``spec``."""
    algorithm = PACKAGES[spec].split("-", 1)[0]
    return path.is_file() and sri(path.read_bytes(), algorithm) == PACKAGES[spec]


def fetch_packages(cache: Path | None = None) -> list[Path]:
    """Every package of :data:`PACKAGES` as a verified tarball in ``cache``.

    Tarballs already there and verified are kept; the others are fetched with
    ``npm pack SPEC`` (:mod:`harness.package_clients`: the user's npm configuration,
    registry, mirror, proxy) and kept only if they hash to the pinned integrity.

    Raises
    ------
    NpmUnavailableError
        npm is missing or failed, or a tarball is not the published one.
    """
    cache = Path(cache) if cache is not None else package_cache()
    out = []
    for spec, integrity in PACKAGES.items():
        target = cache / _tarball_name(spec)
        if not verify_tarball(target, spec):
            try:
                fetch_with_client("npm", spec, target, integrity, error=NpmUnavailableError,
                                  digest=lambda data: sri(data, integrity.split("-")[0]))
            except NpmUnavailableError as exc:
                raise NpmUnavailableError(
                    f"{exc}; or put the registry's tarball of {spec} at {target} by hand "
                    f"(integrity {integrity})") from None
        out.append(target)
    return out


def _members(tarball: Path, asset: Asset) -> dict[str, bytes]:
    """The asset's file and its sibling folder's files, by path inside the package."""
    wanted, out = f"package/{asset.member}", {}
    folder = f"package/{asset.siblings}" if asset.siblings else None
    with tarfile.open(tarball, "r:gz") as tar:
        for info in tar.getmembers():
            if info.isfile() and (info.name == wanted
                                  or (folder and info.name.startswith(folder))):
                out[info.name.removeprefix("package/")] = tar.extractfile(info).read()
    if asset.member not in out:
        raise NpmUnavailableError(f"{asset.package} has no file {asset.member}")
    return out


def _rewrite_tag(tag: str, assets: dict[str, Asset],
                 copies: dict[str, dict[str, bytes]]) -> str:
    """``tag`` with its external URL replaced by the local copy's path, and its
    integrity attribute by the copy's hash where npm's file is not the CDN's."""
    found = _URL_ATTR.search(tag)
    if found is None:
        return tag
    url = found.group(2)
    if url not in assets:
        raise ValueError(
            f"the page loads {url}, which harness.asv_dashboard.ASSETS does not map to an "
            f"npm package: add it there (a newer asv may have changed its page)")
    asset = assets[url]
    tag = tag.replace(found.group(0), f'{found.group(1)}="{asset.local}"')
    integrity = _INTEGRITY.search(tag)
    if integrity:
        data = copies[asset.package][asset.member]
        algorithm = integrity.group(1).split("-", 1)[0]
        if sri(data, algorithm) != integrity.group(1):  # npm's file is not the CDN's
            tag = tag.replace(integrity.group(0), f' integrity="{sri(data)}"')
    return tag


def make_offline(html_dir: str | Path, cache: Path | None = None) -> list[Path]:
    """Rewrite every HTML page of ``html_dir`` to load its scripts and styles from
    ``html_dir/vendor/`` and write those copies from the verified npm tarballs.

    Returns
    -------
    list of Path
        The pages rewritten.

    Raises
    ------
    ValueError
        A page loads an external file that :data:`ASSETS` does not know.
    NpmUnavailableError
        A package is missing from ``cache`` and cannot be fetched.
    """
    html_dir = Path(html_dir)
    if not (html_dir / "index.html").is_file():
        raise FileNotFoundError(f"{html_dir} has no index.html: run `asv publish` first")
    tarballs = dict(zip(PACKAGES, fetch_packages(cache)))
    assets = {asset.url: asset for asset in ASSETS}
    copies: dict[str, dict[str, bytes]] = {}
    for asset in ASSETS:
        files = _members(tarballs[asset.package], asset)
        copies.setdefault(asset.package, {}).update(files)
    rewritten = []
    for page in sorted(html_dir.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        new = _TAG.sub(lambda tag: _rewrite_tag(tag.group(0), assets, copies), text)
        if new != text:
            write_bytes_atomic(page, new.encode("utf-8"))
            rewritten.append(page)
    for package, files in copies.items():
        for member, data in files.items():
            write_bytes_atomic(html_dir / "vendor" / package / member, data)
    return rewritten

