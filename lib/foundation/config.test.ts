import path from "node:path";
import { describe, expect, it } from "vitest";
import { chooseBrowserApi, loadConfig, modelStatus } from "./config";

describe("loadConfig", () => {
  it("has working defaults", () => {
    const c = loadConfig({}, "/srv/argus");
    expect(c).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      dataDir: "/srv/argus/data",
      dbPath: "/srv/argus/data/argus.db",
      databaseUrl: null,
      blobDir: "/srv/argus/data/blobs",
      jupyter: { mode: "managed" },
      limits: { maxUploadBytes: 50 * 1024 * 1024, maxImagePixels: 100_000_000, maxVideoSeconds: 120 },
    });
    expect(modelStatus(c)).toBe("not_configured");
    expect(c.model).toMatchObject({ timeoutMs: 120_000, maxRetries: 3 });
  });

  it("reads the model call timeout and retry count", () => {
    const c = loadConfig({ ARGUS_MODEL_TIMEOUT_SECONDS: "2.5", ARGUS_MODEL_MAX_RETRIES: "0" }, "/x");
    expect(c.model).toMatchObject({ timeoutMs: 2500, maxRetries: 0 });
    expect(() => loadConfig({ ARGUS_MODEL_TIMEOUT_SECONDS: "0" })).toThrow(/ARGUS_MODEL_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ ARGUS_MODEL_MAX_RETRIES: "-1" })).toThrow(/ARGUS_MODEL_MAX_RETRIES/);
    expect(() => loadConfig({ ARGUS_MODEL_MAX_RETRIES: "1.5" })).toThrow(/ARGUS_MODEL_MAX_RETRIES/);
  });

  it("reads the tool protocol, per role over the default, and refuses unknown ones", () => {
    expect(loadConfig({}, "/x").model.protocolByRole).toEqual({ conversation: "auto", planner: "auto", coder: "auto", vqa: "auto", judge: "auto", browser: "auto" });
    const c = loadConfig({ ARGUS_TOOL_PROTOCOL: "native", ARGUS_TOOL_PROTOCOL_PLANNER: "text" }, "/x");
    expect(c.model.protocolByRole).toMatchObject({ planner: "text", coder: "native", judge: "native" });
    expect(() => loadConfig({ ARGUS_TOOL_PROTOCOL_CODER: "xml" })).toThrow(/ARGUS_TOOL_PROTOCOL_CODER/);
  });

  it("reads overrides, per-role models and an external Jupyter", () => {
    const c = loadConfig(
      {
        PORT: "0",
        ARGUS_DATA_DIR: "/d",
        ARGUS_MAX_UPLOAD_MB: "2",
        OPENAI_BASE_URL: "http://localhost:11434/v1",
        ARGUS_MODEL: "llava",
        ARGUS_MODEL_CODER: "qwen-coder",
        JUPYTER_URL: "http://gateway:8888",
        JUPYTER_TOKEN: "t",
      },
      "/x",
    );
    expect(c.port).toBe(0);
    expect(c.dataDir).toBe(path.resolve("/d"));
    expect(c.limits.maxUploadBytes).toBe(2 * 1024 * 1024);
    expect(c.model.byRole).toEqual({ conversation: "llava", planner: "llava", coder: "qwen-coder", vqa: "llava", judge: "llava", browser: "llava" });
    expect(c.jupyter).toEqual({ mode: "external", url: "http://gateway:8888", token: "t" });
    expect(modelStatus(c)).toBe("configured");
  });

  it("needs no browser model to be configured: browsing is optional", () => {
    const roles = { ARGUS_MODEL_CONVERSATION: "a", ARGUS_MODEL_PLANNER: "b", ARGUS_MODEL_CODER: "c", ARGUS_MODEL_VQA: "d", ARGUS_MODEL_JUDGE: "e" };
    const c = loadConfig({ OPENAI_BASE_URL: "http://127.0.0.1:1/v1", ...roles }, "/x");
    expect(c.model.byRole.browser).toBeNull();
    expect(modelStatus(c)).toBe("configured");
    expect(modelStatus(loadConfig({ OPENAI_BASE_URL: "http://127.0.0.1:1/v1", ...roles, ARGUS_MODEL_JUDGE: undefined }, "/x"))).toBe("not_configured");
  });

  it("resolves ARGUS_BROWSER_API for the browser model (auto: the Responses API for a computer-use model)", () => {
    expect(loadConfig({}, "/x").browser.api).toBe("chat");
    expect(loadConfig({ ARGUS_MODEL_BROWSER: "computer-use-preview" }, "/x").browser.api).toBe("responses");
    expect(loadConfig({ ARGUS_MODEL: "computer-use-preview-2025-03-11" }, "/x").browser.api).toBe("responses");
    expect(loadConfig({ ARGUS_MODEL: "qwen2.5-vl", ARGUS_BROWSER_API: "auto" }, "/x").browser.api).toBe("chat");
    expect(loadConfig({ ARGUS_MODEL_BROWSER: "my-proxy-cua", ARGUS_BROWSER_API: "responses" }, "/x").browser.api).toBe("responses");
    expect(loadConfig({ ARGUS_MODEL_BROWSER: "computer-use-preview", ARGUS_BROWSER_API: "chat" }, "/x").browser.api).toBe("chat");
    expect(() => loadConfig({ ARGUS_BROWSER_API: "completions" }, "/x")).toThrow(/ARGUS_BROWSER_API/);
  });

  it("reads the per-client session creation rate", () => {
    expect(loadConfig({}).sessionRatePerMinute).toBe(30);
    expect(loadConfig({ ARGUS_SESSION_RATE_PER_MINUTE: "5" }).sessionRatePerMinute).toBe(5);
    expect(() => loadConfig({ ARGUS_SESSION_RATE_PER_MINUTE: "0" })).toThrow(/ARGUS_SESSION_RATE_PER_MINUTE/);
    expect(() => loadConfig({ ARGUS_SESSION_RATE_PER_MINUTE: "2.5" })).toThrow(/ARGUS_SESSION_RATE_PER_MINUTE/);
  });

  it("reads the batch limits: files per batch, lanes, per-item timeout, zips unpacked at once", () => {
    expect(loadConfig({}).batches).toEqual({ maxFiles: 500, parallel: 2, itemTimeoutMs: 60_000, zipUnpacks: 2 });
    expect(loadConfig({ ARGUS_BATCH_MAX_FILES: "20", ARGUS_BATCH_PARALLEL: "4", ARGUS_BATCH_ITEM_TIMEOUT_SECONDS: "5", ARGUS_BATCH_ZIP_UNPACKS: "1" }).batches).toEqual({ maxFiles: 20, parallel: 4, itemTimeoutMs: 5000, zipUnpacks: 1 });
    expect(() => loadConfig({ ARGUS_BATCH_ZIP_UNPACKS: "0" })).toThrow(/ARGUS_BATCH_ZIP_UNPACKS/);
    expect(() => loadConfig({ ARGUS_BATCH_MAX_FILES: "0" })).toThrow(/ARGUS_BATCH_MAX_FILES/);
    expect(() => loadConfig({ ARGUS_BATCH_PARALLEL: "1.5" })).toThrow(/ARGUS_BATCH_PARALLEL/);
  });

  it("names the variable that is wrong", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => loadConfig({ ARGUS_MAX_UPLOAD_MB: "-1" })).toThrow(/ARGUS_MAX_UPLOAD_MB/);
    expect(() => loadConfig({ OPENAI_BASE_URL: "not a url" })).toThrow(/OPENAI_BASE_URL/);
    expect(() => loadConfig({ ARGUS_JUPYTER: "maybe" })).toThrow(/ARGUS_JUPYTER/);
  });

  it("takes allowed hosts as names or addresses, and refuses URLs and wildcards", () => {
    expect(loadConfig({}).allowedHosts).toBeNull();
    expect(loadConfig({ ARGUS_ALLOWED_HOSTS: "argus.example.com, 10.0.0.5:3000,[::1]" }).allowedHosts).toBe("argus.example.com, 10.0.0.5:3000,[::1]");
    expect(loadConfig({ ARGUS_ALLOWED_HOSTS: "*" }).allowedHosts).toBe("*");
    for (const bad of ["https://argus.example.com", "*.example.com", "argus.example.com/path"]) {
      expect(() => loadConfig({ ARGUS_ALLOWED_HOSTS: bad }), bad).toThrow(/ARGUS_ALLOWED_HOSTS/);
    }
  });

  it("scales out only with REDIS_URL, names the instance, and keeps a dead owner's lease short", () => {
    const lone = loadConfig({}, "/x").scale;
    expect(lone.redisUrl).toBeNull();
    expect(lone.leaseMs).toBe(10_000);
    expect(lone.instanceId).toMatch(/^[A-Za-z0-9._-]+-[0-9a-f]{8}$/);
    expect(loadConfig({}, "/x").scale.instanceId).not.toBe(lone.instanceId);
    const secret = "s".repeat(32);
    const shared = loadConfig({ REDIS_URL: "redis://redis:6379/0", ARGUS_CLUSTER_SECRET: secret, ARGUS_INSTANCE_ID: "argus-1", ARGUS_RUN_LEASE_SECONDS: "5" }, "/x").scale;
    // The id names directories: "." and ".." would name another's.
    for (const id of [".", ".."]) expect(() => loadConfig({ ARGUS_INSTANCE_ID: id }, "/x")).toThrow(/ARGUS_INSTANCE_ID/);
    expect(loadConfig({ ARGUS_INSTANCE_ID: "argus.1" }, "/x").scale.fixedInstanceId).toBe("argus.1");
    expect(shared).toEqual({ redisUrl: "redis://redis:6379/0", clusterSecret: secret, instanceId: "argus-1", fixedInstanceId: "argus-1", leaseMs: 5000, resumeRuns: true });
    // Run commands between instances are signed: no Redis without the secret, and no short secret.
    expect(() => loadConfig({ REDIS_URL: "redis://redis:6379/0" })).toThrow(/ARGUS_CLUSTER_SECRET: REDIS_URL is set/);
    expect(() => loadConfig({ REDIS_URL: "redis://redis:6379/0", ARGUS_CLUSTER_SECRET: "short" })).toThrow(/ARGUS_CLUSTER_SECRET/);
    expect(() => loadConfig({ REDIS_URL: "http://redis:6379" })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ ARGUS_INSTANCE_ID: "a b" })).toThrow(/ARGUS_INSTANCE_ID/);
    expect(() => loadConfig({ ARGUS_RUN_LEASE_SECONDS: "0" })).toThrow(/ARGUS_RUN_LEASE_SECONDS/);
  });

  it("starts only the sandboxed kernelspec on its own jupyter-server", () => {
    expect(loadConfig({}).kernels.kernelName).toBe("argus-python");
    expect(() => loadConfig({ ARGUS_KERNEL_NAME: "python3" })).toThrow(/ARGUS_KERNEL_NAME/);
    expect(loadConfig({ JUPYTER_URL: "http://gateway:8888", JUPYTER_TOKEN: "t", ARGUS_KERNEL_NAME: "python3" }).kernels.kernelName).toBe("python3");
    // A shared Jupyter starts Argus's kernelspec too unless told otherwise (it loads the helpers).
    expect(loadConfig({ JUPYTER_URL: "http://gateway:8888", JUPYTER_TOKEN: "t" }).kernels.kernelName).toBe("argus-python");
  });

  it("runs kernels at nice 10 unless told otherwise, within 0–19", () => {
    expect(loadConfig({}).kernels.niceness).toBe(10);
    expect(loadConfig({ ARGUS_KERNEL_NICE: "0" }).kernels.niceness).toBe(0);
    for (const bad of ["-1", "20", "low"]) expect(() => loadConfig({ ARGUS_KERNEL_NICE: bad })).toThrow(/ARGUS_KERNEL_NICE/);
  });

  it("says what is wrong with JUPYTER_URL and JUPYTER_TOKEN", () => {
    expect(() => loadConfig({ JUPYTER_URL: "gateway:8888", JUPYTER_TOKEN: "t" })).toThrow(/JUPYTER_URL: give the http\(s\) address/);
    expect(() => loadConfig({ JUPYTER_URL: "ftp://gateway", JUPYTER_TOKEN: "t" })).toThrow(/JUPYTER_URL: give the http\(s\) address/);
    expect(() => loadConfig({ JUPYTER_URL: "http://gateway:8888" })).toThrow(/JUPYTER_TOKEN: JUPYTER_URL is set but JUPYTER_TOKEN is not/);
    // A server with authentication off takes an explicitly empty token; a trailing slash is dropped.
    expect(loadConfig({ JUPYTER_URL: "https://j.example/base/", JUPYTER_TOKEN: "" }).jupyter).toEqual({ mode: "external", url: "https://j.example/base", token: "" });
  });

  it("moves workspace files through the shared directory unless told to use the kernel", () => {
    expect(loadConfig({}).kernels.workspaceTransport).toBe("shared");
    expect(loadConfig({ JUPYTER_URL: "http://g:8888", JUPYTER_TOKEN: "t", ARGUS_WORKSPACE_TRANSPORT: "kernel" }).kernels.workspaceTransport).toBe("kernel");
    expect(() => loadConfig({ ARGUS_WORKSPACE_TRANSPORT: "nfs" })).toThrow(/ARGUS_WORKSPACE_TRANSPORT: use "shared"/);
    // Argus's own server shares its disk; kernel transport there would put every workspace in every sandbox.
    expect(() => loadConfig({ ARGUS_WORKSPACE_TRANSPORT: "kernel" })).toThrow(/ARGUS_WORKSPACE_TRANSPORT: "kernel" is for a Jupyter server on another host/);
  });
});

describe("chooseBrowserApi", () => {
  it("follows an explicit setting whatever the model", () => {
    expect(chooseBrowserApi("chat", "computer-use-preview")).toBe("chat");
    expect(chooseBrowserApi("responses", "gpt-4o")).toBe("responses");
    expect(chooseBrowserApi("responses", null)).toBe("responses");
  });

  it("auto: responses only for a model whose name says computer-use", () => {
    expect(chooseBrowserApi("auto", "computer-use-preview")).toBe("responses");
    expect(chooseBrowserApi("auto", "openai/Computer-Use-Preview")).toBe("responses");
    expect(chooseBrowserApi("auto", "gpt-4o")).toBe("chat");
    expect(chooseBrowserApi("auto", "computer_use")).toBe("chat");
    expect(chooseBrowserApi("auto", null)).toBe("chat");
  });

  it("selects Postgres with DATABASE_URL and refuses anything but a postgres URL", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://argus@db/argus" }, "/x").databaseUrl).toBe("postgres://argus@db/argus");
    expect(() => loadConfig({ DATABASE_URL: "mysql://db/argus" }, "/x")).toThrow(/DATABASE_URL/);
  });
});
