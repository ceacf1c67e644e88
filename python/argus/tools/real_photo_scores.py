"""Pass rates of the tools on the real-photo accuracy set (bench/vision_tools_accuracy.py,
python/tests/real_photos.py), used by get_tool_for_task to prefer the tools that
hold up on real photographs. Regenerate with `/usr/bin/python3
bench/vision_tools_accuracy.py --real` and copy the family rates here.
"""

from __future__ import annotations

from typing import Dict, List, Sequence, Tuple, Union

# Family pass rates (default parameters), by tool: bench/results/vision-real-photos.md.
# detect_people, detect_faces and read_text are scored with their default method
# ("auto": the neural models wherever get_tool_for_task runs them, an Argus
# kernel; read_text rereads pages and weak readings with tesseract,
# bench/results/read-text-auto.md); the neural tools with the same models.
# count_objects keeps its counting family: the "objects" family asks it class
# questions ("how many dogs?") it cannot answer (4/30), which says nothing of coins.
REAL_PHOTO_SCORES: Dict[str, float] = {
    "detect_circles": 5 / 6,
    "count_objects": 5 / 5,
    "segment_color": 11 / 11,
    "dominant_colors": 11 / 11,
    "ocr": 14 / 16,
    "read_text": 14 / 16,  # auto: pages and street signs 9/9, scene text 5/7 (tesseract alone: the same)
    "find_template": 5 / 5,
    "detect_people": 13 / 19,  # neural: people 9/13, people counts 4/6 (HOG: 10/13, 0/6)
    "detect_faces": 6 / 9,  # neural (Haar: 3/9)
    "detect_cat_faces": 2 / 3,
    "detect_objects": 17 / 30,
    "detect_poses": 6 / 7,
}
UNMEASURED = 0.75  # tools without real-photo cases are neither preferred nor pushed back


def prefer_by_real_photos(ranked: Sequence[Union[str, Tuple[str, float]]], k: int) -> List[str]:
    """The k best of `ranked` (best match first; names, or (name, relevance)
    pairs such as search.rank_tools gives) when relevance and the real-photo
    pass rate are combined: relevance is weighted by 0.5 + 0.5 x the pass
    rate, so a tool that holds up on real photos moves ahead of an about
    equally relevant one that does not, but not ahead of a much better match.
    Bare names get relevance 1 / (1 + rank)."""
    weighted = []
    for rank, item in enumerate(ranked):
        name, relevance = (item, 1.0 / (1.0 + rank)) if isinstance(item, str) else (item[0], float(item[1]))
        rate = REAL_PHOTO_SCORES.get(name, UNMEASURED)
        weighted.append((relevance * (0.5 + 0.5 * rate), -rank, name))
    weighted.sort(reverse=True)
    return [name for _, _, name in weighted[:k]]
