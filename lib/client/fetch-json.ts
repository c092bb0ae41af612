/**
 * The browser's one way to call Toolroom's JSON routes. Every route answers a failure as
 * `{ error, code }`; anything else (the proxy's plain-text refusals, an empty 500, an HTML error
 * page, a dropped connection) still becomes a FetchError whose message names what happened.
 */

/** The body of every failed API response. */
export interface ErrorBody {
  error: string;
  code: string;
}

/** Codes for failures the server could not describe itself (the server's own codes pass through). */
export const CLIENT_ERROR_CODES = {
  /** The request never got an answer: server down, connection refused or reset. */
  network: "network_error",
  /** A failure status without an `{ error, code }` body. */
  http: "http_error",
  /** A success status whose body is not JSON. */
  invalidResponse: "invalid_response",
} as const;

export class FetchError extends Error {
  override readonly name = "FetchError";
  constructor(
    message: string,
    /** HTTP status; 0 when no response arrived. */
    readonly status: number,
    /** The server's `code`, or one of CLIENT_ERROR_CODES. */
    readonly code: string,
    /** The parsed JSON body when there was one, for routes whose failures carry more than the error. */
    readonly body?: unknown,
  ) {
    super(message);
  }
}

export interface FetchJsonInit extends Omit<RequestInit, "body" | "headers"> {
  headers?: Record<string, string>;
  /** Sent as the JSON body, with its content type. */
  json?: unknown;
}

function isErrorBody(value: unknown): value is Partial<ErrorBody> & { error: string } {
  return typeof value === "object" && value !== null && typeof (value as { error?: unknown }).error === "string";
}

function describe(method: string, url: string): string {
  return `${method.toUpperCase()} ${url}`;
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * The FetchError for a failed response: the server's message when it sent one, else what came
 * back. `what` names the request for a person ("GET /api/chats").
 */
export async function errorFromResponse(response: Response, what: string): Promise<FetchError> {
  const text = await response.text().catch(() => "");
  const parsed = text ? parse(text) : { ok: false as const };
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  if (parsed.ok && isErrorBody(parsed.value)) {
    return new FetchError(
      parsed.value.error,
      response.status,
      typeof parsed.value.code === "string" ? parsed.value.code : CLIENT_ERROR_CODES.http,
      parsed.value,
    );
  }
  const body = parsed.ok ? parsed.value : undefined;
  const snippet = text.trim().startsWith("<") ? "" : text.trim().slice(0, 200);
  const message = snippet ? `${what} failed (${status}): ${snippet}` : `${what} failed (${status}) with no explanation from the server.`;
  return new FetchError(message, response.status, CLIENT_ERROR_CODES.http, body);
}

/** Fetches a JSON route: the parsed body on success (undefined for an empty one, such as a 204), a FetchError otherwise. */
export async function fetchJson<T>(url: string, init: FetchJsonInit = {}): Promise<T> {
  const { json, headers, ...rest } = init;
  const method = rest.method ?? "GET";
  let response: Response;
  try {
    response = await fetch(url, {
      ...rest,
      headers: json === undefined ? headers : { "content-type": "application/json", ...headers },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new FetchError(
      `${describe(method, url)} got no answer: the server could not be reached (${(error as Error).message}).`,
      0,
      CLIENT_ERROR_CODES.network,
    );
  }
  if (!response.ok) throw await errorFromResponse(response, describe(method, url));
  const text = await response.text();
  if (!text) return undefined as T;
  const parsed = parse(text);
  if (!parsed.ok)
    throw new FetchError(
      `${describe(method, url)} answered ${response.status} with a body that is not JSON.`,
      response.status,
      CLIENT_ERROR_CODES.invalidResponse,
    );
  return parsed.value as T;
}
