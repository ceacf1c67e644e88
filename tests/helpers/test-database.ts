import path from "node:path";
import { openDatabase, type Db } from "@/lib/engines/db/database";
import { tempDir } from "./temp-dir";
import { postgresDatabaseFor, TEST_DB } from "./test-engines";

/**
 * Databases for tests that use lib/engines/db directly, on the engine under test
 * (ARGUS_TEST_DB): a SQLite file in a scratch directory, or a fresh database
 * on the run's test Postgres. `open(name)` twice opens the same database.
 */
export function testDatabases(): { target(name: string): Promise<string>; open(name: string): Promise<Db>; cleanup(): void } {
  const scratch = tempDir("argus-db-");
  const target = (name: string) =>
    TEST_DB === "postgres" ? postgresDatabaseFor(`${scratch.dir}/${name}`) : Promise.resolve(path.join(scratch.dir, `${name}.db`));
  return {
    target,
    open: async (name) => openDatabase(await target(name)),
    cleanup: scratch.cleanup,
  };
}
