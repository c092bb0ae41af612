import { memo } from "react";
import ReactMarkdown from "react-markdown";
import { markdownBlocks } from "@/lib/client/markdown-blocks";

/** One top-level block, parsed again only when its own text changes. */
const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return <ReactMarkdown>{text}</ReactMarkdown>;
});

/**
 * Markdown with the app's type scale; tolerant of partial text while a message streams. Memoized on
 * the text, so a finished message is parsed once; a streaming one re-parses only its last block.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="space-y-2 text-sm leading-relaxed [&_a]:text-accent [&_a]:underline [&_code]:rounded [&_code]:bg-subtle [&_code]:px-1 [&_code]:font-mono [&_code]:text-[12.5px] [&_h1]:text-lg [&_h1]:font-semibold [&_h2]:mt-4 [&_h2]:font-semibold [&_h3]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-subtle [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_ul]:list-disc">
      {markdownBlocks(text).map((block, i) => (
        // Blocks only ever grow at the end, so the index is a stable key.
        <MarkdownBlock key={i} text={block} />
      ))}
    </div>
  );
});
