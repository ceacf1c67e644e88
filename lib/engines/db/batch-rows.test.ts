import { describe, expect, it } from "vitest";
import { batchFromRaw, itemFromRaw } from "./batch-rows";

describe("batchFromRaw", () => {
  it("names the columns as Argus does and reads Postgres's numeric strings as numbers", () => {
    const row = batchFromRaw({
      id: "b1",
      session_id: "s1",
      function_name: "count_coins",
      function_version: "3" as unknown as number,
      code: "def count_coins(path): ...",
      status: "running",
      total: "12" as unknown as number,
      created_at: "2026-01-01T00:00:00.000Z",
      started_at: null,
      finished_at: null,
    });
    expect(row).toEqual({
      id: "b1",
      sessionId: "s1",
      functionName: "count_coins",
      functionVersion: 3,
      code: "def count_coins(path): ...",
      status: "running",
      total: 12,
      createdAt: "2026-01-01T00:00:00.000Z",
      startedAt: null,
      finishedAt: null,
    });
  });
});

describe("itemFromRaw", () => {
  const raw = {
    batch_id: "b1",
    idx: 4,
    file_name: "coins.png",
    upload_id: "u1",
    blob_sha256: null,
    status: "done" as const,
    result: '{"count":7}',
    stdout: "found 7",
    seconds: "1.25" as unknown as number,
    error: null,
    overlay_file_id: "f9",
    finished_at: "2026-01-01T00:00:02.000Z",
  };

  it("parses the stored result and reads the seconds as a number", () => {
    expect(itemFromRaw(raw)).toEqual({
      idx: 4,
      fileName: "coins.png",
      uploadId: "u1",
      blobSha256: null,
      status: "done",
      result: { count: 7 },
      stdout: "found 7",
      seconds: 1.25,
      error: null,
      overlayFileId: "f9",
      finishedAt: "2026-01-01T00:00:02.000Z",
    });
  });

  it("keeps an item without a result or a time as null", () => {
    expect(itemFromRaw({ ...raw, status: "pending", result: null, seconds: null, finished_at: null })).toMatchObject({ result: null, seconds: null, finishedAt: null });
  });
});
