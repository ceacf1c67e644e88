"""The tool catalogue: every vision tool with a one-line summary and search keywords.

TOOLS maps a tool's name to a ToolInfo. search_tools (in search.py) ranks
these entries for a task; the server's get_tool_for_task step uses it to pick
candidate tools, run them on the user's images and show their docs
(help(TOOLS[name].function) or TOOLS[name].doc) to the planner.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Callable, Dict, Tuple

from ..model_tools import vqa
from .codes import read_barcodes, read_qr_codes
from .colors import dominant_colors, segment_color
from .counting import count_objects
from .edges import detect_edges, find_contours
from .faces import detect_cat_faces, detect_eyes, detect_faces
from .model_backed import classify, describe
from .motion import detect_motion
from .neural import detect_objects, detect_poses, segment_people
from .ocr import ocr, read_text
from .people import detect_people
from .shapes import detect_blobs, detect_circles
from .templates import find_template
from .tracking import track_box, track_objects


@dataclass(frozen=True)
class ToolInfo:
    """One catalogue entry."""

    name: str
    function: Callable
    summary: str                 # one line: what it does and returns
    keywords: Tuple[str, ...]    # words a task might use that the docs may not
    category: str                # detection, counting, segmentation, ocr, codes, measurement, video, model

    @property
    def signature(self) -> str:
        """'name(arg, arg=default, ...)' without type annotations (shorter for the planner to read)."""
        plain = inspect.signature(self.function)
        parameters = [p.replace(annotation=inspect.Parameter.empty) for p in plain.parameters.values()]
        return f"{self.name}{plain.replace(parameters=parameters, return_annotation=inspect.Signature.empty)}"

    @property
    def doc(self) -> str:
        """The signature and the full docstring, the form shown to the planner."""
        return f"{self.signature}:\n{inspect.getdoc(self.function) or ''}"


def _entry(function: Callable, summary: str, keywords: str, category: str) -> Tuple[str, ToolInfo]:
    name = function.__name__
    return name, ToolInfo(name, function, summary, tuple(keywords.split()), category)


TOOLS: Dict[str, ToolInfo] = dict(
    [
        _entry(detect_objects, "Boxes of everyday objects by class name: COCO's 80 classes (neural detector, on the server).",
               "object objects thing things class car cars truck bus bicycle bike motorcycle vehicle vehicles dog dogs "
               "cat cats bird horse animal animals bottle cup chair laptop phone book traffic light sign detect "
               "locate which where count how many", "detection"),
        _entry(detect_poses, "People with body keypoints: shoulders, elbows, wrists, hips, knees (neural pose model, on the server).",
               "pose poses posture keypoint keypoints skeleton body joint joints arm arms hand hands raised leg legs "
               "sitting standing gesture", "detection"),
        _entry(segment_people, "Pixel mask of human figures with the share of the image they cover (neural segmentation, on the server).",
               "segment segmentation mask silhouette cut out cutout background remove blur replace "
               "portrait foreground", "segmentation"),
        _entry(detect_faces, "Boxes and scores of human faces (a neural face model on the server; method=\"classical\": Haar cascade).",
               "face faces head heads portrait selfie person people human crowd blur anonymise", "detection"),
        _entry(detect_eyes, "Boxes and scores of open human eyes (Haar cascade).",
               "eye eyes pupil gaze blink open closed face", "detection"),
        _entry(detect_cat_faces, "Boxes and scores of frontal cat faces (Haar cascade).",
               "cat cats kitten kitty pet animal face feline", "detection"),
        _entry(detect_people, "Boxes and scores of people (a neural person detector on the server; method=\"classical\": HOG + faces).",
               "person people pedestrian pedestrians human humans man woman men women walking crowd street body",
               "detection"),
        _entry(detect_circles, "Circles (centre, radius, score) by Hough transform: coins, wheels, plates, holes.",
               "circle circles round coin coins wheel wheels ring plate disc pill hole button count radius diameter",
               "detection"),
        _entry(detect_blobs, "Roundish spots of any size with their contrast (LoG blob detector).",
               "blob blobs spot spots dot dots cell cells star stars bubble bubbles seed particle colony nuclei",
               "detection"),
        _entry(count_objects, "Count and segment objects on a plain background; splits touching objects (watershed).",
               "count counting number how many objects items pills coins cells seeds grains tablets nuts screws "
               "segment segmentation mask watershed touching separate instance area size", "counting"),
        _entry(segment_color, "Regions of a named colour or HSV range, with masks, areas and centroids.",
               "color colour colored coloured red green blue yellow orange purple pink white black brown "
               "hsv region mask segment fraction percentage", "segmentation"),
        _entry(dominant_colors, "Main colours of an image or masked region with their share of the area.",
               "dominant main colour color palette shade hue what colour", "measurement"),
        _entry(find_template, "Every copy of an example crop or picture inside an image (template matching).",
               "template match matching copy copies identical same repeated logo icon symbol pattern instance "
               "example crop find all", "detection"),
        _entry(read_qr_codes, "Decoded text and corners of every QR code.",
               "qr qrcode code decode url link scan", "codes"),
        _entry(read_barcodes, "Decoded data, type and location of 1D barcodes (EAN, UPC, Code 128...) and QR codes.",
               "barcode barcodes ean upc sku product code128 code39 scan decode label shipping", "codes"),
        _entry(ocr, "Words with boxes and confidences read by Tesseract OCR.",
               "ocr text word words read reading letters characters document receipt sign label plate "
               "license number printed page form invoice", "ocr"),
        _entry(read_text, "All printed text of an image as a plain string (neural reader, Tesseract for pages and what it misses).",
               "text read reading transcribe document page sign what does it say ocr", "ocr"),
        _entry(detect_edges, "Boolean edge map (Canny).",
               "edge edges outline boundary border line lines crack scratch canny gradient", "measurement"),
        _entry(find_contours, "Outlines of shapes with area, perimeter, centroid, orientation, axes and circularity.",
               "contour contours outline shape measure measurement area perimeter centroid orientation angle tilt "
               "length width size elongation roundness circularity", "measurement"),
        _entry(detect_motion, "Moving regions in each video frame against the static background.",
               "motion moving move movement change changes video frames background subtraction activity "
               "surveillance", "video"),
        _entry(track_objects, "Stable track ids for objects across video frames (links per-frame detections).",
               "track tracking follow trajectory path id identity video frames count distinct unique passing "
               "how many passed", "video"),
        _entry(track_box, "Follow one object, given by its box in the first frame, through video frames (CSRT).",
               "track tracking follow single object box video frames trajectory ball vehicle", "video"),
        _entry(describe, "A text description of an image by a vision-language model.",
               "describe description caption summary summarize what scene overview explain", "model"),
        _entry(classify, "Scores for given candidate labels by a vision-language model.",
               "classify classification category categories type kind label which class choose recognise",
               "model"),
        _entry(vqa, "Answer to a free-form question about images by a vision-language model.",
               "question ask answer vqa what why is are does explain", "model"),
    ]
)
