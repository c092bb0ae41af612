import { handle } from "@/lib/server/http/route";
import { handleMcpRequest } from "@/lib/server/mcp/mcp-http";

// Sessions live in this process's memory; the transport streams its answers (SSE).
export const dynamic = "force-dynamic";

// MCP clients run tools: a member's token (or session) at least.
export const GET = handle("member", handleMcpRequest);
export const POST = handle("member", handleMcpRequest);
export const DELETE = handle("member", handleMcpRequest);
