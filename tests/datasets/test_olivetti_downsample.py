"""The Olivetti plugin's readings of "downsampled to 38x31 pixels" (thesis 2.1.8)."""

import numpy as np
import pytest

from harness.datasets.olivetti import RESAMPLE, downsample


def test_block3_is_the_mean_of_3x3_blocks_with_edge_padding():
    image = np.arange(112 * 92, dtype=np.float64).reshape(112, 92)
    small = downsample(image, "block3")
    assert small.shape == (38, 31)
    assert small[0, 0] == pytest.approx(image[:3, :3].mean())  # 1 * 92 + 1
    assert small[0, 0] == 93.0
    # last block row: rows 111, 111, 111 (row 111 repeated twice), columns 0..2
    assert small[37, 0] == pytest.approx(111 * 92 + 1.0)
    # last block column: columns 90, 91, 91
    assert small[0, 30] == pytest.approx((90 + 91 + 91) / 3 + 92.0)


def test_every_reading_gives_38x31_and_keeps_a_constant_image():
    flat = np.full((112, 92), 0.25)
    for rule in RESAMPLE:
        out = downsample(flat, rule)
        assert out.shape == (38, 31)
        np.testing.assert_allclose(out, 0.25, atol=1e-12)
    with pytest.raises(ValueError, match="resample must be one of"):
        downsample(flat, "lanczos")


@pytest.mark.parametrize("bad", [0, 401, 2.5, "200"])
def test_a_bad_eigenface_count_is_refused_before_reading_naming_the_range(bad):
    from harness.datasets.olivetti import Olivetti
    with pytest.raises(ValueError, match=r"n_components must be None .* 1\.\.400"):
        Olivetti().parse("no-such-file.zip", n_components=bad)
