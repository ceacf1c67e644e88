"""Everyday questions about real photos, answered by classical and by neural tools.

"How many cars / dogs / cups?", "what does this sign say?", "how many people /
faces?", "is anyone raising a hand?" — each case is one such question about one
public photo (python/tests/photos, sources and licences in photos/SOURCES.md),
with the answer a careful person gives after looking (gridded, zoomed views).

A case can be answered two ways, with every tool at its DEFAULT parameters:
- classical: the kernel's OpenCV / tesseract tools, run locally;
- neural: the Argus server's neural tools (detect_objects, detect_people,
  detect_faces, detect_poses, read_text), through a `call(name, pixels)` the
  caller gives (the bench posts to POST /api/tools/:name).
Both answers are judged by the same rule, so the two columns of the bench's
table are comparable case by case.

Tolerance (written down before measuring):
- counts: `low <= found <= high`. `low` is every object a careful person counts
  at once; `high` adds the ones that may or may not count (half hidden behind
  another, cut by the frame, under ~40 px, a reflection is never one). Finding
  them is not an error, missing them is not an error.
- scene text: the share `need` of the listed words must be read; a word counts
  when its letters appear in the text with spaces and punctuation removed
  ("STATIONERYBOX" reads both words). Case is ignored.
- poses: "is anyone raising a hand?" (yes/no), asked only where the answer is
  clear at a glance (a footballer's arm flung out at shoulder height is left
  out). The neural answer is yes when some person has a wrist or elbow keypoint
  (score >= 0.3) higher than both shoulders (score >= 0.3) by at least a tenth
  of the shoulder width: the elbow too, because a hand behind the head hides
  its wrist while the raised elbow shows.
- classical answers to "how many <kind>": detect_people for people,
  detect_cat_faces for cats, detect_faces for faces; for any other kind the
  class-blind count_objects (what a planner without a detector would use).
  Poses have no classical tool: those cases are "no tool", not failures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

import argus
from tests.real_photos import photo

Result = Tuple[bool, str]
# call(tool_name, pixels) -> the tool's JSON result (the bench binds it to HTTP).
NeuralCall = Callable[[str, np.ndarray], Any]


class NoTool(Exception):
    """The side asked has no tool for this question (not a failure of a tool)."""


@dataclass(frozen=True)
class Case:
    family: str
    name: str
    photo: str
    question: str
    judge: Callable[[Any], Result]
    classical: Optional[Callable[[np.ndarray], Any]]
    neural: Callable[[NeuralCall, np.ndarray], Any]

    def run_classical(self) -> Result:
        if self.classical is None:
            raise NoTool("no classical tool")
        return self.judge(self.classical(photo(self.photo)))

    def run_neural(self, call: NeuralCall) -> Result:
        return self.judge(self.neural(call, photo(self.photo)))


# ------------------------------------------------------------------ judges
def count_between(low: int, high: Optional[int] = None) -> Callable[[Any], Result]:
    high = low if high is None else high

    def judge(found: int) -> Result:
        truth = str(low) if low == high else f"{low}-{high}"
        return low <= found <= high, f"{found} (truth {truth})"

    return judge


def _letters(text: str) -> str:
    return "".join(re.findall(r"[a-z0-9]+", text.lower()))


def words_read(wanted: Sequence[str], need: float) -> Callable[[Any], Result]:
    def judge(text: str) -> Result:
        letters = _letters(text)
        hits = [w for w in wanted if _letters(w) in letters]
        shown = " ".join(text.split())[:60]
        return len(hits) >= need * len(wanted), f"{len(hits)}/{len(wanted)} words ({shown!r})"

    return judge


def yes_no(truth: bool) -> Callable[[Any], Result]:
    def judge(answer: bool) -> Result:
        return answer == truth, f"{'yes' if answer else 'no'} (truth {'yes' if truth else 'no'})"

    return judge


def raised_arm(poses: List[Dict[str, Any]], min_score: float = 0.3) -> bool:
    """Whether some person holds a wrist or an elbow above both shoulders (by a tenth of the shoulder width)."""
    for person in poses:
        points = {p["name"]: p for p in person.get("keypoints", []) if p.get("score", 0) >= min_score}
        shoulders = [points[n] for n in ("left_shoulder", "right_shoulder") if n in points]
        if len(shoulders) < 2:
            continue
        width = abs(shoulders[0]["x"] - shoulders[1]["x"])
        top = min(s["y"] for s in shoulders)
        if any(n in points and points[n]["y"] < top - 0.1 * width for n in ("left_wrist", "right_wrist", "left_elbow", "right_elbow")):
            return True
    return False


# ------------------------------------------------------------------ answerers
def classical_count(kind: str) -> Callable[[np.ndarray], int]:
    if kind == "person":
        return lambda pixels: len(argus.detect_people(pixels, method="classical"))
    if kind == "cat":
        return lambda pixels: len(argus.detect_cat_faces(pixels))
    if kind == "face":
        return lambda pixels: len(argus.detect_faces(pixels, method="classical"))
    return lambda pixels: len(argus.count_objects(pixels, masks=False))


def neural_count(kind: str) -> Callable[[NeuralCall, np.ndarray], int]:
    if kind == "person":
        return lambda call, pixels: len(call("detect_people", pixels))
    if kind == "face":
        return lambda call, pixels: len(call("detect_faces", pixels))
    return lambda call, pixels: sum(1 for d in call("detect_objects", pixels) if d.get("label") == kind)


def neural_text(call: NeuralCall, pixels: np.ndarray) -> str:
    result = call("read_text", pixels)
    return result["text"] if isinstance(result, dict) else str(result)


def neural_raised_hand(call: NeuralCall, pixels: np.ndarray) -> bool:
    return raised_arm(call("detect_poses", pixels))


# ------------------------------------------------------------------ case builders
def objects(name: str, picture: str, kind: str, low: int, high: Optional[int] = None) -> Case:
    return Case("objects", name, picture, f"how many {kind}?", count_between(low, high), classical_count(kind), neural_count(kind))


def people(name: str, picture: str, low: int, high: Optional[int] = None) -> Case:
    return Case("people count", name, picture, "how many people?", count_between(low, high),
                classical_count("person"), neural_count("person"))


def faces(name: str, picture: str, low: int, high: Optional[int] = None) -> Case:
    return Case("faces", name, picture, "how many faces?", count_between(low, high), classical_count("face"), neural_count("face"))


def scene_text(name: str, picture: str, wanted: Sequence[str], need: float) -> Case:
    return Case("scene text", name, picture, "what does it say?", words_read(wanted, need),
                lambda pixels: argus.read_text(pixels, method="classical"), neural_text)


def hand_raised(name: str, picture: str, truth: bool) -> Case:
    return Case("poses", name, picture, "is anyone raising a hand?", yes_no(truth), None,
                neural_raised_hand)


# ------------------------------------------------------------------ the set
CASES: List[Case] = [
    # Objects by class ("how many <kind>?"): COCO's names, e.g. hens are "bird".
    objects("hens", "hens.jpg", "bird", 4),
    objects("swans_and_cygnets", "swans.jpg", "bird", 7, 8),  # 2 swans, 6 cygnets: one cygnet half hidden behind another
    objects("spoonbills_not_reflections", "spoonbills.jpg", "bird", 2),
    objects("robin", "robin.jpg", "bird", 1),
    objects("horses_and_a_lying_foal", "horses.jpg", "horse", 5),
    objects("cows_in_a_field", "cows_field.jpg", "cow", 3),
    objects("cow_and_calf", "cow_calf.jpg", "cow", 2),
    objects("giraffes_overlapping", "giraffes.jpg", "giraffe", 2),
    objects("sheep", "sheep.jpg", "sheep", 1),
    objects("dog_standing", "shepherd_dog.jpg", "dog", 1),
    objects("dog_lying_with_a_ball", "dog_ball.jpg", "dog", 1),
    objects("ball_beside_a_dog", "dog_ball.jpg", "sports ball", 1),
    objects("dog_face_close_up", "dog_face.jpg", "dog", 1),
    objects("no_dog_beside_a_kitten", "kitten_yarn.jpg", "dog", 0),
    objects("kitten_with_yarn", "kitten_yarn.jpg", "cat", 1),
    objects("cat_chelsea", "skimage:chelsea", "cat", 1),
    objects("no_cat_beside_a_dog", "shepherd_dog.jpg", "cat", 0),
    objects("spoons_in_a_row", "spoons.jpg", "spoon", 5),
    objects("spoon_among_cutlery", "cutlery.jpg", "spoon", 1),
    objects("fork_among_cutlery", "cutlery.jpg", "fork", 1),
    objects("knife_among_cutlery", "cutlery.jpg", "knife", 1),
    objects("cup_on_a_saucer", "cup_saucer.jpg", "cup", 1),
    objects("coffee_cup", "skimage:coffee", "cup", 1),
    objects("chair", "chair.jpg", "chair", 1),
    objects("bus_in_traffic", "double_decker.jpg", "bus", 1),
    objects("cars_beside_a_bus", "double_decker.jpg", "car", 2),  # a white car, a taxi half behind the bus
    objects("car_behind_a_sign", "scenetext01.jpg", "car", 1, 2),  # a second car mostly hidden by a newspaper box
    objects("red_car_below_a_shop", "scenetext06.jpg", "car", 1),
    objects("boats_on_a_shore", "boats_lake.jpg", "boat", 6, 12),  # six clear boats, more stacked at the right edge
    objects("football", "messi5.jpg", "sports ball", 1),
    # Scene text ("what does this sign / label say?").
    scene_text("shop_front", "stationery_box.jpg", ("stationery", "box"), 1.0),
    scene_text("green_sign", "freephone_sign.jpg", ("customer", "freephone", "private", "hire", "service"), 0.8),
    scene_text("beer_brand_sign", "fosters.jpg", ("fosters",), 1.0),
    scene_text("projector_label", "sanyo_projector.jpg", ("sanyo", "pro", "xtrax", "multimedia", "projector"), 0.6),
    scene_text("generator_plate", "scenetext04.jpg", ("gm", "125"), 1.0),
    scene_text("curved_text_on_a_ball", "volleyball.jpg", ("official", "game", "ball", "world", "competitions"), 0.6),
    scene_text("bus_destination_and_advert", "double_decker.jpg", ("marylebone", "453", "someone", "ticket", "mormon"), 0.6),
    # People ("how many people?").
    people("four_musicians_on_stage", "musicians_stage.jpg", 4),
    people("three_seated", "group3_seated.jpg", 3),
    people("four_standing", "group4_standing.jpg", 4),
    people("five_on_stairs", "group5_stairs.jpg", 5),
    people("walkers_on_a_campus", "lawn_walkers.jpg", 5, 7),  # two far walkers ~40 px tall
    people("two_cut_by_the_frame", "scenetext01.jpg", 2),
    # Faces ("how many faces?").
    faces("four_musicians", "musicians_stage.jpg", 4),
    faces("three_seated", "group3_seated.jpg", 3),
    faces("three_on_a_sofa_looking_down", "group3_sofa.jpg", 3),
    faces("four_posing", "group4_posing.jpg", 4),
    faces("four_standing", "group4_standing.jpg", 4),
    faces("five_on_stairs", "group5_stairs.jpg", 5),
    faces("portrait_smiling", "portrait_man1.jpg", 1),
    faces("portrait_bearded", "portrait_man2.jpg", 1),
    faces("no_face_among_hens", "hens.jpg", 0),
    # Poses ("is anyone raising a hand?").
    hand_raised("statue_with_a_torch", "liberty.jpg", True),
    hand_raised("hand_behind_the_head", "group4_posing.jpg", True),
    hand_raised("hand_on_the_head", "group3_sofa.jpg", True),
    hand_raised("standing_arms_down", "group4_standing.jpg", False),
    hand_raised("seated_with_glasses", "group3_seated.jpg", False),
    hand_raised("sitting_on_stairs", "group5_stairs.jpg", False),
    hand_raised("walkers", "lawn_walkers.jpg", False),
]

FAMILIES: Dict[str, List[Case]] = {}
for _case in CASES:
    FAMILIES.setdefault(_case.family, []).append(_case)
