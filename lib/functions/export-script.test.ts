import { describe, expect, it } from "vitest";
import { exportScript } from "./export-script";

const fn = { sessionId: "s-1", name: "count_cars", version: 3, code: "from argus import *\ndef count_cars(path):\n    return len(detect_objects(path, labels=['car']))\n" };

describe("exportScript", () => {
  it("keeps the function, imports the argus package beside it and calls it from __main__", () => {
    const script = exportScript(fn);
    expect(script).toContain("def count_cars(path):\n    return len(detect_objects(path, labels=['car']))");
    expect(script).toContain("sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))");
    expect(script).toContain('os.environ.setdefault("ARGUS_SESSION", "s-1")');
    expect(script).toContain("print(json.dumps(to_json_safe(count_cars(sys.argv[1]))))");
    expect(script).toContain("ARGUS_URL=http://localhost:3000 ARGUS_TOKEN=<token> python3 count_cars.py photo.jpg");
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
