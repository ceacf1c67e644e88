/**
 * The count-coins functions the function benchmarks call (bench:functions, bench:endpoint).
 * BENCH_FUNCTION=watershed picks the scenario's own function (Sobel + watershed, heavier per image);
 * the default is a plain threshold, where Argus's overhead per call shows most.
 */
const WATERSHED = `from argus import *
import numpy as np
from skimage import filters, segmentation
from scipy import ndimage as ndi


def count_coins(image_path):
    gray = load_image(image_path)[..., 0]
    markers = np.zeros_like(gray)
    markers[gray < 30] = 1
    markers[gray > 150] = 2
    filled = ndi.binary_fill_holes(segmentation.watershed(filters.sobel(gray), markers) - 1)
    labels, n = ndi.label(filled)
    sizes = ndi.sum(filled, labels, range(1, n + 1))
    return int((sizes > 100).sum())
`;

const THRESHOLD = `from argus import *
from skimage import measure


def count_coins(image_path):
    bright = load_image(image_path).mean(axis=2) > 100
    return int(sum(1 for r in measure.regionprops(measure.label(bright)) if r.area > 200))
`;

export const FUNCTION_LABEL = process.env.BENCH_FUNCTION === "watershed" ? "watershed" : "threshold";
export const COUNT = FUNCTION_LABEL === "watershed" ? WATERSHED : THRESHOLD;
