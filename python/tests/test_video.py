"""extract_frames_and_timestamps on a short MP4 written with cv2.VideoWriter."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import cv2
import numpy as np

from argus import extract_frames_and_timestamps, video

from .support import WorkspaceTestCase

FRAMES, NATIVE_FPS, WIDTH, HEIGHT = 30, 10, 64, 48


def write_test_video(path: str) -> None:
    """30 frames at 10 fps; frame i has brightness 8*i, and a pure red (in RGB)
    left half so a BGR/RGB mix-up would show."""
    writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"mp4v"), NATIVE_FPS, (WIDTH, HEIGHT))
    if not writer.isOpened():
        raise RuntimeError("cv2.VideoWriter cannot write mp4v on this machine")
    for index in range(FRAMES):
        bgr = np.full((HEIGHT, WIDTH, 3), 8 * index, np.uint8)
        bgr[:, : WIDTH // 2] = (0, 0, 255)  # red in BGR order
        writer.write(bgr)
    writer.release()


class ExtractFramesTest(WorkspaceTestCase):
    def setUp(self) -> None:
        super().setUp()
        write_test_video("clip.mp4")

    def test_two_fps_gives_six_frames_half_a_second_apart(self) -> None:
        frames = extract_frames_and_timestamps("clip.mp4", fps=2)
        self.assertEqual([item["timestamp"] for item in frames], [0.0, 0.5, 1.0, 1.5, 2.0, 2.5])
        for sample, item in enumerate(frames):
            self.assertEqual(set(item), {"frame", "timestamp"})
            self.assertIsInstance(item["timestamp"], float)
            frame = item["frame"]
            self.assertEqual((frame.shape, frame.dtype), ((HEIGHT, WIDTH, 3), np.uint8))
            # Right half: brightness of source frame 5*sample (mp4v is lossy).
            self.assertAlmostEqual(float(frame[:, WIDTH // 2 + 4 :].mean()), 8 * 5 * sample, delta=8)
            red = frame[:, : WIDTH // 2 - 4].reshape(-1, 3).mean(axis=0)
            self.assertGreater(red[0], 200)
            self.assertLess(red[2], 60)

    def test_default_is_one_frame_per_second(self) -> None:
        frames = extract_frames_and_timestamps(Path("clip.mp4"))
        self.assertEqual([item["timestamp"] for item in frames], [0.0, 1.0, 2.0])

    def test_fps_above_native_takes_every_frame(self) -> None:
        frames = extract_frames_and_timestamps("clip.mp4", fps=100)
        self.assertEqual(len(frames), FRAMES)
        self.assertEqual(frames[-1]["timestamp"], 2.9)

    def test_nearest_frame_for_uneven_rates(self) -> None:
        frames = extract_frames_and_timestamps("clip.mp4", fps=3)
        self.assertEqual([item["timestamp"] for item in frames], [0.0, 0.3, 0.7, 1.0, 1.3, 1.7, 2.0, 2.3, 2.7])

    def test_max_frames(self) -> None:
        frames = extract_frames_and_timestamps("clip.mp4", fps=2, max_frames=3)
        self.assertEqual([item["timestamp"] for item in frames], [0.0, 0.5, 1.0])

    def test_bad_fps_is_named(self) -> None:
        for bad in (0, -1, float("nan"), float("inf"), "2", None, True):
            with self.assertRaises(ValueError) as caught:
                extract_frames_and_timestamps("clip.mp4", fps=bad)
            self.assertIn("extract_frames_and_timestamps: fps", str(caught.exception))

    def test_bad_max_frames_is_named(self) -> None:
        for bad in (0, -2, 1.5):
            with self.assertRaises(ValueError) as caught:
                extract_frames_and_timestamps("clip.mp4", max_frames=bad)
            self.assertIn("max_frames", str(caught.exception))

    def test_missing_file_lists_workspace(self) -> None:
        with self.assertRaises(FileNotFoundError) as caught:
            extract_frames_and_timestamps("clips.mp4")
        message = str(caught.exception)
        self.assertIn("clips.mp4", message)
        self.assertIn("clip.mp4", message)

    def test_unreadable_file(self) -> None:
        Path("fake.mp4").write_text("not a video at all")
        with self.assertRaises(ValueError) as caught:
            extract_frames_and_timestamps("fake.mp4")
        self.assertIn("fake.mp4", str(caught.exception))

    def test_wrong_path_type(self) -> None:
        with self.assertRaises(TypeError) as caught:
            extract_frames_and_timestamps(np.zeros((2, 2)))
        self.assertIn("video_path", str(caught.exception))

    def test_unknown_frame_rate_falls_back_to_decoder_timestamps(self) -> None:
        # Pretend the container's frame rate is implausible: times come from the decoder.
        with mock.patch.object(video, "PLAUSIBLE_FPS", (1000.0, 2000.0)):
            frames = extract_frames_and_timestamps("clip.mp4", fps=2)
        self.assertEqual(len(frames), 6)
        for sample, item in enumerate(frames):
            self.assertAlmostEqual(item["timestamp"], 0.5 * sample, delta=0.11)

    def test_memory_cap_is_a_clear_error(self) -> None:
        with mock.patch.object(video, "MAX_TOTAL_BYTES", 3 * WIDTH * HEIGHT * 3):
            with self.assertRaises(ValueError) as caught:
                extract_frames_and_timestamps("clip.mp4", fps=10)
        self.assertIn("max_frames", str(caught.exception))
