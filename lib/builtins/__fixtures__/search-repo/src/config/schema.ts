/** The shape of a settings file once parsed. */
export interface Settings {
  port: number;
  host: string;
  cacheSize: number;
  retryAttempts: number;
  tokenSecret: string;
}

export const DEFAULT_SETTINGS: Settings = {
  port: 8080,
  host: "127.0.0.1",
  cacheSize: 256,
  retryAttempts: 3,
  tokenSecret: "change-me",
};

/** Checks every field of a settings object against the schema; returns the problems found. */
export function validateSettings(candidate: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, fallback] of Object.entries(DEFAULT_SETTINGS)) {
    const value = candidate[key];
    if (value === undefined) continue;
    if (typeof value !== typeof fallback) {
      problems.push(`schema: ${key} must be a ${typeof fallback}, got ${typeof value}`);
    }
  }
  if (typeof candidate.port === "number" && (candidate.port < 1 || candidate.port > 65535)) {
    problems.push("schema: port out of range");
  }
  return problems;
}
