import { describe, expect, it } from "vitest";
import { footerChatModel, footerModelText, setFooterChatModel } from "./footer-model";

describe("the footer's model", () => {
  it("names the open chat's model, else the settings' default", () => {
    expect(footerModelText(null, "Offline (scripted)")).toEqual({ prefix: "model", label: "Offline (scripted)" });
    expect(footerModelText("gpt (openai/gpt-4o-mini)", "Offline (scripted)")).toEqual({ prefix: "chat model", label: "gpt (openai/gpt-4o-mini)" });
    setFooterChatModel("gpt (openai/gpt-4o-mini)");
    expect(footerChatModel()).toBe("gpt (openai/gpt-4o-mini)");
    setFooterChatModel(null);
    expect(footerChatModel()).toBeNull();
  });
});
