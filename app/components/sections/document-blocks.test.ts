import { describe, expect, it } from "vitest";
import { documentBlocks } from "./document-blocks";

describe("a document's blocks", () => {
  it("reads headings, paragraphs and lists from plain text", () => {
    expect(
      documentBlocks(
        "This notice explains things.\n\nWho we are\nAtelier North, Leeds.\n\nWhat we collect\n- Your account.\n- Your orders.\nAnd nothing else.\n\nYour rights",
      ),
    ).toEqual([
      { kind: "paragraph", text: "This notice explains things." },
      { kind: "heading", text: "Who we are" },
      { kind: "paragraph", text: "Atelier North, Leeds." },
      { kind: "heading", text: "What we collect" },
      { kind: "list", items: ["Your account.", "Your orders."] },
      { kind: "paragraph", text: "And nothing else." },
      { kind: "heading", text: "Your rights" },
    ]);
  });

  it("joins the lines of a paragraph and ignores blank runs and Windows line ends", () => {
    expect(documentBlocks("One line,\r\nthe same paragraph.\r\n\r\n\r\n   \n\nNext one.")).toEqual([
      { kind: "paragraph", text: "One line, the same paragraph." },
      { kind: "paragraph", text: "Next one." },
    ]);
  });

  it("keeps markup as text (React escapes it when drawing)", () => {
    expect(documentBlocks("<script>alert(1)</script> is text.")).toEqual([
      { kind: "paragraph", text: "<script>alert(1)</script> is text." },
    ]);
  });
});
