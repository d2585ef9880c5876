"""Synthetic STAND-IN for the thesis' "teapot" data set (not the thesis data).

The thesis (Weinberger 2007, Table 3.2) uses 400 colour images, 76 x 101 pixels x 3
channels (23028 dimensions), of a teapot turning through 360 degrees on a turntable.
Those images are not available offline, so this module renders a look-alike in numpy:
a teapot-shaped toy object rotating about the vertical axis, one frame per angle
``2 pi i / n_frames``. The frames therefore trace a closed 1-D loop in pixel space,
which is what the thesis' experiment needs (output dimension 2, circle-like layout).

The object is built from ellipsoids, each with its own colour: a body (blue, with
white spots placed at random by ``seed``), a lid and a lid knob, a spout tilted up on
one side (red) and a handle on the other side (green; a ring approximated by a chain
of small ellipsoids along a semicircle). Spout, handle and spots make it asymmetric,
so no two angles give the same image.

Rendering is an orthographic ray-caster, vectorised over pixels: every pixel's ray
points along the camera's viewing axis (tilted 20 degrees downwards), so intersecting
an ellipsoid is a quadratic in the ray's depth. The nearest hit wins; its colour is
shaded with a Lambertian term from a fixed light plus an ambient term, over a
constant background; each pixel averages 2 x 2 rays. Frame layout: ``X[i]`` is
image ``i`` of shape ``(height, width, 3)`` flattened row-major (row 0 = top, RGB
innermost).
"""

from __future__ import annotations

import numpy as np

from harness.plugin import Dataset, DatasetPlugin

__all__ = ["TeapotStandIn", "render_frames"]

ELEVATION = np.deg2rad(20.0)  # the camera looks down by this angle
LIGHT = np.array([-0.4, 0.6, -0.7]) / np.linalg.norm([-0.4, 0.6, -0.7])  # camera frame
AMBIENT, DIFFUSE = 0.3, 0.7
BACKGROUND = np.array([0.92, 0.92, 0.88])
SPOT_COLOUR = np.array([0.95, 0.95, 0.95])
SPOT_COS = np.cos(0.28)  # angular radius of the spots on the body
FIELD = (4.0, 3.0)  # width and height of the scene (object units) that must fit
SUPERSAMPLE = 2  # rays per pixel along each image axis


def _axes_towards(direction):
    """Orthonormal axes, as columns of a (3, 3) array, the first along ``direction``.

    ``direction`` (array_like of shape (3,)) must lie in the object's x-y plane.
    """
    d = np.asarray(direction, dtype=float) / np.linalg.norm(direction)
    side = np.array([-d[1], d[0], 0.0])
    return np.column_stack([d, side, np.cross(d, side)])


def build_parts():
    """The object as a list of ellipsoids in its own frame (y up, spout towards +x).

    Returns
    -------
    list of tuple
        ``(centre, axes, radii, colour, is_body)``: centre (3,), axes (3, 3) with the
        ellipsoid's axes as columns, semi-axis lengths (3,), RGB colour (3,), and
        whether the part carries the spot texture.
    """
    eye = np.eye(3)
    parts = [
        ((0.0, 0.0, 0.0), eye, (1.0, 0.75, 1.0), (0.25, 0.45, 0.75), True),   # body
        ((0.0, 0.68, 0.0), eye, (0.58, 0.13, 0.58), (0.35, 0.55, 0.85), False),  # lid
        ((0.0, 0.86, 0.0), eye, (0.13, 0.13, 0.13), (0.95, 0.80, 0.20), False),  # knob
    ]
    spout_dir = np.array([np.cos(np.deg2rad(40.0)), np.sin(np.deg2rad(40.0)), 0.0])
    spout_centre = np.array([0.8, -0.15, 0.0]) + 0.6 * spout_dir
    parts.append((spout_centre, _axes_towards(spout_dir), (0.6, 0.15, 0.15),
                  (0.85, 0.30, 0.20), False))
    arc = np.deg2rad(np.linspace(-105.0, 105.0, 9))  # handle: ring on the -x side
    seg = 0.45 * (arc[1] - arc[0]) * 0.8
    for a in arc:
        centre = np.array([-0.9 - 0.45 * np.cos(a), 0.05 + 0.45 * np.sin(a), 0.0])
        tangent = [np.sin(a), np.cos(a), 0.0]
        parts.append((centre, _axes_towards(tangent), (seg, 0.09, 0.09),
                      (0.30, 0.70, 0.35), False))
    return [tuple(np.asarray(p, dtype=float) for p in part[:4]) + (part[4],)
            for part in parts]


def view_matrix(angle):
    """Map object coordinates to camera coordinates for one turntable angle.

    Parameters
    ----------
    angle : float
        Rotation of the object about its vertical (y) axis, in radians.

    Returns
    -------
    ndarray of shape (3, 3)
        Rows: camera right, camera up, viewing direction (depth grows along it).
    """
    c, s = np.cos(angle), np.sin(angle)
    turn = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    ce, se = np.cos(ELEVATION), np.sin(ELEVATION)
    tilt = np.array([[1.0, 0.0, 0.0], [0.0, ce, se], [0.0, -se, ce]])
    return tilt @ turn


def _intersect(u, v, centre, quad):
    """Depth of the first hit of orthographic rays ``(u, v, t)`` with an ellipsoid.

    Parameters
    ----------
    u, v : ndarray
        Ray coordinates on the image plane (camera frame), broadcast together.
    centre : ndarray of shape (3,)
        Ellipsoid centre, camera frame.
    quad : ndarray of shape (3, 3)
        Quadratic form ``M``: the ellipsoid is ``(x - centre)^T M (x - centre) = 1``.

    Returns
    -------
    ndarray
        Depth ``t`` of the nearest hit, ``inf`` where the ray misses.
    """
    du, dv = u - centre[0], v - centre[1]
    b = quad[0, 2] * du + quad[1, 2] * dv
    c = quad[0, 0] * du * du + 2.0 * quad[0, 1] * du * dv + quad[1, 1] * dv * dv - 1.0
    disc = b * b - quad[2, 2] * c
    hit = disc >= 0.0
    w = (-b - np.sqrt(np.where(hit, disc, 0.0))) / quad[2, 2]
    return np.where(hit, centre[2] + w, np.inf)


def _render_frame(view, parts, spots, u, v):
    """Ray-cast one frame.

    Parameters
    ----------
    view : ndarray of shape (3, 3)
        Object-to-camera rotation (:func:`view_matrix`).
    parts : list of tuple
        The object (:func:`build_parts`).
    spots : ndarray of shape (n_spots, 3)
        Unit vectors of the spot centres on the body, in the body's frame.
    u : ndarray of shape (n_cols,)
        Increasing camera-frame x of the pixel columns.
    v : ndarray of shape (n_rows,)
        Decreasing camera-frame y of the pixel rows (row 0 at the top).

    Returns
    -------
    ndarray of shape (n_rows, n_cols, 3)
    """
    depth = np.full((v.size, u.size), np.inf)
    winner = np.full(depth.shape, -1)
    placed = []
    for k, (centre, axes, radii, _, _) in enumerate(parts):
        cam_axes, cam_centre = view @ axes, view @ centre
        quad = cam_axes @ np.diag(radii ** -2.0) @ cam_axes.T
        # Only the pixels inside the bounding box of the ellipsoid's outline.
        half = np.sqrt(np.diag(cam_axes @ np.diag(radii ** 2) @ cam_axes.T))
        cols = slice(*np.searchsorted(u, cam_centre[0] + np.array([-1, 1]) * half[0]))
        rows = slice(*np.searchsorted(-v, -cam_centre[1] + np.array([-1, 1]) * half[1]))
        placed.append((cam_centre, quad, cam_axes, rows, cols))
        t = _intersect(u[None, cols], v[rows, None], cam_centre, quad)
        nearer = t < depth[rows, cols]
        depth[rows, cols][nearer], winner[rows, cols][nearer] = t[nearer], k
    image = np.tile(BACKGROUND, depth.shape + (1,))
    for k, (_, _, radii, colour, is_body) in enumerate(parts):
        cam_centre, quad, cam_axes, rows, cols = placed[k]
        ri, ci = np.nonzero(winner[rows, cols] == k)
        ri, ci = ri + (rows.start or 0), ci + (cols.start or 0)
        q = np.column_stack([u[ci], v[ri], depth[ri, ci]]) - cam_centre
        normal = q @ quad  # gradient of the quadratic form (M is symmetric)
        normal /= np.linalg.norm(normal, axis=1, keepdims=True)
        shade = AMBIENT + DIFFUSE * np.clip(normal @ LIGHT, 0.0, None)
        rgb = np.tile(colour, (ri.size, 1))
        if is_body:  # soft-edged spots fixed on the surface, in the body's frame
            local = (q @ cam_axes) / radii
            cover = np.clip(((local @ spots.T).max(axis=1) - SPOT_COS) / 0.03, 0.0, 1.0)
            rgb += cover[:, None] * (SPOT_COLOUR - rgb)
        image[ri, ci] = rgb * shade[:, None]
    return image


def render_frames(angles, height, width, seed=0):
    """Render the object at each turntable angle, ``SUPERSAMPLE**2`` rays per pixel.

    Parameters
    ----------
    angles : array_like of shape (n_frames,)
        Rotation angles in radians.
    height, width : int
        Image size in pixels.
    seed : int
        Seed of the spot texture on the body.

    Returns
    -------
    ndarray of shape (n_frames, height, width, 3)
        RGB images, float64 in [0, 1].
    """
    parts = build_parts()
    spots = np.random.default_rng(seed).normal(size=(12, 3))
    spots /= np.linalg.norm(spots, axis=1, keepdims=True)
    ss = SUPERSAMPLE
    scale = max(FIELD[0] / width, FIELD[1] / height)  # object units per pixel
    u = ((np.arange(width * ss) + 0.5) / ss - width / 2.0) * scale
    v = (height / 2.0 - (np.arange(height * ss) + 0.5) / ss) * scale + 0.07
    angles = np.asarray(angles, dtype=float)
    frames = np.empty((angles.size, height, width, 3))
    for f, angle in enumerate(angles):
        image = _render_frame(view_matrix(angle), parts, spots, u, v)
        frames[f] = image.reshape(height, ss, width, ss, 3).mean(axis=(1, 3))
    return np.clip(frames, 0.0, 1.0)


def _check_int(name, value, minimum):
    """Return ``value`` as int, or raise ValueError naming the argument."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


class TeapotStandIn(DatasetPlugin):
    """Synthetic stand-in for the thesis' teapot images (see the module docstring)."""

    name = "teapot_standin"
    thesis_name = "teapot"
    stand_in_for = "teapot"
    tasks = ("embedding",)
    params = {"n_frames": 400, "height": 76, "width": 101, "seed": 0}
    description = ("Synthetic stand-in for the thesis' teapot images: a teapot-like "
                   "object rotating through 360 degrees, rendered in numpy")

    def load(self, n_frames=400, height=76, width=101, seed=0) -> Dataset:
        """Render the rotating object.

        Parameters
        ----------
        n_frames : int, default 400
            Number of frames (>= 3), at angles ``2 pi i / n_frames``.
        height, width : int, default 76, 101
            Image size in pixels.
        seed : int, default 0
            Seed of the spot texture; the output is deterministic given it.

        Returns
        -------
        Dataset
            ``X`` of shape ``(n_frames, height * width * 3)`` (each frame an
            ``(height, width, 3)`` RGB image flattened row-major), float64 in [0, 1];
            ``y`` the rotation angle in radians.
        """
        n_frames = _check_int("n_frames", n_frames, 3)
        height = _check_int("height", height, 1)
        width = _check_int("width", width, 1)
        seed = _check_int("seed", seed, 0)
        angles = 2.0 * np.pi * np.arange(n_frames) / n_frames
        X = render_frames(angles, height, width, seed).reshape(n_frames, -1)
        meta = {
            "source": "generated",
            "stand_in_for": "teapot",
            "thesis_name": "teapot",
            "description": self.description,
            "angles": "evenly spaced over [0, 2pi)",
            "image_shape": [height, width, 3],
        }
        return Dataset(X=X, y=angles, meta=meta)
