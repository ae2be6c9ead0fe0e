import { describe, expect, it } from "vitest";
import { cleanHtml } from "#server/lib/clean-html.ts";
import { lightArticleHtml } from "./article-html";

describe("lightArticleHtml", () => {
  it("turns a cleaned YouTube frame into a link to the video, with no frame left", () => {
    const body = cleanHtml(
      '<p>Before</p><div data-youtube-video><iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" title="Tour &amp; talk"></iframe></div>',
    );
    const light = lightArticleHtml(body);
    expect(light).not.toContain("<iframe");
    expect(light).toContain('href="https://www.youtube.com/watch?v=dQw4w9WgXcQ"');
    expect(light).toContain("Watch “Tour &amp; talk” on YouTube");
    expect(light).toContain("<p>Before</p>");
  });

  it("drops a frame whose address names no video, and lazy-loads images once", () => {
    expect(lightArticleHtml('<iframe src="https://example.org/x"></iframe>')).toBe("");
    const img = lightArticleHtml('<p><img src="/media/abc" alt="A room" /><img loading="eager" src="/media/d" /></p>');
    expect(img).toBe(
      '<p><img loading="lazy" decoding="async" src="/media/abc" alt="A room" /><img loading="eager" src="/media/d" /></p>',
    );
  });
});
