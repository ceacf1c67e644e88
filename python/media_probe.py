#!/usr/bin/env python3
"""Probe one uploaded video for Argus: size, frame rate, frame count, duration
and a JPEG of the first frame.

Usage: media_probe.py VIDEO THUMBNAIL_JPEG [--max-pixels N]

Prints exactly one JSON line on stdout:
  exit 0  {"width", "height", "fps", "frames", "duration"}   (duration in seconds)
  exit 2  {"error": "..."}  the video itself can't be read (the uploader's problem)
  exit 3  {"error": "..."}  this machine can't probe videos at all (the server's problem)

Error texts are shown to the person who uploaded the file, so they say what is
wrong in plain words. Standard library, cv2 and numpy only.
"""

import json
import math
import os
import sys

THUMBNAIL_EDGE = 256
BAD_VIDEO = 2
NO_TOOLING = 3

# The file is untrusted. Keep FFmpeg on the local file (no http:, no concat:
# playlists pulling in other files) and on the two containers we accept.
# OpenCV reads this variable when a capture is opened.
os.environ["OPENCV_FFMPEG_CAPTURE_OPTIONS"] = (
    "protocol_whitelist;file|format_whitelist;mov,mp4,m4a,3gp,3g2,mj2,matroska,webm"
)
# FFmpeg's chatter goes to stderr; keep it down so real failures stand out.
os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "8")  # AV_LOG_FATAL


def finish(payload, code):
    # allow_nan=False: JSON has no NaN, and the Node side must never see one.
    sys.stdout.write(json.dumps(payload, allow_nan=False) + "\n")
    sys.stdout.flush()
    sys.exit(code)


def fail(message, code=BAD_VIDEO):
    finish({"error": message}, code)


def finite(value):
    return value if isinstance(value, float) and math.isfinite(value) else 0.0


def parse_args(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--max-pixels"):
        fail("usage: media_probe.py VIDEO THUMBNAIL_JPEG [--max-pixels N]", NO_TOOLING)
    try:
        max_pixels = int(argv[3]) if len(argv) == 4 else 0
    except ValueError:
        fail(f"--max-pixels wants a whole number, got {argv[3]!r}", NO_TOOLING)
    return argv[0], argv[1], max_pixels


def count_remaining(capture, first_pos_ms):
    """Counts frames by reading them, for containers that do not state a
    length (browser-recorded WebM often has none). Returns (frames, seconds)."""
    frames = 1
    last_ms = first_pos_ms
    while capture.grab():
        frames += 1
        last_ms = finite(capture.get(cv2.CAP_PROP_POS_MSEC))
    return frames, last_ms / 1000.0


def check_reaches_end(capture, frames, fps, duration):
    """A cut-off file often still has an intact header and first frame, so
    seek to just before the stated end and make sure a frame is really there.
    The slack (a tenth of the video, at most one second) absorbs frame counts
    that containers estimate from duration × fps. Seeking decodes from the
    nearest keyframe only, so this stays cheap on long videos."""
    slack = max(1, min(math.ceil(fps), frames // 10))
    target = max(0, frames - 1 - slack)
    if target == 0:
        return
    capture.set(cv2.CAP_PROP_POS_FRAMES, target)
    ok, frame = capture.read()
    # FFmpeg may land short of the target when the data is missing, and still
    # hand back a frame, so check where it actually got to.
    reached = finite(capture.get(cv2.CAP_PROP_POS_FRAMES))
    if not ok or frame is None or reached < target + 1:
        fail(
            f"The video is truncated or damaged: its header says {duration:.1f} s, "
            "but the frames stop before the end. Upload the complete file."
        )


def write_thumbnail(frame, path):
    height, width = frame.shape[:2]
    scale = min(1.0, THUMBNAIL_EDGE / max(width, height))
    if scale < 1.0:
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    if not cv2.imwrite(path, frame, [cv2.IMWRITE_JPEG_QUALITY, 85]):
        fail("The thumbnail could not be written on the server.", NO_TOOLING)


def probe(video_path, thumbnail_path, max_pixels):
    if not os.path.isfile(video_path):
        fail("The video file is missing on the server.", NO_TOOLING)

    capture = cv2.VideoCapture(video_path, cv2.CAP_FFMPEG)
    try:
        if not capture.isOpened():
            fail("The video's container could not be opened; the file is damaged or not really a video.")

        stated_width = int(finite(capture.get(cv2.CAP_PROP_FRAME_WIDTH)))
        stated_height = int(finite(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        # Refuse huge frames before decoding one: a frame is width × height × 3 bytes.
        if max_pixels > 0 and stated_width * stated_height > max_pixels:
            fail(
                f"The video's frames are {stated_width}×{stated_height}, larger than the "
                f"{max_pixels / 1e6:g} megapixels allowed."
            )

        ok, frame = capture.read()
        if not ok or frame is None or frame.size == 0:
            fail("The video has no frame that can be decoded; the file is damaged or empty.")

        # The decoded frame is authoritative: OpenCV applies the rotation tag,
        # so this is the size the person sees.
        height, width = frame.shape[:2]
        fps = finite(capture.get(cv2.CAP_PROP_FPS))
        frames = int(finite(capture.get(cv2.CAP_PROP_FRAME_COUNT)))

        if frames > 0 and fps > 0:
            duration = frames / fps
            check_reaches_end(capture, frames, fps, duration)
        else:
            frames, duration = count_remaining(capture, finite(capture.get(cv2.CAP_PROP_POS_MSEC)))
            if fps > 0:
                # The last frame's timestamp is its start; add its own length.
                duration += 1.0 / fps

        write_thumbnail(frame, thumbnail_path)
    finally:
        capture.release()

    finish(
        {"width": int(width), "height": int(height), "fps": fps, "frames": int(frames), "duration": duration},
        0,
    )


if __name__ == "__main__":
    video, thumbnail, limit = parse_args(sys.argv[1:])
    try:
        import cv2  # noqa: E402  (imported late so a missing cv2 is reported as JSON)
    except ImportError as error:
        fail(f"Videos can't be checked on this server: OpenCV is not installed ({error}).", NO_TOOLING)
    try:
        probe(video, thumbnail, limit)
    except SystemExit:
        raise
    except Exception as error:  # anything OpenCV throws means the file could not be read
        fail(f"The video could not be decoded ({type(error).__name__}: {error}).")
