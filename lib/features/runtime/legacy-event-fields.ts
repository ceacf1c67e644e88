/**
 * Old event streams, read the way OpenHands reads them. Each step is one that
 * OpenHands' own reader takes, in its order (openhands/events/serialization/
 * action.py `action_from_dict` + `handle_action_deprecated_args`, and
 * observation.py `handle_observation_deprecated_extras`, at d6fab19, the
 * commit tests/fixtures/openhands-event-vectors.json was made from). Nothing
 * else is forgiven: a key OpenHands never deprecated is left in place for the
 * schema to refuse by name.
 */
import { ArgusError } from "@/lib/foundation/errors";
import { parsePythonLiteral, PythonLiteralError } from "@/lib/foundation/text/python-literal";
import { isDict, type Dict } from "./dict";

export interface MigratedArgs {
  args: Dict;
  /** A timestamp older streams kept inside `args`; it dates the event when the top level has none. */
  timestamp?: string;
}

/** Migrates a stored action's `args` (a copy; the input is never changed). */
export function migrateActionArgs(raw: Dict): MigratedArgs {
  const args: Dict = structuredClone(raw);
  // action_from_dict: "Remove timestamp from args if present" (kept only when non-empty, as there).
  const timestamp = args.timestamp;
  delete args.timestamp;
  // action_from_dict: "is_confirmed has been renamed to confirmation_state" (a null one is dropped).
  if ("is_confirmed" in args) {
    if (args.is_confirmed !== null) args.confirmation_state = args.is_confirmed;
    delete args.is_confirmed;
  }
  // action_from_dict: "images_urls has been renamed to image_urls".
  if ("images_urls" in args) {
    args.image_urls = args.images_urls;
    delete args.images_urls;
  }
  // action_from_dict: a security_risk that is not a risk level is removed rather than fatal.
  if ("security_risk" in args && !isRiskLevel(args.security_risk)) delete args.security_risk;
  // handle_action_deprecated_args: keep_prompt (deprecated in OpenHands #4881) and task_completed.
  delete args.keep_prompt;
  delete args.task_completed;
  expandTranslatedIpythonCode(args);
  return typeof timestamp === "string" && timestamp !== "" ? { args, timestamp } : { args };
}

/** ActionSecurityRisk: -1 unknown, 0 low, 1 medium, 2 high. */
function isRiskLevel(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= -1 && value <= 2;
}

const FILE_EDITOR_CALL = "print(file_editor(**";

/**
 * handle_action_deprecated_args: file reads and edits once carried the Python
 * they ran, `print(file_editor(**{...}))`. OpenHands reads that dict back into
 * the args (unreadable source is just dropped), then drops `command: "view"`,
 * since a view became a read, which has no command.
 */
function expandTranslatedIpythonCode(args: Dict): void {
  if (!("translated_ipython_code" in args)) return;
  const code = args.translated_ipython_code;
  delete args.translated_ipython_code;
  if (code !== null && typeof code !== "string") {
    throw new ArgusError("bad_request:event", "Invalid action: args.translated_ipython_code must be a string or null.", {
      field: "args.translated_ipython_code",
    });
  }
  if (code !== null && code.startsWith(FILE_EDITOR_CALL) && code.endsWith("))")) {
    const editorArgs = readDict(code.slice(FILE_EDITOR_CALL.length, -2));
    for (const [key, value] of Object.entries(editorArgs ?? {})) {
      // Defined, not assigned, so a "__proto__" key stays a key (and is then refused as unknown).
      Object.defineProperty(args, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  if (args.command === "view") delete args.command;
}

function readDict(source: string): Dict | undefined {
  try {
    const value = parsePythonLiteral(source);
    return isDict(value) ? value : undefined;
  } catch (e) {
    if (e instanceof PythonLiteralError) return undefined;
    throw e;
  }
}

/** Migrates a stored observation's `extras` (a copy; the input is never changed). */
export function migrateObservationExtras(raw: Dict): Dict {
  const extras: Dict = structuredClone(raw);
  // handle_observation_deprecated_extras: exit_code and command_id moved into metadata (OpenHands #4881).
  const lift = (legacy: string, key: string) => {
    if (!(legacy in extras)) return;
    const metadata = isDict(extras.metadata) ? extras.metadata : {};
    extras.metadata = { ...metadata, [key]: extras[legacy] };
    delete extras[legacy];
  };
  lift("exit_code", "exit_code");
  lift("command_id", "pid");
  // handle_observation_deprecated_extras: formatted_output_and_error (deprecated in OpenHands #6671).
  delete extras.formatted_output_and_error;
  return extras;
}
