"""Argus kernel tools: the functions available in every planner and coder kernel.

Images are RGB uint8 numpy arrays of shape (height, width, 3); every function
that takes an image also accepts a file path (relative to the session
workspace, the current directory), a PIL image or a matplotlib figure.

    load_image(image) -> np.ndarray
        Load a path / PIL image / array as RGB uint8 (EXIF rotation applied).
    save_image(image, path) -> str
        Write PNG (default) or JPEG by extension; returns the path written.
    view_image(obj, title=None) -> None
        Show an image, figure or overlay to yourself in your next turn.
    overlay_bounding_boxes(image, detections) -> np.ndarray
        Draw [{"label", "score", "bbox": [x1, y1, x2, y2]}] (pixels) with labels.
    overlay_segmentation_masks(image, masks) -> np.ndarray
        Tint, outline and label [{"label", "score", "mask": HxW bool}].
    extract_frames_and_timestamps(video_path, fps=1.0, max_frames=None) -> list
        [{"frame": RGB array, "timestamp": seconds}] sampled at fps.
    vqa(prompt, images=None) -> str
        Ask a vision-language model a question about images (through Argus).
    suggestion(prompt, images=None) -> str
        Ask an expert model how to approach the task (through Argus).
    ping(text) -> str
        Health check of the kernel-to-server bridge (not needed for tasks).

Use help(name) for the full description of any of them.
"""

from .bridge import ping
from .images import load_image, save_image
from .model_tools import suggestion, vqa
from .overlays import overlay_bounding_boxes, overlay_segmentation_masks
from .video import extract_frames_and_timestamps
from .view import view_image

__all__ = [
    "load_image",
    "save_image",
    "view_image",
    "overlay_bounding_boxes",
    "overlay_segmentation_masks",
    "extract_frames_and_timestamps",
    "vqa",
    "suggestion",
    "ping",
]
