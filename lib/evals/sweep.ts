import { TEXT_PROTOCOLS, type TextProtocol } from "@/lib/chat/text-protocol/types";
import type { MatrixChoice } from "./runner";
import type { ToolMode } from "./suite-schema";

/** `protocols: "all"` (the CLI's `--protocols all`, POST /api/evals, the /evals form's sweep): native and every text protocol, unless modes are named too. */
export function sweepChoice<C extends Omit<MatrixChoice, "protocols"> & { protocols?: TextProtocol[] | "all" }>(
  choice: C,
): MatrixChoice & Omit<C, "protocols"> {
  if (choice.protocols !== "all") return choice as MatrixChoice & Omit<C, "protocols">;
  const modes: ToolMode[] = choice.modes ?? ["native", "text"];
  return { ...choice, modes, protocols: [...TEXT_PROTOCOLS] };
}
