/**
 * `npm run doctor`: is each role's model reachable, known, able to call tools (and how), able to
 * see images, and streaming? One table, a fix per problem; exit 1 when a role cannot work.
 */
import { loadConfig } from "@/lib/foundation/config";
import { checkJupyter } from "@/lib/features/doctor/jupyter-check";
import { runDoctor } from "@/lib/features/doctor/run-doctor";
import { renderReport } from "@/lib/features/doctor/table";

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  // An external Jupyter (JUPYTER_URL) is checked first: it is the other thing a person configures by hand.
  const jupyter = await checkJupyter(config);
  if (jupyter) console.log(`${jupyter.lines.join("\n")}\n`);
  if (config.model.apiKey === null && config.model.baseUrl === null) {
    console.log("No model endpoint is configured: set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for an OpenAI-compatible server (Ollama: http://localhost:11434/v1).");
    process.exit(1);
  }
  const report = await runDoctor(config.model, { browserApi: config.browser.api });
  console.log(renderReport(report));
  process.exit(report.ok && (jupyter?.ok ?? true) ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
