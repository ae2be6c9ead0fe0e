import { describe, expect, it } from "vitest";
import { finishedState, paceMs, recipientMessageId, textToHtml } from "./newsletters";

describe("newsletter rules", () => {
  it("paces mails to the rate per minute, less the time the last one took", () => {
    expect(paceMs(600, 0)).toBe(100);
    expect(paceMs(600, 30)).toBe(70);
    expect(paceMs(600, 500)).toBe(0);
    expect(paceMs(60_000, 0)).toBe(1);
  });

  it("a send is over once nobody waits: sent, or partly sent when some failed", () => {
    const none = { queued: 0, sending: 0, sent: 0, failed: 0, suppressed: 0 };
    expect(finishedState({ ...none, sent: 3 })).toBe("sent");
    expect(finishedState({ ...none, sent: 3, suppressed: 2 })).toBe("sent");
    expect(finishedState({ ...none, sent: 3, failed: 1 })).toBe("partly-sent");
    expect(finishedState({ ...none, sent: 3, queued: 1 })).toBeNull();
    expect(finishedState({ ...none, sending: 1 })).toBeNull();
  });

  it("fixes one Message-ID per newsletter and recipient", () => {
    expect(recipientMessageId("n1", "r1", "example.org")).toBe("<nl-n1-r1@example.org>");
  });

  it("turns typed text into escaped paragraphs and line breaks", () => {
    expect(textToHtml("Hello <you>,\r\n\r\nLine one\nline two\n\n\n")).toBe(
      "<p>Hello &lt;you&gt;,</p><p>Line one<br>line two</p>",
    );
    expect(textToHtml("  \n\n ")).toBe("");
  });
});
