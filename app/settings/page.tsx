import { PageHeader } from "@/components/ui/page-header";
import { AddModel } from "@/components/settings/add-model";
import { SettingsTable } from "@/components/settings/settings-table";
import { SettingsTabs } from "@/components/settings/settings-tabs";
import { getLoadedSettings } from "@/lib/settings";
import { MODEL_EXAMPLES } from "@/lib/settings/model-examples";
import { settingRows } from "@/lib/settings/rows";

export const metadata = { title: "Settings" };

export default function SettingsPage() {
  const loaded = getLoadedSettings();
  return (
    <>
      <PageHeader
        title="Settings"
        description={
          <>
            Effective values, lowest layer first: defaults &lt; /etc/xdg/toolroom/settings.yaml &lt; ~/.config/toolroom/settings.yaml &lt; ./toolroom.yaml &lt;
            --config &lt; <code className="font-mono">TOOLROOM_*</code> variables. Secrets are masked.
          </>
        }
      />
      <SettingsTabs active="values" />
      <div className="space-y-8 p-6">
        <SettingsTable rows={settingRows(loaded)} />
        <AddModel examples={MODEL_EXAMPLES} />
      </div>
    </>
  );
}
