"use client";

import { Download, ShieldCheck, X } from "lucide-react";
import type { ModelChoice } from "@/lib/chat/models";
import type { ChatConfig } from "./use-chat-session";

export interface ChatHeaderProps {
  title: string;
  chatExists: boolean;
  chatId: string;
  config: ChatConfig;
  models: ModelChoice[];
  grants: string[];
  locked: boolean;
  onChange(change: Partial<ChatConfig>): void;
  onRevokeGrant(tool: string): void;
}

export function ChatHeader({ title, chatExists, chatId, config, models, grants, locked, onChange, onRevokeGrant }: ChatHeaderProps) {
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-border bg-panel px-4 py-2">
      <h1 className="min-w-0 flex-1 truncate text-sm font-semibold" data-testid="chat-title">{title}</h1>
      <label className="flex items-center gap-1.5 text-xs text-muted">
        Model
        <select data-testid="model-picker" disabled={locked} value={config.modelRef} onChange={(e) => onChange({ modelRef: e.target.value })} className="h-7 max-w-56 rounded-md border border-border bg-bg px-1.5 text-xs text-fg">
          {models.map((m) => (
            <option key={m.ref} value={m.ref}>{m.label}</option>
          ))}
        </select>
      </label>
      <div role="radiogroup" aria-label="Tool mode" className="flex overflow-hidden rounded-md border border-border text-xs">
        {(["native", "text"] as const).map((mode) => (
          <button
            key={mode}
            type="button"
            role="radio"
            aria-checked={config.toolMode === mode}
            data-testid={`mode-${mode}`}
            disabled={locked}
            onClick={() => onChange({ toolMode: mode })}
            className={config.toolMode === mode ? "bg-accent px-2 py-1 text-white" : "px-2 py-1 text-muted hover:bg-subtle"}
          >
            {mode}
          </button>
        ))}
      </div>
      <label className="flex items-center gap-1.5 text-xs" title="Unsupervised: calls that need a human are not admitted">
        <input
          type="checkbox"
          data-testid="supervised-toggle"
          checked={config.supervised}
          disabled={locked}
          onChange={(e) => {
            if (!e.target.checked && !window.confirm("Unsupervised chat: tool calls that need your approval will not run, and the model is told so. Continue?")) return;
            onChange({ supervised: e.target.checked });
          }}
        />
        supervised
      </label>
      {grants.length ? (
        <div className="flex flex-wrap items-center gap-1 text-xs" data-testid="grants">
          <ShieldCheck size={13} className="text-done" aria-hidden />
          {grants.map((tool) => (
            <span key={tool} className="inline-flex items-center gap-1 rounded border border-done/40 px-1.5 font-mono">
              {tool}
              <button type="button" aria-label={`Revoke the grant for ${tool}`} data-testid={`revoke-${tool}`} onClick={() => onRevokeGrant(tool)} className="text-muted hover:text-denied">
                <X size={11} />
              </button>
            </span>
          ))}
        </div>
      ) : null}
      {chatExists ? (
        <a href={`/api/chats/${chatId}/export`} data-testid="export-chat" className="flex items-center gap-1 rounded-md border border-border px-2 py-1 text-xs hover:bg-subtle">
          <Download size={12} aria-hidden /> Export JSON
        </a>
      ) : null}
    </div>
  );
}
