import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/foundation/config";
import { EnvSchema } from "@/lib/foundation/config-env";
import { trustedProxies } from "@/lib/foundation/common/trusted-proxies";
import { JupyterHostEnvSchema, parseJupyterHostEnv } from "@/lib/engines/kernels/jupyter-host";
import { interpolate, loadCompose, rawCompose, TEST_SECRETS, type ComposeService } from "@/tests/helpers/compose-file";

/**
 * deploy/compose.yaml, checked without Docker (not available where the tests run): the file parses
 * as Compose reads it, every setting it passes is one Argus (lib/foundation/config-env.ts) or the Jupyter host
 * (lib/engines/kernels/jupyter-host.ts) knows and accepts, what it names exists, and the network layout
 * keeps the kernels away from Postgres and Redis.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const compose = loadCompose(TEST_SECRETS);
const services = compose.services;
const ARGUS = ["argus-1", "argus-2"];
const networksOf = (s: ComposeService) => new Set(s.networks ?? []);

describe("interpolate", () => {
  it("reads variables as Compose does", () => {
    const vars = { A: "a", EMPTY: "" };
    expect(interpolate("x${A}y$A$$A", vars)).toBe("xaya$A");
    expect(interpolate("${EMPTY:-d}|${EMPTY-d}|${NONE-d}|${A:-d}", vars)).toBe("d||d|a");
    expect(interpolate("${A:+yes}|${NONE:+yes}|${EMPTY+set}", vars)).toBe("yes||set");
    expect(() => interpolate("${NONE:?set NONE please}", vars)).toThrow(/NONE.*set NONE please/);
    expect(() => interpolate("${EMPTY:?empty}", vars)).toThrow(/EMPTY/);
  });
});

describe("deploy/compose.yaml", () => {
  it("names the layout's services, and only networks, volumes and services it declares", () => {
    expect(Object.keys(services).sort()).toEqual(["argus-1", "argus-2", "jupyter", "lb", "postgres", "redis"]);
    const declaredNetworks = new Set(Object.keys(compose.networks ?? {}));
    const declaredVolumes = new Set(Object.keys(compose.volumes ?? {}));
    const usedNetworks = new Set<string>();
    const usedVolumes = new Set<string>();
    for (const [name, s] of Object.entries(services)) {
      expect(s.networks?.length, `${name} names its networks`).toBeGreaterThan(0);
      for (const n of s.networks ?? []) {
        expect(declaredNetworks, `${name}'s network ${n}`).toContain(n);
        usedNetworks.add(n);
      }
      for (const v of s.volumes ?? []) {
        const source = v.split(":")[0]!;
        if (source.startsWith(".") || source.startsWith("/")) {
          expect(existsSync(path.resolve(ROOT, "deploy", source)), `${name} mounts ${source}`).toBe(true);
        } else {
          expect(declaredVolumes, `${name}'s volume ${source}`).toContain(source);
          usedVolumes.add(source);
        }
      }
      const deps = Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on ?? {});
      for (const d of deps) expect(Object.keys(services), `${name} depends on ${d}`).toContain(d);
      if (s.build) {
        expect(path.resolve(ROOT, "deploy", s.build.context)).toBe(ROOT);
        expect(existsSync(path.join(ROOT, s.build.dockerfile))).toBe(true);
      }
    }
    expect([...usedNetworks].sort()).toEqual([...declaredNetworks].sort());
    expect([...usedVolumes].sort()).toEqual([...declaredVolumes].sort());
  });

  it("refuses to start without each of its secrets, and has no password written into it", () => {
    for (const secret of Object.keys(TEST_SECRETS)) {
      const vars: Record<string, string> = { ...TEST_SECRETS };
      delete vars[secret];
      expect(() => loadCompose(vars), secret).toThrow(new RegExp(`${secret}.*openssl rand`));
    }
    const raw = rawCompose();
    expect(raw.services.postgres!.environment!.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(raw.services["argus-1"]!.environment!.DATABASE_URL).toContain("${POSTGRES_PASSWORD:?");
  });

  it("passes the instances only settings Argus knows, which it accepts as one shared-Jupyter deployment", () => {
    const known = new Set(Object.keys(EnvSchema.shape));
    for (const name of ARGUS) {
      const env = services[name]!.environment!;
      for (const key of Object.keys(env)) expect(known, `${name} sets ${key}`).toContain(key);
      const config = loadConfig(env, ROOT);
      expect(config.jupyter).toEqual({ mode: "external", url: "http://jupyter:8888", token: TEST_SECRETS.JUPYTER_TOKEN });
      // Argus's own kernelspec, whose launcher loads the helpers: `python3` never did.
      expect(config.kernels.kernelName).toBe("argus-python");
      expect(config.kernels.workspaceTransport).toBe("kernel");
      expect(config.databaseUrl).toBe(`postgres://argus:${TEST_SECRETS.POSTGRES_PASSWORD}@postgres:5432/argus`);
      expect(config.scale.redisUrl).toBe(`redis://argus:${TEST_SECRETS.REDIS_PASSWORD}@redis:6379`);
      expect(config.scale.instanceId).toBe(name);
      expect(config.port).toBe(3000);
    }
    expect(services["argus-1"]!.environment!.JUPYTER_TOKEN).toBe(services.jupyter!.environment!.JUPYTER_TOKEN);
  });

  it("trusts X-Forwarded-For only from the load balancer's network", () => {
    const env = services["argus-1"]!.environment!;
    const subnet = compose.networks!.edge!.ipam!.config![0]!.subnet!;
    expect(env.ARGUS_TRUSTED_PROXIES).toBe(subnet);
    expect(services.lb!.networks).toEqual(["edge"]);
    const base = subnet.split("/")[0]!;
    const proxies = trustedProxies(env.ARGUS_TRUSTED_PROXIES!);
    expect(proxies.has(base.replace(/\.0$/, ".7"))).toBe(true);
    expect(proxies.has("203.0.113.9")).toBe(false);
  });

  it("starts the Jupyter host with Argus's kernelspec and sandbox, as an unprivileged user, on a network without Postgres or Redis", () => {
    const jupyter = services.jupyter!;
    expect(jupyter.command).toEqual(["node", "--import", "tsx", "scripts/jupyter-host.ts"]);
    expect(existsSync(path.join(ROOT, "scripts/jupyter-host.ts"))).toBe(true);
    const known = new Set(Object.keys(JupyterHostEnvSchema.shape));
    for (const key of Object.keys(jupyter.environment!)) expect(known, `jupyter sets ${key}`).toContain(key);
    const host = parseJupyterHostEnv(jupyter.environment!, "/home/argus");
    expect(host.ARGUS_SANDBOX).toBe("bubblewrap");
    expect(host.ARGUS_JUPYTER_PORT).toBe(8888);
    expect(host.ARGUS_JUPYTER_CULL_IDLE_MINUTES).toBeGreaterThan(0);
    expect(jupyter.user).toBe("argus");
    expect(jupyter.cap_drop).toEqual(["ALL"]);
    expect(jupyter.security_opt).toContain("no-new-privileges:true");
    expect(JSON.stringify(compose)).not.toContain("--allow-root");
    // The kernels' network reaches the instances and nothing else; Postgres and Redis are not on it.
    const kernelNets = networksOf(jupyter);
    for (const store of ["postgres", "redis"]) {
      for (const n of networksOf(services[store]!)) expect(kernelNets.has(n), `${store} shares ${n} with the kernels`).toBe(false);
    }
    for (const n of kernelNets) expect(compose.networks![n]?.internal, `${n} is internal`).toBe(true);
    for (const n of networksOf(services.postgres!)) expect(compose.networks![n]?.internal).toBe(true);
  });

  it("has a healthcheck on every service, and starts each only once what it needs is healthy", () => {
    for (const [name, s] of Object.entries(services)) {
      expect(s.healthcheck?.test, `${name}'s healthcheck`).toBeDefined();
      if (!s.depends_on) continue;
      expect(Array.isArray(s.depends_on), `${name}'s depends_on has conditions`).toBe(false);
      for (const [dep, how] of Object.entries(s.depends_on)) expect(how, `${name} on ${dep}`).toEqual({ condition: "service_healthy" });
    }
    for (const name of ARGUS) expect(Object.keys(services[name]!.depends_on!).sort()).toEqual(["jupyter", "postgres", "redis"]);
  });

  it("puts the instances, on their port, behind the nginx.conf it mounts", () => {
    const conf = readFileSync(path.join(ROOT, "deploy/nginx.conf"), "utf8").replace(/#.*$/gm, "");
    const upstream = /upstream\s+argus\s*\{([^}]*)\}/.exec(conf)![1]!;
    const servers = [...upstream.matchAll(/server\s+([^\s:;]+):(\d+)/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(servers).toEqual(ARGUS.map((name) => `${name}:${services[name]!.environment!.PORT}`));
    expect(services.lb!.volumes).toContain("./nginx.conf:/etc/nginx/nginx.conf:ro");
    expect(services.lb!.ports).toEqual(["8080:80"]);
    expect(/listen\s+80;/.test(conf)).toBe(true);
  });

  it("builds an image from the sources alone: no host node_modules, build output, data or secrets", () => {
    const ignored = readFileSync(path.join(ROOT, ".dockerignore"), "utf8").split("\n").map((l) => l.trim());
    for (const entry of ["node_modules", ".next", "data", ".argus", ".git", "deploy/.env"]) expect(ignored, entry).toContain(entry);
    const dockerfile = readFileSync(path.join(ROOT, "deploy/Dockerfile"), "utf8");
    expect(dockerfile).toMatch(/^USER argus$/m);
    expect(dockerfile).toContain("chromium");
  });
});

describe("the model settings", () => {
  it("reach the instances when set, and are left unset, not empty, when not", () => {
    expect(services["argus-1"]!.environment).not.toHaveProperty("OPENAI_BASE_URL");
    const set = loadCompose({ ...TEST_SECRETS, OPENAI_BASE_URL: "http://model.internal:8000/v1", ARGUS_MODEL: "m", OPENAI_API_KEY: "k" });
    const config = loadConfig(set.services["argus-2"]!.environment!, ROOT);
    expect(config.model).toMatchObject({ baseUrl: "http://model.internal:8000/v1", apiKey: "k" });
    expect(config.model.byRole.planner).toBe("m");
  });
});
