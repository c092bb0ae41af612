// What `npm start` (scripts/start.mjs) and `toolroom serve` (the package's prebuilt server) say and
// do once the checks have passed: the URL to open, and a stop that does not wait for open tabs.

/** The lines that tell a person where the app is (and the token to open it with, once). */
export function servingLines({ host, port, token }) {
  const shown = host.includes(":") ? `[${host}]` : host;
  if (!token) return [`toolroom: serving on http://${shown}:${port}`];
  // A wildcard bind is reached from this machine as 127.0.0.1; other names go in server.allowedHosts.
  const visit = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : shown;
  return [
    `toolroom: serving on http://${shown}:${port} with an access token. Open this URL once (it sets a cookie); API and MCP clients send Authorization: Bearer <token>.`,
    `    http://${visit}:${port}/?token=${encodeURIComponent(token)}`,
  ];
}

// Next closes gracefully, waiting for open connections; a browser tab polls every few seconds and
// keeps its connection busy, so a stop would wait forever. Requests in flight get a moment, then it ends.
const STOP_GRACE_MS = 5000;

/** Ctrl-C and SIGTERM reach the server; this process ends with it. */
export function stopWithServer(server) {
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      server.kill(signal);
      setTimeout(() => server.kill("SIGKILL"), STOP_GRACE_MS).unref();
    });
  }
  server.on("exit", (code) => process.exit(code ?? 0));
}
