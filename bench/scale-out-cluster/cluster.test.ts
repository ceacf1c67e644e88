import { describe, expect, it } from "vitest";
import { nginxConfForTest } from "@/tests/helpers/nginx-conf";
import { confFor } from "./cluster";

const upstreamServers = (conf: string) => /upstream\s+argus\s*\{([^}]*)\}/.exec(conf)![1]!.match(/^\s*server\s+[^;]+;/gm) ?? [];

describe("confFor", () => {
  it("adds upstream server lines like the shipped ones, and nothing else", () => {
    const three = confFor(3);
    const lines = upstreamServers(three);
    expect(lines).toHaveLength(3);
    // Same parameters as the shipped lines (max_fails, fail_timeout): only the address differs.
    const params = lines.map((l) => l.trim().replace(/^server\s+\S+/, ""));
    expect(new Set(params).size).toBe(1);
    expect(three.replace(lines[2]! + "\n", "")).toBe(confFor(2));
    // The scale-out tests' templating accepts it for three instances.
    const templated = nginxConfForTest(three, { port: 18080, upstreams: ["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"], prefix: "/tmp/x" });
    expect(upstreamServers(templated).map((l) => l.trim().split(/\s+/)[1])).toEqual(["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"]);
  });
});
