import fs from "node:fs/promises";
import path from "node:path";
import { Markdown } from "@/components/ui/markdown";
import { PageHeader } from "@/components/ui/page-header";

export const metadata = { title: "Write a plugin" };

export default async function PluginGuidePage() {
  const text = await fs.readFile(path.join(process.cwd(), "examples/plugins/toolroom-plugin-sample/README.md"), "utf8");
  // The guide says `<toolroom>` for the checkout's folder; here it is known, so its commands can be copied as they are.
  const guide = text.replaceAll("<toolroom>", /* turbopackIgnore: true */ process.cwd());
  return (
    <>
      <PageHeader title="Write your own plugin" description="examples/plugins/toolroom-plugin-sample/README.md" />
      {/* min-w-0: a long code line scrolls inside its block instead of widening the page past the view. */}
      <article className="w-full max-w-3xl min-w-0 p-6" data-testid="plugin-guide">
        <Markdown text={guide} />
      </article>
    </>
  );
}
