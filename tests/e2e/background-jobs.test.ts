import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { ADMIN, startAdminE2E, type E2EEnv } from "../support/e2e";
import { startSmtpServer } from "../support/mail";
import { main, toast } from "../support/pages";

let env: E2EEnv;
let admin: Page;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  // One retry, a second after the first attempt: a refused mail fails for good within seconds.
  ({ env, admin } = await startAdminE2E({
    SMTP_URL: smtp.url,
    JOB_RETRY_LIMIT: "1",
    JOB_RETRY_DELAY_SECONDS: "1",
    JOB_POLL_SECONDS: "0.5",
  }));
});
afterAll(async () => {
  await env?.close();
  await smtp?.close();
});

const resetMails = () => smtp.received.filter((m) => m.subject === "Reset your password");

describe("the background jobs screen", () => {
  it("shows a mail the SMTP server refused as failed, with its reason; Retry sends it", async () => {
    smtp.setFailing(true);
    const visitor = await newPage(env.browser, env.server.url);
    await visitor.goto("/reset");
    await main(visitor).getByLabel("Email", { exact: true }).fill(ADMIN.email);
    await visitor.getByRole("button", { name: "Submit" }).click();
    await visitor.getByText("Password reset. Check your inbox!").first().waitFor();
    await visitor.close();

    const failed = () => main(admin).getByTestId("failed-jobs");
    await expect
      .poll(
        async () => {
          await admin.goto("/background-jobs");
          return failed().getByText(`Reset your password → ${ADMIN.email}`).count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(1);
    expect(await failed().textContent()).toContain("Mailbox temporarily unavailable");
    expect(await failed().textContent()).toContain("2 of 2");
    expect(await main(admin).getByTestId("pending-jobs").textContent()).toContain("Nothing is waiting.");
    expect(resetMails()).toHaveLength(0);

    smtp.setFailing(false);
    await failed()
      .getByRole("button", { name: `Retry Reset your password → ${ADMIN.email}` })
      .click();
    await toast(admin, "The job will run again.").first().waitFor();
    await expect.poll(() => resetMails().length, { timeout: 15_000 }).toBe(1);
    expect(resetMails()[0]!.to).toEqual([ADMIN.email]);
    await expect
      .poll(
        async () => {
          await admin.goto("/background-jobs");
          return failed().getByText("No failed jobs.").count();
        },
        { timeout: 10_000, interval: 500 },
      )
      .toBe(1);
  });

  it("is in the back office's navigation", async () => {
    await admin.goto("/admin");
    await admin.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Background jobs" }).click();
    await admin.waitForURL((url) => url.pathname === "/background-jobs");
    // The address changes before the new page is drawn (React Router renders it in a transition): wait for it.
    await expect.poll(() => main(admin).getByRole("heading", { level: 1 }).textContent()).toBe("Background jobs");
  });
});
