/**
 * Truth for the accuracy part of bench:vision, read off the photos by eye for the
 * classical tools' real-photo cases (python/tests/real_photos.py: VTEST_PEOPLE and
 * the OCR word lists), with the same matching rules, so the neural and classical
 * tools are scored alike.
 */
type Box = readonly [number, number, number, number];

/** Pedestrians of opencv-doc's vtest.avi frames (768x576): box, and whether a detector must find them. */
export const VTEST_PEOPLE: Record<string, [Box, boolean][]> = {
  "vtest_0132.jpg": [[[130, 78, 147, 116], true], [[380, 184, 405, 266], true], [[419, 168, 440, 258], false],
    [[577, 201, 612, 284], true], [[612, 225, 641, 308], true], [[597, 119, 620, 184], true],
    [[619, 123, 647, 185], true], [[688, 118, 708, 188], true], [[750, 253, 768, 350], true]],
  "vtest_0264.jpg": [[[35, 176, 62, 245], true], [[150, 145, 177, 215], true], [[310, 207, 341, 294], true],
    [[463, 175, 485, 245], true], [[507, 241, 548, 339], true], [[613, 129, 637, 195], true],
    [[635, 133, 657, 197], true]],
  "vtest_0792.jpg": [[[219, 160, 245, 229], true], [[240, 193, 269, 268], true], [[383, 162, 408, 235], true],
    [[432, 272, 475, 375], true], [[610, 263, 650, 371], true], [[639, 229, 673, 333], true],
    [[655, 145, 677, 213], true]],
};

/** Words on the signs of opencv-doc's scene-text photos. */
export const SIGN_WORDS: Record<string, string[]> = {
  "scenetext01.jpg": ["notice", "double", "parking", "prohibited", "all", "times"],
  "scenetext02.jpg": ["sports", "centre", "conference", "car", "parks"],
  "scenetext03.jpg": ["copy", "centre"],
  "scenetext05.jpg": ["no", "parking"],
  "scenetext06.jpg": ["priory", "galleries", "ship"],
  "scenetext_segmented_word01.jpg": ["hotel"],
};

/**
 * A found box is a person when that person's centre lies inside it and its height
 * is 0.6-2x theirs; every person may be matched once. Small (< 90 px) or hidden
 * people need not be found, but a box on one of them is not an extra.
 */
export function scorePedestrians(truth: [Box, boolean][], found: Box[]): { required: number; hit: number; extra: number } {
  const left = truth.map((_, index) => index);
  let extra = 0;
  for (const [x1, y1, x2, y2] of found) {
    const fits = left.filter((index) => {
      const [tx1, ty1, tx2, ty2] = truth[index]![0];
      const ratio = (y2 - y1) / (ty2 - ty1);
      return x1 <= (tx1 + tx2) / 2 && (tx1 + tx2) / 2 <= x2 && y1 <= (ty1 + ty2) / 2 && (ty1 + ty2) / 2 <= y2 && ratio >= 0.6 && ratio <= 2;
    });
    if (fits.length === 0) {
      extra++;
      continue;
    }
    const centre = (y1 + y2) / 2;
    const best = fits.sort((a, b) => Math.abs(mid(truth[a]![0]) - centre) - Math.abs(mid(truth[b]![0]) - centre))[0]!;
    left.splice(left.indexOf(best), 1);
  }
  const required = truth.map((entry, index) => [entry, index] as const).filter(([[box, must]]) => must && box[3] - box[1] >= 90);
  return { required: required.length, hit: required.filter(([, index]) => !left.includes(index)).length, extra };
}

function mid(box: Box): number {
  return (box[1] + box[3]) / 2;
}

/** Words of `wanted` read, counting a word also when its letters appear with spaces removed ("NOPARKING"). */
export function wordsRead(text: string, wanted: string[]): number {
  const words: string[] = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const letters = words.join("");
  return wanted.filter((word) => words.includes(word) || (word.length >= 2 && letters.includes(word))).length;
}
