import { AlertOctagon } from "lucide-react";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";

/** A runs page that could not load: the cause in words, and the way back. */
export function LoadError({ title, heading, error, back }: { title: string; heading: string; error: string; back: string }) {
  return (
    <>
      <PageHeader title={title} />
      <div className="p-6">
        <div role="alert" className="mx-auto max-w-2xl rounded-lg border border-denied/40 bg-denied/5 p-4" data-testid="run-load-error">
          <p className="flex items-center gap-1.5 font-medium text-denied">
            <AlertOctagon size={15} aria-hidden /> {heading}
          </p>
          <p className="mt-1 font-mono text-xs break-all">{error}</p>
          <Link href={back} className="mt-3 inline-block text-sm text-accent hover:underline">
            ← Back to the runs
          </Link>
        </div>
      </div>
    </>
  );
}
