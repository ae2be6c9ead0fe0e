import { describe, expect, it } from "vitest";
import { embedUrl, parseVideoId, watchUrl } from "./video";

describe("parseVideoId", () => {
  it.each([
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s", "dQw4w9WgXcQ"],
    ["https://m.youtube.com/watch?feature=share&v=dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://www.youtube.com/embed/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0", "dQw4w9WgXcQ"],
    ["https://www.youtube.com/shorts/aB3_-xYz09Q", "aB3_-xYz09Q"],
    ["https://youtu.be/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ?si=abc", "dQw4w9WgXcQ"],
    ["  https://youtu.be/dQw4w9WgXcQ  ", "dQw4w9WgXcQ"],
  ])("finds the id in %s", (input, id) => {
    expect(parseVideoId(input)).toBe(id);
  });

  it.each([
    ["an image", "/images/hero.webp"],
    ["an absolute image", "https://cdn.example.com/hero.jpg"],
    ["a 10-character id", "https://youtu.be/dQw4w9WgXc"],
    ["a 12-character id", "https://www.youtube.com/watch?v=dQw4w9WgXcQQ"],
    ["an id with a bad character", "https://www.youtube.com/embed/dQw4w9WgX!Q"],
    ["a watch link without v", "https://www.youtube.com/watch?x=dQw4w9WgXcQ"],
    ["another host", "https://vimeo.com/embed/dQw4w9WgXcQ"],
    ["a look-alike host", "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ"],
    ["a javascript link", "javascript:alert(1)//youtu.be/dQw4w9WgXcQ"],
    ["a channel page", "https://www.youtube.com/c/dQw4w9WgXcQ"],
    ["extra path after the id", "https://www.youtube.com/embed/dQw4w9WgXcQ/more"],
    ["text", "not a link"],
    ["empty", ""],
  ])("returns null for %s", (_name, input) => {
    expect(parseVideoId(input)).toBeNull();
  });

  it("returns null for null and undefined", () => {
    expect(parseVideoId(null)).toBeNull();
    expect(parseVideoId(undefined)).toBeNull();
  });

  it("builds the no-cookie embed address", () => {
    expect(embedUrl("dQw4w9WgXcQ")).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0");
    expect(watchUrl("dQw4w9WgXcQ")).toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  });
});
