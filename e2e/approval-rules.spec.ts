import { expect, test } from "@playwright/test";
import { marker, markerExists as exists, removeMarkers } from "./markers";
import { ApprovalRulesPage } from "./pages/approval-rules";
import { ChatPage } from "./pages/chat";
import { shotPath } from "./pages/shots";

test.afterEach(removeMarkers);

for (const mode of ["native", "text"] as const) {
  test.describe(`approval rules and edits in ${mode} mode`, () => {
    test("edit the arguments, then approve: the tool runs with the edited input", async ({ page }) => {
      const proposed = marker(`proposed-${mode}`);
      const edited = marker(`edited-${mode}`);
      const chat = new ChatPage(page);
      await chat.openNew();
      await chat.setMode(mode);
      await chat.send(`run \`touch ${proposed}\``);
      await expect(chat.dialog).toBeVisible();

      await chat.dialog.getByTestId("approval-edit").click();
      const editor = chat.dialog.getByTestId("approval-args-editor");
      // Checked live against the tool's schema: a wrong type is refused before anything is sent.
      await editor.fill(JSON.stringify({ command: 42 }));
      await expect(chat.dialog.getByTestId("approval-args-status")).not.toHaveText("valid for this tool");
      await expect(chat.dialog.getByTestId("approval-approve")).toBeDisabled();
      await editor.fill(JSON.stringify({ command: `touch ${edited}` }, null, 2));
      await expect(chat.dialog.getByTestId("approval-args-status")).toHaveText("valid for this tool");
      await expect(chat.dialog.getByTestId("approval-edited")).toBeVisible();
      await chat.dialog.getByTestId("approval-approve").click();

      const card = chat.toolCards("run_terminal_command");
      await expect(card.getByTestId("tool-call-status")).toHaveText("done · approved");
      await expect(card.getByTestId("edited-by-you")).toBeVisible();
      await expect(card.getByTestId("tool-call-input")).toContainText(edited);
      await expect(card.getByTestId("tool-call-original-input")).toContainText(proposed);
      expect(exists(edited)).toBe(true);
      expect(exists(proposed)).toBe(false);

      // The stored chat carries the edited arguments too (once the turn has ended: its last save
      // comes with the end of the answer, and a reload before it shows the call still running).
      await chat.waitIdle();
      await page.reload();
      const stored = chat.toolCards("run_terminal_command");
      // A finished call's card opens on click.
      await stored.getByRole("button", { expanded: false }).click();
      await expect(stored.getByTestId("tool-call-input")).toContainText(edited);
      await expect(stored.getByTestId("edited-by-you")).toBeVisible();
    });

    test("Always… with a pattern: a matching call runs without a dialog, another one asks", async ({ page }) => {
      const first = marker(`always-${mode}-1`);
      const second = marker(`always-${mode}-2`);
      const other = marker(`other-${mode}`);
      const chat = new ChatPage(page);
      await chat.openNew();
      await chat.setMode(mode);
      await chat.send(`run \`touch ${first}\``);
      await expect(chat.dialog).toBeVisible();

      await chat.dialog.getByTestId("approval-always").click();
      const form = chat.dialog.getByTestId("rule-form");
      await form.getByTestId("rule-arg-command").selectOption("pattern");
      await form.getByTestId("rule-pattern-command").fill(`^touch \\S*e2e-marker-always-${mode}-`);
      await form.getByTestId("rule-reason").fill("markers are harmless");
      await form.getByTestId("rule-save").click();
      await expect(chat.toolCards("run_terminal_command").first().getByTestId("tool-call-status")).toHaveText("done · approved");
      await chat.waitIdle();
      expect(exists(first)).toBe(true);

      await chat.send(`run \`touch ${second}\``);
      await expect(chat.toolCards("run_terminal_command")).toHaveCount(2);
      await expect(chat.toolCards("run_terminal_command").nth(1).getByTestId("tool-call-status")).toContainText("allowed by rule");
      await expect(chat.dialog).toHaveCount(0);
      expect(exists(second)).toBe(true);
      await chat.waitIdle();

      await chat.send(`run \`touch ${other}\``);
      await expect(chat.dialog).toBeVisible();
      expect(exists(other)).toBe(false);
      await chat.dialog.getByTestId("approval-deny").click();
      await expect(chat.toolCards("run_terminal_command").nth(2).getByTestId("tool-call-status")).toHaveText("denied");
    });

    test("a settings deny rule: refused without a dialog, the model gets the rule's reason", async ({ page }) => {
      const chat = new ChatPage(page);
      await chat.openNew();
      await chat.setMode(mode);
      await chat.send("run `wc -c e2e-secret.txt`");
      const card = chat.toolCards("run_terminal_command");
      await expect(card.getByTestId("tool-call-status")).toHaveText('denied by settings rule "e2e secrets": the e2e secrets stay closed');
      await expect(chat.dialog).toHaveCount(0);
      await expect(chat.assistantMessages.last()).toContainText("Not run: the user denied");
      await expect(chat.assistantMessages.last()).toContainText("the e2e secrets stay closed");
    });
  });
}

test("Settings → Approvals lists every rule, disables and deletes a UI rule", async ({ page, request }) => {
  const name = `e2e page rule ${Date.now()}`;
  const created = await request.post("/api/approval-rules", { data: { name, tool: "list_files", decision: "ask", reason: "look first" } });
  expect(created.status()).toBe(201);

  const rules = new ApprovalRulesPage(page);
  await rules.open();
  const settingsRow = rules.row("e2e secrets");
  await expect(settingsRow).toHaveAttribute("data-origin", "settings");
  await expect(settingsRow).toContainText("toolroom.e2e.yaml");
  await expect(settingsRow.getByTestId("rule-delete")).toHaveCount(0);

  const row = rules.row(name);
  await expect(row).toHaveAttribute("data-origin", "ui");
  await row.getByTestId("rule-toggle").click();
  await expect(row).toHaveAttribute("data-enabled", "false");
  await row.getByTestId("rule-delete").click();
  await expect(rules.row(name)).toHaveCount(0);
  await expect(settingsRow).toBeVisible();
});

test("a broad allow from Always…: the form warns and asks to confirm, Settings → Approvals marks it (#28.8)", async ({ page, request }) => {
  const shoot = async (name: string) => {
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: shotPath(`${name}-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: null });
  };
  const reason = `e2e broad ${Date.now()}`;
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.send(`run \`touch ${marker("broad")}\``);
  await expect(chat.dialog).toBeVisible();
  await chat.dialog.getByTestId("approval-always").click();
  const form = chat.dialog.getByTestId("rule-form");
  // Every argument left as "any": an allow of every call of a tool that asks first.
  await form.getByTestId("rule-reason").fill(reason);
  await form.getByTestId("rule-save").click();
  await expect(form.getByTestId("rule-broad")).toContainText("every call of run_terminal_command");
  await expect(form.getByTestId("rule-save")).toBeDisabled();
  await shoot("rule-form-broad");
  await form.getByTestId("rule-confirm-broad").check();
  await form.getByTestId("rule-save").click();
  await expect(chat.toolCards("run_terminal_command").getByTestId("tool-call-status")).toHaveText("done · approved");

  const rules = new ApprovalRulesPage(page);
  await rules.open();
  const row = rules.rows.filter({ hasText: reason });
  await expect(row.getByTestId("rule-broad-warning")).toContainText("Broad: it allows every call of run_terminal_command");
  await row.scrollIntoViewIfNeeded();
  await shoot("approvals-broad");
  // It applied in its chat only; gone, it leaves the other specs' dialogs alone.
  const { rules: all } = (await (await request.get("/api/approval-rules")).json()) as { rules: { id?: string; reason?: string }[] };
  const id = all.find((r) => r.reason === reason)?.id;
  expect(id).toBeTruthy();
  expect((await request.delete(`/api/approval-rules/${id}`)).status()).toBeLessThan(300);
});
