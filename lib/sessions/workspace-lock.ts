// Moved to lib/common/workspace.ts; this re-export goes once lib/kernels/registry.ts and lib/sessions/service.ts import it from there.
export { workspaceLock } from "@/lib/common/workspace";
