/**
 * The runnable script of an exported function (GET …/functions/:name/export): the kept code as it
 * ran in Argus, a header saying how to run it, and a `__main__` that calls it on a file and prints
 * the result as the run endpoint's JSON. It imports the argus package shipped beside it, so
 * classical tools run on the machine it is copied to, and the neural ones (detect_objects, …) call
 * the Argus server at ARGUS_URL with ARGUS_TOKEN (python/argus/tools/neural.py). Pure.
 */
export interface ExportedFunction {
  sessionId: string;
  name: string;
  version: number;
  code: string;
}

/** The line the coder's runs put before the function (agents/coder/agent.ts); the header imports it too. */
const PRELUDE = "from argus import *\n";

export function exportScript(fn: ExportedFunction): string {
  const code = fn.code.startsWith(PRELUDE) ? fn.code.slice(PRELUDE.length) : fn.code;
  return `"""${fn.name} (version ${fn.version}), exported from Argus.

Run it on an image:

    ARGUS_URL=http://localhost:3000 ARGUS_TOKEN=<token> python3 ${fn.name}.py photo.jpg

It prints the result as JSON, as the run endpoint answers it. Classical tools
(count_objects, detect_circles, ...) run on this machine, with numpy, OpenCV,
scikit-image, Pillow and tesseract installed. Neural tools (detect_objects,
detect_poses, segment_people, method="neural") run on the Argus server at
ARGUS_URL, authorised by ARGUS_TOKEN: the session's token or a function token
made in the Code tab. ARGUS_SESSION below ties the calls to the session this
function came from (another session's token is refused).
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

    if len(sys.argv) != 2:
        sys.exit(f"usage: python3 {sys.argv[0]} IMAGE")
    print(json.dumps(to_json_safe(${fn.name}(sys.argv[1]))))
`;
}
