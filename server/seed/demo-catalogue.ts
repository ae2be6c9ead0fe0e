import type { ItemForm } from "#domain/catalogue.ts";
import type { CategoryKey } from "#domain/vocabulary.ts";

/**
 * The catalogue a fresh install opens with: one generator per category (server/catalogue/categories/*.json), so a
 * new member can generate an email at once. Each description says what the templates are for; each guideline says
 * how to turn a generated template into an email worth sending.
 */
const items = [
  {
    itemName: "Web Design Cold Emails",
    itemsDescription:
      "Cold emails for winning website design and redesign clients. Each one opens with something you noticed on the prospect's own site (a slow homepage, a hard-to-find phone number, a layout that breaks on mobile) and offers one small, concrete next step.",
    itemDatabaseUrl: "web-design",
    itemsGuideline:
      "Open the prospect's website on your phone before you send, and replace the first line's observation with one thing you really saw. Fill in every [bracketed] placeholder, keep the email under 150 words, and offer a 15-minute call or a short screen recording rather than a full proposal. Follow up once, four or five working days later.",
  },
  {
    itemName: "Video Editing Cold Emails",
    itemsDescription:
      "Cold emails for selling video editing to businesses that already film: channels with long videos and no short clips, footage without captions, recordings sitting unused. Written to start a conversation about one video, not a retainer.",
    itemDatabaseUrl: "video-editing",
    itemsGuideline:
      "Watch one of the prospect's recent videos first and name it in the email: which moment would make a good short clip, or where captions would help. Link to one example of your own work, not a showreel. Replace every [bracketed] placeholder, including [Result] with a figure you can stand behind.",
  },
  {
    itemName: "SEO Service Cold Emails",
    itemsDescription:
      "Cold emails for offering SEO to local and specialist businesses: where they rank for their own service in their own city, what their Google Business Profile is missing, which page titles waste their best keywords.",
    itemDatabaseUrl: "seo-service",
    itemsGuideline:
      'Search for "[Industry] in [City]" yourself before you send, and quote what you found: who ranks above the prospect and by how much. Never promise a ranking position or a date. Replace every [bracketed] placeholder, and offer a short audit of three fixes as the first step.',
  },
  {
    itemName: "Graphic Design Cold Emails",
    itemsDescription:
      "Cold emails for graphic designers approaching businesses whose branding, menus, brochures or social media graphics undersell them. Each one names a specific piece of their material and suggests what a refresh would change.",
    itemDatabaseUrl: "graphic-design",
    itemsGuideline:
      "Pick one real piece of the prospect's material (their logo, a menu, an Instagram post) and describe in one sentence what you would change and why. Attach or link a single before-and-after from your portfolio. Replace every [bracketed] placeholder and keep the tone warm: you are complimenting their business, not criticising it.",
  },
  {
    itemName: "Facebook Marketing Cold Emails",
    itemsDescription:
      "Cold emails for offering Facebook and Instagram advertising: boosted posts that should be campaigns, missing conversion tracking, ads that stopped changing months ago. Each one leads with an observation from the prospect's page or the Meta Ad Library.",
    itemDatabaseUrl: "facebook-marketing",
    itemsGuideline:
      "Look the prospect up in the Meta Ad Library before you send and mention what their ads (or a [Competitor]'s) are doing right now. Replace every [bracketed] placeholder, quote results only from your own clients, and ask one question they can answer in a line, such as what they want from Facebook this year.",
  },
] as const satisfies readonly (ItemForm & { itemDatabaseUrl: CategoryKey })[];

type WithoutItem = Exclude<CategoryKey, (typeof items)[number]["itemDatabaseUrl"]>;
// A category with no demo item fails typecheck.
const everyCategoryHasAnItem: [WithoutItem] extends [never] ? true : { withoutItem: WithoutItem } = true;
void everyCategoryHasAnItem;

export const demoCatalogue: ItemForm[] = [...items];
