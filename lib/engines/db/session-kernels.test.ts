import { describe, expect, it } from "vitest";
import { openDatabase } from "./database";
import { clearSessionKernelId, sessionKernelId, setSessionKernelId } from "./session-kernels";
import { deleteSession, insertSession } from "./sessions";

describe("session kernels", () => {
  it("remember one kernel per session, replaced, cleared only by its own id, gone with the session", async () => {
    const db = await openDatabase(":memory:");
    await insertSession(db, { id: "s", tokenHash: "h", browserHash: null, now: "t" });
    expect(await sessionKernelId(db, "s")).toBeNull();
    await setSessionKernelId(db, "s", "k1");
    await setSessionKernelId(db, "s", "k2");
    expect(await sessionKernelId(db, "s")).toBe("k2");
    // An instance forgetting a kernel another one already replaced leaves the new one.
    await clearSessionKernelId(db, "s", "k1");
    expect(await sessionKernelId(db, "s")).toBe("k2");
    await clearSessionKernelId(db, "s", "k2");
    expect(await sessionKernelId(db, "s")).toBeNull();
    await setSessionKernelId(db, "s", "k3");
    await deleteSession(db, "s");
    expect(await sessionKernelId(db, "s")).toBeNull();
    // A session deleted before its kernel was recorded records nothing.
    await setSessionKernelId(db, "gone", "k4");
    expect(await sessionKernelId(db, "gone")).toBeNull();
  });
});
