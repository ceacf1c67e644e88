import { Alert } from "@/components/ui/alert";

/** Says exactly what to set when no model is configured (the app still runs). */
export function ModelBanner({ configured }: { configured: boolean }) {
  if (configured) return null;
  return (
    <Alert role="status" tone="warning">
      No model is configured. Set <code>OPENAI_API_KEY</code> (or <code>OPENAI_BASE_URL</code> for a local
      server) and <code>ARGUS_MODEL</code>, then restart — or try Argus with the scripted model (see the README).
    </Alert>
  );
}
