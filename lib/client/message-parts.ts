/**
 * The chat components import the message helpers from here. Each lives in a
 * file named for its job (tool-review, observation-text, links,
 * group-messages); once the components import those directly, this file goes.
 */
export { boxPercent, describeAnswer, openingChoice, parseToolReview, toolReviewAnswer, toolReviewChoice, visibleDetections } from "./tool-review";
export type { CardAnswer, Detection, ToolCandidate, ToolReview, ToolSuggestion } from "./tool-review";
export { cellOutputView, plainOutputView } from "./observation-text";
export { classifyLink, isSafeImageUrl } from "./links";
export { groupMessages, isEntry } from "./group-messages";
export type { DisplayItem, Entry, InteractionEntry, StepAgent } from "./group-messages";
