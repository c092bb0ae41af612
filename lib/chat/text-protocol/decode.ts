// Turns the text of one call block into calls: the JSON protocols' objects and the xml protocol's
// <invoke> elements, with near-misses repaired and everything else described precisely.
import type { TextProtocol, ToolInput } from "./types";
import { matchToolName, parseLenientJson } from "./repair";

export type Decoded =
  { ok: true; toolName: string; input: ToolInput; raw: string; repaired?: string } | { ok: false; error: string; raw: string; toolName?: string };

function isPlainObject(value: unknown): value is ToolInput {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const WHAT: Partial<Record<TextProtocol, string>> = {
  json: "The <tool_call> body",
  hermes: "The <tool_call> body",
  mistral: "The [TOOL_CALLS] list",
  llama: "The JSON call",
};

const SHAPE: Partial<Record<TextProtocol, string>> = {
  json: '{"name": "tool_name", "arguments": {…}}',
  hermes: '{"name": "tool_name", "arguments": {…}}',
  mistral: '[{"name": "tool_name", "arguments": {…}}]',
  llama: '{"name": "tool_name", "parameters": {…}}',
};

export function unknownToolError(name: string, tools: ReadonlySet<string> | null): string {
  const names = tools ? [...tools] : [];
  return names.length ? `Unknown tool "${name}". Available tools: ${names.join(", ")}.` : `Unknown tool "${name}": no tools are available.`;
}

function joinRepairs(...labels: (string | undefined)[]): string | undefined {
  const all = labels.filter((label): label is string => !!label);
  return all.length ? all.join(", ") : undefined;
}

/** The name a broken body was probably calling, so the error can say which tool. */
function guessName(body: string): string | undefined {
  return /["']?name["']?\s*:\s*["']([\w.-]{1,128})["']/.exec(body)?.[1];
}

/** The arguments of one call object, given as an object or (as on OpenAI's wire) a JSON string. */
function decodeCall(protocol: TextProtocol, value: unknown, raw: string, tools: ReadonlySet<string> | null, repaired?: string): Decoded {
  const argsKey = protocol === "llama" ? "parameters" : "arguments";
  if (!isPlainObject(value) || typeof value.name !== "string") {
    return { ok: false, raw, error: `Each call must be a JSON object with "name" (a string) and "${argsKey}" (an object): ${SHAPE[protocol]}.` };
  }
  const match = matchToolName(value.name, tools);
  if (!match) return { ok: false, raw, toolName: value.name, error: unknownToolError(value.name, tools) };
  const name = match.name;
  let args: unknown = value.arguments ?? value.parameters ?? {};
  let argsRepair: string | undefined;
  if (typeof args === "string") {
    const parsed = parseLenientJson(args);
    if (!parsed.ok) {
      return {
        ok: false,
        raw,
        toolName: name,
        error: `"${argsKey}" of the call to "${name}" is a string that is not a JSON object (${parsed.error}); give an object.`,
      };
    }
    args = parsed.value;
    argsRepair = joinRepairs("arguments given as a JSON string", parsed.repaired);
  }
  if (!isPlainObject(args)) {
    return { ok: false, raw, toolName: name, error: `"${argsKey}" of the call to "${name}" must be a JSON object of argument names to values.` };
  }
  const label = joinRepairs(repaired, match.repaired, argsRepair);
  return label ? { ok: true, toolName: name, input: args, raw, repaired: label } : { ok: true, toolName: name, input: args, raw };
}

/**
 * Decodes a JSON protocol's call body. `raw` is the whole call as written. Returns null when the
 * body is not a call at all — only for llama's bare "{" lines (`strict` false), which may be prose.
 */
export function decodeJsonCalls(protocol: TextProtocol, body: string, raw: string, tools: ReadonlySet<string> | null, strict = true): Decoded[] | null {
  const parsed = parseLenientJson(body);
  if (!parsed.ok) {
    if (!strict && !/["']?name["']?\s*:/.test(body)) return null;
    const toolName = guessName(body);
    const error = `${WHAT[protocol]} is not valid JSON (${parsed.error}). Write ${SHAPE[protocol]} with double-quoted strings.`;
    return [toolName ? { ok: false, raw, error, toolName } : { ok: false, raw, error }];
  }
  const value = parsed.value;
  if (!strict && !(isPlainObject(value) && typeof value.name === "string" && ("parameters" in value || "arguments" in value))) return null;
  if (protocol === "mistral" && Array.isArray(value)) {
    if (value.length === 0) return [{ ok: false, raw, error: `The [TOOL_CALLS] list is empty: write ${SHAPE.mistral}.` }];
    return value.map((item) => decodeCall(protocol, item, value.length === 1 ? raw : JSON.stringify(item), tools, parsed.repaired));
  }
  return [decodeCall(protocol, value, raw, tools, parsed.repaired)];
}

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&apos;": "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(?:lt|gt|amp|quot|apos);/g, (entity) => ENTITIES[entity] ?? entity);
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A parameter's text as a value: JSON literals, numbers, arrays and objects are read as JSON; the rest is a string. */
function xmlValue(text: string): ToolInput[string] {
  const trimmed = text.trim();
  if (trimmed === "true" || trimmed === "false" || trimmed === "null" || NUMBER.test(trimmed) || /^[[{]/.test(trimmed)) {
    try {
      return JSON.parse(trimmed) as ToolInput[string];
    } catch {
      // an array- or object-looking string stays a string
    }
  }
  return text;
}

const XML_SHAPE = '<invoke name="tool_name"><parameter name="arg">value</parameter></invoke>';

/** Reads the `name="…"` attribute of a tag's attribute text. */
function nameAttribute(attributes: string): string | undefined {
  const match = /^\s+name\s*=\s*(?:"([^"]*)"|'([^']*)')\s*$/.exec(attributes);
  return match ? unescapeXml(match[1] ?? match[2] ?? "") : undefined;
}

function decodeInvoke(attributes: string, inner: string, raw: string, tools: ReadonlySet<string> | null): Decoded {
  const written = nameAttribute(attributes);
  if (written === undefined) return { ok: false, raw, error: `An <invoke> needs the tool's name as its only attribute: ${XML_SHAPE}.` };
  const match = matchToolName(written, tools);
  if (!match) return { ok: false, raw, toolName: written, error: unknownToolError(written, tools) };
  const name = match.name;
  const input: ToolInput = {};
  let at = 0;
  for (;;) {
    const open = inner.indexOf("<parameter", at);
    if (open < 0) break;
    const gt = inner.indexOf(">", open);
    const key = gt < 0 ? undefined : nameAttribute(inner.slice(open + "<parameter".length, gt));
    if (key === undefined) return { ok: false, raw, toolName: name, error: `A <parameter> of the call to "${name}" has no name="…" attribute: ${XML_SHAPE}.` };
    const close = inner.indexOf("</parameter>", gt + 1);
    if (close < 0) return { ok: false, raw, toolName: name, error: `The parameter "${key}" of the call to "${name}" is not closed with </parameter>.` };
    if (Object.hasOwn(input, key)) return { ok: false, raw, toolName: name, error: `The parameter "${key}" of the call to "${name}" is given twice.` };
    input[key] = xmlValue(unescapeXml(inner.slice(gt + 1, close)));
    at = close + "</parameter>".length;
  }
  return match.repaired ? { ok: true, toolName: name, input, raw, repaired: match.repaired } : { ok: true, toolName: name, input, raw };
}

/** Decodes the inside of a <function_calls> block: one call per <invoke>. */
export function decodeXmlCalls(body: string, raw: string, tools: ReadonlySet<string> | null): Decoded[] {
  const out: Decoded[] = [];
  let at = 0;
  for (;;) {
    const open = body.indexOf("<invoke", at);
    if (open < 0) break;
    const gt = body.indexOf(">", open);
    const close = gt < 0 ? -1 : body.indexOf("</invoke>", gt + 1);
    if (close < 0) {
      out.push({ ok: false, raw: body.slice(open), error: `An <invoke> is not closed with </invoke>: ${XML_SHAPE}.` });
      break;
    }
    const end = close + "</invoke>".length;
    out.push(decodeInvoke(body.slice(open + "<invoke".length, gt), body.slice(gt + 1, close), body.slice(open, end), tools));
    at = end;
  }
  if (out.length === 0) out.push({ ok: false, raw, error: `The <function_calls> block holds no call: put one ${XML_SHAPE} in it per call.` });
  return out;
}
