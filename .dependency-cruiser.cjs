/**
 * Argus's layering rules, checked by `npm test` (scripts/test.sh):
 * dependencies point one way, so a new agent or engine lands on clean structure.
 */
const PRODUCT = "^(app|components|lib|agents|server\\.ts)";

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
      from: { path: "^lib/runtime/" },
      to: { path: "^(agents/(?!types)|lib/bridge/|lib/files/|lib/llm/images)" },
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
      comment: "The browser shares only wire types with the server (lib/protocol), never server modules.",
      from: { path: "^(components|lib/client)/" },
      to: { path: "^lib/(server|sessions|runtime|db|kernels|files)/" },
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
