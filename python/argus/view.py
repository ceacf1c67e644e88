"""view_image: show a picture to the planner model in its next turn.

The picture is published as an IPython display_data message whose metadata
carries {"argus": {"view": true, ...}}; the Argus server looks for that marker
and attaches the PNG to the model's next turn. Outside IPython nothing is shown.
"""

import base64
from typing import Any, List, Optional, Tuple

from ._convert import matplotlib_figure, type_name
from .images import ImageLike, as_rgb, to_png_bytes

# The server shrinks images to a long edge of 1568 px for the model anyway;
# capping here keeps display messages and the saved notebook small while
# leaving the server room to choose.
VIEW_MAX_EDGE = 2048


def view_image(obj: ImageLike, title: Optional[str] = None) -> None:
    """Look at an image yourself: it is attached to your NEXT turn as a picture.

    Use it whenever you need to see something: an input image, a crop, a
    detection overlay (view_image(overlay_bounding_boxes(img, dets))), a
    matplotlib plot (view_image(fig) or view_image(ax)).

    Args:
        obj: anything load_image accepts (numpy array, PIL image, file path,
            matplotlib Figure or Axes, a video frame dict), or a list of them
            (each is shown; the same figure only once).
        title: optional short caption, e.g. "crop of the left shelf".

    Returns:
        None. Images larger than 2048 px on the long edge are shrunk for
        display; the caption reports the ORIGINAL width x height, which is the
        coordinate system to use for boxes. Outside a Jupyter kernel nothing is
        displayed (the input is still checked).
    """
    if title is not None and not isinstance(title, str):
        raise TypeError(f"view_image: title must be a string or None, got {type_name(title)}")
    pictures = [(_caption(item, title), as_rgb(item, "view_image", argument)) for item, argument in _items(obj)]

    shell, display = _ipython_display()
    if shell is None:
        return None
    for caption, pixels in pictures:
        height, width = pixels.shape[:2]
        png = to_png_bytes(pixels, max_edge=VIEW_MAX_EDGE)
        text = f"<argus image: {width}x{height}{' ' + caption if caption else ''}>"
        display(
            {"image/png": base64.b64encode(png).decode("ascii"), "text/plain": text},
            raw=True,
            metadata={"argus": {"view": True, "title": caption, "width": width, "height": height}},
        )
    return None


def _items(obj: Any) -> List[Tuple[Any, str]]:
    """(image, argument name) pairs: one for a single image, one per element of a
    list/tuple, with repeated matplotlib figures kept once (plt.subplots() returns
    the figure and its axes, which would otherwise show the same plot twice)."""
    if not isinstance(obj, (list, tuple)):
        return [(obj, "obj")]
    if not obj:
        raise ValueError("view_image: obj is an empty list; pass an image or a list of images")
    items: List[Tuple[Any, str]] = []
    seen_figures = set()
    for index, item in enumerate(obj):
        figure = matplotlib_figure(item)
        if figure is not None:
            if id(figure) in seen_figures:
                continue
            seen_figures.add(id(figure))
        items.append((item, f"obj[{index}]"))
    return items


def _caption(item: Any, title: Optional[str]) -> Optional[str]:
    """The caption: the title, or for a video frame dict its timestamp."""
    if title is not None:
        return title
    if isinstance(item, dict) and "timestamp" in item:
        try:
            return f"t={float(item['timestamp']):.2f}s"
        except (TypeError, ValueError):
            return None
    return None


def _ipython_display() -> Tuple[Any, Any]:
    """(shell, display function) when running under IPython, else (None, None).

    Looked up at call time (not import time) so a kernel started after argus
    was imported, and tests that substitute IPython's display, are honoured.
    """
    try:
        import IPython
        import IPython.display
    except ImportError:
        return None, None
    shell = IPython.get_ipython()
    if shell is None:
        return None, None
    return shell, IPython.display.display
