"""Pass rates of the tools on the real-photo accuracy set (bench/vision_tools_accuracy.py,
python/tests/real_photos.py), used by get_tool_for_task to prefer the tools that
hold up on real photographs. Regenerate with `/usr/bin/python3
bench/vision_tools_accuracy.py --real` and copy the family rates here.
"""

from __future__ import annotations

from typing import Dict, List, Sequence

# Family pass rates (default parameters), by tool.
REAL_PHOTO_SCORES: Dict[str, float] = {
    "detect_circles": 4 / 6,
    "count_objects": 5 / 5,
    "segment_color": 10 / 11,
    "dominant_colors": 10 / 11,
    "ocr": 6 / 9,
    "read_text": 6 / 9,
    "find_template": 5 / 5,
    "detect_people": 7 / 10,
}
UNMEASURED = 0.75  # tools without real-photo cases are neither preferred nor pushed back


def prefer_by_real_photos(ranked: Sequence[str], k: int) -> List[str]:
    """The k best of `ranked` (best match first) when relevance and the real-photo
    pass rate are combined: relevance falls as 1 / (1 + rank), and is weighted
    by 0.5 + 0.5 x the pass rate, so a tool that holds up on real photos moves
    ahead of an equally relevant one that does not, but never ahead of a much
    better match."""
    weighted = []
    for rank, name in enumerate(ranked):
        rate = REAL_PHOTO_SCORES.get(name, UNMEASURED)
        weighted.append(((1.0 / (1.0 + rank)) * (0.5 + 0.5 * rate), -rank, name))
    weighted.sort(reverse=True)
    return [name for _, _, name in weighted[:k]]
