import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/foundation/config";
import { listSessionsByBrowser } from "@/lib/engines/db/sessions";
import { hashBrowserIdentity, hashSecret } from "@/lib/foundation/common/secrets";
import { tempDir } from "@/tests/helpers/temp-dir";
import { testDatabases } from "@/tests/helpers/test-database";
import { createBrowserSession } from "./browser-identity";
import { createSession, type SessionDeps } from "./service";

const dbs = testDatabases();
const scratch = tempDir();
afterAll(() => {
  dbs.cleanup();
  scratch.cleanup();
});

async function world() {
  const db = await dbs.open(`identity-${Math.random().toString(36).slice(2)}`);
  const deps = { db, config: loadConfig({ ARGUS_DATA_DIR: scratch.dir }, scratch.dir) } as unknown as SessionDeps;
  const chatsOf = async (identity: string) => (await listSessionsByBrowser(db, hashBrowserIdentity(identity))).map((s) => s.id).sort();
  return { db, deps, chatsOf };
}

describe("createBrowserSession (engine under test: ARGUS_TEST_DB)", () => {
  it("mints a new identity at every creation and carries the browser's chats to it", async () => {
    const { db, deps, chatsOf } = await world();
    const first = await createBrowserSession(deps, []);
    const second = await createBrowserSession(deps, [first.identity]);
    expect(second.identity).not.toBe(first.identity);
    expect(await chatsOf(second.identity)).toEqual([first.id, second.id].sort());
    expect(await chatsOf(first.identity)).toEqual([]);
    await db.close();
  });

  it("never binds a chat to a planted value, whether made up or issued to the attacker", async () => {
    const { db, deps, chatsOf } = await world();
    const attacker = await createBrowserSession(deps, []);
    for (const planted of ["KNOWN", attacker.identity]) {
      const victim = await createBrowserSession(deps, [planted]);
      expect(victim.identity).not.toBe(planted);
      expect(await chatsOf(planted)).toEqual([]);
      expect(await chatsOf(victim.identity)).toContain(victim.id);
    }
    await db.close();
  });

  it("leaves chats bound before identities were minted (plain-hashed cookies) where they are", async () => {
    const { db, deps, chatsOf } = await world();
    const old = await createSession(deps, null);
    await db.run("UPDATE sessions SET browser_hash = ? WHERE id = ?", [hashSecret("old-cookie"), old.id]);
    const made = await createBrowserSession(deps, ["old-cookie"]);
    expect(await chatsOf(made.identity)).toEqual([made.id]);
    expect(await chatsOf("old-cookie")).toEqual([]);
    await db.close();
  });
});
