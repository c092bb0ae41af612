import { handleMcpRequest } from "@/lib/server/mcp/mcp-http";

// Sessions live in this process's memory; the transport streams its answers (SSE).
export const dynamic = "force-dynamic";

export const GET = handleMcpRequest;
export const POST = handleMcpRequest;
export const DELETE = handleMcpRequest;
