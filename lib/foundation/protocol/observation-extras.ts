/**
 * The `extras` of each observation kind, in OpenHands' shape. Field order is
 * the order OpenHands emits; serialization reads it from the schema's shape,
 * so reordering a field here changes the wire format.
 */
import { z } from "zod";
import { AgentStateSchema, jsonObject } from "./event-base";
import { CellOutputSchema } from "./cell-output";
import { RedoMarkSchema } from "./redo";

export const CmdMetadataSchema = z.strictObject({
  exit_code: z.number().int().default(-1),
  pid: z.number().int().default(-1),
  username: z.string().nullable().default(null),
  hostname: z.string().nullable().default(null),
  working_dir: z.string().nullable().default(null),
  py_interpreter_path: z.string().nullable().default(null),
  prefix: z.string().default(""),
  suffix: z.string().default(""),
});

export const CellImageLabelSchema = z.strictObject({ label: z.string(), viewed: z.boolean() });
export type CellImageLabel = z.infer<typeof CellImageLabelSchema>;

export const OBSERVATION_EXTRAS = {
  null: z.strictObject({
    /** Argus's own: a run continued, a message answered again or edited, a notebook rebuilt (redo.ts). */
    redo: RedoMarkSchema.optional(),
  }),
  run_ipython: z.strictObject({
    code: z.string(),
    image_urls: z.array(z.string()).nullable().default(null),
    /**
     * Argus's own: beside each of `image_urls`, the label the agent was shown it under and whether
     * the cell passed it to view_image, so a run rebuilt from the log tells its agent the same
     * (lib/features/runtime/cell-image-extras.ts). Absent in OpenHands' events and Argus's before it.
     */
    image_labels: z.array(CellImageLabelSchema).optional(),
    /** Argus's own: the cell raised (absent in OpenHands' events and in Argus's before it). */
    failed: z.boolean().optional(),
    /** Argus's own: the person stopped the run while this cell ran; `content` is what it printed until then. */
    stopped: z.boolean().optional(),
    /**
     * Argus's own: the output typed (cell-output.ts); `content` is its text form. Absent in
     * OpenHands' events and in Argus's before it (lib/features/runtime/legacy-cell-output.ts reads those).
     */
    output: CellOutputSchema.optional(),
  }),
  run: z.strictObject({
    command: z.string(),
    metadata: CmdMetadataSchema.prefault({}),
    hidden: z.boolean().default(false),
  }),
  read: z.strictObject({
    path: z.string(),
    impl_source: z.enum(["default", "oh_aci"]).default("default"),
  }),
  write: z.strictObject({ path: z.string() }),
  // Browser output is large and open-ended (DOM, accessibility tree): the
  // fields Argus reads are typed, anything else is kept as it came.
  browse: z.looseObject({
    url: z.string(),
    trigger_by_action: z.string(),
    screenshot: z.string().default(""),
    screenshot_path: z.string().nullable().default(null),
    set_of_marks: z.string().default(""),
    error: z.boolean().default(false),
    goal_image_urls: z.array(z.string()).default([]),
    open_pages_urls: z.array(z.string()).default([]),
    active_page_index: z.number().int().default(-1),
    last_browser_action: z.string().default(""),
    last_browser_action_error: z.string().default(""),
    focused_element_bid: z.string().default(""),
    filter_visible_only: z.boolean().default(false),
  }),
  error: z.strictObject({ error_id: z.string().default("") }),
  success: z.strictObject({}),
  delegate: z.strictObject({ outputs: jsonObject.default({}) }),
  user_rejected: z.strictObject({}),
  agent_state_changed: z.strictObject({
    agent_state: AgentStateSchema,
    reason: z.string().default(""),
  }),
};
