import { useSyncExternalStore } from "react";

const never = () => () => {};

/** False in the server render and during hydration, true once the browser renders: for browser-only content. */
export function useMounted(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
