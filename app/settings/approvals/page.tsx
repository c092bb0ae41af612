import { PageHeader } from "@/components/ui/page-header";
import { ApprovalRules } from "@/components/settings/approval-rules";
import { SettingsTabs } from "@/components/settings/settings-tabs";
import { listRuleViews } from "@/lib/server/approvals/rule-admin";

export const metadata = { title: "Approvals · Settings" };

export default async function ApprovalsPage() {
  return (
    <>
      <PageHeader
        title="Settings"
        description={
          <>
            Approval rules decide a call before the tool&apos;s own confirmation. The first matching rule wins: rules from the settings files (
            <code className="font-mono">approvals.rules</code>, trusted) first, then rules saved here or from the approval dialog — this chat&apos;s, then
            everywhere. <code className="font-mono">deny</code> blocks even tools that never ask.
          </>
        }
      />
      <SettingsTabs active="approvals" />
      <div className="p-6">
        <ApprovalRules initial={await listRuleViews()} />
      </div>
    </>
  );
}
