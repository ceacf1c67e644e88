import { mkdirSync } from "node:fs";
import path from "node:path";
import { modelStatus, type ArgusConfig } from "@/lib/config";
import { BlobStore } from "@/lib/db/blobs";
import { openDatabase, pingDatabase, type Db } from "@/lib/db/database";
import {
  ExternalJupyter,
  ManagedJupyterServer,
  NoJupyter,
  type JupyterBackend,
  type JupyterStatus,
} from "@/lib/kernels/jupyter-server";
import { EventLog } from "@/lib/runtime/event-log";
import type { SessionDeps } from "@/lib/sessions/service";

export interface Health {
  ok: boolean;
  db: "up" | "down";
  jupyter: JupyterStatus;
  model: "configured" | "not_configured";
}

/**
 * Everything stateful that one Argus process owns, built once by server.ts (or
 * by a test or benchmark that needs the spine without Next). Jupyter is not
 * started here: the caller starts it alongside its other work (see server.ts).
 */
export interface ArgusCore extends SessionDeps {
  config: ArgusConfig;
  db: Db;
  blobs: BlobStore;
  events: EventLog;
  jupyter: JupyterBackend;
  health(): Promise<Health>;
  close(): Promise<void>;
}

export async function createArgusCore(
  config: ArgusConfig,
  options: { log?: (line: string) => void } = {},
): Promise<ArgusCore> {
  for (const dir of [config.dataDir, config.sessionsDir, config.tmpDir]) mkdirSync(dir, { recursive: true });
  const db = openDatabase(config.dbPath);
  const blobs = new BlobStore(config.blobDir);
  const events = new EventLog(db);

  let jupyter: JupyterBackend;
  if (config.jupyter.mode === "external") {
    jupyter = new ExternalJupyter({ baseUrl: config.jupyter.url.replace(/\/$/, ""), token: config.jupyter.token });
  } else if (config.jupyter.mode === "off") {
    jupyter = new NoJupyter();
  } else {
    jupyter = new ManagedJupyterServer({
      python: config.python,
      rootDir: config.sessionsDir,
      runtimeDir: path.join(config.dataDir, "jupyter"),
      log: options.log ? (line) => options.log?.(`[jupyter] ${line}`) : undefined,
    });
  }
  let closed = false;
  return {
    config,
    db,
    blobs,
    events,
    jupyter,
    async health() {
      const dbUp = pingDatabase(db);
      const jupyterStatus = await jupyter.status();
      const jupyterOk = jupyterStatus === "up" || jupyterStatus === "off";
      return {
        ok: dbUp && jupyterOk,
        db: dbUp ? "up" : "down",
        jupyter: jupyterStatus,
        model: modelStatus(config),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await jupyter.stop();
      db.close();
    },
  };
}
