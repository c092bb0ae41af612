import fs from "node:fs/promises";
import path from "node:path";
import { Markdown } from "@/components/ui/markdown";
import { PageHeader } from "@/components/ui/page-header";

export const metadata = { title: "Write a plugin" };

export default async function PluginGuidePage() {
  const text = await fs.readFile(path.join(process.cwd(), "examples/plugins/toolroom-plugin-sample/README.md"), "utf8");
  return (
    <>
      <PageHeader title="Write your own plugin" description="examples/plugins/toolroom-plugin-sample/README.md" />
      <article className="max-w-3xl p-6" data-testid="plugin-guide">
        <Markdown text={text} />
      </article>
    </>
  );
}
