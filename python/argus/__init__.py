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

Vision tools (argus.tools). Detections are [{"label", "score", "bbox": [x1, y1, x2, y2], ...}]
in pixels, best first; box_threshold is the minimum score (0-1). Images above
40 megapixels are refused: shrink or tile them.

    search_tools(task, k=5, exclude=()) -> list
        Names of the tools that best fit a task, e.g. search_tools("count the coins").
    get_tool_for_task(task, images, k=3) -> dict
        Try the candidate tools on your image; the judge (and, with tool
        review, the person) picks the tool and the threshold to use.
    detect_objects(image, labels=None, box_threshold=0.3) -> list
        Everyday objects by COCO class ("car", "dog", "cup"...): neural, on the Argus server.
    detect_poses(image, box_threshold=0.3) -> list
        People with "keypoints" [{"name", "x", "y", "score"}]: neural, on the server.
    segment_people(image, threshold=0.5) -> dict
        {"mask": base64 PNG, "width", "height", "coverage"}; decode_mask(result) -> HxW bool.
    detect_faces(image, box_threshold=0.5, min_size=None, max_size=None, method="auto") -> list
        Human faces (the server's face model; Haar cascade offline or with method="classical").
    detect_eyes(image, box_threshold=0.5, min_size=None, max_size=None) -> list
        Open human eyes; crop faces first for small people.
    detect_cat_faces(image, box_threshold=0.5, min_size=None, max_size=None) -> list
        Frontal cat faces, close-ups included.
    detect_people(image, box_threshold=0.5, min_height=None, method="auto") -> list
        People (the server's person detector; HOG + faces offline or with method="classical").
    detect_circles(image, box_threshold=0.5, min_radius=None, max_radius=None) -> list
        Circles with "center" and "radius": coins, wheels, plates, holes.
    detect_blobs(image, box_threshold=0.15, min_radius=2.0, max_radius=None, polarity="both") -> list
        Roundish spots of any size (cells, stars, dots) scored by contrast.
    count_objects(image, label="object", polarity="auto", threshold=None, min_area=None, ...) -> list
        Objects on a plain background, touching ones split; "mask", "area", "centroid" each.
    segment_color(image, color=None, hsv_range=None, min_area=None, label=None, masks=True) -> list
        Regions of a named colour ("red") or HSV range, with masks and areas.
    dominant_colors(image, k=5, mask=None) -> list
        Main colours: [{"color": [r, g, b], "hex", "name", "fraction"}].
    find_template(image, template, box_threshold=0.8, scales=None, label="match") -> list
        Every copy of an example crop (an image or a box [x1, y1, x2, y2] in image).
    read_qr_codes(image) -> list
        Decoded QR codes: "data" text, "polygon" corners, bbox.
    read_barcodes(image) -> list
        Decoded EAN/UPC/Code 128/... barcodes and QR codes: "data", "type", bbox.
    ocr(image, box_threshold=0.3, mode="auto", language="eng") -> list
        Words read by Tesseract: "text", score (confidence), bbox, "line", "block".
    read_text(image, mode="auto", language="eng", method="auto") -> str
        All printed text as a string with line breaks (neural reader, Tesseract for pages and misses).
    detect_edges(image, low=None, high=None, blur=1.0) -> np.ndarray
        HxW bool Canny edge map.
    find_contours(image, polarity="auto", threshold=None, min_area=None, holes=False) -> list
        Shape outlines with area, perimeter, centroid, orientation, axes, circularity.
    detect_motion(frames, threshold=25.0, min_area=None) -> list
        Per frame: moving regions against the static background.
    track_objects(frames, detections=None, max_missed=3, min_iou=0.1) -> list
        Per frame: detections with a stable "track_id" (motion by default).
    track_box(frames, box, label="object", box_threshold=0.3) -> list
        Per frame: one object followed from its box in the first frame.
    describe(image, focus=None) -> str
        A vision-language model's description of the image (through Argus).
    classify(image, labels, multi_label=False) -> list
        [{"label", "score"}] for your candidate labels, best first (through Argus).

Use help(name) for the full description of any of them.
"""

from .bridge import ping
from .images import load_image, save_image
from .model_tools import suggestion, vqa
from .overlays import overlay_bounding_boxes, overlay_segmentation_masks
from .tools import (
    TOOL_NAMES,
    TOOLS,
    classify,
    count_objects,
    decode_mask,
    describe,
    detect_blobs,
    detect_cat_faces,
    detect_circles,
    detect_edges,
    detect_eyes,
    detect_faces,
    detect_motion,
    detect_objects,
    detect_people,
    detect_poses,
    dominant_colors,
    find_contours,
    find_template,
    ocr,
    read_barcodes,
    read_qr_codes,
    read_text,
    search_tools,
    segment_color,
    segment_people,
    track_box,
    track_objects,
)
from .tool_choice import get_tool_for_task
from .video import extract_frames_and_timestamps
from .view import view_image

# The vision tools come from the catalogue (argus.tools.TOOL_NAMES); the rest are this package's own.
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
    "search_tools",
    "decode_mask",
    *TOOL_NAMES,
    "get_tool_for_task",
]
