import { revokeGrant } from "@/lib/db/queries";

/** Revokes "approve for this chat": later calls of the tool ask again. */
export async function DELETE(_request: Request, { params }: { params: Promise<{ id: string; tool: string }> }) {
  const { id, tool } = await params;
  await revokeGrant(id, tool);
  return new Response(null, { status: 204 });
}
