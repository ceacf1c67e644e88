// Worker thread for bench/socket-fanout.ts (plain JS: Node 20 workers can't
// load a .ts entry). Opens the Socket.io clients and records, for every
// message, the absolute time it arrived and its seq.
import { parentPort, workerData } from "node:worker_threads";
import { io } from "socket.io-client";

const receipts = [];
const sockets = workerData.clients.map((c, i) => {
  const s = io(workerData.url, { auth: { sessionId: c.sessionId, token: c.token }, transports: ["websocket"], forceNew: true });
  s.on("message", (m) => receipts.push([i, c.sessionId, m.seq, performance.timeOrigin + performance.now()]));
  return s;
});

let ready = 0;
for (const s of sockets) {
  s.on("connect", () => {
    if (++ready === sockets.length) parentPort.postMessage({ type: "ready" });
  });
}

parentPort.on("message", (msg) => {
  if (msg.type === "count") parentPort.postMessage({ type: "count", n: receipts.length });
  if (msg.type === "drain") parentPort.postMessage({ type: "receipts", receipts: receipts.splice(0) });
  if (msg.type === "close") {
    for (const s of sockets) s.disconnect();
    parentPort.postMessage({ type: "closed" });
  }
});
