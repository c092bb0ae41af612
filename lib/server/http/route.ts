import "server-only";
import { z } from "zod";
import { databaseFaultOf } from "@/lib/db/faults";
import { admit } from "@/lib/server/auth/admit";
import { asPerson } from "@/lib/server/auth/person";
import type { Access } from "@/lib/server/auth/roles";
import { HttpError } from "./http-error";

/**
 * Every API failure in one shape, `{ error, code }`: refusals (HttpError) as they are, invalid
 * input 400, database faults 503 with what to do, anything else 500 with its message (and logged).
 */
export function errorResponse(error: unknown): Response {
  if (error instanceof HttpError) return error.toResponse();
  if (error instanceof z.ZodError) return invalid(error).toResponse();
  if (error instanceof URIError) return new HttpError(400, "The address is not valid percent-encoded UTF-8.", "bad_path").toResponse();
  const fault = databaseFaultOf(error);
  if (fault) return new HttpError(503, fault.message, "database_unavailable").toResponse();
  console.error("toolroom: request failed:", error);
  return new HttpError(500, `Internal error: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`, "internal").toResponse();
}

/**
 * Wraps a route handler: first the access check (who is asking, and may they — see
 * lib/server/auth/admit), then the handler with that person as the request's, and whatever either
 * throws answers in the one error shape. Every route says its access; route-guards.test.ts holds it.
 */
export function handle<Q extends Request, R extends unknown[]>(
  access: Access,
  fn: (request: Q, ...rest: R) => Promise<Response> | Response,
): (request: Q, ...rest: R) => Promise<Response> {
  return async (request, ...rest) => {
    try {
      const person = await admit(request, access);
      return await asPerson(person, () => fn(request, ...rest));
    } catch (error) {
      return errorResponse(error);
    }
  };
}

function invalid(error: z.ZodError, what = "request"): HttpError {
  const issue = error.issues[0];
  return new HttpError(400, `Invalid ${what} at ${issue?.path.map(String).join(".") || "body"}: ${issue?.message ?? "bad value"}`, "invalid_request");
}

/** `value` parsed by `schema`, or a 400 naming the first bad field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what?: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(parsed.error, what);
  return parsed.data;
}

/** The request body as JSON checked by `schema`; bodies above `maxBytes` are a 413 before parsing. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S, options: { maxBytes?: number; what?: string } = {}): Promise<z.output<S>> {
  const text = await request.text();
  if (options.maxBytes !== undefined && Buffer.byteLength(text) > options.maxBytes) {
    throw new HttpError(413, `The request body is ${Buffer.byteLength(text)} bytes, above the ${options.maxBytes}-byte limit.`, "body_too_large");
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpError(400, "The request body is not JSON.", "invalid_json");
  }
  return parseWith(schema, json, options.what);
}

/** A route parameter checked by `schema` (a chat id, a tool name): malformed ones are a 400, not a lookup. */
export async function routeParams<S extends z.ZodType>(params: Promise<unknown>, schema: S): Promise<z.output<S>> {
  return parseWith(schema, await params, "address");
}

/**
 * The origin the person's browser used: the Host header (the request gate has already checked it
 * against the allowed hosts), not `request.url`, which `next start` builds from the address it
 * listens on. A redirect URI built from it returns the browser to the page it came from.
 */
export function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get("host");
  return host ? `${url.protocol}//${host}` : url.origin;
}
