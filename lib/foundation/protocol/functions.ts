/** Wire types of the session-function routes (issue #15), shared by the server and the page. */

/** GET /api/sessions/:id/functions → { functions: FunctionSummaryView[] } (newest first). */
export interface FunctionSummaryView {
  name: string;
  latestVersion: number;
  versions: number;
  updatedAt: string;
  /** The latest version passed its test. */
  success: boolean;
}

/** GET …/functions/:name/versions → { name, versions: FunctionVersionView[] } (oldest first); …/versions/:v → one. */
export interface FunctionVersionView {
  name: string;
  version: number;
  code: string;
  test: string;
  /** The run that produced it. */
  runId: string | null;
  testOutput: string;
  success: boolean;
  createdAt: string;
}

/**
 * POST /api/sessions/:id/function-tokens → FunctionTokenCreated (the token is shown this once);
 * GET → { tokens: FunctionTokenView[] }; DELETE …/function-tokens/:tokenId revokes one.
 */
export interface FunctionTokenView {
  id: string;
  createdAt: string;
}
export interface FunctionTokenCreated extends FunctionTokenView {
  token: string;
}
