import { describe, expect, it } from "vitest";
import { exportScript, requiredPackages } from "./export-script";

const fn = { sessionId: "s-1", name: "count_cars", version: 3, code: "from argus import *\ndef count_cars(path):\n    return len(detect_objects(path, labels=['car']))\n" };

describe("exportScript", () => {
  it("keeps the function, imports the argus package beside it and calls it from __main__", () => {
    const script = exportScript(fn);
    expect(script).toContain("def count_cars(path):\n    return len(detect_objects(path, labels=['car']))");
    expect(script).toContain("sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))");
    expect(script).toContain('os.environ.setdefault("ARGUS_SESSION", "s-1")');
    expect(script).toContain("print(json.dumps(to_json_safe(count_cars(sys.argv[1]))))");
    expect(script).toContain("python3 count_cars.py photo.jpg [more.jpg ...]");
  });

  it("answers several images as one JSON object keyed by path, and no image with a usage line and status 2", () => {
    const script = exportScript(fn);
    expect(script).toContain("print(json.dumps({image: to_json_safe(count_cars(image)) for image in sys.argv[1:]}))");
    expect(script).toContain('print(f"usage: python3 {sys.argv[0]} IMAGE [IMAGE ...]", file=sys.stderr)\n        sys.exit(2)');
  });

  it("names the Debian packages it needs in its header", () => {
    expect(exportScript(fn)).toContain("sudo apt install python3-numpy python3-opencv python3-pil\n");
  });

  it("imports argus once, after the path is set (the kept code's own prelude is dropped)", () => {
    const script = exportScript(fn);
    expect(script.match(/^from argus import \*/gm)).toHaveLength(1);
    expect(script.indexOf("sys.path.insert")).toBeLessThan(script.indexOf("from argus import *  #"));
  });

  it("quotes the session id as a Python string", () => {
    expect(exportScript({ ...fn, sessionId: 'a"b\\c' })).toContain('os.environ.setdefault("ARGUS_SESSION", "a\\"b\\\\c")');
  });
});

describe("requiredPackages", () => {
  it("lists the argus package's libraries, then each library the code imports, once, in order", () => {
    const code = "import numpy as np\nfrom skimage import filters, segmentation\nfrom scipy import ndimage as ndi\nimport os, json\n\ndef f(p):\n    import cv2\n    return 1\n";
    expect(requiredPackages(code)).toEqual(["python3-numpy", "python3-opencv", "python3-pil", "python3-skimage", "python3-scipy"]);
  });

  it("names a library without a known Debian package by its import name, and skips the standard library", () => {
    expect(requiredPackages("import torch\nfrom collections import Counter\nfrom argus import *\n")).toEqual(["python3-numpy", "python3-opencv", "python3-pil", "torch"]);
  });
});
