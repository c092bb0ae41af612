"use client";

import { Download, ShieldCheck, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useMayAct } from "@/components/auth/person-context";
import { ADD_MODEL_ANCHOR } from "@/components/settings/add-model";
import { Button, buttonVariants } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { SegmentedRadioGroup, SegmentedRadioItem } from "@/components/ui/radio-group";
import { Select } from "@/components/ui/select";
import { CompareActions } from "@/components/compare/compare-actions";
import type { ModelChoice } from "@/lib/chat/models";
import { TEXT_PROTOCOLS, type TextProtocol } from "@/lib/chat/text-protocol/types";
import { ShareLink } from "./share-link";
import type { ChatConfig } from "./use-chat-session";

/** The value of the picker's "Add a model…" entry: not a name anyone gives an `llms` entry. */
const ADD_MODEL = "toolroom:add-a-model";

export interface ChatHeaderProps {
  title: string;
  chatExists: boolean;
  chatId: string;
  shareId: string | null;
  config: ChatConfig;
  models: ModelChoice[];
  grants: string[];
  locked: boolean;
  onChange: (change: Partial<ChatConfig>) => void;
  onRevokeGrant: (tool: string) => void;
}

export function ChatHeader({ title, chatExists, chatId, shareId, config, models, grants, locked, onChange, onRevokeGrant }: ChatHeaderProps) {
  const [confirmingUnsupervised, setConfirmingUnsupervised] = useState(false);
  const router = useRouter();
  const mayShare = useMayAct("member");
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-border bg-panel px-4 py-2">
      <h1 className="min-w-24 flex-1 truncate text-sm font-semibold" data-testid="chat-title">
        {title}
      </h1>
      <label className="flex items-center gap-1.5 text-xs text-muted">
        Model
        <Select
          size="sm"
          data-testid="model-picker"
          disabled={locked}
          value={config.modelRef}
          onChange={(e) => {
            // The last entry is a way to the settings' examples, not a model: the chat keeps its own.
            if (e.target.value === ADD_MODEL) router.push(`/settings#${ADD_MODEL_ANCHOR}`);
            else onChange({ modelRef: e.target.value });
          }}
          className="max-w-56 bg-bg"
        >
          {models.map((m) => (
            <option key={m.ref} value={m.ref}>
              {m.label}
            </option>
          ))}
          <option value={ADD_MODEL} data-testid="add-model-option">
            Add a model…
          </option>
        </Select>
      </label>
      <SegmentedRadioGroup
        aria-label="Tool mode"
        value={config.toolMode}
        disabled={locked}
        onValueChange={(mode) => onChange({ toolMode: mode as ChatConfig["toolMode"] })}
      >
        {(["native", "text"] as const).map((mode) => (
          <SegmentedRadioItem key={mode} value={mode} data-testid={`mode-${mode}`}>
            {mode}
          </SegmentedRadioItem>
        ))}
      </SegmentedRadioGroup>
      {config.toolMode === "text" ? (
        <label className="flex items-center gap-1.5 text-xs text-muted">
          Protocol
          <Select
            size="sm"
            data-testid="protocol-picker"
            disabled={locked}
            value={config.textProtocol}
            onChange={(e) => onChange({ textProtocol: e.target.value as TextProtocol })}
            className="bg-bg font-mono"
          >
            {TEXT_PROTOCOLS.map((protocol) => (
              <option key={protocol} value={protocol}>
                {protocol}
              </option>
            ))}
          </Select>
        </label>
      ) : null}
      <label className="flex items-center gap-1.5 text-xs" title="Unsupervised: calls that need a human are not admitted">
        <input
          type="checkbox"
          data-testid="supervised-toggle"
          checked={config.supervised}
          disabled={locked}
          onChange={(e) => {
            // Turning supervision off is asked about first; turning it back on is always safe.
            if (e.target.checked) onChange({ supervised: true });
            else setConfirmingUnsupervised(true);
          }}
        />
        supervised
      </label>
      <ConfirmDialog
        open={confirmingUnsupervised}
        onOpenChange={setConfirmingUnsupervised}
        title="Switch to unsupervised?"
        description="Tool calls that need your approval will not run, and the model is told so."
        confirmLabel="Go unsupervised"
        onConfirm={() => onChange({ supervised: false })}
        testId="unsupervised-confirm"
      />
      {grants.length ? (
        <div className="flex flex-wrap items-center gap-1 text-xs" data-testid="grants">
          <ShieldCheck size={13} className="text-done" aria-hidden />
          {grants.map((tool) => (
            <span key={tool} className="inline-flex items-center gap-1 rounded border border-done/40 px-1.5 font-mono">
              {tool}
              <Button
                variant="ghost"
                size="bare"
                aria-label={`Revoke the grant for ${tool}`}
                data-testid={`revoke-${tool}`}
                onClick={() => onRevokeGrant(tool)}
                className="hover:bg-transparent hover:text-denied"
              >
                <X size={11} />
              </Button>
            </span>
          ))}
        </div>
      ) : null}
      <CompareActions chatId={chatId} chatExists={chatExists} config={config} models={models} disabled={locked} />
      {chatExists && mayShare ? <ShareLink chatId={chatId} initialShareId={shareId} /> : null}
      {chatExists ? (
        <a href={`/api/chats/${chatId}/export`} data-testid="export-chat" className={buttonVariants({ size: "sm", className: "gap-1" })}>
          <Download size={12} aria-hidden /> Export JSON
        </a>
      ) : null}
    </div>
  );
}
