import { handle } from "@/lib/server/http/route";
import { param } from "@/lib/server/runs/runs-root";
import { artifactFileResponse } from "@/lib/server/runs/artifact-file";

export const dynamic = "force-dynamic";

/** GET /api/runs/file?root=&path=<run>/<artifact>[&download=1] — one run artifact as recorded (known artifact names only, inside the runs root). */
export const GET = handle("viewer", (request: Request) => {
  const q = new URL(request.url).searchParams;
  return artifactFileResponse(param(q.get("root")), param(q.get("path")), q.get("download") === "1");
});
