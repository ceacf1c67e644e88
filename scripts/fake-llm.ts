/**
 * `npm run fake-llm -- <scenario.json> [--port N] [--require-key K] [--dialect D]`: serve a scenario as an
 * OpenAI-compatible model on loopback, so Argus can be tried (or tested from another process)
 * without an API key. Point OPENAI_BASE_URL at the printed URL and set ARGUS_MODEL_<ROLE> to
 * the model names the scenario uses.
 */
import { parseArgs } from "node:util";
import { DIALECTS, ScenarioError, startScriptedModel, type Dialect } from "@/scripted-model/server";

const USAGE = `usage: tsx scripts/fake-llm.ts <scenario.json> [--port N] [--require-key K] [--dialect ${DIALECTS.join("|")}]`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { port: { type: "string" }, "require-key": { type: "string" }, dialect: { type: "string" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    console.log(USAGE);
    return;
  }
  const file = positionals[0];
  if (file === undefined || positionals.length > 1) fail(USAGE);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0-65535, got ${values.port}`);

  const dialect = values.dialect;
  if (dialect !== undefined && !(DIALECTS as readonly string[]).includes(dialect)) fail(`--dialect must be one of ${DIALECTS.join(", ")}, got ${dialect}`);

  let server;
  try {
    server = await startScriptedModel(file, {
      port,
      requireKey: values["require-key"],
      log: (line) => console.log(line),
      ...(dialect === undefined ? {} : { dialect: dialect as Dialect }),
    });
  } catch (error) {
    if (error instanceof ScenarioError) fail(error.message);
    throw error;
  }

  const remaining = server.remaining();
  const turns = Object.values(remaining).reduce((sum, count) => sum + count, 0);
  console.log(
    `scripted model ${JSON.stringify(server.scenario.name)} listening on ${server.url}, ${server.scenario.dialect ?? dialect ?? "openai"} dialect (${turns} turns for: ${Object.keys(remaining).join(", ")})`,
  );

  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
