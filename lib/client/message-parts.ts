/**
 * The chat components import the message parsers from here. Each parser lives
 * in a file named for its job (message-content, tool-review, observation-text,
 * links, group-messages); once the components import those directly, this
 * file goes.
 */
export { parseFinalCode, parseInteraction, parsePlan, parseStep } from "./message-content";
export { boxPercent, describeAnswer, parseToolReview, parseToolReviewAnswer, visibleDetections } from "./tool-review";
export type { Detection, ToolCandidate, ToolReview } from "./tool-review";
export { parseObservation } from "./observation-text";
export { classifyLink, isSafeImageUrl } from "./links";
export { groupMessages } from "./group-messages";
export type { DisplayItem, StepAgent } from "./group-messages";
