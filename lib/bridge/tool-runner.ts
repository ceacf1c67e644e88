import { z } from "zod";

export const RESULTS_MARKER = "ARGUS_TOOL_RESULTS ";

const DetectionSchema = z.object({
  label: z.string(),
  score: z.number(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
});

const CandidateResultSchema = z.object({
  count: z.number().int().min(0),
  detections: z.array(DetectionSchema),
  summary: z.string().optional(),
  error: z.string().optional(),
  seconds: z.number().optional(),
});
export type CandidateResult = z.infer<typeof CandidateResultSchema>;
export const CandidateResultsSchema = z.record(z.string(), CandidateResultSchema);

/**
 * Python, run in an isolated kernel, that tries each candidate tool on one
 * image under its own time limit and prints one JSON line. A tool that needs
 * more than the image (and box_threshold) is reported, not guessed at. Every
 * value is passed in as a JSON literal, never spliced into code.
 */
export function buildCandidateRunner(candidates: string[], imagePath: string, threshold: number, perToolSeconds: number): string {
  if (!/^[\w./-]+$/.test(imagePath) || imagePath.includes("..")) throw new Error(`not a workspace image path: ${imagePath}`);
  const args = JSON.stringify({ candidates, image: imagePath, threshold, limit: perToolSeconds });
  return `
import inspect, json, signal, time
from argus import load_image
try:
    from argus.tools import TOOLS
except Exception:
    TOOLS = {}
_args = json.loads(${JSON.stringify(args)})

def _function(entry):
    if callable(entry):
        return entry
    if isinstance(entry, dict):
        return entry.get("function") or entry.get("fn")
    return getattr(entry, "function", None) or getattr(entry, "fn", None)

class _TooSlow(Exception):
    pass

def _alarm(*_):
    raise _TooSlow()

def _detections(result):
    items = result if isinstance(result, (list, tuple)) else result.get("detections", []) if isinstance(result, dict) else []
    out = []
    for d in items:
        if isinstance(d, dict) and "bbox" in d:
            out.append({"label": str(d.get("label", "")), "score": float(d.get("score", 1.0)), "bbox": [float(v) for v in list(d["bbox"])[:4]]})
    return out

signal.signal(signal.SIGALRM, _alarm)
_image = load_image(_args["image"])
_out = {}
for _name in _args["candidates"]:
    _rec = {"count": 0, "detections": []}
    _fn = _function(TOOLS.get(_name)) if hasattr(TOOLS, "get") else None
    if _fn is None:
        _rec["error"] = "not in the catalogue"
        _out[_name] = _rec
        continue
    _params = inspect.signature(_fn).parameters
    _needs = [p.name for p in list(_params.values())[1:] if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    if _needs:
        _rec["error"] = "needs " + ", ".join(_needs)
        _out[_name] = _rec
        continue
    _kwargs = {"box_threshold": _args["threshold"]} if "box_threshold" in _params else {}
    _t0 = time.time()
    try:
        signal.setitimer(signal.ITIMER_REAL, _args["limit"])
        _result = _fn(_image, **_kwargs)
        signal.setitimer(signal.ITIMER_REAL, 0)
        _found = _detections(_result)
        _rec["detections"] = _found[:100]
        _rec["count"] = len(_found) if _found else (len(_result) if isinstance(_result, (list, tuple)) else 0)
        if not _found:
            _rec["summary"] = repr(_result)[:300]
    except _TooSlow:
        _rec["error"] = "took longer than %ss" % _args["limit"]
    except Exception as _e:
        _rec["error"] = "%s: %s" % (type(_e).__name__, str(_e)[:200])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    _rec["seconds"] = round(time.time() - _t0, 3)
    _out[_name] = _rec
print(${JSON.stringify(RESULTS_MARKER)} + json.dumps(_out))
`;
}
