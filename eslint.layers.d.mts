import type { Linter } from "eslint";

/** The layer rule's flat-config blocks (eslint.layers.mjs). */
export declare const layerRuleConfig: Linter.Config[];
