import { describe, expect, it } from "vitest";
import { signInErrorMessage } from "./sign-in-error";

describe("signInErrorMessage", () => {
  it("says nothing without an error", () => {
    expect(signInErrorMessage(undefined, "Keycloak")).toBeNull();
    expect(signInErrorMessage("", "Keycloak")).toBeNull();
  });

  it("explains the codes better-auth sends back, naming the provider", () => {
    expect(signInErrorMessage("signup_disabled", "Keycloak")).toBe("No Toolroom account for that email; ask an admin to add you.");
    expect(signInErrorMessage(["email_not_verified"], "Keycloak")).toMatch(/^Keycloak has not verified that email address/);
    expect(signInErrorMessage("invalid_code", "Keycloak")).toMatch(/auth\.oidc\.clientId and clientSecret/);
    expect(signInErrorMessage("state_mismatch", "Keycloak")).toMatch(/expired/);
  });

  it("shows an unknown code only when it looks like one, and never the URL's free text", () => {
    expect(signInErrorMessage("temporarily_unavailable", "Keycloak")).toBe("Sign-in with Keycloak failed (temporarily_unavailable).");
    expect(signInErrorMessage("Your account is locked: call +1 555 0100", "Keycloak")).toBe("Sign-in with Keycloak failed.");
  });
});
