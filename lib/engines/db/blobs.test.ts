import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "@/tests/helpers/temp-dir";
import { BlobStore } from "./blobs";

const scratch = tempDir();
afterAll(scratch.cleanup);

describe("BlobStore", () => {
  it("stores identical bytes once, under their hash", async () => {
    const store = new BlobStore(path.join(scratch.dir, "blobs"));
    const bytes = new TextEncoder().encode("hello");
    const first = await store.put(bytes);
    const second = await store.put(bytes);
    expect(first).toEqual({ sha256: BlobStore.hash(bytes), created: true });
    expect(second.created).toBe(false);
    expect((await store.read(first.sha256)).toString()).toBe("hello");
    const shards = readdirSync(store.root);
    expect(shards).toEqual([first.sha256.slice(0, 2)]);
    expect(readdirSync(path.join(store.root, shards[0]!))).toEqual([first.sha256.slice(2)]);
    await store.remove(first.sha256);
    expect(await store.has(first.sha256)).toBe(false);
  });

  it("refuses names that are not a sha256", () => {
    const store = new BlobStore(path.join(scratch.dir, "blobs2"));
    expect(() => store.pathOf("../../etc/passwd")).toThrow(/not a sha256/);
  });
});
