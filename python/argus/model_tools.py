"""Model-backed helpers: the question goes to Argus's server over the bridge.

The kernel holds no API key and has no network; the server asks its model and
sends the answer back through the kernel's own stdin channel.
"""

from . import bridge


def _refs(images):
    if images is None:
        return []
    if not isinstance(images, (list, tuple)):
        images = [images]
    return [bridge.image_ref(image) for image in images]


def vqa(prompt, images=None):
    """Ask a vision-language model a question about images.

    Args:
        prompt: the question, e.g. "How many coins are in this image?".
        images: one image or a list (paths in the workspace, numpy arrays,
            PIL images or matplotlib figures).
    Returns:
        The model's answer as a string.
    When to use: to describe a scene, read something ambiguous, or check a
    result by eye. Prefer measured code for counts and sizes.
    """
    if not isinstance(prompt, str) or not prompt.strip():
        raise ValueError("vqa: prompt must be a non-empty string")
    return bridge.call("vqa", {"prompt": prompt, "images": _refs(images)})


def suggestion(prompt, images=None):
    """Ask an expert model how to approach a vision task on these images.

    Args:
        prompt: the goal, e.g. "How can I count the touching coins?".
        images: one image or a list (paths in the workspace, numpy arrays,
            PIL images or matplotlib figures).
    Returns:
        Numbered steps as a string, naming functions and starting parameters.
    When to use: when unsure which technique fits the images.
    """
    if not isinstance(prompt, str) or not prompt.strip():
        raise ValueError("suggestion: prompt must be a non-empty string")
    return bridge.call("suggestion", {"prompt": prompt, "images": _refs(images)})
