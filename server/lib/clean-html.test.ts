import { describe, expect, it } from "vitest";
import { cleanHtml } from "./clean-html";

describe("cleanHtml: a body holds the editor's elements only", () => {
  it("drops scripts, handlers, styles and foreign frames, keeping the text", () => {
    expect(cleanHtml('<p onclick="x()" style="color:red">Hi <script>alert(1)</script><b>there</b></p>')).toBe(
      "<p>Hi <strong>there</strong></p>",
    );
    expect(cleanHtml('<iframe src="https://evil.example/x"></iframe><p>ok</p>')).toBe("<p>ok</p>");
    expect(cleanHtml('<a href="javascript:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(cleanHtml('<img src="data:image/png;base64,AAAA"><img src="http://x.test/a.png">')).toBe("");
    expect(cleanHtml("<h1>Title</h1><table><tr><td>cell</td></tr></table>")).toBe("<h2>Title</h2>cell");
  });

  it("keeps links, library images, the members-only marker and YouTube embeds at the privacy-friendly address", () => {
    expect(cleanHtml('<a href="https://x.test" target="_blank">x</a>')).toBe(
      '<a href="https://x.test" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(cleanHtml('<img src="/media/abc/800.webp" alt="Sofa" data-media-id="m1">')).toBe(
      '<img src="/media/abc/800.webp" alt="Sofa" data-media-id="m1" />',
    );
    expect(cleanHtml('<p>a</p><hr data-members-only=""><p>b</p>')).toBe("<p>a</p><hr data-members-only /><p>b</p>");
    expect(cleanHtml('<div data-youtube-video=""><iframe src="https://youtu.be/dQw4w9WgXcQ"></iframe></div>')).toBe(
      '<div data-youtube-video><iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0" title="Video" allowfullscreen></iframe></div>',
    );
  });

  it("is idempotent", () => {
    const once = cleanHtml(
      '<p>a <a href="https://x.test" target="_blank">b</a></p><hr data-members-only><ul><li>c</li></ul>',
    );
    expect(cleanHtml(once)).toBe(once);
  });
});
