/**
 * Every TanStack Query key the UI uses, built here so a fetch and the invalidation that refreshes
 * it can never disagree on a spelling. Each group's `all` is the prefix its other keys start with.
 */
export const queryKeys = {
  chats: {
    all: ["chats"] as const,
    list: () => [...queryKeys.chats.all, "list"] as const,
    grants: (chatId: string) => [...queryKeys.chats.all, "grants", chatId] as const,
    trace: (chatId: string) => [...queryKeys.chats.all, "trace", chatId] as const,
    running: (chatId: string) => [...queryKeys.chats.all, "running", chatId] as const,
  },
  tools: {
    all: ["tools"] as const,
    list: () => [...queryKeys.tools.all, "list"] as const,
    searchIndex: (tool: string) => [...queryKeys.tools.all, "search-index", tool] as const,
  },
  sources: {
    all: ["sources"] as const,
    detail: (server: string) => [...queryKeys.sources.all, "detail", server] as const,
    activity: (server: string) => [...queryKeys.sources.all, "activity", server] as const,
  },
  evals: {
    all: ["evals"] as const,
  },
  collections: {
    all: ["collections"] as const,
  },
  approvalRules: {
    all: ["approval-rules"] as const,
  },
  /** A remote MCP server's OAuth sign-in state. */
  mcpOAuth: (server: string) => ["mcp-oauth", server] as const,
  /** The server's last live reload of plugins and settings. */
  reload: () => ["reload"] as const,
  runs: {
    all: ["runs"] as const,
    list: (override: string | null) => [...queryKeys.runs.all, "list", override] as const,
    file: (override: string | null, rel: string) => [...queryKeys.runs.all, "file", override, rel] as const,
  },
};
