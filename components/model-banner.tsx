import { Alert } from "@/components/ui/alert";

/** Says exactly what to set when no model is configured (the app still runs). */
export function ModelBanner({ configured }: { configured: boolean }) {
  if (configured) return null;
  return (
    <Alert role="status" tone="warning">
      No model is configured. Set <code>OPENAI_API_KEY</code> (or <code>OPENAI_BASE_URL</code> for a local
      server) and <code>ARGUS_MODEL</code>, then restart. To try Argus without a model, run{" "}
      <code data-testid="try-command">npm run try</code> instead of <code>npm start</code>: a scripted model answers
      &ldquo;How many coins are on the table?&rdquo; about scikit-image&apos;s coins photo.
    </Alert>
  );
}
