"""Face, eye and cat-face detection with OpenCV's Haar cascades (no model weights needed).

Public: detect_faces, detect_eyes, detect_cat_faces.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ..images import ImageLike
from . import _cascade, neural
from ._cascade import CascadeModel
from ._checks import fraction, gray, image_rgb, size_range
from ._results import detection

# Scores are calibrated on scikit-image photos (astronaut, chelsea, coffee,
# coins, ...) shifted, flipped, rescaled and pasted into other photos. Faces
# and eyes: real ones score >= 0.85, false hits on photos without them <= 0.2.
# Cat faces (a weaker cascade): real ones 0.67-0.9, false hits up to ~0.46.
FACE = CascadeModel(
    file="haarcascade_frontalface_alt2.xml",
    window=20,
    pad=0.15,
    angles=(0.0,),
    scale_factor=1.1,
    midpoint=2.2,   # ~9 supporting windows
    slope=2.5,
)
# Faces turned sideways (one direction; run on the mirror image for the other):
# detect_people anchors people whose body is out of frame on these too.
PROFILE = CascadeModel(
    file="haarcascade_profileface.xml",
    window=20,
    pad=0.15,
    angles=(0.0,),
    scale_factor=1.1,
    midpoint=2.2,
    slope=2.5,
)
EYE = CascadeModel(
    file="haarcascade_eye.xml",
    window=20,
    pad=0.05,
    angles=(0.0,),
    scale_factor=1.1,
    midpoint=3.4,  # eyes fire on many windows; ~30 supporting windows
    slope=2.5,
)
CAT_FACE = CascadeModel(
    file="haarcascade_frontalcatface_extended.xml",
    window=24,
    pad=0.25,
    angles=(-8.0, 0.0, 8.0),
    scale_factor=1.05,
    midpoint=2.8,
    slope=2.5,
    weight_gain=2.0,
    size_divisor=20,  # cat faces in photos are rarely tiny; three tilts x padding cost 7x a face search
)


def _run(
    fn: str,
    label: str,
    model: CascadeModel,
    image: ImageLike,
    box_threshold: Any,
    min_size: Any,
    max_size: Any,
) -> List[Dict[str, Any]]:
    threshold = fraction(box_threshold, fn, "box_threshold")
    low, high = size_range(min_size, max_size, fn)
    pixels = gray(image_rgb(image, fn))
    height, width = pixels.shape
    found = _cascade.detect(pixels, model, threshold, low, high)
    return [detection(label, c.score, c.box, width, height) for c in found]


def detect_faces(
    image: ImageLike,
    box_threshold: float = 0.5,
    min_size: Optional[int] = None,
    max_size: Optional[int] = None,
    method: str = "auto",
) -> List[Dict[str, Any]]:
    """Find human faces (by default a neural face detector on the Argus server; classically a Haar cascade).

    When to use: counting or locating people's faces, blurring faces, cropping
    portraits, as a first step before detect_eyes. The neural detector finds
    turned, tilted and smaller faces too (6/9 face counts on real photos vs
    3/9 for Haar); the Haar cascade only roughly frontal, upright faces (up to
    ~20 degrees of turn or tilt). Both miss very small faces in a group on a
    stage; there crop and enlarge. Confirm doubtful results with vqa on a crop.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        box_threshold: minimum score in [0, 1] (default 0.5). Lower it (e.g. 0.2)
            to see weaker candidates; raise it (e.g. 0.8) to keep only sure faces.
        min_size: smallest face side in pixels to look for. Default: 1/40 of the
            image's longer edge (at least 20 px), which keeps large photos fast;
            pass a smaller value to find tiny faces in a big group photo (slower).
        max_size: largest face side in pixels (default: no limit).
        method: "auto" (default): "neural" when an Argus server is reachable
            (in an Argus kernel, or ARGUS_URL set), else "classical" with a
            note on stderr. "neural": the server's face model (adds
            "keypoints"; min_size/max_size then filter its boxes).
            "classical": the Haar cascade in the kernel. Haar is not mixed in
            for small faces: on the real-photo set it found none the neural
            detector missed (python/tests/real_photos_everyday.py, faces).

    Returns:
        A list of {"label": "face", "score": float, "bbox": [x1, y1, x2, y2]},
        best score first; bbox in pixels (x2, y2 exclusive), square, covering
        eyebrows to mouth. Empty list when no face is found.

    Example:
        faces = detect_faces("team.jpg")
        print(len(faces), "faces")
        view_image(overlay_bounding_boxes("team.jpg", faces))
    """
    fn = "detect_faces"
    low, high = size_range(min_size, max_size, fn)
    threshold = fraction(box_threshold, fn, "box_threshold")
    return neural.by_method(method, fn, lambda: neural.faces(image, threshold, low, high),
                            lambda: _run(fn, "face", FACE, image, box_threshold, min_size, max_size))


def detect_eyes(
    image: ImageLike, box_threshold: float = 0.5, min_size: Optional[int] = None, max_size: Optional[int] = None
) -> List[Dict[str, Any]]:
    """Find open human eyes (Haar cascade).

    When to use: checking whether eyes are open, locating eyes for alignment or
    redaction. Eyes are small, so for people far away first crop each face
    found by detect_faces (with some margin) and run detect_eyes on the crop;
    add the crop's top-left corner to the returned boxes. Closed eyes and eyes
    behind dark glasses are usually not found.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        box_threshold: minimum score in [0, 1] (default 0.5).
        min_size: smallest eye side in pixels (default: 1/40 of the longer edge, at least 20 px).
        max_size: largest eye side in pixels (default: no limit).

    Returns:
        A list of {"label": "eye", "score": float, "bbox": [x1, y1, x2, y2]}
        (pixels), best score first. Empty list when none is found.
    """
    return _run("detect_eyes", "eye", EYE, image, box_threshold, min_size, max_size)


def detect_cat_faces(
    image: ImageLike, box_threshold: float = 0.5, min_size: Optional[int] = None, max_size: Optional[int] = None
) -> List[Dict[str, Any]]:
    """Find cat faces seen from the front (Haar cascade, tries small head tilts).

    When to use: counting or locating cats' faces in photos, including
    close-ups where the face fills the frame. Less reliable than detect_faces
    (cat cascades are weaker): expect misses for turned heads and the odd false
    hit on fur-like texture; confirm with vqa on a crop when it matters. It does
    not find dogs or other animals.

    Args:
        image: a file path, RGB numpy array, PIL image or video frame dict.
        box_threshold: minimum score in [0, 1] (default 0.5); lower it (e.g.
            0.2) to see weaker candidates.
        min_size: smallest face side in pixels (default: 1/20 of the longer
            edge, at least 24 px); pass a smaller value for small cats in a big photo (slower).
        max_size: largest face side in pixels (default: no limit).

    Returns:
        A list of {"label": "cat face", "score": float, "bbox": [x1, y1, x2, y2]}
        (pixels, clipped to the image), best score first. Empty list when none is found.
    """
    return _run("detect_cat_faces", "cat face", CAT_FACE, image, box_threshold, min_size, max_size)
