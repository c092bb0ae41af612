import { RE2JS } from "re2js";
import { z } from "zod";
import { TEXT_PROTOCOLS } from "@/lib/tools/text-protocols";

/**
 * How a model takes tools (`llms.<name>.toolMode`): unset follows the chat's mode; `native` and
 * `text` fix it for the model; `auto` starts in the chat's mode and switches once — to text when
 * the provider refuses tools, to native when a text-mode reply comes back empty — and remembers
 * the switch for the model until the server restarts.
 */
export const modelToolModeSchema = z.enum(["native", "text", "auto"]);

/** `llms.<name>.pricing`: dollars per million tokens, for the cost of eval cells and runs. */
const pricingSchema = z.strictObject({
  inputPerMTok: z.number().nonnegative().finite(),
  outputPerMTok: z.number().nonnegative().finite(),
});

/** What a model entry may say about its tool calling (and its price), beside its provider. */
const modelToolFields = {
  pricing: pricingSchema.optional(),
  toolMode: modelToolModeSchema.optional(),
  /** The text-mode protocol the model was trained on; a chat's own choice still wins. */
  textProtocol: z.enum(TEXT_PROTOCOLS).optional(),
};

/** A model reference as tools and the chat name one (aifred-tk's `llm:` block). */
export const llmRefSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ref"), ref: z.string().min(1) }).strict(),
  z
    .object({
      type: z.literal("custom"),
      provider: z.enum(["offline", "openai", "anthropic", "openai-compatible"]),
      model: z.string().optional(),
      baseURL: z.string().url().optional(),
      apiKey: z.string().optional(),
    })
    .strict(),
]);
export type LlmRef = z.infer<typeof llmRefSchema>;

export const providerLlmSchema = z
  .object({
    provider: z.enum(["offline", "openai", "anthropic", "openai-compatible"]),
    model: z.string().optional(),
    baseURL: z.string().url().optional(),
    apiKey: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    label: z.string().optional(),
    ...modelToolFields,
  })
  .strict();

export const fallbackLlmSchema = z
  .object({ type: z.literal("fallback"), chain: z.array(z.string().min(1)).min(1), label: z.string().optional(), ...modelToolFields })
  .strict();

export const llmEntrySchema = z.union([fallbackLlmSchema, providerLlmSchema]);
export type LlmEntry = z.infer<typeof llmEntrySchema>;

export const toolSettingsSchema = z
  .object({
    enabled: z.boolean().optional(),
    timeoutSeconds: z.number().positive().optional(),
    llm: llmRefSchema.optional(),
  })
  .passthrough();

/**
 * Variables the shell tool never passes from the server's environment even when `passEnv` names
 * them: they would hand git, the dynamic linker or the shell a program to run or a config to read.
 */
export const UNPASSABLE_ENV_NAME = /^(GIT_|LD_|DYLD_)|^(BASH_ENV|ENV|PAGER|IFS|SHELLOPTS|BASHOPTS|PS4|PATH)$/;

export const shellToolSettingsSchema = toolSettingsSchema.extend({
  enabled: z.boolean().default(false),
  allowedCommands: z.array(z.string().min(1)).default(["ls", "cat", "grep", "wc", "head", "tail", "find", "git"]),
  blockedSubstrings: z.array(z.string()).default(["rm -rf", "curl ", "wget ", "ssh ", "dd if=", "mkfs"]),
  timeoutSeconds: z.number().positive().default(60),
  /** Extra environment variable names passed to commands, beyond PATH, HOME, LANG and TERM. */
  passEnv: z
    .array(
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name")
        .refine((name) => !UNPASSABLE_ENV_NAME.test(name), "cannot be passed to commands (it could make them run other programs)"),
    )
    .default([]),
});

export const mcpServerSchema = z.union([
  z
    .object({
      command: z.string().min(1),
      args: z.array(z.string()).default([]),
      env: z.record(z.string(), z.string()).optional(),
      prefix: z.string().optional(),
      confirm: z.enum(["always", "destructive", "never"]).default("destructive"),
    })
    .strict(),
  z
    .object({
      url: z.string().url(),
      headers: z.record(z.string(), z.string()).optional(),
      /**
       * OAuth: a client registered with the server's authorization server beforehand (`clientId`),
       * else a client ID metadata document Toolroom's user hosts (`clientMetadataUrl`, used where the
       * authorization server supports them), else dynamic registration.
       */
      oauth: z
        .object({
          clientId: z.string().min(1).optional(),
          clientSecret: z.string().min(1).optional(),
          scopes: z.array(z.string().min(1)).optional(),
          clientMetadataUrl: z.string().url().startsWith("https://").optional(),
        })
        .strict()
        .refine((o) => !o.clientSecret || o.clientId, { message: "clientSecret needs the clientId it belongs to" })
        .optional(),
      prefix: z.string().optional(),
      confirm: z.enum(["always", "destructive", "never"]).default("destructive"),
    })
    .strict(),
]);

/**
 * `auth.oidc`: sign-in with an OpenID provider (Keycloak, Authentik, Entra ID, Google…) beside the
 * password form, found by discovery at `<issuer>/.well-known/openid-configuration`. A person is
 * matched by the email the provider has verified. `role` is what a newcomer gets when `allowSignUp`
 * lets the provider make accounts; it cannot be admin, since that would hand the server (settings,
 * rules, the shell tool) to anyone the provider vouches for: an admin is made on purpose, with
 * `toolroom users add --role admin` or `users set-role`. The role never comes from the provider's claims.
 */
export const oidcSettingsSchema = z.strictObject({
  issuer: z.string().url(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /** The button says "Sign in with <name>". */
  name: z.string().trim().min(1).max(60).default("OpenID Connect"),
  role: z.enum(["viewer", "member"]).default("member"),
  /** Off: only people added with `toolroom users add` may sign in this way. */
  allowSignUp: z.boolean().default(false),
});
export type OidcSettings = z.infer<typeof oidcSettingsSchema>;

/** A fresh clone has no such folder yet: that is an empty state, not an error (a runsRoot set elsewhere must exist). */
export const DEFAULT_RUNS_ROOT = "./runs";

/**
 * One approval rule: which calls it matches (every given field must match) and what happens to
 * them. `args` maps an argument name to a regex (RE2 syntax, linear time) or a JSON Schema for
 * that argument's value.
 */
export const approvalRuleObject = z
  .object({
    name: z.string().min(1).max(200).optional(),
    tool: z.string().min(1).max(200).optional(),
    source: z.string().min(1).max(200).optional(),
    readonly: z.boolean().optional(),
    args: z.record(z.string(), z.union([z.string().max(2000), z.record(z.string(), z.unknown())])).optional(),
    decision: z.enum(["allow", "ask", "deny"]),
    reason: z.string().max(2000).optional(),
  })
  .strict();

export const approvalRuleSchema = approvalRuleObject.superRefine((rule, ctx) => {
  // Checked when the settings load, so a rule that cannot run names its file instead of failing a call later.
  for (const [field, matcher] of Object.entries(rule.args ?? {})) {
    if (typeof matcher !== "string") continue;
    try {
      RE2JS.compile(RE2JS.translateRegExp(matcher));
    } catch (error) {
      ctx.addIssue({ code: "custom", path: ["args", field], message: `${(error as Error).message} (rules match with RE2: no backreferences or lookaround)` });
    }
  }
});

export const settingsSchema = z
  .object({
    llms: z.record(z.string(), llmEntrySchema).default({ offline: { provider: "offline" } }),
    chat: z
      .object({
        llm: llmRefSchema.default({ type: "ref", ref: "offline" }),
        toolMode: z.enum(["native", "text"]).default("native"),
        textProtocol: z.enum(TEXT_PROTOCOLS).default("json"),
        supervised: z.boolean().default(true),
        approvalTimeoutSeconds: z.number().int().positive().default(300),
        maxSteps: z.number().int().min(1).max(100).default(8),
        /** A model that sends nothing for this long (before its first output or between two) ends the turn with an error. */
        streamIdleTimeoutSeconds: z.number().positive().default(60),
        /** One step — the model's answer plus the tools it runs — may take at most this long. */
        stepTimeoutSeconds: z.number().positive().default(600),
        /** The most text one user message may carry (bytes); larger ones are answered 413. */
        maxMessageBytes: z
          .number()
          .int()
          .positive()
          .default(1024 * 1024),
      })
      .strict()
      .prefault({}),
    tools: z
      .object({ run_terminal_command: shellToolSettingsSchema.prefault({}) })
      .catchall(toolSettingsSchema)
      .prefault({}),
    plugins: z
      .object({
        paths: z.array(z.string()).default([]),
        disabled: z.array(z.string()).default([]),
        /** A plugin module whose import has not settled by then is skipped (a never-resolving top-level await must not hold the registry). */
        importTimeoutSeconds: z.number().positive().default(10),
        /** /tools warns when more tools than this are offered to a model (Cursor ~40–80, Windsurf 50, VS Code 128). */
        warnAboveTools: z.number().int().positive().default(40),
      })
      .strict()
      .prefault({}),
    search: z
      .object({
        embeddings: llmRefSchema.optional(),
        cacheDir: z.string().default(".toolroom/cache"),
        /** Chunks sent to the embedding model per index build; the rest are found by BM25 only. */
        maxEmbedChunks: z.number().int().positive().default(50_000),
      })
      .strict()
      .prefault({}),
    server: z
      .object({
        host: z.string().default("127.0.0.1"),
        allowedHosts: z.array(z.string()).default([]),
        token: z.string().optional(),
        requireToken: z.boolean().optional(),
      })
      .strict()
      .prefault({}),
    /**
     * Sign-in. Unset `required` means: on for PostgreSQL (a team's store) and whenever the server
     * binds beyond loopback, off for the loopback SQLite default (one developer, no sign-in).
     * Users and tokens come from `toolroom users` / `toolroom tokens`.
     */
    auth: z
      .object({
        required: z.boolean().optional(),
        /** How long a sign-in lasts without use. */
        sessionDays: z.number().positive().max(365).default(7),
        /**
         * The address people open when a TLS proxy sits in front (https://toolroom.example.com):
         * session cookies are then Secure. Unset: the host each request names, over http.
         */
        url: z.string().url().optional(),
        oidc: oidcSettingsSchema.optional(),
      })
      .strict()
      .prefault({}),
    mcpServers: z.record(z.string(), mcpServerSchema).default({}),
    telemetry: z
      .object({
        /** Record a trace of every chat turn (steps, timings, usage, the raw exchange, secrets masked) with the chat. */
        traces: z.boolean().default(true),
        /** Also send the AI SDK's OpenTelemetry spans to this OTLP/HTTP collector, e.g. http://127.0.0.1:4318/v1/traces. */
        otlpEndpoint: z.string().url().optional(),
      })
      .strict()
      .prefault({}),
    /** Trusted rules from the settings files: checked first, before any rule saved from the UI. */
    approvals: z
      .object({ rules: z.array(approvalRuleSchema).default([]) })
      .strict()
      .prefault({}),
    /**
     * Eval suites. A suite from the source root is untrusted (it cannot load plugins, enable or
     * configure tools, or approve a confirming call) unless its file matches `trusted` (paths or
     * globs relative to the source root, or absolute); suites in Toolroom's examples/evals and files
     * named on the command line are trusted. `maxTrials` bounds the trials of one run.
     */
    evals: z
      .object({
        trusted: z.array(z.string().min(1)).default([]),
        maxTrials: z.number().int().positive().default(5_000),
        /** Trials run at once in one eval, unless the CLI's --concurrency says otherwise. */
        concurrency: z.number().int().min(1).max(32).default(4),
      })
      .strict()
      .prefault({}),
    /**
     * On PostgreSQL, eval trials are jobs that `toolroom worker` processes take; a web instance
     * takes `inProcess` of them at once itself (0: only workers run trials). No effect on SQLite.
     */
    workers: z
      .object({ inProcess: z.number().int().min(0).max(32).default(2) })
      .strict()
      .prefault({}),
    /**
     * The store: `file:` (SQLite, the default file:./data/toolroom.db) or `postgresql://…` for a
     * team's Toolroom (several instances on one database). DATABASE_URL, when set, wins.
     */
    database: z
      .object({ url: z.string().min(1).optional() })
      .strict()
      .prefault({}),
    aiAssistedGuardFile: z.string().optional(),
    sourceRoot: z.string().default("."),
    runsRoot: z.string().default(DEFAULT_RUNS_ROOT),
    /**
     * The runs browser over HTTP: `?root=` may name only `runsRoot`, a folder listed in
     * `extraRoots` (relative to the working folder), or a folder inside one of them — so a web
     * page cannot make the server read artifacts anywhere on disk. The CLI's `--root` is free.
     * Artifacts above `maxArtifactBytes` are refused with a message instead of read.
     */
    runs: z
      .object({
        extraRoots: z.array(z.string().min(1)).default([]),
        maxArtifactBytes: z
          .number()
          .int()
          .positive()
          .default(256 * 1024 * 1024),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type Settings = z.infer<typeof settingsSchema>;
