"""Sample frames from a video file at a chosen rate, with their timestamps."""

import math
import numbers
import os
from typing import Any, Dict, List, Optional, Union

from ._cv2 import cv2
import numpy as np

from ._workspace import existing_file

# Decoded frames are kept in memory; past this the kernel would risk being
# killed by its memory limit, so stop with an error that says what to change.
MAX_TOTAL_BYTES = 2 * 1024**3
# Containers sometimes report nonsense rates (0, NaN, 90000); treat those as unknown.
PLAUSIBLE_FPS = (0.1, 1000.0)


def extract_frames_and_timestamps(
    video_path: Union[str, os.PathLike],
    fps: float = 1.0,
    max_frames: Optional[int] = None,
) -> List[Dict[str, Any]]:
    """Read frames from a video at `fps` frames per second of video time.

    Use it to work on a video frame by frame: every frame is an RGB image that
    the other functions accept directly (e.g. view_image(frames[0]["frame"])).

    Args:
        video_path: path of the video file, relative to the session workspace.
        fps: frames to take per second of video (> 0). Values above the video's
            own frame rate take every frame. fps=1.0 gives one frame per second;
            fps=0.2 one every 5 seconds.
        max_frames: stop after this many frames (None: until the end).

    Returns:
        A list of {"frame": RGB uint8 array (height, width, 3), "timestamp": float}
        in time order, where "timestamp" is the frame's time in seconds from the
        start of the video (the first frame is at 0.0), computed as frame
        number / the video's frame rate. For each target time k / fps the
        nearest decoded frame is taken.

    Raises:
        FileNotFoundError: no such file (the message lists the files that exist).
        ValueError: fps <= 0, bad max_frames, a file that is not a readable
            video, or frames that would need more than 2 GiB of memory (lower
            fps or set max_frames).
    """
    fn = "extract_frames_and_timestamps"
    if not isinstance(fps, numbers.Real) or isinstance(fps, bool) or not math.isfinite(float(fps)) or fps <= 0:
        raise ValueError(f"{fn}: fps must be a positive number of frames per second, got {fps!r}")
    if max_frames is not None and (
        not isinstance(max_frames, numbers.Integral) or isinstance(max_frames, bool) or max_frames < 1
    ):
        raise ValueError(f"{fn}: max_frames must be a positive integer or None, got {max_frames!r}")
    path = existing_file(video_path, fn, "video_path")

    # FFmpeg only (as media_probe.py): trying every backend makes GStreamer
    # print pages of warnings on stderr, which would land in the planner's observation.
    capture = cv2.VideoCapture(str(path), cv2.CAP_FFMPEG)
    try:
        if not capture.isOpened():
            raise ValueError(f"{fn}: '{path}' could not be opened as a video (unknown or corrupt format)")
        native_fps = capture.get(cv2.CAP_PROP_FPS)
        if not (math.isfinite(native_fps) and PLAUSIBLE_FPS[0] <= native_fps <= PLAUSIBLE_FPS[1]):
            native_fps = None
        frames = _sample(capture, float(fps), native_fps, max_frames, fn, path)
    finally:
        capture.release()
    if not frames:
        raise ValueError(f"{fn}: no frame of '{path}' could be decoded (empty or corrupt video)")
    return frames


def _sample(
    capture: "cv2.VideoCapture",
    fps: float,
    native_fps: Optional[float],
    max_frames: Optional[int],
    fn: str,
    path: os.PathLike,
) -> List[Dict[str, Any]]:
    """Decode sequentially and keep the frames nearest to times 0, 1/fps, 2/fps, ...

    Reading sequentially (grab, then retrieve only kept frames) is slower than
    seeking but exact: seeking by frame number is unreliable for many codecs.
    """
    frames: List[Dict[str, Any]] = []
    total_bytes = 0
    next_index = 0   # with a known frame rate: the frame index to keep next
    next_time = 0.0  # without one: the time to keep next
    sample = 0
    index = -1
    while max_frames is None or len(frames) < max_frames:
        if not capture.grab():
            break
        index += 1
        if native_fps is not None:
            if index < next_index:
                continue
            timestamp = index / native_fps
        else:
            timestamp = max(capture.get(cv2.CAP_PROP_POS_MSEC), 0.0) / 1000.0
            if timestamp < next_time - 1e-6:
                continue
        ok, bgr = capture.retrieve()
        if not ok or bgr is None:
            break
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB) if bgr.ndim == 3 else np.repeat(bgr[:, :, None], 3, axis=2)
        total_bytes += rgb.nbytes
        if total_bytes > MAX_TOTAL_BYTES:
            raise ValueError(
                f"{fn}: sampling '{path}' at fps={fps:g} would hold more than "
                f"{MAX_TOTAL_BYTES // 1024**3} GiB of frames in memory (stopped after {len(frames)} frames); "
                "use a lower fps or set max_frames"
            )
        frames.append({"frame": rgb, "timestamp": round(timestamp, 6)})
        # Advance to the next target time after this frame. Asking for more
        # than the video's own rate means every frame, so the rate is capped
        # (which also keeps this loop to a step or two per frame).
        if native_fps is not None:
            rate = min(fps, native_fps)
            while next_index <= index:
                sample += 1
                next_index = round(sample * native_fps / rate)
        else:
            sample = max(sample + 1, math.floor(timestamp * fps + 1e-6) + 1)
            next_time = sample / fps
    return frames
