import { createServer, type Server } from "node:http";
import { loadSettingsFile } from "../config/loader";
import { requireAuth } from "../auth/middleware";
import { Router } from "./router";

/** Starts the HTTP server: loads the settings file, builds the router, listens on the port. */
export function startHttpServer(settingsPath: string): Server {
  const settings = loadSettingsFile(settingsPath);
  const router = new Router();
  router.addRoute("GET", "/health", () => "ok");
  router.addRoute("GET", "/users/:id", (params) => `user ${params.id}`);
  const server = createServer(async (req, res) => {
    const found = router.match(req.method ?? "GET", req.url ?? "/");
    if (!found) {
      res.statusCode = 404;
      res.end("not found");
      return;
    }
    if (!requireAuth(req.headers.authorization, settings.tokenSecret)) {
      res.statusCode = 401;
      res.end("unauthorized");
      return;
    }
    res.end(await found.handler(found.params));
  });
  server.listen(settings.port, settings.host);
  return server;
}
