/**
 * The cells a downloaded notebook starts with so it runs top to bottom in plain Jupyter, with no
 * Argus installed: Argus's kernels have `from argus import *` run for them (load_image,
 * view_image, the vision tools), a plain kernel does not. The first code cell carries the argus
 * package the session ran with (a base64 zip), unpacks it into a temporary folder, puts that on
 * the path and imports it. Its source is hidden in Jupyter (it is long); a markdown cell above
 * says what it is. Both are marked `argus.helpers` so Argus's own Notebook tab leaves them out.
 * Pure: the route reads and zips the package (lib/engines/kernels/argus-package.ts).
 */

/** The metadata marking a cell as this setup, not as something the session ran. */
export const HELPERS_METADATA = { argus: { helpers: true } } as const;

/** Lines of base64 short enough for an editor; the source is a list of lines, as nbformat writes it. */
const LINE = 76;

export function helpersCells(packageZip: Buffer, sessionId: string): Record<string, unknown>[] {
  const b64 = packageZip.toString("base64");
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += LINE) lines.push(b64.slice(i, i + LINE));
  const code = [
    "# Argus's helpers (load_image, view_image, the vision tools), as this session's kernel had them:",
    "# the argus package, unpacked into a temporary folder and imported, so the cells below run in",
    "# plain Jupyter. Neural tools, vqa() and describe() call an Argus server: set ARGUS_URL and",
    "# ARGUS_TOKEN (the session's token or a function token) in the environment first.",
    "import base64 as _b64, io as _io, os as _os, sys as _sys, tempfile as _tempfile, zipfile as _zipfile",
    "",
    '_ARGUS_PACKAGE_ZIP = """',
    ...lines,
    '"""',
    '_argus_dir = _tempfile.mkdtemp(prefix="argus-helpers-")',
    "_zipfile.ZipFile(_io.BytesIO(_b64.b64decode(_ARGUS_PACKAGE_ZIP))).extractall(_argus_dir)",
    "_sys.path.insert(0, _argus_dir)",
    `_os.environ.setdefault("ARGUS_SESSION", ${JSON.stringify(sessionId)})`,
    "from argus import *",
  ].join("\n");
  return [
    {
      cell_type: "markdown",
      id: "argus-helpers-note",
      metadata: { ...HELPERS_METADATA },
      source:
        "**Exported from Argus.** The next cell (its source is folded) loads Argus's helpers so this notebook runs in plain Jupyter. " +
        "Put the session's images beside this file first: the cells open them by name. " +
        "Cells that failed when Argus ran them are tagged `raises-exception`, so running all continues past them.",
    },
    {
      cell_type: "code",
      id: "argus-helpers",
      metadata: { ...HELPERS_METADATA, jupyter: { source_hidden: true } },
      execution_count: null,
      source: code,
      outputs: [],
    },
  ];
}
