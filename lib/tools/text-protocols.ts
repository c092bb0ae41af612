/**
 * How a text-mode model writes a tool call (`chat.textProtocol`, `llms.<name>.textProtocol`, per chat).
 * `action` and `json` are AORTA's (one call per reply); `hermes`, `xml`, `llama` and `mistral`
 * are the formats open models were trained on (several calls per reply). The names are shared
 * vocabulary: settings validate them and the database stores them, below the engine that parses them.
 */
export const TEXT_PROTOCOLS = ["action", "json", "hermes", "xml", "llama", "mistral"] as const;

export type TextProtocol = (typeof TEXT_PROTOCOLS)[number];
