/**
 * One appender process for the concurrent-appenders test: opens its own pool
 * on DATABASE_URL, appends `count` events to one session through its own
 * EventLog (its own per-session turn-taking, as another Argus instance has),
 * and prints the seqs its subscriber heard, in the order heard, as JSON.
 *   node --import tsx tests/helpers/append-worker.ts <url> <sessionId> <count> <tag>
 */
import { openDatabase } from "@/lib/engines/db/database";
import { EventLog } from "@/lib/features/runtime/event-log";

const [url, sessionId, count, tag] = process.argv.slice(2) as [string, string, string, string];
const db = await openDatabase(url);
const log = new EventLog(db);
const heard: number[] = [];
log.subscribe("worker", (e) => heard.push(e.event!.id!));
await Promise.all(
  Array.from({ length: Number(count) }, (_, i) =>
    log.append(sessionId, { source: "user", agent: "user", action: "message", args: { content: `${tag} ${i}` } }),
  ),
);
await db.close();
process.stdout.write(JSON.stringify(heard));
