import type { ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import type { RegisteredResource } from "@/lib/tools/registry-types";
import type { Registry } from "@/lib/tools/registry-types";
import type { ContributionContext, ResourceBody } from "@/lib/tools/types";
import {
  builtinTemplates,
  completeBuiltin,
  listBuiltinResources,
  readBuiltinResource,
  RESOURCE_NOT_FOUND,
  type ResourceRoots,
  type TextOrBlob,
} from "./builtin-resources";
import { ProtocolError } from "./call";

const meta = (r: RegisteredResource) => ({ "toolroom/source": r.sourcePackage, "toolroom/version": r.version });

/** Plugin resources first (their own URIs), then the runs' artifacts. */
export async function listResources(registry: Registry, roots: ResourceRoots): Promise<ListResourcesResult> {
  const plugin = (registry.resources ?? []).flatMap((r) =>
    r.kind === "resource"
      ? [
          {
            uri: r.definition.uri,
            name: r.definition.name,
            title: r.definition.title,
            description: r.definition.description,
            mimeType: r.definition.mimeType,
            _meta: meta(r),
          },
        ]
      : [],
  );
  return { resources: [...plugin, ...(await listBuiltinResources(roots))] };
}

export function listResourceTemplates(registry: Registry): ListResourceTemplatesResult {
  const plugin = (registry.resources ?? []).flatMap((r) =>
    r.kind === "template"
      ? [
          {
            uriTemplate: r.definition.uriTemplate,
            name: r.definition.name,
            title: r.definition.title,
            description: r.definition.description,
            mimeType: r.definition.mimeType,
            _meta: meta(r),
          },
        ]
      : [],
  );
  return { resourceTemplates: [...plugin, ...builtinTemplates] };
}

/**
 * resources/read: a plugin's fixed URI, then a plugin template that matches, then the built-ins.
 * A plugin's read that throws is the client's error (-32603 with the message), not a crash.
 */
export async function readResource(registry: Registry, uri: string, ctx: ContributionContext): Promise<ReadResourceResult> {
  const resources = registry.resources ?? [];
  for (const r of resources) {
    if (r.kind === "resource" && r.definition.uri === uri)
      return { contents: [contentsOf(uri, await readPlugin(r, () => r.definition.read(ctx)), r.definition.mimeType)] };
  }
  for (const r of resources) {
    if (r.kind !== "template") continue;
    const variables = matchTemplate(r.definition.uriTemplate, uri);
    if (variables) {
      const definition = r.definition;
      return { contents: [contentsOf(uri, await readPlugin(r, () => definition.read(uri, variables, ctx)), definition.mimeType)] };
    }
  }
  const builtin = await readBuiltinResource(uri, ctx);
  if (builtin) return { contents: [builtin] };
  throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`);
}

/** completion/complete for a `ref/resource`: the template's own completer, or the built-ins'. */
export async function completeResourceArgument(
  registry: Registry,
  uriTemplate: string,
  variable: string,
  value: string,
  context: Record<string, string>,
  roots: ResourceRoots,
): Promise<string[]> {
  const template = (registry.resources ?? []).find((r) => r.kind === "template" && r.definition.uriTemplate === uriTemplate);
  if (template?.kind === "template") {
    const complete = template.definition.complete?.[variable];
    return complete ? await complete(value, { arguments: context }) : [];
  }
  const builtin = await completeBuiltin(uriTemplate, variable, value, roots);
  if (builtin) return builtin;
  throw new ProtocolError(-32602, `Unknown resource template: ${uriTemplate}`);
}

export function matchTemplate(uriTemplate: string, uri: string): Record<string, string> | null {
  let matched: Record<string, string | string[]> | null;
  try {
    matched = new UriTemplate(uriTemplate).match(uri);
  } catch {
    return null;
  }
  if (!matched) return null;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(matched)) out[key] = safeDecode(Array.isArray(value) ? value.join(",") : value);
  return out;
}

async function readPlugin(r: RegisteredResource, read: () => ResourceBody | Promise<ResourceBody>): Promise<ResourceBody> {
  try {
    return await read();
  } catch (error) {
    throw new ProtocolError(-32603, `${r.sourcePackage}: reading ${r.definition.name} failed: ${(error as Error).message}`);
  }
}

/** A plugin's body as MCP contents: strings are text, bytes are base64 blobs. */
export function contentsOf(uri: string, body: ResourceBody, mimeType?: string): TextOrBlob {
  if (typeof body === "string") return { uri, mimeType: mimeType ?? "text/plain", text: body };
  if (body instanceof Uint8Array) return { uri, mimeType: mimeType ?? "application/octet-stream", blob: Buffer.from(body).toString("base64") };
  if ("text" in body) return { uri, mimeType: body.mimeType ?? mimeType ?? "text/plain", text: body.text };
  const blob = typeof body.blob === "string" ? body.blob : Buffer.from(body.blob).toString("base64");
  return { uri, mimeType: body.mimeType ?? mimeType ?? "application/octet-stream", blob };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
