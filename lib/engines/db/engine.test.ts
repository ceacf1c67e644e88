import { describe, expect, it } from "vitest";
import { isPostgresUrl, withoutPassword } from "./database";
import { firstColumn, numberedPlaceholders } from "./engine";

describe("engine helpers", () => {
  it("numbers placeholders in order", () => {
    expect(numberedPlaceholders("SELECT * FROM t WHERE a = ? AND b IN (?, ?)")).toBe(
      "SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)",
    );
    expect(numberedPlaceholders("SELECT 1")).toBe("SELECT 1");
  });

  it("reads the first column of a row", () => {
    expect(firstColumn<number>({ n: 3, m: 4 })).toBe(3);
    expect(firstColumn({})).toBeUndefined();
    expect(firstColumn(undefined)).toBeUndefined();
  });

  it("tells a Postgres URL from a SQLite path, and never shows a password", () => {
    expect(isPostgresUrl("postgres://a@h/db")).toBe(true);
    expect(isPostgresUrl("postgresql://a@h/db")).toBe(true);
    expect(isPostgresUrl("/srv/argus/data/argus.db")).toBe(false);
    expect(withoutPassword("postgres://argus:s3cret@db:5432/argus")).toBe("postgres://argus:***@db:5432/argus");
    expect(withoutPassword("postgres://argus@db/argus")).toBe("postgres://argus@db/argus");
  });
});
