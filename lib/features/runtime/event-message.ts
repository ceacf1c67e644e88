import { isAction, type ArgusEvent } from "@/lib/foundation/protocol/events";

/** The UI one-liner OpenHands stores as `message`; derived, never read back. */
export function eventMessage(e: ArgusEvent): string {
  if (isAction(e)) {
    switch (e.action) {
      case "null":
        return "";
      case "message":
        return e.args.content;
      case "run":
        return `Running command: ${e.args.command}`;
      case "run_ipython":
        return `Running Python:\n${e.args.code}`;
      case "read":
        return `Reading file: ${e.args.path}`;
      case "write":
        return `Writing file: ${e.args.path}`;
      case "browse":
        return `Opening ${e.args.url}`;
      case "browse_interactive":
        return `Using the browser:\n${e.args.browser_actions}`;
      case "delegate":
        return `Handing the task to the ${e.args.agent} agent.`;
      case "finish":
        return e.args.final_thought || "Finished.";
      case "reject": {
        const reason = e.args.outputs.reason;
        return typeof reason === "string" && reason ? `Gave up on the task: ${reason}` : "Gave up on the task.";
      }
      case "task_tracking":
        return e.args.command === "plan"
          ? `Updating the task list (${e.args.task_list.length} items).`
          : "Checking the task list.";
      case "interaction":
        return e.args.prompt;
    }
  }
  switch (e.observation) {
    case "null":
      return "";
    case "run":
      return `Command \`${e.extras.command}\` exited with code ${e.extras.metadata.exit_code}.`;
    case "run_ipython":
      // Not the output itself: it can be large and is already in `content`.
      return e.extras.image_urls?.length ? `Python cell ran (${e.extras.image_urls.length} images).` : "Python cell ran.";
    case "read":
      return `Read ${e.extras.path}.`;
    case "write":
      return `Wrote ${e.extras.path}.`;
    case "browse":
      return `Visited ${e.extras.url}.`;
    case "agent_state_changed":
      return `Run state: ${e.extras.agent_state}.`;
    default:
      return e.content;
  }
}
