/**
 * Copyable `llms` entries for the Settings page's "Add a model" section: one per kind of provider
 * a newcomer has. Each is a complete ./toolroom.yaml (a test parses them through the schema).
 */
export interface ModelExample {
  id: string;
  title: string;
  /** One sentence: what to have ready. */
  note: string;
  yaml: string;
}

export const MODEL_EXAMPLES: readonly ModelExample[] = [
  {
    id: "openai",
    title: "OpenAI",
    note: "Set OPENAI_API_KEY in the environment that starts Toolroom (or apiKey in the entry).",
    yaml: `llms:
  offline: { provider: offline }
  gpt: { provider: openai, model: gpt-4o-mini }   # key from OPENAI_API_KEY
chat:
  llm: { type: ref, ref: gpt }                    # the default for new chats
`,
  },
  {
    id: "anthropic",
    title: "Anthropic",
    note: "Set ANTHROPIC_API_KEY in the environment that starts Toolroom (or apiKey in the entry).",
    yaml: `llms:
  offline: { provider: offline }
  claude: { provider: anthropic, model: claude-sonnet-4-5 }   # key from ANTHROPIC_API_KEY
`,
  },
  {
    id: "local",
    title: "A local server (Ollama, vLLM, LM Studio)",
    note: "Any OpenAI-compatible server: Ollama on :11434, vLLM on :8000, LM Studio on :1234 — each serves /v1. No key needed.",
    yaml: `llms:
  offline: { provider: offline }
  ollama: { provider: openai-compatible, baseURL: http://127.0.0.1:11434/v1, model: qwen2.5-coder }
  vllm: { provider: openai-compatible, baseURL: http://127.0.0.1:8000/v1, model: Qwen/Qwen2.5-Coder-7B-Instruct }
  lmstudio: { provider: openai-compatible, baseURL: http://127.0.0.1:1234/v1, model: qwen2.5-coder-7b-instruct }
`,
  },
];
