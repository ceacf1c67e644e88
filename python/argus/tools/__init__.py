"""Argus vision tools: classic computer vision that runs in the kernel, plus model-backed helpers.

Every tool takes an image as a file path (relative to the workspace), an RGB
numpy array, a PIL image or a video frame dict, and checks its arguments:
a wrong type or value raises an error naming the argument. Images above
MAX_PIXELS (40 megapixels) are refused with a message saying how to shrink or
tile them. Detection tools return lists of
    {"label": str, "score": float 0-1, "bbox": [x1, y1, x2, y2], ...extra keys}
with integer pixel corners (x2, y2 exclusive), ready for overlay_bounding_boxes;
segmentation tools add "mask": HxW bool arrays, ready for overlay_segmentation_masks.

TOOLS maps each tool name to its summary, keywords and docs, and TOOL_NAMES
lists the ones this package exports; search_tools(task, k) ranks them for a
task, and try_tools(names, images) runs candidates and summarises their
outputs as JSON (for the server's get_tool_for_task step).
"""

from ._checks import MAX_PIXELS
from .codes import read_barcodes, read_qr_codes
from .colors import dominant_colors, segment_color
from .counting import count_objects
from .edges import detect_edges, find_contours
from .faces import detect_cat_faces, detect_eyes, detect_faces
from .model_backed import classify, describe
from .motion import detect_motion
from .neural import VisionToolError, call_tool, decode_mask, detect_objects, detect_poses, segment_people
from .ocr import ocr, read_text
from .people import detect_people
from .registry import TOOLS, ToolInfo
from .search import search_tools
from .shapes import detect_blobs, detect_circles
from .templates import find_template
from .tracking import track_box, track_objects
from .trial import try_tools

# The catalogue is the one list of tools. Those defined in this package are
# exported here; vqa is catalogued too, but the argus package exports it itself.
TOOL_NAMES = [name for name, info in TOOLS.items() if info.function.__module__.startswith(f"{__name__}.")]

__all__ = [*TOOL_NAMES, "search_tools", "try_tools", "TOOLS", "ToolInfo", "MAX_PIXELS", "decode_mask", "call_tool", "VisionToolError"]
