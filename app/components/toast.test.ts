import { describe, expect, it } from "vitest";
import { addToasts, TOAST_LIMIT, TOAST_MS, type Toast } from "./toast";

let id = 0;
const t = (kind: Toast["kind"], text: string, source?: string): Toast => ({ id: ++id, kind, text, source });

describe("toasts", () => {
  it("keep the spec's limits: at most 20, errors 4 s, successes 2 s", () => {
    expect(TOAST_LIMIT).toBe(20);
    expect(TOAST_MS).toEqual({ error: 4000, success: 2000 });
    let list: Toast[] = [];
    for (let i = 0; i < 25; i++) list = addToasts(list, [t("success", `n${i}`)]);
    expect(list.map((x) => x.text)).toEqual(Array.from({ length: 20 }, (_, i) => `n${i + 5}`));
  });

  it("a form's success removes its own earlier error toasts, and no one else's", () => {
    const list = [t("error", "Subject is required", "contact"), t("error", "Refused", "newsletter"), t("success", "x")];
    const after = addToasts(list, [t("success", "Message is Updated", "contact")]);
    expect(after.map((x) => x.text)).toEqual(["Refused", "x", "Message is Updated"]);
  });

  it("a form's new refusal replaces its old one instead of stacking; every text of one answer stays", () => {
    const list = [t("error", "Old", "contact"), t("success", "Saved", "contact")];
    const after = addToasts(list, [t("error", "A", "contact"), t("error", "B", "contact")]);
    expect(after.map((x) => x.text)).toEqual(["Saved", "A", "B"]);
  });

  it("toasts without a source never remove anything", () => {
    const list = [t("error", "E", "contact"), t("error", "F")];
    expect(addToasts(list, [t("error", "G")]).map((x) => x.text)).toEqual(["E", "F", "G"]);
  });
});
