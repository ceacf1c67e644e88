import { mkdirSync } from "node:fs";
import type { ArgusConfig } from "@/lib/foundation/config";
import { KeyedMutex } from "@/lib/foundation/common/keyed-mutex";
import { BlobStore } from "@/lib/engines/db/blobs";
import { openDatabase, type Db } from "@/lib/engines/db/database";
import { DiskSpace } from "@/lib/engines/db/disk-space";
import { DraftChannel } from "@/lib/features/runtime/draft-channel";
import { WaitChannel } from "@/lib/features/runtime/wait-channel";
import { EventLog } from "@/lib/features/runtime/event-log";

/** The first step of the composition: where everything is kept, and the log every change goes through. */
export interface Storage {
  db: Db;
  blobs: BlobStore;
  events: EventLog;
  /** Live drafts of the steps being written (ephemeral; Socket.io relays them). */
  drafts: DraftChannel;
  /** What a session's runs wait for while they wait (ephemeral; Socket.io relays them). */
  waits: WaitChannel;
  /** Serialises work on one key (a session's workspace, a run's log) within this process. */
  locks: KeyedMutex;
  /** Free space of the data directory; new work is refused below the minimum. */
  disk: DiskSpace;
}

export async function buildStorage(config: ArgusConfig): Promise<Storage> {
  for (const dir of [config.dataDir, config.sessionsDir, config.tmpDir]) mkdirSync(dir, { recursive: true });
  const db = await openDatabase(config.databaseUrl ?? config.dbPath);
  return {
    db,
    blobs: new BlobStore(config.blobDir),
    events: new EventLog(db),
    drafts: new DraftChannel(),
    waits: new WaitChannel(),
    locks: new KeyedMutex(),
    disk: new DiskSpace(config.dataDir, config.minFreeBytes),
  };
}
