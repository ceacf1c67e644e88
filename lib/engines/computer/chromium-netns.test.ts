import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ChromiumNetns, netnsUnavailable } from "./chromium-netns";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A Unix-socket echo server standing in for an egress proxy. */
async function echoOn(socketPath: string): Promise<void> {
  const server = net.createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
}

/** Sends `text` and resolves to the first reply; a connection that ends without one is a failed exchange. */
function exchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    socket.once("data", (chunk) => {
      socket.destroy();
      resolve(chunk.toString());
    });
    socket.once("error", reject);
    // A close after an error has already rejected; a close with no reply and no error is a refusal too.
    socket.once("close", () => reject(Object.assign(new Error("closed without a reply"), { code: "ECLOSED" })));
  });
}

/** The relay as the launcher starts it, here without a namespace (the namespace is the launcher's part). */
function startRelay(netns: ChromiumNetns): ChildProcess {
  const relay = spawn(process.execPath, [path.join(netns.dir, "relay.js"), path.join(netns.dir, "control.sock")], { stdio: "ignore" });
  cleanups.push(() => void relay.kill());
  return relay;
}

describe("netnsUnavailable", () => {
  it("is null where bubblewrap can make a network namespace (this machine)", () => {
    expect(netnsUnavailable()).toBeNull();
  });

  it("says in words that the browser will not run without bubblewrap", () => {
    expect(netnsUnavailable("/nonexistent")).toMatch(/^bubblewrap \(bwrap\) is not installed, and the browser runs only inside a network namespace of its own/);
  });

  it("prepare refuses with the same words rather than launch an unconfined browser", async () => {
    await expect(ChromiumNetns.prepare("/nonexistent")).rejects.toMatchObject({ code: "unavailable:browser", message: expect.stringMatching(/^The browser cannot start: bubblewrap/) });
  });
});

describe("the relay", () => {
  it("forwards a port it opens to exactly one Unix socket, stops when released, and exits when Argus closes", async () => {
    const netns = await ChromiumNetns.prepare();
    cleanups.push(() => netns.close());
    const relay = startRelay(netns);
    await netns.ready();
    const socketPath = netns.socketPath("echo");
    await echoOn(socketPath);
    const port = await netns.open(socketPath);
    expect(await exchange(port, "hello")).toBe("hello");

    netns.release(port);
    await expect.poll(() => exchange(port, "again").then(() => "open", (error: NodeJS.ErrnoException) => error.code)).toBe("ECONNREFUSED");

    const exited = new Promise((resolve) => relay.once("exit", resolve));
    await netns.close();
    expect(await exited).toBe(0);
  });

  it("a port for a socket that is not there fails the connection, not the relay", async () => {
    const netns = await ChromiumNetns.prepare();
    cleanups.push(() => netns.close());
    startRelay(netns);
    await netns.ready();
    const port = await netns.open(netns.socketPath("missing"));
    await expect(exchange(port, "x")).rejects.toBeTruthy();
    await echoOn(netns.socketPath("echo"));
    expect(await exchange(await netns.open(netns.socketPath("echo")), "still here")).toBe("still here");
  });
});
