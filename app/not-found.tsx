import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata = { title: "Not found" };

/** Any address no page answers. */
export default function NotFound() {
  return (
    <div className="p-6" data-testid="not-found">
      <h1 className="text-lg font-semibold">Page not found</h1>
      <EmptyState title="Nothing in Toolroom lives at this address">
        Check the address, or go to{" "}
        <Link href="/chat" className="text-accent underline">
          Chat
        </Link>
        ,{" "}
        <Link href="/tools" className="text-accent underline">
          Tools
        </Link>
        ,{" "}
        <Link href="/runs" className="text-accent underline">
          Runs
        </Link>{" "}
        or{" "}
        <Link href="/settings" className="text-accent underline">
          Settings
        </Link>
        .
      </EmptyState>
    </div>
  );
}
