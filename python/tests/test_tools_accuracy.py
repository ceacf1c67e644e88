"""Vision tools on images with known answers: scikit-image's photographs and generated scenes."""

from __future__ import annotations

import collections
import math
import unittest

import cv2
import numpy as np
from skimage import data

from argus import (
    count_objects,
    detect_blobs,
    detect_cat_faces,
    detect_circles,
    detect_eyes,
    detect_faces,
    detect_motion,
    detect_people,
    dominant_colors,
    find_contours,
    find_template,
    ocr,
    read_barcodes,
    read_qr_codes,
    read_text,
    segment_color,
    track_box,
    track_objects,
)

from .test_tools_scenes import (
    blob_scene,
    colored_squares,
    ean13,
    iou,
    moving_squares,
    paste,
    people_scene,
    qr_code,
    template_scene,
    text_page,
    touching_discs,
)


def _inside(inner, outer) -> float:
    """Fraction of box `inner` covered by box `outer`."""
    width = min(inner[2], outer[2]) - max(inner[0], outer[0])
    height = min(inner[3], outer[3]) - max(inner[1], outer[1])
    return max(0, width) * max(0, height) / ((inner[2] - inner[0]) * (inner[3] - inner[1]))


class PhotographTest(unittest.TestCase):
    """scikit-image's bundled photographs, with answers checked by eye once."""

    def test_coins_has_24_circles(self) -> None:
        circles = detect_circles(data.coins())
        self.assertEqual(len(circles), 24)
        radii = [c["radius"] for c in circles]
        self.assertTrue(all(15 <= r <= 40 for r in radii), radii)

    def test_coins_has_24_objects_matching_the_circles(self) -> None:
        objects = count_objects(data.coins(), label="coin")
        self.assertEqual(len(objects), 24)
        centres = np.array([c["center"] for c in detect_circles(data.coins())])
        for item in objects:
            gap = np.hypot(*(centres - np.array(item["centroid"])).T).min()
            self.assertLess(gap, 6, item["centroid"])  # every object is one of the coins
            self.assertEqual(item["mask"].sum(), item["area"])

    def test_astronaut_has_one_face_with_two_eyes(self) -> None:
        faces = detect_faces(data.astronaut())
        self.assertEqual(len(faces), 1)
        self.assertGreater(iou(faces[0]["bbox"], [177, 67, 270, 160]), 0.7)
        self.assertGreater(faces[0]["score"], 0.8)
        x1, y1, x2, y2 = faces[0]["bbox"]
        eyes = detect_eyes(data.astronaut()[y1:y2, x1:x2])
        self.assertEqual(len(eyes), 2)

    def test_chelsea_has_one_cat_face_and_no_human_face(self) -> None:
        cats = detect_cat_faces(data.chelsea())
        self.assertEqual(len(cats), 1)
        # The face fills the frame: the box spans most of the image height.
        x1, y1, x2, y2 = cats[0]["bbox"]
        self.assertGreater(y2 - y1, 250)
        self.assertLess(abs((x1 + x2) / 2 - 245), 40)
        self.assertEqual(detect_faces(data.chelsea()), [])

    def test_cat_face_found_smaller_and_pasted_into_another_photo(self) -> None:
        scene = data.coffee().copy()
        scene[50:200, 100:325] = cv2.resize(data.chelsea(), (225, 150), interpolation=cv2.INTER_AREA)
        cats = detect_cat_faces(scene)
        self.assertEqual(len(cats), 1)
        self.assertGreater(iou(cats[0]["bbox"], [142, 50, 300, 200]), 0.5)

    def test_no_faces_or_cats_in_object_photos(self) -> None:
        for name in ("coffee", "coins", "rocket"):
            self.assertEqual(detect_faces(getattr(data, name)()), [], name)
        # The cat cascade runs at three tilts and costs ~1 s per photo: one photo here.
        self.assertEqual(detect_cat_faces(data.coffee()), [])


class GeneratedSceneTest(unittest.TestCase):
    def test_touching_discs_are_counted_exactly(self) -> None:
        for count, seed in ((1, 1), (2, 2), (6, 3), (13, 4), (21, 5), (30, 6)):
            image, placed = touching_discs(count, seed)
            self.assertEqual(placed, count)
            self.assertEqual(len(count_objects(image, masks=False)), count, f"{count} discs")

    def test_touching_discs_are_one_region_without_splitting(self) -> None:
        image, _ = touching_discs(6, 3)
        self.assertEqual(len(count_objects(image, split_touching=False, masks=False)), 1)

    def test_squares_of_a_named_colour_among_distractors(self) -> None:
        for target, count, seed in (("red", 7, 1), ("green", 3, 2), ("blue", 12, 3), ("yellow", 5, 4), ("purple", 9, 5)):
            image, expected = colored_squares(target, count, distractors=14, seed=seed)
            regions = segment_color(image, target)
            self.assertEqual(len(regions), expected, target)
            self.assertTrue(all(r["label"] == target for r in regions))

    def test_qr_code_text_is_decoded_exactly(self) -> None:
        message = "https://argus.example/run?id=42&q=coins"
        canvas = np.full((600, 800, 3), 235, np.uint8)
        box = paste(canvas, qr_code(message, module=6), 300, 120)
        codes = read_qr_codes(canvas)
        self.assertEqual([c["data"] for c in codes], [message])
        # The symbol lies inside the pasted picture, which adds a white quiet zone around it.
        x1, y1, x2, y2 = codes[0]["bbox"]
        self.assertTrue(box[0] <= x1 < x2 <= box[2] and box[1] <= y1 < y2 <= box[3], codes[0]["bbox"])
        self.assertGreater((x2 - x1) * (y2 - y1), 0.45 * (box[2] - box[0]) * (box[3] - box[1]))
        self.assertEqual(len(codes[0]["polygon"]), 4)

    def test_several_qr_codes_and_a_barcode(self) -> None:
        canvas = np.full((700, 900, 3), 255, np.uint8)
        texts = ["alpha", "BRAVO-2", "charlie 3 ✓"]
        for index, message in enumerate(texts):
            paste(canvas, qr_code(message, module=5), 40 + 290 * index, 40)
        barcode, digits = ean13("590123412345")
        paste(canvas, barcode, 250, 450)
        self.assertEqual(sorted(c["data"] for c in read_qr_codes(canvas)), sorted(texts))
        found = read_barcodes(canvas)
        self.assertEqual(sorted(c["data"] for c in found), sorted(texts + [digits]))
        ean = [c for c in found if c["type"] == "EAN13"][0]
        self.assertGreater(iou(ean["bbox"], [283, 462, 535, 582]), 0.6)

    def test_ocr_reads_at_least_95_percent_of_a_rendered_page(self) -> None:
        page, words = text_page(seed=7)
        read = collections.Counter(w["text"] for w in ocr(page))
        wanted = collections.Counter(words)
        recall = sum(min(read[word], n) for word, n in wanted.items()) / len(words)
        self.assertGreaterEqual(recall, 0.95)
        text = read_text(page)
        self.assertIn(" ".join(words[:3]), text)

    def test_ocr_words_have_boxes_on_the_words(self) -> None:
        page, words = text_page(seed=8, words=12, size=(900, 200), pixels=32)
        found = ocr(page)
        self.assertEqual([w["text"] for w in found], words)
        for word in found:
            x1, y1, x2, y2 = word["bbox"]
            self.assertLess(page[y1:y2, x1:x2].min(), 60)  # ink inside every box
            self.assertGreater(word["score"], 0.8)
        lines = [w["line"] for w in found]
        self.assertEqual(lines, sorted(lines))  # numbered in reading order
        self.assertEqual(lines[0], 1)

    def test_blobs_are_counted(self) -> None:
        image, spots = blob_scene(15, seed=2)
        blobs = detect_blobs(image, polarity="bright", box_threshold=0.2)
        self.assertEqual(len(blobs), len(spots))
        for x, y, radius in spots:
            nearest = min(blobs, key=lambda b: math.dist(b["center"], (x, y)))
            self.assertLess(math.dist(nearest["center"], (x, y)), 3)
            self.assertLess(abs(nearest["radius"] - radius) / radius, 0.35)

    def test_template_finds_every_copy_and_no_distractor(self) -> None:
        icon = cv2.resize(data.astronaut()[60:180, 160:280], (40, 40), interpolation=cv2.INTER_AREA)
        image, copies = template_scene(icon, 9, seed=3)
        by_picture = find_template(image, icon)
        by_box = find_template(image, list(copies[0]))
        for found in (by_picture, by_box):
            self.assertEqual(len(found), 9)
            self.assertTrue(all(max(iou(f["bbox"], c) for c in copies) > 0.9 for f in found))

    def test_template_at_other_scales(self) -> None:
        icon = cv2.resize(data.astronaut()[60:180, 160:280], (40, 40), interpolation=cv2.INTER_AREA)
        image, copies = template_scene(icon, 5, seed=4)
        small = cv2.resize(icon, (32, 32), interpolation=cv2.INTER_AREA)
        self.assertLess(len(find_template(image, small)), 5)
        found = find_template(image, small, scales=[1.0, 1.25], box_threshold=0.75)
        self.assertEqual(len(found), 5)

    def test_silhouettes_are_people(self) -> None:
        image, boxes = people_scene(4, seed=1)
        people = detect_people(image)
        self.assertEqual(len(people), 4)
        # HOG boxes include a margin around the body: each silhouette lies inside one box.
        for box in boxes:
            self.assertTrue(any(_inside(box, p["bbox"]) > 0.9 for p in people), box)

    def test_contour_measurements_of_known_shapes(self) -> None:
        image = np.full((400, 600, 3), 30, np.uint8)
        # OpenCV's ellipse angle turns clockwise on screen: 30 means falling to the right.
        cv2.ellipse(image, ((200, 200), (200, 80), 30), (220, 220, 220), -1)
        cv2.rectangle(image, (400, 100), (499, 149), (220, 220, 220), -1)
        ellipse, rectangle = find_contours(image)
        self.assertAlmostEqual(ellipse["area"], math.pi * 100 * 40, delta=0.02 * math.pi * 100 * 40)
        self.assertAlmostEqual(ellipse["orientation"], -30, delta=1)
        self.assertAlmostEqual(ellipse["major_axis"], 200, delta=4)
        self.assertAlmostEqual(ellipse["minor_axis"], 80, delta=3)
        self.assertEqual(ellipse["centroid"], [200.0, 200.0])
        self.assertAlmostEqual(rectangle["area"], 99 * 49, delta=10)
        self.assertAlmostEqual(rectangle["perimeter"], 2 * (99 + 49), delta=4)  # corners soften slightly
        self.assertEqual(rectangle["orientation"], 0.0)
        self.assertEqual(rectangle["bbox"], [400, 100, 500, 150])

    def test_dominant_colours_of_a_flag(self) -> None:
        flag = np.zeros((300, 600, 3), np.uint8)
        flag[:, :200] = (0, 85, 164)
        flag[:, 200:400] = (255, 255, 255)
        flag[:, 400:] = (239, 65, 53)
        flag[:100, :] = (255, 255, 255)  # white band on top: white is 5/9 of the flag
        flag[200:, 400:] = (255, 255, 255)  # and a white corner: red shrinks to 1/9, white 6/9
        colours = dominant_colors(flag, k=3)
        self.assertEqual([c["name"] for c in colours], ["white", "blue", "red"])
        self.assertAlmostEqual(colours[0]["fraction"], 6 / 9, delta=0.01)
        self.assertAlmostEqual(colours[1]["fraction"], 2 / 9, delta=0.01)
        self.assertAlmostEqual(colours[2]["fraction"], 1 / 9, delta=0.01)

    def test_motion_and_tracks_in_a_generated_video(self) -> None:
        frames, truth = moving_squares(3, 10, seed=1)
        moving = detect_motion(frames)
        self.assertEqual([len(f) for f in moving], [3] * 10)
        for found, boxes in zip(moving, truth):
            for box in boxes:
                self.assertGreater(max(iou(box, d["bbox"]) for d in found), 0.7)
        tracks = track_objects(frames)
        self.assertEqual({d["track_id"] for f in tracks for d in f}, {1, 2, 3})
        # Each object keeps its id: the id found on a true box never changes.
        for lane in range(3):
            ids = {max(f, key=lambda d: iou(d["bbox"], boxes[lane]))["track_id"] for f, boxes in zip(tracks, truth)}
            self.assertEqual(len(ids), 1)
        followed = track_box(frames, list(truth[0][2]))
        self.assertTrue(all(len(f) == 1 for f in followed))
        self.assertGreater(min(iou(f[0]["bbox"], boxes[2]) for f, boxes in zip(followed, truth)), 0.7)
