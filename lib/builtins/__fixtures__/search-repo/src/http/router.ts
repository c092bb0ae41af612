export type Handler = (params: Record<string, string>) => Promise<string> | string;

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

/** Matches request paths like /users/:id to handlers. */
export class Router {
  private readonly routes: Route[] = [];

  /** Registers a handler for a method and a path pattern with :param segments. */
  addRoute(method: string, pattern: string, handler: Handler): void {
    this.routes.push({ method: method.toUpperCase(), segments: pattern.split("/").filter(Boolean), handler });
  }

  match(method: string, path: string): { handler: Handler; params: Record<string, string> } | null {
    const parts = path.split("/").filter(Boolean);
    for (const route of this.routes) {
      if (route.method !== method.toUpperCase() || route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const ok = route.segments.every((seg, i) => {
        if (seg.startsWith(":")) {
          params[seg.slice(1)] = parts[i] ?? "";
          return true;
        }
        return seg === parts[i];
      });
      if (ok) return { handler: route.handler, params };
    }
    return null;
  }
}
