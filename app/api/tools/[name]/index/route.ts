import { handle } from "@/lib/server/http/route";
import { searchIndexView, startSearchIndexBuild } from "@/lib/server/search-index/search-index";

type Context = { params: Promise<{ name: string }> };

/** The embedding index of search_code / search_run_artifacts: what it holds, and whether it is building. */
export const GET = handle("viewer", async (_request: Request, { params }: Context) => Response.json(searchIndexView((await params).name)));

/** Builds (or refreshes) it in the background; poll GET for progress. */
export const POST = handle("member", async (_request: Request, { params }: Context) =>
  Response.json(await startSearchIndexBuild((await params).name), { status: 202 }),
);
