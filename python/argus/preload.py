"""Imports the vision stack ahead of the first cell (ARGUS_KERNEL_PRELOAD=vision).

A pooled kernel runs this while it waits to be taken, so the seconds these
imports cost are paid in the background instead of inside a person's first cell
(or the coder's test). Only modules are loaded: nothing is added to the
notebook's namespace, so a preloaded kernel behaves exactly like a cold one.
"""
import importlib

# scikit-image loads its submodules' functions lazily (lazy_loader): importing
# `skimage.filters` alone leaves the real work to the first attribute access, so
# the names cells use most are touched too.
MODULES = (
    "numpy",
    "cv2",
    "PIL.Image",
    "scipy.ndimage",
    "skimage",
    "matplotlib.pyplot",
)
SKIMAGE_NAMES = {
    "skimage.filters": ("sobel", "threshold_otsu", "gaussian"),
    "skimage.segmentation": ("watershed", "clear_border"),
    "skimage.measure": ("label", "regionprops"),
    "skimage.morphology": ("remove_small_objects", "disk", "binary_opening"),
    "skimage.feature": ("peak_local_max", "canny"),
    "skimage.color": ("rgb2gray",),
    "skimage.transform": ("resize",),
}


def vision() -> list:
    """Imports MODULES and touches SKIMAGE_NAMES; returns what could not be loaded."""
    missing = []
    for name in MODULES:
        try:
            importlib.import_module(name)
        except Exception as error:  # a missing library costs only its own speed-up
            missing.append(f"{name}: {error!r}")
    for module_name, attributes in SKIMAGE_NAMES.items():
        try:
            module = importlib.import_module(module_name)
            for attribute in attributes:
                getattr(module, attribute)
        except Exception as error:
            missing.append(f"{module_name}: {error!r}")
    return missing
