/**
 * The 80 COCO object classes the detector knows, in the model's class order,
 * and how a person may name them ("people", "cars", "phone", "tv screen").
 * Pure: used by the catalogue to validate `labels` and by the worker to name
 * its output.
 */
export const COCO_LABELS = [
  "person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat", "traffic light",
  "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog", "horse", "sheep", "cow",
  "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella", "handbag", "tie", "suitcase", "frisbee",
  "skis", "snowboard", "sports ball", "kite", "baseball bat", "baseball glove", "skateboard", "surfboard",
  "tennis racket", "bottle", "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple",
  "sandwich", "orange", "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch",
  "potted plant", "bed", "dining table", "toilet", "tv", "laptop", "mouse", "remote", "keyboard",
  "cell phone", "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase",
  "scissors", "teddy bear", "hair drier", "toothbrush",
] as const;

export type CocoLabel = (typeof COCO_LABELS)[number];

/** Everyday names for a class that are not just its plural. */
const SYNONYMS: Record<string, CocoLabel> = {
  people: "person", persons: "person", human: "person", humans: "person", man: "person", men: "person",
  woman: "person", women: "person", child: "person", children: "person", kid: "person", kids: "person",
  pedestrian: "person", pedestrians: "person", player: "person", players: "person",
  bike: "bicycle", bikes: "bicycle", cycle: "bicycle", motorbike: "motorcycle", motorbikes: "motorcycle",
  scooter: "motorcycle", automobile: "car", vehicle: "car", vehicles: "car", plane: "airplane",
  planes: "airplane", aeroplane: "airplane", aircraft: "airplane", lorry: "truck", lorries: "truck",
  ship: "boat", ships: "boat", "traffic lights": "traffic light", "traffic signal": "traffic light",
  hydrant: "fire hydrant", kitten: "cat", kittens: "cat", puppy: "dog", puppies: "dog",
  bag: "handbag", bags: "handbag", purse: "handbag", ball: "sports ball", balls: "sports ball",
  football: "sports ball", soccer: "sports ball", racket: "tennis racket", racquet: "tennis racket",
  glass: "wine glass", glasses: "wine glass", mug: "cup", mugs: "cup", doughnut: "donut",
  doughnuts: "donut", sofa: "couch", sofas: "couch", plant: "potted plant", plants: "potted plant",
  table: "dining table", tables: "dining table", television: "tv", tvs: "tv", monitor: "tv",
  monitors: "tv", screen: "tv", screens: "tv", "tv screen": "tv", notebook: "laptop", computer: "laptop",
  mice: "mouse", "remote control": "remote", phone: "cell phone", phones: "cell phone",
  "mobile phone": "cell phone", smartphone: "cell phone", smartphones: "cell phone",
  fridge: "refrigerator", fridges: "refrigerator", knives: "knife", "hair dryer": "hair drier",
  hairdryer: "hair drier", teddy: "teddy bear", ski: "skis",
  cattle: "cow", cows: "cow", buses: "bus", busses: "bus", benches: "bench",
  luggage: "suitcase", glove: "baseball glove", bat: "baseball bat",
};

const BY_NAME = new Map<string, CocoLabel>(COCO_LABELS.map((label) => [label, label]));

/** Spaces, case, hyphens and underscores do not matter: "Cell-Phone" is "cell phone". */
function normalise(name: string): string {
  return name.trim().toLowerCase().replace(/[_-]+/g, " ").replace(/\s+/g, " ");
}

/** The plural forms English uses for the class names ("buses", "knives" are synonyms above). */
function singular(name: string): string {
  if (name.endsWith("ies") && name.length > 4) return `${name.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes)$/.test(name)) return name.slice(0, -2);
  if (name.endsWith("s") && !name.endsWith("ss")) return name.slice(0, -1);
  return name;
}

/** The COCO class a person's word names, or undefined when it names none. */
export function cocoLabelFor(name: string): CocoLabel | undefined {
  const plain = normalise(name);
  return BY_NAME.get(plain) ?? SYNONYMS[plain] ?? BY_NAME.get(singular(plain)) ?? SYNONYMS[singular(plain)];
}
