/**
 * The runnable script of an exported function (GET …/functions/:name/export and
 * …/versions/:v/export): the kept code as it ran in Argus, a header saying how to run it and what
 * it needs, and a `__main__` that calls it on each image named and prints the result as JSON. It
 * imports the argus package shipped beside it, so classical tools run on the machine it is copied
 * to, and the neural ones (detect_objects, …) call the Argus server at ARGUS_URL with ARGUS_TOKEN
 * (python/argus/tools/neural.py). Pure.
 */
export interface ExportedFunction {
  sessionId: string;
  name: string;
  version: number;
  code: string;
}

/** The line the coder's runs put before the function (agents/coder/agent.ts); the header imports it too. */
const PRELUDE = "from argus import *\n";

/** What the argus package itself imports on every run (python/argus/images.py, overlays.py). */
const ALWAYS = ["numpy", "cv2", "PIL"];

/** Debian's package for each library a function commonly imports (the names `apt install` takes). */
const DEBIAN: Record<string, string> = {
  numpy: "python3-numpy",
  cv2: "python3-opencv",
  PIL: "python3-pil",
  skimage: "python3-skimage",
  scipy: "python3-scipy",
  matplotlib: "python3-matplotlib",
  pandas: "python3-pandas",
  sklearn: "python3-sklearn",
  pytesseract: "python3-pytesseract",
  requests: "python3-requests",
};

/** The standard library's modules a function may import without installing anything. */
const STDLIB = new Set(["argus", "os", "sys", "json", "math", "re", "io", "time", "itertools", "functools", "collections", "statistics", "pathlib", "typing", "dataclasses", "random", "base64", "glob", "csv", "string", "datetime", "heapq", "bisect", "copy", "operator", "enum", "fractions", "decimal", "__future__"]);

/**
 * The Debian packages the script needs: the argus package's own (numpy, OpenCV, Pillow), then one
 * per top-level library the function's code imports, in the order it imports them. A library
 * without a known Debian name is listed by its import name.
 */
export function requiredPackages(code: string): string[] {
  const imported = [...code.matchAll(/^\s*(?:from|import)\s+([A-Za-z_]\w*)/gm)].map((m) => m[1]!);
  const names: string[] = [];
  for (const module of [...ALWAYS, ...imported]) {
    if (STDLIB.has(module)) continue;
    const name = DEBIAN[module] ?? module;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

export function exportScript(fn: ExportedFunction): string {
  const code = fn.code.startsWith(PRELUDE) ? fn.code.slice(PRELUDE.length) : fn.code;
  return `"""${fn.name} (version ${fn.version}), exported from Argus.

Run it on one image or several:

    python3 ${fn.name}.py photo.jpg [more.jpg ...]

It prints the result as JSON, as the run endpoint answers it: the function's
result for one image, or an object with each image's result under its path.
It needs Python 3 and these libraries (Debian/Ubuntu package names):

    sudo apt install ${requiredPackages(code).join(" ")}

The argus folder beside this file holds the helpers it calls (load_image, the
vision tools). Classical tools (count_objects, detect_circles, ...) run on this
machine. Neural tools (detect_objects, detect_poses, segment_people,
method="neural") run on the Argus server at ARGUS_URL, authorised by
ARGUS_TOKEN: the session's token or a function token made in the Code tab.
ARGUS_SESSION below ties those calls to the session this function came from.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("ARGUS_SESSION", ${JSON.stringify(fn.sessionId)})

from argus import *  # noqa: E402,F403 - the package beside this file

${code.trim()}


if __name__ == "__main__":
    import json

    from argus.function_call import to_json_safe

    if len(sys.argv) < 2:
        print(f"usage: python3 {sys.argv[0]} IMAGE [IMAGE ...]", file=sys.stderr)
        sys.exit(2)
    if len(sys.argv) == 2:
        print(json.dumps(to_json_safe(${fn.name}(sys.argv[1]))))
    else:
        print(json.dumps({image: to_json_safe(${fn.name}(image)) for image in sys.argv[1:]}))
`;
}
