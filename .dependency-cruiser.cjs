/**
 * Argus's layering rules, checked by `npm test` (scripts/test.sh):
 * dependencies point one way, so a new agent or engine lands on clean structure.
 */
const PRODUCT = "^(app|components|lib|agents|server\\.ts)";
const TEST = "\\.test\\.tsx?$";

/*
 * The tiers (lib/README.md names them and their folders; docs/architecture.md draws them).
 * Imports point down: server → features → engines → foundation. The browser's code sits beside
 * them and shares only wire types and pure helpers. Tests may reach up (a unit test of a schema
 * may use the reducer), so the tier rules apply to product code only.
 */
const SERVER_TIER = "^(server\\.ts$|app/|lib/server/)";
const FEATURE_TIER = "^(agents/|lib/features/)";
const ENGINE_TIER = "^lib/engines/";
const FOUNDATION_TIER = "^lib/foundation/";

module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "An import cycle means two modules can't be understood (or built) one before the other.",
      from: {},
      to: { circular: true },
    },
    {
      name: "server-tier-on-top",
      severity: "error",
      comment:
        "The server tier (server.ts, app/, lib/server/) wires and serves everything; nothing below it imports it. " +
        "A helper two tiers need belongs in lib/foundation/common/ (or the tier that owns it), not in lib/server/.",
      from: { path: "^(lib/(?!server/)|agents/|components/)" },
      to: { path: SERVER_TIER },
    },
    {
      name: "routes-use-areas",
      severity: "error",
      comment:
        "A route handler or page gets the area of the core it serves (lib/server/areas.ts: argusArea), " +
        "never the whole core, its construction or the global it is kept in.",
      from: { path: "^app/" },
      to: { path: "^lib/server/(argus-core|context|wiring/)" },
    },
    {
      name: "engines-below-features",
      severity: "error",
      comment:
        "Engines (database, kernels, model client, files, vision models, Chromium) know no feature: at most a " +
        "feature's port or deps type (type-only), which the feature implements or passes in.",
      from: { path: ENGINE_TIER, pathNot: TEST },
      to: { path: `${FEATURE_TIER}|${SERVER_TIER}`, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "foundation-imports-only-foundation",
      severity: "error",
      comment:
        "The foundation (wire types and schemas, errors, configuration, small utilities) imports nothing above it. " +
        "Configuration's URL-list parser and the address ranges it needs live here too (lib/foundation/net/), so there is no exception.",
      from: { path: FOUNDATION_TIER, pathNot: TEST },
      to: { path: `${SERVER_TIER}|${FEATURE_TIER}|${ENGINE_TIER}|^components/` },
    },
    {
      name: "agents-not-server",
      severity: "error",
      comment: "Agents depend on ports (model, kernels, ask-the-person, event log), never on the server that wires them.",
      from: { path: "^agents/" },
      to: { path: "^lib/server/" },
    },
    {
      name: "runtime-knows-no-vision",
      severity: "error",
      comment: "The controller and run manager are agent-agnostic: no concrete agent, no vision tool, no bridge service.",
      from: { path: "^lib/features/runtime/" },
      to: { path: "^(agents/(?!types)|lib/features/bridge/|lib/engines/files/|lib/engines/llm/images)" },
    },
    {
      name: "no-test-doubles-in-product",
      severity: "error",
      comment: "The scripted model and test helpers are for tests, benchmarks and `npm run fake-llm` only.",
      from: { path: PRODUCT, pathNot: "\\.test\\.tsx?$" },
      to: { path: "(^tests/|^scripted-model/|scripted-model|^lib/server/spine-server)" },
    },
    {
      name: "client-only-wire-types",
      severity: "error",
      comment: "The browser shares only wire types with the server (lib/foundation/protocol), never server modules.",
      from: { path: "^(components|lib/client)/" },
      to: { path: "^lib/(server/|features/(sessions|runtime)/|engines/(db|kernels|files)/)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^node_modules|^\\.next|^python|^data)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
