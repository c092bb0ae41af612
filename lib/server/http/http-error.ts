/** A request the server refuses, with the reason a person can act on. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = "bad_request",
    /** Headers the refusal carries, e.g. a 401's `WWW-Authenticate` challenge. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toResponse(): Response {
    return Response.json({ error: this.message, code: this.code }, { status: this.status, headers: this.headers });
  }
}
