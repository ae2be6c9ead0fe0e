import { describe, expect, it } from "vitest";
import type { SectionRecord } from "./registry";
import {
  absoluteUrl,
  blogPosting,
  faqPage,
  jsonLdText,
  localBusiness,
  planOffers,
  PRICE_CURRENCY,
} from "./structured-data";

const URL_ = "https://studio.example";
const address: SectionRecord<"footerAddress"> = {
  _id: "a",
  Location: " Unit 4, 18 Mill Lane, Leeds LS1 4AB, United Kingdom ",
  Phone: "+44 113 496 0728",
  footerEmail: "studio@example.com",
};
const social: SectionRecord<"footerSocial"> = {
  _id: "s",
  fblink: "https://facebook.com/studio",
  inslink: "#",
};
const plan = (over: Partial<SectionRecord<"pricing">> = {}): SectionRecord<"pricing"> => ({
  _id: "p",
  packageName: "Starter",
  packagePrice: 49,
  packageValidity: 30,
  packageButtonText: "Order",
  packagePointOne: "One",
  packagePointTwo: "Two",
  packagePointThree: "Three",
  packagePointFour: "Four",
  packagePointFive: "Five",
  packagePointSix: "Six",
  packagePointSeven: "Seven",
  ...over,
});

describe("localBusiness", () => {
  it("has schema.org's and Google's required properties: name, address as a PostalAddress, url; and the footer's contacts", () => {
    const data = localBusiness({
      siteName: "Atelier North",
      publicUrl: URL_,
      logo: { _id: "l", logo: "/media/335feed19a15e243e5dcc325-180.svg" },
      address,
      social,
    });
    expect(data).toEqual({
      "@context": "https://schema.org",
      "@type": "LocalBusiness",
      "@id": "https://studio.example/#business",
      name: "Atelier North",
      url: "https://studio.example/",
      logo: "https://studio.example/media/335feed19a15e243e5dcc325-180.svg",
      image: "https://studio.example/media/335feed19a15e243e5dcc325-180.svg",
      address: { "@type": "PostalAddress", streetAddress: "Unit 4, 18 Mill Lane, Leeds LS1 4AB, United Kingdom" },
      telephone: "+44 113 496 0728",
      email: "studio@example.com",
      // "#" names no profile: only real addresses are listed.
      sameAs: ["https://facebook.com/studio"],
    });
  });

  it("leaves out what the content does not have instead of writing empty values", () => {
    const data = localBusiness({ siteName: "Studio", publicUrl: `${URL_}/` });
    expect(Object.keys(data).sort()).toEqual(["@context", "@id", "@type", "name", "url"]);
  });
});

describe("planOffers", () => {
  it("writes each plan as an Offer with a price, its currency and its validity in days", () => {
    const catalog = planOffers({
      plans: [plan(), plan({ packageName: "Studio", packagePrice: 129.5, packageValidity: 90 })],
      publicUrl: URL_,
    });
    expect(catalog["@type"]).toBe("OfferCatalog");
    expect(catalog.itemListElement).toHaveLength(2);
    const [first, second] = catalog.itemListElement;
    expect(first).toMatchObject({
      "@type": "Offer",
      name: "Starter",
      price: "49.00",
      priceCurrency: PRICE_CURRENCY,
      eligibleDuration: { "@type": "QuantitativeValue", value: 30, unitCode: "DAY" },
      url: "https://studio.example/pricing",
      availability: "https://schema.org/InStock",
      seller: { "@id": "https://studio.example/#business" },
      description: "One. Two. Three. Four. Five. Six. Seven",
    });
    expect(second).toMatchObject({ price: "129.50", eligibleDuration: { value: 90 } });
    expect(PRICE_CURRENCY).toMatch(/^[A-Z]{3}$/); // ISO 4217
  });
});

describe("faqPage", () => {
  it("makes each item a Question with its accepted Answer", () => {
    expect(
      faqPage([
        { _id: "1", accodingTitle: "How long?", accodingText: "Two weeks." },
        { _id: "2", accodingTitle: "  ", accodingText: "An answer without a question is left out." },
      ]),
    ).toEqual({
      "@context": "https://schema.org",
      "@type": "FAQPage",
      mainEntity: [
        { "@type": "Question", name: "How long?", acceptedAnswer: { "@type": "Answer", text: "Two weeks." } },
      ],
    });
  });

  it("gives nothing for an empty FAQ (an FAQPage needs at least one question)", () => {
    expect(faqPage([])).toBeUndefined();
  });
});

describe("jsonLdText", () => {
  it("escapes what could end the script element, and still means the same JSON", () => {
    const faq = faqPage([
      { _id: "1", accodingTitle: "A </script><script>alert(1)</script> & <b>", accodingText: "line\u2028break\u2029" },
    ])!;
    const text = jsonLdText(faq);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain("\\u003c/script\\u003e");
    expect(JSON.parse(text)).toEqual(faq);
  });

  it("writes several items as one array", () => {
    const text = jsonLdText([
      localBusiness({ siteName: "S", publicUrl: URL_ }),
      faqPage([{ _id: "1", accodingTitle: "Q", accodingText: "A" }])!,
    ]);
    expect(JSON.parse(text)).toHaveLength(2);
  });
});

describe("absoluteUrl", () => {
  it("joins site paths to the public URL and refuses other schemes", () => {
    expect(absoluteUrl("/images/logo.svg", "https://s.example")).toBe("https://s.example/images/logo.svg");
    expect(absoluteUrl("https://cdn.example/a.png", "https://s.example")).toBe("https://cdn.example/a.png");
    expect(absoluteUrl("javascript:alert(1)", "https://s.example")).toBeUndefined();
    expect(absoluteUrl("", "https://s.example")).toBeUndefined();
  });
});

describe("blogPosting", () => {
  const base = {
    path: "/blog/light-rooms",
    title: "Light rooms",
    description: "How light moves.",
    image: "/media/abc",
    publishedAt: "2026-11-01T10:00:00.000Z",
    updatedAt: "2026-11-02T10:00:00.000Z",
    authorName: "Ada Lane",
    tags: ["Light", "Rooms"],
    membersOnly: false,
    publicUrl: "https://studio.example",
  };

  it("names the article with absolute addresses, its dates, author, publisher and keywords", () => {
    expect(blogPosting(base)).toEqual({
      "@context": "https://schema.org",
      "@type": "BlogPosting",
      "@id": "https://studio.example/blog/light-rooms#article",
      mainEntityOfPage: "https://studio.example/blog/light-rooms",
      url: "https://studio.example/blog/light-rooms",
      headline: "Light rooms",
      description: "How light moves.",
      image: ["https://studio.example/media/abc"],
      datePublished: "2026-11-01T10:00:00.000Z",
      dateModified: "2026-11-02T10:00:00.000Z",
      author: { "@type": "Person", name: "Ada Lane" },
      publisher: { "@id": "https://studio.example/#business" },
      keywords: "Light, Rooms",
    });
  });

  it("marks a members' part as not free, and clips a long headline to 110 characters", () => {
    const data = blogPosting({ ...base, membersOnly: true, title: "x".repeat(200), image: undefined });
    expect(data.isAccessibleForFree).toBe(false);
    expect(data.hasPart).toEqual({
      "@type": "WebPageElement",
      isAccessibleForFree: false,
      cssSelector: ".article-locked",
    });
    expect(data.headline).toHaveLength(110);
    expect(data.image).toBeUndefined();
  });
});
