"""OCR of text running up or down the picture (argus/tools/ocr.py): the page is
read turned a quarter each way when the upright readings find little, and the
word boxes come back in the picture's own coordinates."""

from __future__ import annotations

import unittest

import cv2
import numpy as np

import argus

WORDS = ["ALMOND", "COOKIES", "FROM", "ITALY"]


def label_on_its_side(turn: int) -> tuple:
    """Two lines of large type on a grey label, turned a quarter; returns the
    picture and the box of the ink in it."""
    label = np.full((180, 700, 3), 235, np.uint8)
    cv2.putText(label, "ALMOND COOKIES", (20, 70), cv2.FONT_HERSHEY_DUPLEX, 1.6, (20, 20, 20), 3, cv2.LINE_AA)
    cv2.putText(label, "FROM ITALY", (20, 150), cv2.FONT_HERSHEY_DUPLEX, 1.6, (20, 20, 20), 3, cv2.LINE_AA)
    picture = cv2.rotate(label, turn)
    ys, xs = np.nonzero(picture[:, :, 0] < 128)
    return picture, (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)


class TextOnItsSide(unittest.TestCase):
    def check(self, turn: int) -> None:
        picture, ink = label_on_its_side(turn)
        found = set(argus.read_text(picture).split())
        self.assertTrue(set(WORDS) <= found, found)
        height, width = picture.shape[:2]
        for word in argus.ocr(picture):
            x1, y1, x2, y2 = word["bbox"]
            self.assertTrue(0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height, word)
            if word["text"] in WORDS:
                # Words on a label turned on its side are tall and narrow, and lie on the ink.
                self.assertGreater(y2 - y1, x2 - x1, word)
                self.assertTrue(ink[0] - 4 <= x1 and x2 <= ink[2] + 4 and ink[1] - 4 <= y1 and y2 <= ink[3] + 4, (word, ink))

    def test_text_running_up(self) -> None:
        self.check(cv2.ROTATE_90_COUNTERCLOCKWISE)

    def test_text_running_down(self) -> None:
        self.check(cv2.ROTATE_90_CLOCKWISE)


if __name__ == "__main__":
    unittest.main()
