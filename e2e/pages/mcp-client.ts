import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** An outside MCP client of /api/mcp (the official SDK), answering confirmations as told. */
export class McpHttpClient {
  readonly asked: string[] = [];
  private constructor(readonly client: Client) {}

  static async connect(baseURL: string, name: string, answer?: "accept" | "decline"): Promise<McpHttpClient> {
    const client = new Client({ name, version: "1.0.0" }, { capabilities: answer ? { elicitation: { form: {} } } : {} });
    const self = new McpHttpClient(client);
    if (answer) {
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        self.asked.push(request.params.message);
        return answer === "accept" ? { action: "accept", content: {} } : { action: "decline" };
      });
    }
    await client.connect(new StreamableHTTPClientTransport(new URL("/api/mcp", baseURL)));
    return self;
  }

  async callText(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
    const result = (await this.client.callTool({ name, arguments: args })) as CallToolResult;
    return { text: result.content.map((c) => (c.type === "text" ? c.text : "")).join(""), isError: result.isError === true };
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
