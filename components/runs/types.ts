/** The runs pages' view shapes live beside their builder in lib/artifacts/view; client components import them from here. */
export type * from "@/lib/artifacts/view/types";
