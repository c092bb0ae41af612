import { expect, test } from "@playwright/test";

test("the app names its icons and manifest, and serves them", async ({ page, request }) => {
  await page.goto("/");
  const icon = await page.locator('link[rel="icon"][type="image/svg+xml"]').getAttribute("href");
  expect(icon).toBe("/icon.svg");
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute("href");
  const manifest = await (await request.get(manifestHref!)).json();
  expect(manifest.name).toBe("Toolroom");
  for (const { src, type } of manifest.icons as { src: string; type: string }[]) {
    const res = await request.get(src);
    expect(res.status(), src).toBe(200);
    expect(res.headers()["content-type"]).toContain(type);
  }
  expect((await request.get("/apple-touch-icon.png")).status()).toBe(200);
});
