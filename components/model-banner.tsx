/** Says exactly what to set when no model is configured (the app still runs). */
export function ModelBanner({ configured }: { configured: boolean }) {
  if (configured) return null;
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      No model is configured. Set <code>OPENAI_API_KEY</code> (or <code>OPENAI_BASE_URL</code> for a local
      server) and <code>ARGUS_MODEL</code>, then restart — or try Argus with the scripted model (see the README).
    </div>
  );
}
