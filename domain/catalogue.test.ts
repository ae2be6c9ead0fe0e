import { describe, expect, it } from "vitest";
import { categories } from "./vocabulary";
import { parseWith } from "./validation";
import {
  availableCategories,
  categoryKeyOf,
  itemFormSchema,
  pickTemplate,
  shuffle,
  simpleItemSchema,
  slugify,
} from "./catalogue";

describe("slugify (spec 2, section 5)", () => {
  it.each([
    ["Web Design Leads", "web-design-leads"],
    ["SEO Service", "seo-service"],
    ["Facebook Marketing 2025!", "facebook-marketing-2025"],
    ["  Hello   World  ", "hello-world"],
    ["Graphic -- Design", "graphic-design"],
    ["a - b", "a-b"],
    ["--Leading and trailing--", "leading-and-trailing"],
    ["Tabs\tand\nnew lines", "tabs-and-new-lines"],
    ["C++ & C# Developers", "c-c-developers"],
    ["Under_score.dot/slash", "underscoredotslash"],
    ["Café Owners", "café-owners"],
    ["100% Real-Estate   Agents", "100-real-estate-agents"],
    ["!!!", ""],
    ["", ""],
  ])("%j → %j", (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it("is idempotent", () => {
    for (const name of ["Web Design Leads", "  --A  b--c  ", "Café & Bar"]) {
      expect(slugify(slugify(name))).toBe(slugify(name));
    }
  });
});

describe("categories", () => {
  it("reads the key out of a file name or an address", () => {
    expect(categoryKeyOf("web-design")).toBe("web-design");
    expect(categoryKeyOf(" Web-Design.JSON ")).toBe("web-design");
    expect(categoryKeyOf("https://files.example/data/video-editing.json?x=1")).toBe("video-editing");
  });

  it("offers the unused categories in the fixed order, plus the edited item's own", () => {
    expect(availableCategories(categories.values, [])).toEqual([...categories.values]);
    expect(availableCategories(categories.values, ["web-design", "seo-service"])).toEqual([
      "video-editing",
      "graphic-design",
      "facebook-marketing",
    ]);
    expect(availableCategories(categories.values, ["web-design", "seo-service"], "seo-service")).toEqual([
      "video-editing",
      "seo-service",
      "graphic-design",
      "facebook-marketing",
    ]);
    expect(availableCategories(categories.values, [...categories.values])).toEqual([]);
    expect(availableCategories(categories.values, [...categories.values], "graphic-design")).toEqual([
      "graphic-design",
    ]);
    // An edited key that is not in use elsewhere does not appear twice.
    expect(availableCategories(categories.values, [], "web-design")).toEqual([...categories.values]);
  });
});

describe("pickTemplate", () => {
  const list = ["a", "b", "c", "d"];

  it("takes the first of a Fisher–Yates shuffle driven by the injected random", () => {
    // random() = 0 swaps position i with 0 each time: [d,b,c,a] → [c,b,d,a] → [b,c,d,a].
    const zero = () => 0;
    expect(shuffle(list, zero)).toEqual(["b", "c", "d", "a"]);
    expect(pickTemplate(list, zero)).toBe("b");
    // random() just below 1 always swaps i with itself: the order is kept.
    const top = () => 0.999999;
    expect(shuffle(list, top)).toEqual(list);
    expect(pickTemplate(list, top)).toBe("a");
  });

  it("follows a given sequence of draws", () => {
    const draws = [0.5, 0.1, 0.9];
    let i = 0;
    // i=3: j=floor(0.5*4)=2 → [a,b,d,c]; i=2: j=floor(0.1*3)=0 → [d,b,a,c]; i=1: j=floor(0.9*2)=1 → same.
    expect(shuffle(list, () => draws[i++]!)).toEqual(["d", "b", "a", "c"]);
  });

  it("never changes its input, keeps every element, and gives nothing for an empty list", () => {
    const copy = [...list];
    const out = shuffle(list);
    expect(list).toEqual(copy);
    expect([...out].sort()).toEqual(copy);
    expect(pickTemplate([])).toBeUndefined();
    expect(pickTemplate(["only"])).toBe("only");
  });

  it("can pick every template", () => {
    const seen = new Set<string>();
    for (let k = 0; k < 200; k++) seen.add(pickTemplate(list)!);
    expect(seen).toEqual(new Set(list));
  });
});

describe("item form", () => {
  const valid = {
    itemName: "  Web Design Leads ",
    itemsDescription: " Agencies ",
    itemDatabaseUrl: "web-design",
    itemsGuideline: " Be brief ",
  };

  it("trims and accepts a complete item", () => {
    expect(parseWith(itemFormSchema, valid)).toEqual({
      ok: true,
      data: {
        itemName: "Web Design Leads",
        itemsDescription: "Agencies",
        itemDatabaseUrl: "web-design",
        itemsGuideline: "Be brief",
      },
    });
  });

  it("gives the spec's four messages for empty or blank fields", () => {
    const result = parseWith(itemFormSchema, { itemName: "   ", itemsDescription: "", itemsGuideline: "\n\t" });
    expect(result).toEqual({
      ok: false,
      errors: [
        { field: "itemName", message: "Item name is required" },
        { field: "itemsDescription", message: "Description is required" },
        { field: "itemDatabaseUrl", message: "Category is required" },
        { field: "itemsGuideline", message: "Guideline is required" },
      ],
    });
  });

  it("refuses an unknown category and a name with nothing to slug", () => {
    const bad = parseWith(itemFormSchema, { ...valid, itemDatabaseUrl: "cooking" });
    expect(bad.ok || bad.errors[0]).toMatchObject({ field: "itemDatabaseUrl", message: /^Category must be one of/ });
    const name = parseWith(itemFormSchema, { ...valid, itemName: "!!!" });
    expect(name.ok || name.errors[0]).toEqual({
      field: "itemName",
      message: "Item name needs at least one letter or digit",
    });
    const notText = parseWith(itemFormSchema, { ...valid, itemName: 42 });
    expect(notText.ok || notText.errors[0]).toEqual({ field: "itemName", message: "Item name must be text" });
  });

  it("accepts a category given as its file's address", () => {
    const r = parseWith(itemFormSchema, { ...valid, itemDatabaseUrl: "https://x.example/seo-service.json" });
    expect(r.ok && r.data.itemDatabaseUrl).toBe("seo-service");
  });
});

describe("simple item form", () => {
  const valid = {
    format: "Instagram",
    canvaLink: "https://www.canva.com/design/abc",
    imageLink: "http://images.example/a.png",
    category: "Interiors",
    freeOrPaid: "Free",
  };

  it("accepts a complete item", () => {
    expect(parseWith(simpleItemSchema, valid).ok).toBe(true);
  });

  it("requires every field and names it", () => {
    const r = parseWith(simpleItemSchema, {});
    expect(r.ok || r.errors.map((e) => e.message)).toEqual([
      "Format is required",
      "Canva link is required",
      "Image link is required",
      "Category is required",
      "Free or paid is required",
    ]);
  });

  it("takes only the listed choices and http(s) links", () => {
    const r = parseWith(simpleItemSchema, {
      ...valid,
      format: "TikTok",
      canvaLink: "javascript:alert(1)",
      imageLink: "/local.png",
      freeOrPaid: "Maybe",
    });
    expect(r.ok || r.errors).toEqual([
      { field: "format", message: "Choose Facebook, Instagram or YouTube" },
      { field: "canvaLink", message: "Canva link must be an http(s) address, such as https://…" },
      { field: "imageLink", message: "Image link must be an http(s) address, such as https://…" },
      { field: "freeOrPaid", message: "Choose Paid or Free" },
    ]);
  });
});
