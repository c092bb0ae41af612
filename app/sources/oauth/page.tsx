import Link from "next/link";
import { OAuthFlowView } from "@/components/sources/oauth-flow-view";
import { OAuthStatus } from "@/components/sources/oauth-status";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { remoteServers } from "@/lib/server/mcp-oauth/sign-in";

export const metadata = { title: "OAuth · Sources" };
export const dynamic = "force-dynamic";

/** The remote MCP servers' sign-in, and each step of the last OAuth flow per server (`?server=` picks one). */
export default async function OAuthPage({ searchParams }: { searchParams: Promise<{ server?: string; signIn?: string }> }) {
  const { server, signIn } = await searchParams;
  const servers = remoteServers();
  const shown = servers.filter((s) => !server || s.name === server);
  return (
    <>
      <PageHeader
        title="OAuth"
        description="Sign-in to remote MCP servers (OAuth 2.1 through the MCP SDK), and each step of the last flow: discovery, registration, authorization, token exchange, refresh. Secrets are masked; tokens are never shown."
      />
      <div className="space-y-6 p-6">
        {signIn && signIn !== "done" ? (
          <p role="alert" className="rounded-md border border-denied/50 bg-denied/5 px-3 py-2 text-sm text-denied" data-testid="oauth-sign-in-failed">
            {signIn === "refused"
              ? "The authorization server refused the sign-in (see the callback step below)."
              : "The authorization server sent no code back."}
          </p>
        ) : null}
        {servers.length === 0 ? (
          <EmptyState title="No remote MCP server configured" testId="oauth-no-servers">
            Add one under <code className="font-mono">mcpServers.&lt;name&gt;.url</code> in settings; a server behind OAuth can then be signed in to here.
          </EmptyState>
        ) : shown.length === 0 ? (
          <EmptyState title={`No remote MCP server named "${server}"`}>
            <Link href="/sources/oauth" className="text-accent hover:underline">
              Show all servers
            </Link>
          </EmptyState>
        ) : (
          shown.map((s) => (
            <section key={s.name} aria-label={`MCP server ${s.name}`} data-testid="oauth-server" data-server={s.name} className="space-y-3">
              <header className="flex flex-wrap items-center gap-3">
                <h2 className="font-mono text-sm font-semibold">
                  <Link href={`/sources/oauth?server=${encodeURIComponent(s.name)}`} className="hover:underline">
                    {s.name}
                  </Link>
                </h2>
                <span className="truncate font-mono text-xs text-muted">{s.url}</span>
                <span className="ml-auto">
                  <OAuthStatus server={s.name} />
                </span>
              </header>
              <OAuthFlowView server={s.name} />
            </section>
          ))
        )}
      </div>
    </>
  );
}
