import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { appendCell } from "@/lib/engines/db/cells";
import { openDatabase } from "@/lib/engines/db/database";
import { cellOutputDir, recordCell } from "@/lib/engines/kernels/cell-record";
import { eventually } from "@/tests/helpers/kernel-core";
import { useArgusServer } from "@/tests/helpers/argus-server";
import { nbformatProblems } from "@/tests/helpers/nbformat";

const argus = useArgusServer();

describe("GET /api/sessions/:id/notebook", () => {
  it("downloads the session's cells as a valid .ipynb, to its owner only", async () => {
    const s = (await argus.call("POST", "/api/sessions")).json as { id: string; token: string };
    await argus.call("PATCH", `/api/sessions/${s.id}`, { token: s.token, body: { title: "Count coins" } });
    const empty = await argus.call("GET", `/api/sessions/${s.id}/notebook`, { token: s.token });
    expect(empty.status).toBe(200);
    expect(nbformatProblems(empty.json)).toBe("");

    // The kernel registry records cells in the same database (another process, WAL).
    const db = await openDatabase(argus.server.database);
    await appendCell(db, s.id, { kernelId: "k1", code: "print('hi')", executionCount: 1, execution: { results: [], stdout: "hi\n", stderr: "", error: null } });
    await appendCell(db, s.id, {
      kernelId: "k1",
      code: "img",
      executionCount: 2,
      execution: { results: [{ data: { "image/png": "iVBORw0KGgo=", "text/plain": "<img>" }, isMain: true, viewed: false }], stdout: "", stderr: "", error: null },
    });
    await db.close();

    const res = await argus.call("GET", `/api/sessions/${s.id}/notebook`, { token: s.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ipynb+json");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="Count-coins.ipynb"');
    expect(nbformatProblems(res.json)).toBe("");
    // The download starts with the two cells that load Argus's helpers in plain Jupyter, then what ran.
    expect(res.json.cells.slice(0, 2).map((c: { id: string }) => c.id)).toEqual(["argus-helpers-note", "argus-helpers"]);
    expect(res.json.cells.slice(2).map((c: { source: string }) => c.source)).toEqual(["print('hi')", "img"]);

    const other = (await argus.call("POST", "/api/sessions")).json as { token: string };
    expect((await argus.call("GET", `/api/sessions/${s.id}/notebook`, { token: other.token })).status).toBe(403);
    expect((await argus.call("GET", `/api/sessions/${s.id}/notebook`)).status).toBe(401);
  });

  it("keeps a large picture in a file beside the database, exports it whole, and deletes it with the session", async () => {
    const s = (await argus.call("POST", "/api/sessions")).json as { id: string; token: string };
    const png = `iVBORw0KGgo${"A".repeat(2_000_000)}`;
    const db = await openDatabase(argus.server.database);
    await recordCell({ db, dataDir: argus.dataDir }, s.id, {
      kernelId: "k1",
      code: "big",
      executionCount: 1,
      execution: { results: [{ data: { "image/png": png, "text/plain": "<big>" }, isMain: false, viewed: false }], stdout: "", stderr: "", error: null },
    });
    // The row holds no picture: the value went to a file.
    const row = await db.one<{ n: number }>("SELECT length(execution) AS n FROM cells WHERE session_id = ?", [s.id]);
    expect(row?.n).toBeLessThan(10_000);
    await db.close();
    const dir = cellOutputDir(argus.dataDir, s.id);
    await eventually(() => existsSync(dir));

    const res = await argus.call("GET", `/api/sessions/${s.id}/notebook`, { token: s.token });
    expect(nbformatProblems(res.json)).toBe("");
    expect(res.json.cells[2].outputs[0].data["image/png"]).toBe(png);

    expect((await argus.call("DELETE", `/api/sessions/${s.id}`, { token: s.token })).status).toBe(204);
    expect(existsSync(dir)).toBe(false);
  });
});
