"use client";

import { useEffect } from "react";
import { ErrorPanel } from "@/components/ui/error-panel";

/** Any page that throws while rendering: the shell stays, the page says what failed. */
export default function PageError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div className="p-6">
      <ErrorPanel error={error} retry={retry} />
    </div>
  );
}
