import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nginxConfForTest } from "./nginx-conf";

const SHIPPED = readFileSync(path.resolve(import.meta.dirname, "../../deploy/nginx.conf"), "utf8");
const setup = { port: 41234, upstreams: ["127.0.0.1:5001", "127.0.0.1:5002"], prefix: "/tmp/argus-nginx-x" };

/** Lines that are not blank or comments, trimmed: what nginx reads. */
const directives = (conf: string) =>
  conf
    .split("\n")
    .map((l) => l.replace(/#.*$/, "").trim())
    .filter(Boolean);

describe("nginxConfForTest", () => {
  it("changes only the listen port, the upstream addresses and the pid/temp/log paths of the shipped file", () => {
    const out = nginxConfForTest(SHIPPED, setup);
    const before = directives(SHIPPED);
    const after = directives(out);
    const added = after.filter((l) => !before.includes(l));
    const removed = before.filter((l) => !after.includes(l));
    expect(removed).toEqual(["server argus-1:3000 max_fails=1 fail_timeout=5s;", "server argus-2:3000 max_fails=1 fail_timeout=5s;", "listen 80;"]);
    expect(added).toEqual([
      "pid /tmp/argus-nginx-x/nginx.pid;",
      "access_log /tmp/argus-nginx-x/access.log;",
      "client_body_temp_path /tmp/argus-nginx-x/client_body_temp;",
      "proxy_temp_path /tmp/argus-nginx-x/proxy_temp;",
      "fastcgi_temp_path /tmp/argus-nginx-x/fastcgi_temp;",
      "uwsgi_temp_path /tmp/argus-nginx-x/uwsgi_temp;",
      "scgi_temp_path /tmp/argus-nginx-x/scgi_temp;",
      "server 127.0.0.1:5001 max_fails=1 fail_timeout=5s;",
      "server 127.0.0.1:5002 max_fails=1 fail_timeout=5s;",
      "listen 127.0.0.1:41234;",
    ]);
  });

  it("keeps a server line's parameters, and a bare one bare", () => {
    const conf = "events {}\nhttp {\n  upstream argus {\n    server a:1;\n    server b:2 weight=2;\n  }\n  server { listen 8080; }\n}\n";
    const out = nginxConfForTest(conf, { ...setup, upstreams: ["127.0.0.1:1", "127.0.0.1:2"] });
    expect(out).toContain("    server 127.0.0.1:1;\n    server 127.0.0.1:2 weight=2;\n");
    expect(out).toContain("server { listen 127.0.0.1:41234; }");
  });

  it("refuses a file it cannot rewrite faithfully", () => {
    expect(() => nginxConfForTest(SHIPPED, { ...setup, upstreams: ["127.0.0.1:1"] })).toThrow(/2 server lines; the test gave 1/);
    expect(() => nginxConfForTest("events {}\nhttp { server { listen 80; } }", setup)).toThrow(/upstream argus/);
    expect(() => nginxConfForTest(SHIPPED.replace("listen 80;", "listen 80;\n    listen 443;"), setup)).toThrow(/one listen/);
    expect(() => nginxConfForTest(SHIPPED, { ...setup, prefix: "relative" })).toThrow(/absolute/);
  });
});
