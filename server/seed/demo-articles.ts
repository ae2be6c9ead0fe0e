import { MEMBERS_MARKER } from "#domain/articles.ts";
import type { Actor } from "../services/activity";
import type { ArticlesService } from "../services/articles";

/** Who the demo articles were saved by, as their history and the activity log name it. */
export const DEMO_ACTOR: Actor = { id: "system", email: "Demo content" };
/** The byline the demo articles carry (no staff account wrote them). */
export const DEMO_BYLINE = "Atelier Studio";

/**
 * Three short articles of an interior-design and SEO studio (issue 36): two sharing the tag "Interiors", one with a
 * members-only part below the marker. Published through the articles service, so each has its versions.
 */
export const demoArticles = (coverImage: string) => [
  {
    title: "How we plan a small living room that feels twice the size",
    excerpt:
      "Five decisions we make before any furniture is bought: sight lines, one generous piece, light at three heights, a quiet floor and storage that disappears.",
    coverImage,
    tags: ["Interiors", "Small spaces"],
    access: "public",
    bodyHtml: `<p>Most of the London flats we work in have a living room under fifteen square metres. The temptation is to buy small furniture for a small room; it almost always makes the room feel smaller. Here is what we decide first.</p>
<h2>Keep the sight lines clear</h2>
<p>Stand in the doorway and look at the far corner. Everything between you and it should be below hip height, so the eye travels the whole floor. Tall pieces go against the wall you enter through.</p>
<h2>One generous piece</h2>
<p>A full-size sofa with slim arms does more for a room than two armchairs. Leave 45 cm around it and the room reads as calm rather than crowded.</p>
<h2>Light at three heights</h2>
<ul><li>a ceiling light on a dimmer, for cleaning and for guests;</li><li>a floor lamp behind the sofa, for the evening;</li><li>a small lamp on a shelf, so a corner glows.</li></ul>
<blockquote><p>A room lit from one point looks like a box. A room lit from three looks like a place.</p></blockquote>
<p>If you would like us to look at your own floor plan, send it through the contact form with two photographs of the room in daylight.</p>`,
  },
  {
    title: "Five local SEO fixes for independent design studios",
    excerpt:
      "The quick wins we check first on every studio's website: the business profile, service pages by area, reviews, image names and the page speed a phone sees.",
    coverImage: "",
    tags: ["SEO", "Studio business"],
    access: "split",
    bodyHtml: `<p>An interior designer's clients are rarely more than an hour's drive away, which makes local search the one that pays. These are the fixes we make first, usually in a single afternoon.</p>
<h2>1. Complete the business profile</h2>
<p>Opening hours, the service area rather than a home address, ten recent photographs of finished rooms and the categories "Interior designer" and "Interior design studio".</p>
<h2>2. One page per service and area</h2>
<p>"Kitchen design in Bath" on its own page, with a project from Bath on it, beats a list of twenty towns in the footer.</p>
${MEMBERS_MARKER}
<h2>3. Ask for reviews the day you hand over</h2>
<p>Our template: two sentences, a direct link to the review form, and a photograph of their finished room attached. It triples the replies we get compared with a mail a month later.</p>
<h2>4. Name images for what they show</h2>
<p><code>sage-green-kitchen-bath.jpg</code>, not <code>IMG_4032.jpg</code>, with alt text a person would read aloud.</p>
<h2>5. Measure the phone, not the desktop</h2>
<p>Test the home page on a mid-range phone over 4G. If the largest image takes more than two and a half seconds, serve it smaller: most studios' sites lose half their visitors here.</p>`,
  },
  {
    title: "Choosing paint colours for north-facing rooms",
    excerpt:
      "North light is cool and even: warm whites, earthy mid-tones and deep colours all behave differently in it. How we test a colour before it goes on the wall.",
    coverImage: "",
    tags: ["Interiors", "Colour"],
    access: "public",
    bodyHtml: `<p>A north-facing room gets steady, blue-ish light all day. It is the light painters love and the light that turns a cheerful white into a grey one.</p>
<h2>Warm the whites</h2>
<p>Choose whites with a yellow or red base. Hold the sample against a sheet of printer paper: if it looks dirty next to it in the morning, it will look dirtier on the wall.</p>
<h2>Or go deep</h2>
<p>Rather than fighting the light, a deep green or ink blue embraces it. Paint the ceiling a shade lighter than the walls so the room does not close in.</p>
<h2>Test at four times of day</h2>
<p>Paint an A3 board, not the wall, and move it around the room at 9am, noon, 4pm and under lamps at night. Live with it for three days before deciding.</p>`,
  },
];

/** Publishes the demo articles (an empty blog only), the second saved twice so its history shows a change. */
export async function seedDemoArticles(articles: ArticlesService, coverImage: string): Promise<number> {
  if (!(await articles.isEmpty())) return 0;
  const list = demoArticles(coverImage);
  for (const [i, input] of list.entries()) {
    const { id } = await articles.create({ ...input, intent: "publish" }, DEMO_ACTOR, { byline: DEMO_BYLINE });
    if (i === 1)
      await articles.update(
        id,
        { ...input, excerpt: input.excerpt.replace("The quick wins", "The five quick wins"), slug: "" },
        DEMO_ACTOR,
      );
  }
  return list.length;
}
