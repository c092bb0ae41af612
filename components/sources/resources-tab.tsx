"use client";

import type { Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { useQuery } from "@tanstack/react-query";
import { Bell, BellOff, RotateCcw } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { queryKeys } from "@/lib/client/query-keys";
import { cn } from "@/components/ui/cn";
import type { SourceActivity, Section } from "@/lib/server/sources/sources-view";
import { ChatTargetButtons } from "./chat-target";
import { CompletionInput } from "./completion-input";
import { attachmentsOf, ResourceViewer } from "./resource-viewer";
import { sourceApi } from "./source-api";
import { SectionError } from "./section-error";

/** The variables of an RFC 6570 template (`{id}`, `{+path}`, `{?a,b}`) and the URI they expand to (levels 1–3, enough for the forms here). */
function templateVariables(template: string): string[] {
  return [...template.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((m) => (m[1] ?? "").split(",").map((v) => v.replace(/[*:].*$/, "")));
}

function expand(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#./;?&]?)([^}]+)\}/g, (_, op: string, names: string) => {
    const list = names.split(",").map((n) => n.replace(/[*:].*$/, ""));
    const enc = (v: string) => (op === "+" || op === "#" ? encodeURI(v) : encodeURIComponent(v));
    const given = list.filter((n) => values[n]);
    if (op === "?" || op === "&") return given.length ? `${op}${given.map((n) => `${n}=${enc(values[n] ?? "")}`).join("&")}` : "";
    const joined = given.map((n) => enc(values[n] ?? "")).join(op === "." ? "." : op === "/" ? "/" : ",");
    return given.length && op && op !== "+" ? `${op}${joined}` : joined;
  });
}

interface ResourcesTabProps {
  server: string;
  resources: Section<Resource>;
  templates: Section<ResourceTemplate>;
  canSubscribe: boolean;
  completes: boolean;
  activity?: SourceActivity;
}

export function ResourcesTab({ server, resources, templates, canSubscribe, completes, activity }: ResourcesTabProps) {
  const [uri, setUri] = useState<string | null>(null);
  const [name, setName] = useState("");
  const open = (next: string, label: string) => {
    setUri(next);
    setName(label);
  };
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(16rem,22rem)_1fr]">
      <div className="space-y-4">
        <section>
          <h3 className="mb-1 text-xs font-medium tracking-wide text-muted uppercase">Resources</h3>
          {!resources.ok ? (
            <SectionError error={resources.error} />
          ) : resources.items.length === 0 ? (
            <p className="text-sm text-muted">This server lists no resources.</p>
          ) : (
            <ul className="divide-y divide-border rounded-md border border-border" data-testid="resource-list">
              {resources.items.map((r) => (
                <li key={r.uri}>
                  <button
                    type="button"
                    data-testid="resource-row"
                    data-uri={r.uri}
                    aria-current={uri === r.uri || undefined}
                    onClick={() => open(r.uri, r.title ?? r.name)}
                    className={cn("block w-full px-2 py-1.5 text-left hover:bg-subtle", uri === r.uri && "bg-accent-soft")}
                  >
                    <span className="block truncate text-sm">{r.title ?? r.name}</span>
                    <span className="block truncate font-mono text-xs text-muted">
                      {r.uri}
                      {r.mimeType ? ` · ${r.mimeType}` : ""}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section>
          <h3 className="mb-1 text-xs font-medium tracking-wide text-muted uppercase">Resource templates</h3>
          {!templates.ok ? (
            <SectionError error={templates.error} />
          ) : templates.items.length === 0 ? (
            <p className="text-sm text-muted">This server lists no resource templates.</p>
          ) : (
            <ul className="space-y-2" data-testid="template-list">
              {templates.items.map((t) => (
                <TemplateForm key={t.uriTemplate} server={server} template={t} completes={completes} onRead={(u) => open(u, t.title ?? t.name)} />
              ))}
            </ul>
          )}
        </section>
      </div>
      <div className="min-w-0">
        {uri ? (
          <ResourcePane key={uri} server={server} uri={uri} name={name} canSubscribe={canSubscribe} activity={activity} />
        ) : (
          <p className="rounded-md border border-dashed border-border p-6 text-center text-sm text-muted">
            Pick a resource, or fill a template, to read it here.
          </p>
        )}
      </div>
    </div>
  );
}

function TemplateForm({
  server,
  template,
  completes,
  onRead,
}: {
  server: string;
  template: ResourceTemplate;
  completes: boolean;
  onRead: (uri: string) => void;
}) {
  const variables = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <li className="rounded-md border border-border p-2" data-testid="template-row" data-template={template.uriTemplate}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onRead(expand(template.uriTemplate, values));
        }}
        className="space-y-2"
      >
        <p className="text-sm">{template.title ?? template.name}</p>
        <p className="font-mono text-xs text-muted">{template.uriTemplate}</p>
        {variables.map((v) => (
          <CompletionInput
            key={v}
            server={server}
            completes={completes}
            completionRef={{ type: "ref/resource", uri: template.uriTemplate }}
            name={v}
            label={v}
            required
            value={values[v] ?? ""}
            context={values}
            onChange={(value) => setValues((old) => ({ ...old, [v]: value }))}
          />
        ))}
        <Button type="submit" size="sm" data-testid="template-read">
          Read
        </Button>
      </form>
    </li>
  );
}

function ResourcePane({
  server,
  uri,
  name,
  canSubscribe,
  activity,
}: {
  server: string;
  uri: string;
  name: string;
  canSubscribe: boolean;
  activity?: SourceActivity;
}) {
  const read = useQuery({ queryKey: [...queryKeys.sources.all, "read", server, uri], queryFn: () => sourceApi.read(server, uri), retry: false });
  const listed = activity?.subscriptions.find((s) => s.uri === uri);
  // Lost: subscribed before a reconnect, and not again since (the reason shows beside the button).
  const subscription = listed?.lost ? undefined : listed;
  const [busy, setBusy] = useState(false);
  // An update the server announced: read again, so what is shown is what the server has now.
  const seen = useRef(subscription?.updates ?? 0);
  const { refetch } = read;
  useEffect(() => {
    const updates = subscription?.updates ?? 0;
    if (updates > seen.current) void refetch();
    seen.current = updates;
  }, [subscription?.updates, refetch]);
  const toggle = async () => {
    setBusy(true);
    try {
      await sourceApi.subscribe(server, uri, !subscription);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="space-y-3" data-testid="resource-pane" data-uri={uri}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="min-w-0 truncate font-mono text-sm">{uri}</h3>
        <Button size="sm" variant="ghost" onClick={() => void read.refetch()} title="Read again" aria-label="Read again">
          <RotateCcw size={13} aria-hidden />
        </Button>
        {canSubscribe ? (
          <Button size="sm" data-testid="resource-subscribe" aria-pressed={Boolean(subscription)} disabled={busy} onClick={() => void toggle()}>
            {subscription ? <BellOff size={13} aria-hidden /> : <Bell size={13} aria-hidden />} {subscription ? "Unsubscribe" : "Subscribe"}
          </Button>
        ) : null}
        {listed?.lost ? (
          <span className="text-xs text-amber-700 dark:text-pending" data-testid="resource-lost">
            not subscribed again after the reconnect: {listed.lost}
          </span>
        ) : null}
        {subscription ? (
          <span className="text-xs text-muted" data-testid="resource-updates">
            {subscription.updates === 0
              ? "subscribed · no updates yet"
              : `${subscription.updates} update${subscription.updates === 1 ? "" : "s"} · last at ${new Date(subscription.lastUpdate ?? 0).toLocaleTimeString()}`}
          </span>
        ) : null}
      </div>
      {read.isPending ? (
        <p className="text-sm text-running" data-testid="resource-loading">
          Reading…
        </p>
      ) : read.isError ? (
        <SectionError error={read.error.message} />
      ) : (
        <>
          <ResourceViewer parts={read.data.parts} />
          <ChatTargetButtons verb="attach" prepare={async () => ({ attachments: attachmentsOf(read.data.parts, name || uri) })} />
        </>
      )}
    </section>
  );
}
