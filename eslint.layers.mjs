// The layer rule of docs/house.md, as ESLint zones: arrows point down only. Each zone forbids the files
// under `target` to import what resolves under `from` (paths after the `@/` alias is resolved).
// eslint.layers.test.ts lints a deliberate breach of every zone and expects it to fail.

const lib = (...folders) => folders.map((folder) => `./lib/${folder}`);

// The folders that know nothing of the services (lib/server) above them.
const belowServer = lib("chat", "mcp", "evals", "trace", "builtins", "artifacts", "tools", "sandbox", "settings", "security", "db", "client");
// The lowest tier: shared vocabulary lives here, so both sides of an arrow can see it.
const lowest = lib("tools", "sandbox", "settings", "security");
const higherThanLowest = lib("chat", "mcp", "evals", "trace", "builtins", "artifacts", "server");

/** @type {{ target: string | string[], from: string | string[], message: string }[]} */
const LAYER_ZONES = [
  { target: "./lib", from: ["./app", "./components"], message: "lib/ never imports app/ or components/ (app → components → lib)." },
  { target: "./components", from: "./app", message: "components/ never import app/ (app → components → lib)." },
  { target: "./bin", from: ["./app", "./components"], message: "bin/ calls lib/ only (bin → lib)." },
  { target: belowServer, from: "./lib/server", message: "Only lib/server imports lib/server: the services sit above every domain folder." },
  {
    target: "./lib/chat",
    from: lib("trace", "evals"),
    message: "The engine (lib/chat) imports neither lib/trace nor lib/evals: it exposes hooks, they implement them.",
  },
  {
    target: lowest,
    from: higherThanLowest,
    message: "lib/tools, sandbox, settings and security import no higher domain folder: move shared vocabulary down.",
  },
];

/** lib/db may import higher folders' types only (a type import leaves no arrow at run time). */
const DB_TYPE_ONLY = {
  patterns: [
    {
      group: ["chat", "mcp", "evals", "trace", "builtins", "artifacts", "server"].flatMap((folder) => [`@/lib/${folder}/**`, `../${folder}/**`]),
      allowTypeImports: true,
      message: "lib/db may import types only from higher folders.",
    },
  ],
};

/** Test support and fixtures stay out of production code. */
const NO_TEST_SUPPORT = {
  patterns: [
    {
      group: ["@/lib/testing", "@/lib/testing/**", "**/testing/**", "**/*.test", "**/*.test.ts", "**/__fixtures__/**", "@/e2e/**"],
      message: "Production code never imports lib/testing, a test or a fixture.",
    },
  ],
};

/**
 * A chat is its owner's (issue AA): reads of a chat by id, or of the list, go through
 * lib/server/chat/chat-access, which knows who is asking. The files allowed the raw queries are
 * that one, the admins' rule page (it names any chat a rule is scoped to) and the MCP audit, whose
 * chats are its own sessions'.
 */
const CHAT_READS = {
  name: "@/lib/db/queries",
  importNames: ["getChat", "getChatByShareId", "listChats"],
  message: "Read chats through lib/server/chat/chat-access (visibleChat, visibleChats): a chat is its owner's.",
};
const RAW_CHAT_READERS = ["lib/server/chat/chat-access.ts", "lib/server/approvals/rule-admin.ts", "lib/server/mcp/mcp-audit.ts"];

// The files the layer rule holds: production code (tests, specs, benches and test support are free).
const PRODUCTION_FILES = ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.ts", "bin/**/*.ts", "proxy.ts", "instrumentation.ts"];
const NOT_PRODUCTION = ["**/*.test.ts", "**/*.test.tsx", "lib/testing/**", "**/__fixtures__/**"];

/** The flat-config blocks that hold the rule (eslint.config.mjs uses them; so does the test). */
export const layerRuleConfig = [
  {
    files: PRODUCTION_FILES,
    ignores: NOT_PRODUCTION,
    rules: {
      "import/no-restricted-paths": ["error", { zones: LAYER_ZONES }],
      "@typescript-eslint/no-restricted-imports": ["error", { ...NO_TEST_SUPPORT, paths: [CHAT_READS] }],
    },
  },
  {
    files: RAW_CHAT_READERS,
    rules: { "@typescript-eslint/no-restricted-imports": ["error", NO_TEST_SUPPORT] },
  },
  {
    files: ["lib/db/**/*.ts"],
    ignores: NOT_PRODUCTION,
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [...NO_TEST_SUPPORT.patterns, ...DB_TYPE_ONLY.patterns] }] },
  },
];
