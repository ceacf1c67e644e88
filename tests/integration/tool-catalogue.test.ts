import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderToolCatalogue, CATALOGUE_BUDGET_CHARS } from "@/agents/tool-catalogue-prompt";
import { loadToolCatalogue } from "@/lib/engines/kernels/tool-catalogue";
import { cachedToolCatalogue } from "@/lib/engines/kernels/tool-catalogue-cache";
import { PYTHON_DIR } from "@/lib/server/argus-core";
import { tempDir } from "@/tests/helpers/temp-dir";

const scratch = tempDir("argus-catalogue-");
afterAll(scratch.cleanup);

describe("the vision-tool catalogue in the prompts", () => {
  it("comes from the kernel package itself and fits the prompt budget", async () => {
    const catalogue = await loadToolCatalogue("/usr/bin/python3", PYTHON_DIR);
    const names = catalogue.map((t) => t.name);
    for (const name of ["detect_faces", "detect_circles", "count_objects", "ocr", "read_qr_codes", "vqa", "describe", "classify"]) expect(names).toContain(name);
    expect(catalogue.find((t) => t.name === "count_objects")!.when).toMatch(/counting coins/);
    const section = renderToolCatalogue(catalogue);
    expect(section.length).toBeLessThanOrEqual(CATALOGUE_BUDGET_CHARS);
    for (const name of names) expect(section).toContain(`${name}(`);
  });

  it("shows a tool added to python/argus/tools/ with no TypeScript change", async () => {
    // A copy of the package with one more tool registered, as a contributor would add it.
    const copy = path.join(scratch.dir, "python");
    cpSync(PYTHON_DIR, copy, { recursive: true, filter: (src) => !src.includes("__pycache__") });
    writeFileSync(
      path.join(copy, "argus", "tools", "screws.py"),
      'def count_screws(image, box_threshold=0.5):\n    """Count screws.\n\n    When to use: counting screws, bolts and nails in a tray.\n    """\n    return []\n',
    );
    const registry = path.join(copy, "argus", "tools", "registry.py");
    const source = readFileSync(registry, "utf8")
      .replace("from .templates import find_template", "from .templates import find_template\nfrom .screws import count_screws")
      .replace("TOOLS: Dict[str, ToolInfo] = dict(\n    [", 'TOOLS: Dict[str, ToolInfo] = dict(\n    [\n        _entry(count_screws, "How many screws, bolts or nails.", "screw screws bolt nail", "counting"),');
    expect(source).toContain("_entry(count_screws");
    writeFileSync(registry, source);

    const catalogue = await loadToolCatalogue("/usr/bin/python3", copy);
    const added = catalogue.find((t) => t.name === "count_screws");
    expect(added).toMatchObject({ signature: "count_screws(image, box_threshold=0.5)", when: "counting screws, bolts and nails in a tray" });
    expect(renderToolCatalogue(catalogue)).toContain("- count_screws(image, box_threshold=0.5) — How many screws, bolts or nails.");
  });

  it("is asked of Python again only when the package's source changed", async () => {
    const copy = path.join(scratch.dir, "cached", "python");
    cpSync(PYTHON_DIR, copy, { recursive: true, filter: (src) => !src.includes("__pycache__") });
    const cacheFile = path.join(scratch.dir, "cached", "cache", "tool-catalogue.json");
    const first = await cachedToolCatalogue("/usr/bin/python3", copy, cacheFile);
    expect(first.map((t) => t.name)).toContain("count_objects");
    // A cache that no longer matches what is stored is not believed: mark the stored copy.
    const stored = JSON.parse(readFileSync(cacheFile, "utf8")) as { key: string; catalogue: { name: string }[] };
    stored.catalogue[0]!.name = "from_the_cache";
    writeFileSync(cacheFile, JSON.stringify(stored));
    expect((await cachedToolCatalogue("/usr/bin/python3", copy, cacheFile))[0]!.name).toBe("from_the_cache");
    // Any change to the package's source asks Python again.
    writeFileSync(path.join(copy, "argus", "tools", "extra_note.py"), "# a contributor's new module\n");
    expect((await cachedToolCatalogue("/usr/bin/python3", copy, cacheFile))[0]!.name).toBe(first[0]!.name);
    // A corrupt cache file is ignored, not trusted.
    writeFileSync(cacheFile, "{not json");
    expect((await cachedToolCatalogue("/usr/bin/python3", copy, cacheFile)).length).toBe(first.length);
  });

  it("fails loudly on a package that cannot describe itself", async () => {
    await expect(loadToolCatalogue("/usr/bin/python3", scratch.dir)).rejects.toThrow();
  });
});
