"use client";

import { useFooterModel } from "./footer-model";

export function FooterModel({ defaultLabel }: { defaultLabel: string }) {
  const { prefix, label } = useFooterModel(defaultLabel);
  return (
    <span>
      {prefix}: <span data-testid="footer-model">{label}</span>
    </span>
  );
}
