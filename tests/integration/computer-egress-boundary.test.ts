/**
 * The browser's only way out is its egress proxy, for every protocol: a page
 * that opens an RTCPeerConnection towards a STUN and a TURN server on this
 * machine's loopback must not get a single UDP packet there. Chromium runs in
 * its own network namespace (chromium-netns.ts), so there is no loopback of
 * this machine to send to, and no other interface at all.
 *
 * And the proxy keeps the browser off this machine however it is addressed:
 * a service listening on 0.0.0.0 answers on the host's own interface address
 * too, which must be refused like loopback (host-addresses.ts).
 */
import dgram from "node:dgram";
import { readFileSync, readlinkSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ComputerManager } from "@/lib/engines/computer/computer-manager";
import { browserManager, chromiumProcessesUnder, textOf } from "../helpers/computer";
import { refusal } from "../helpers/media";
import { tempDir } from "../helpers/temp-dir";

const downloads = tempDir("argus-egress-");
let manager: ComputerManager;
let udp: dgram.Socket;
let udpPort: number;
const packets: string[] = [];
let server: http.Server;
let origin: string;
/** A service on 0.0.0.0, as many local services listen; records what reaches it. */
let wide: http.Server;
let widePort: number;
const wideHits: string[] = [];
/** This machine's first non-loopback IPv4 address. */
const ownAddress = Object.values(os.networkInterfaces())
  .flatMap((infos) => infos ?? [])
  .find((info) => info.family === "IPv4" && !info.internal)?.address;

/** Starts ICE gathering with a STUN and a TURN (UDP) server on loopback, and says so in #status. */
function webrtcPage(port: number): string {
  return `<!doctype html><title>WebRTC</title><p id="status">waiting</p><script>
  (async () => {
    const pc = new RTCPeerConnection({ iceServers: [
      { urls: "stun:127.0.0.1:${port}" },
      { urls: "turn:127.0.0.1:${port}?transport=udp", username: "u", credential: "p" },
    ] });
    const status = document.getElementById("status");
    pc.onicegatheringstatechange = () => { status.textContent = pc.iceGatheringState; };
    pc.createDataChannel("probe");
    await pc.setLocalDescription(await pc.createOffer());
  })().catch((e) => { document.getElementById("status").textContent = "error " + e; });
  </script>`;
}

/** A process's network: its namespace, its interfaces, its IPv4 and IPv6 routes. */
function networkOf(pid: number | "self") {
  const lines = (file: string) => readFileSync(`/proc/${pid}/net/${file}`, "utf8").trim().split("\n");
  return {
    namespace: readlinkSync(`/proc/${pid}/ns/net`),
    interfaces: lines("dev").slice(2).map((line) => line.split(":")[0]!.trim()),
    // Beyond the header, an IPv4 route through anything but lo (a namespace with only lo has none).
    routes: lines("route").slice(1).filter((line) => !line.startsWith("lo\t")),
  };
}

/** Resolves once `marker` (sent last, from here) arrives: any packet sent before it has arrived too. */
function flush(marker: string): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (message: Buffer) => {
      if (message.toString() !== marker) return;
      udp.off("message", onMessage);
      resolve();
    };
    udp.on("message", onMessage);
    const sender = dgram.createSocket("udp4");
    sender.send(marker, udpPort, "127.0.0.1", () => sender.close());
  });
}

beforeAll(async () => {
  udp = dgram.createSocket("udp4");
  udp.on("message", (message, from) => {
    if (!message.toString().startsWith("marker-")) packets.push(`${from.address}:${from.port} ${message.length} bytes`);
  });
  await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", () => resolve()));
  udpPort = (udp.address() as AddressInfo).port;
  wide = http.createServer((req, res) => {
    wideHits.push(`${req.method} ${req.url}`);
    res.end("a local service");
  });
  await new Promise<void>((resolve) => wide.listen(0, "0.0.0.0", () => resolve()));
  widePort = (wide.address() as AddressInfo).port;
  server = http.createServer((req, res) => {
    if (req.url === "/to-own-address") res.writeHead(302, { location: `http://${ownAddress}:${widePort}/secret` }).end();
    else res.writeHead(200, { "content-type": "text/html" }).end(webrtcPage(udpPort));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  manager = browserManager({ allow: `127.0.0.1:${port}` });
});

afterAll(async () => {
  await manager?.closeAll();
  udp?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (wide ? wide.close(() => resolve()) : resolve()));
  downloads.cleanup();
});

describe("the browser's network boundary", () => {
  it("a page's WebRTC STUN and TURN requests to loopback never arrive: Chromium has no network but its own loopback", async () => {
    const computer = await manager.getComputer("webrtc", { downloadDir: downloads.dir });
    await computer.goto(`${origin}/`);
    // Without the namespace the STUN Binding request arrives as gathering starts.
    await expect.poll(() => (packets.length > 0 ? "sent" : textOf(computer, "#status")), { timeout: 30_000 }).toMatch(/^(sent|gathering|complete)$/);

    // Every Chromium process is in a network namespace of its own, with lo only and no route.
    const ours = networkOf("self");
    // The browser's own processes (not bubblewrap, which starts them from outside).
    const chromiums = chromiumProcessesUnder().filter((pid) => /chrom/i.test(readlinkSync(`/proc/${pid}/exe`)));
    expect(chromiums.length).toBeGreaterThan(0);
    for (const pid of chromiums) {
      const theirs = networkOf(pid);
      expect(theirs.namespace, `Chromium ${pid}`).not.toBe(ours.namespace);
      expect(theirs.interfaces, `Chromium ${pid}`).toEqual(["lo"]);
      expect(theirs.routes, `Chromium ${pid}`).toEqual([]);
    }
    expect(ours.interfaces.length).toBeGreaterThan(1);

    // And nothing the page sent reached this machine's loopback.
    await flush(`marker-${Date.now()}`);
    expect(packets).toEqual([]);
  }, 60_000);
});

describe("this machine's own addresses", () => {
  it("refuses a local service on 0.0.0.0 reached through this machine's interface address, as a page and as a redirect", async () => {
    expect(ownAddress, "this machine has a non-loopback IPv4 address").toBeDefined();
    const computer = await manager.getComputer("own-address", { downloadDir: downloads.dir });
    const error = await refusal(computer.goto(`http://${ownAddress}:${widePort}/`));
    expect(error.code).toBe("forbidden:browser");
    expect(error.message).toMatch(new RegExp(`^${ownAddress!.replace(/\./g, "\\.")} is (one of this machine's own addresses|a documentation address|a private network address|a reserved address)[^,]*, which the browser may not reach`));

    // A redirect's next hop is the proxy's to judge (request routing never sees it).
    await computer.goto(`${origin}/to-own-address`).catch(() => undefined);
    expect(computer.takeRefusals()).toContainEqual(expect.objectContaining({ target: `http://${ownAddress}:${widePort}/secret`, reason: "address" }));
    expect(wideHits).toEqual([]);
  }, 60_000);
});
