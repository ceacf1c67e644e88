"""The everyday real-photo set is well formed, and its judging rules say what they claim.

No tool runs here (the bench measures the tools, bench/real_photo_table.py):
these tests check the set itself — every photo is present, small, and listed
with its source and licence — and the pure rules that turn a tool's answer
into pass or fail, on answers written by hand.
"""

from __future__ import annotations

import collections
import unittest

import cv2

from tests import real_photos_everyday as everyday
from tests.real_photos import PHOTOS


def pose(**points):
    return {"label": "person", "keypoints": [{"name": n, "x": x, "y": y, "score": s} for n, (x, y, s) in points.items()]}


SHOULDERS = {"left_shoulder": (120, 100, 0.9), "right_shoulder": (80, 100, 0.9)}


class PhotoSetTest(unittest.TestCase):
    def test_every_photo_is_present_small_and_listed_with_its_licence(self) -> None:
        sources = (PHOTOS / "SOURCES.md").read_text()
        for name in sorted({c.photo for c in everyday.CASES if not c.photo.startswith("skimage:")}):
            with self.subTest(photo=name):
                pixels = cv2.imread(str(PHOTOS / name))
                self.assertIsNotNone(pixels, f"{name} is missing or unreadable")
                self.assertLessEqual(max(pixels.shape[:2]), 1024)
                self.assertIn(name, sources, f"{name} has no source/licence row in photos/SOURCES.md")

    def test_the_photo_folder_stays_small(self) -> None:
        total = sum(p.stat().st_size for p in PHOTOS.iterdir())
        self.assertLess(total, 10 * 1024 * 1024)

    def test_each_family_has_cases_and_names_are_unique(self) -> None:
        families = collections.Counter(c.family for c in everyday.CASES)
        self.assertEqual(set(families), {"objects", "scene text", "people count", "faces", "poses"})
        self.assertTrue(all(n >= 5 for n in families.values()), families)
        names = [(c.family, c.name) for c in everyday.CASES]
        self.assertEqual(len(names), len(set(names)))

    def test_poses_have_yes_and_no_cases(self) -> None:
        answers = {c.judge(True)[0] for c in everyday.FAMILIES["poses"]}
        self.assertEqual(answers, {True, False})

    def test_poses_have_no_classical_tool(self) -> None:
        with self.assertRaises(everyday.NoTool):
            everyday.FAMILIES["poses"][0].run_classical()


class JudgeTest(unittest.TestCase):
    def test_counts_pass_inside_the_tolerance_only(self) -> None:
        judge = everyday.count_between(7, 8)
        self.assertEqual([judge(n)[0] for n in (6, 7, 8, 9)], [False, True, True, False])
        self.assertEqual(everyday.count_between(0)(1), (False, "1 (truth 0)"))

    def test_words_are_found_with_spaces_and_punctuation_removed(self) -> None:
        judge = everyday.words_read(("stationery", "box"), 1.0)
        self.assertTrue(judge("STATIONERY\nBOX")[0])
        self.assertTrue(judge("Stationery-Box")[0])
        self.assertFalse(judge("Stationery")[0])
        self.assertTrue(everyday.words_read(("fosters",), 1.0)("FOSTER'S")[0])

    def test_share_of_words_needed(self) -> None:
        judge = everyday.words_read(("a1", "b2", "c3", "d4", "e5"), 0.6)
        self.assertFalse(judge("a1 b2")[0])
        self.assertTrue(judge("a1 b2 c3")[0])

    def test_a_wrist_above_the_shoulders_is_a_raised_hand(self) -> None:
        self.assertTrue(everyday.raised_arm([pose(**SHOULDERS, right_wrist=(70, 40, 0.8))]))

    def test_a_raised_elbow_counts_when_the_hand_is_hidden_behind_the_head(self) -> None:
        self.assertTrue(everyday.raised_arm([pose(**SHOULDERS, left_elbow=(140, 60, 0.7), left_wrist=(110, 50, 0.1))]))

    def test_hands_at_shoulder_height_or_below_are_not_raised(self) -> None:
        self.assertFalse(everyday.raised_arm([pose(**SHOULDERS, right_wrist=(60, 98, 0.9), left_wrist=(130, 180, 0.9))]))

    def test_unsure_keypoints_and_missing_shoulders_are_ignored(self) -> None:
        self.assertFalse(everyday.raised_arm([pose(**SHOULDERS, right_wrist=(70, 10, 0.2))]))
        self.assertFalse(everyday.raised_arm([pose(right_wrist=(70, 10, 0.9), right_shoulder=(80, 100, 0.9))]))
        self.assertFalse(everyday.raised_arm([]))


if __name__ == "__main__":
    unittest.main()
