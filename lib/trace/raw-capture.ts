import type { LanguageModelV4CallOptions, LanguageModelV4Prompt, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { ParseEvent } from "@/lib/chat/text-protocol/types";
import type { RawExchange } from "./types";

/** The raw reply text kept per step; beyond it the text is cut and the trace says so. */
export const MAX_RAW_TEXT = 64 * 1024;
/** The request (messages, tools, body), serialised, kept per step. */
export const MAX_RAW_REQUEST = 256 * 1024;

type Request = RawExchange["request"];

/**
 * One step's exchange with the provider, built from the parts that pass the provider tap. Text is
 * kept up to MAX_RAW_TEXT; the request is serialised only when the step is stored.
 */
export class RawCapture {
  private prompt: LanguageModelV4Prompt = [];
  private tools: LanguageModelV4CallOptions["tools"];
  private body: unknown;
  private text = "";
  private textLength = 0;
  private cut = false;
  private toolInputs = new Map<string, { id: string; toolName: string; deltas: string[] }>();
  private calls: RawExchange["response"]["calls"] = [];
  private nearMisses: RawExchange["response"]["nearMisses"] = [];
  /** Where the next parsed call is searched from, so two identical calls get their own spans. */
  private cursor = 0;
  /** The request as stored (masked, cut to MAX_RAW_REQUEST), made once per request: it does not change while the reply streams. */
  private storedRequest: { json: string; truncated: boolean } | undefined;
  /** Bumped by every change; the recorder writes a step again only when it moved. */
  version = 0;

  constructor(private readonly url: string | undefined) {}

  setRequest(prompt: LanguageModelV4Prompt, tools: LanguageModelV4CallOptions["tools"]): void {
    this.prompt = prompt;
    this.tools = tools;
    this.storedRequest = undefined;
    this.version++;
  }

  setBody(body: unknown): void {
    this.body = body;
    this.storedRequest = undefined;
    this.version++;
  }

  add(part: LanguageModelV4StreamPart): void {
    this.version++;
    switch (part.type) {
      case "text-delta":
        this.textLength += part.delta.length;
        if (this.text.length + part.delta.length <= MAX_RAW_TEXT) this.text += part.delta;
        else {
          this.text += part.delta.slice(0, MAX_RAW_TEXT - this.text.length);
          this.cut = true;
        }
        return;
      case "tool-input-start":
        this.toolInputs.set(part.id, { id: part.id, toolName: part.toolName, deltas: [] });
        return;
      case "tool-input-delta":
        this.toolInputs.get(part.id)?.deltas.push(part.delta);
        return;
      case "tool-call":
        // A provider that sends whole calls (no deltas) shows them as one delta.
        if (!this.toolInputs.has(part.toolCallId)) this.toolInputs.set(part.toolCallId, { id: part.toolCallId, toolName: part.toolName, deltas: [part.input] });
        return;
      default:
        return;
    }
  }

  /** A call or near-miss the text-mode parser reported; located in the raw text when it is there. */
  parsed(event: Exclude<ParseEvent, { type: "text" }>): void {
    this.version++;
    const start = event.raw ? this.text.indexOf(event.raw, this.cursor) : -1;
    const span = start >= 0 ? { start, end: start + event.raw.length } : {};
    if (start >= 0) this.cursor = start + event.raw.length;
    if (event.type === "call") {
      if (start >= 0) this.calls.push({ start, end: start + event.raw.length, toolName: event.toolName });
    } else {
      this.nearMisses.push({ raw: event.raw, error: event.error, ...span, ...(event.toolName ? { toolName: event.toolName } : {}) });
    }
  }

  toJSON(scrub: (text: string) => string = (t) => t): RawExchange {
    return JSON.parse(this.toJSONString(scrub)) as RawExchange;
  }

  /**
   * The exchange as stored, as JSON text. The request (up to MAX_RAW_REQUEST, the history and the
   * tools) is masked and serialised once; a save while the reply streams serialises the reply only.
   */
  toJSONString(scrub: (text: string) => string = (t) => t): string {
    const request = (this.storedRequest ??= this.requestJson(scrub));
    const text = scrub(this.text);
    const response: RawExchange["response"] = {
      // Masking may change lengths; spans are only kept when it did not.
      text,
      toolInputs: [...this.toolInputs.values()].map((input) => ({ ...input, deltas: input.deltas.map(scrub) })),
      calls: text.length === this.text.length ? this.calls : [],
      nearMisses: this.nearMisses.map((miss) => ({ ...miss, raw: scrub(miss.raw) })),
    };
    const truncated = request.truncated || this.cut || this.textLength > MAX_RAW_TEXT;
    return `{"request":${request.json},"response":${JSON.stringify(response)},"truncated":${truncated}}`;
  }

  private requestJson(scrub: (text: string) => string): { json: string; truncated: boolean } {
    let truncated = false;
    const systemParts: string[] = [];
    const messages: unknown[] = [];
    for (const message of this.prompt) {
      if (message.role === "system") systemParts.push(message.content);
      else messages.push(message);
    }
    const request: Request = { messages };
    if (this.url) request.url = this.url;
    if (systemParts.length) request.system = systemParts.join("\n\n");
    if (this.tools?.length) request.tools = this.tools;
    if (this.body !== undefined) request.body = typeof this.body === "string" ? safeParse(this.body) : this.body;
    // Masked string by string, never as JSON text: a secret met across an escape (`\none` holds
    // "none") would otherwise be cut in half and the JSON with it.
    const masked = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (typeof v === "string" ? scrub(v) : v));
    let json = masked(request);
    if (json.length > MAX_RAW_REQUEST) {
      // Too big to keep whole: the body (which repeats the messages) goes first, then messages are cut.
      truncated = true;
      const { body: _body, ...lean } = request;
      json = masked(lean);
      if (json.length > MAX_RAW_REQUEST) json = masked({ ...lean, messages: [`${JSON.stringify(lean.messages).slice(0, MAX_RAW_REQUEST / 2)}…`] });
    }
    return { json, truncated };
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
