/**
 * The content registry: every editable public section, described once as data.
 * From it come the validation schemas, the REST paths, the admin screens and lists, the dashboard cards and the public
 * pages' data. Each entry's public component is named in app/components/sections/index.ts (a typed map, so a section
 * without one fails typecheck); the pages that show it are listed in app/content/pages.ts.
 * Field names, REST paths and success texts are spelled exactly as the two spec documents spell them.
 * Shared by server and browser: no server-only imports here.
 */
import { AUTO_RENEW_REFUSED } from "./subscription";
import { planPeriod } from "./subscription-plan";

export type FieldKind =
  | "text" // one line
  | "longText" // a textarea (3 rows)
  | "number" // a number input; stored as a number
  | "link" // an http(s) or site-relative address
  | "image" // an image address (http(s) or site-relative)
  | "media" // an image or a video link (the banner)
  | "email"
  | "checkbox"; // a yes/no box; stored as true or false (absent: false)

export interface FieldDef {
  readonly name: string;
  readonly label: string;
  readonly kind: FieldKind;
  /** Required unless said otherwise: the spec makes every admin text input required. */
  readonly optional?: boolean;
  /** Numbers only: the smallest accepted value. */
  readonly min?: number;
  /** Numbers only: whole numbers only. */
  readonly integer?: boolean;
}

/** A rule across a record's fields: the field to mark and its message, or null when the record is fine. */
export type RecordCheck = (record: Record<string, unknown>) => { field: string; message: string } | null;

/** How a list section's records look on its admin screen. */
export type ListLook =
  /** Each record's title links to its edit screen (the default). */
  | { readonly look: "links" }
  /** A card per record: its title, one line per template ("{field}", or "{field:price}" for money), an edit link. */
  | { readonly look: "cards"; readonly lines: readonly string[]; readonly editText: string }
  /** Boxes headed "Step {number}", the title linking to the edit screen, then the details. */
  | { readonly look: "steps"; readonly number: string; readonly details: string }
  /** Only the numbers, each a round link to its edit screen; `only` names the numbers shown. */
  | { readonly look: "numbers"; readonly number: string; readonly only?: readonly string[] }
  /** A row per record with a button that opens its edit form in a dialog. */
  | { readonly look: "dialog"; readonly editText: string; readonly dialogTitle: string };

export interface SectionDef {
  /** Stable key, stored in the database. */
  readonly type: string;
  /** What an administrator calls it. */
  readonly title: string;
  readonly cardinality: "singleton" | "list";
  /** Lists only: the most records allowed. */
  readonly max?: number;
  /** The text shown when `max` is reached. */
  readonly maxNotice?: string;
  readonly fields: readonly FieldDef[];
  /** A rule across fields (checked on the server and in the form), e.g. a renewal PayPal can bill. */
  readonly recordCheck?: RecordCheck;
  /** The field a person calls a record by (admin lists, activity log). Default: the first text field. */
  readonly titleField?: string;
  /**
   * Lists only: the singleton shown as this list's heading on public pages (e.g. FAQ text above FAQ items).
   * The list's component renders both, and a page that lists this section gets its heading too.
   */
  readonly heading?: string;
  /** REST paths under /api, exactly as spec section 7 spells them (":id" stands for the record id). */
  readonly api: {
    readonly list: string;
    readonly one: string;
    readonly add: string;
    readonly update: string;
  };
  /** Back-office screens: the screen that lists or adds, the edit screen of one record. */
  readonly admin: {
    readonly screen: string;
    readonly edit: string;
    readonly heading: string;
    /** The singleton's edit link text when one record exists. */
    readonly editLinkText?: string;
    /** Lists only: how the records look (default: links). */
    readonly list?: ListLook;
    /** A card to this screen on the dashboard, with this label (spec 2, section 2). */
    readonly card?: string;
    /** Its screens are routes of their own (the search listings), not the generic content screen and edit screen. */
    readonly own?: boolean;
  };
  /** Success texts the spec's alerts name (shown as toasts). */
  readonly messages: {
    readonly added: string;
    readonly updated: string;
  };
}

type Extra = Partial<Pick<FieldDef, "optional" | "min" | "integer">>;
/** Field builders that keep each name (and its optional flag) as a literal type, so records are typed from the registry. */
const field =
  <K extends FieldKind>(kind: K) =>
  <const N extends string, const E extends Extra = {}>(name: N, label: string, extra?: E) =>
    ({ name, label, kind, ...extra }) as { readonly name: N; readonly label: string; readonly kind: K } & E;
const t = field("text");
const long = field("longText");
const link = field("link");
const img = field("image");
const media = field("media");
const email = field("email");
const num = field("number");
const box = field("checkbox");

/**
 * A public page's search listing and share card (issue 28): one singleton per page, every field optional, an empty one
 * meaning the default taken from the page's content (domain/page-seo.ts). Edited on /search-listings.
 */
const pageSeo = <const T extends string, const P extends string, const N extends string>(type: T, page: P, name: N) =>
  ({
    type,
    title: `Search listing: ${name}`,
    cardinality: "singleton",
    fields: [
      t("seoTitle", "Page title", { optional: true }),
      long("seoDescription", "Meta description", { optional: true }),
      img("shareImage", "Share image", { optional: true }),
    ],
    titleField: "seoTitle",
    api: {
      list: `/page-seo/${page}`,
      one: `/page-seo/${page}/:id`,
      add: `/add-page-seo/${page}`,
      update: `/page-seo/${page}/:id`,
    },
    admin: {
      screen: "/search-listings",
      edit: `/search-listings/${page}`,
      heading: "Search listings",
      editLinkText: `Edit ${name}`,
      own: true,
    },
    messages: { added: "Search listing saved", updated: "Search listing saved" },
  }) as const;

/** Basic and Standard show the first seven points, Premium all ten (spec 1, section 9). */
export const PACKAGE_POINTS = [
  "packagePointOne",
  "packagePointTwo",
  "packagePointThree",
  "packagePointFour",
  "packagePointFive",
  "packagePointSix",
  "packagePointSeven",
  "packagePointEight",
  "packagePointNine",
  "packagePointTen",
] as const;

export const sections = [
  {
    type: "logo",
    title: "Logo",
    cardinality: "singleton",
    fields: [img("logo", "Logo URL")],
    api: { list: "/logo", one: "/logo/:id", add: "/add-logo", update: "/logo/:id" },
    admin: { screen: "/add-logo", edit: "/edit-logo/:id", heading: "Update Logo", editLinkText: "Edit Logo" },
    messages: { added: "Logo is Updated", updated: "Logo is Updated" },
  },
  {
    type: "banner",
    title: "Banner",
    cardinality: "singleton",
    fields: [
      t("bannerHeading", "Banner Heading"),
      t("buttonTwoLink", "Banner Heading Two"),
      long("bannerDetails", "Banner Text"),
      media("bannerImage", "Banner Image or Video Link"),
      t("buttonOneText", "Button Text"),
      link("buttonOneLink", "Button URL"),
    ],
    api: { list: "/banner", one: "/banner/:id", add: "/add-banner", update: "/update-banner/:id" },
    admin: {
      screen: "/edit-banner",
      edit: "/banner/:id",
      heading: "Update Banner",
      editLinkText: "Edit Banner Section",
    },
    messages: { added: "Banner is Updated", updated: "Banner is Updated" },
  },
  {
    type: "serviceHeading",
    title: "Service Heading",
    cardinality: "singleton",
    fields: [t("serviceHeading", "Service Heading"), long("servicesubHeading", "Service Sub Heading")],
    api: { list: "/service", one: "/service/:id", add: "/add-Service", update: "/service/:id" },
    admin: {
      screen: "/edit-service",
      edit: "/servicetext-edit/:id",
      heading: "Service Heading",
      editLinkText: "Edit Service Heading",
    },
    messages: { added: " Service is Updated", updated: " Service is Updated" },
  },
  {
    type: "serviceItem",
    title: "Service Item",
    cardinality: "list",
    fields: [
      img("serviceIcon", "Service Icon"),
      t("serviceTitle", "Service Title"),
      long("serviceDetails", "Service Details"),
      img("serviceImg", "Service Image", { optional: true }),
      t("serviceName", "Service Name", { optional: true }),
    ],
    heading: "serviceHeading",
    api: {
      list: "/service-items",
      one: "/service-item/:id",
      add: "/add-service-item",
      update: "/service-item/:id",
    },
    admin: { screen: "/edit-service", edit: "/service-edit/:id", heading: "Service Items" },
    messages: { added: " Item is Added", updated: "Item is Updated" },
  },
  {
    type: "about",
    title: "About Section",
    cardinality: "list",
    max: 2,
    maxNotice: "You have reached the maximum of 2 About sections.",
    fields: [
      img("aboutImg", "About Image"),
      t("aboutText", "About Tagline"),
      t("aboutHeading", "About Heading"),
      t("aboutPointOne", "Point One"),
      long("aboutPointOneDetails", "Point One Details"),
      t("aboutPointTwo", "Point Two"),
      long("aboutPointTwoDetails", "Point Two Details"),
      t("aboutPointThree", "Point Three"),
      long("aboutPointThreeDetails", "Point Three Details"),
      t("buttonText", "Button Text"),
      link("buttonLink", "Button Link"),
    ],
    titleField: "aboutHeading",
    api: { list: "/about", one: "/about/:id", add: "/add-about", update: "/update-about/:id" },
    admin: {
      screen: "/edit-about",
      edit: "/edit-about/:id",
      heading: "Manage About Sections",
      list: { look: "dialog", editText: "Update", dialogTitle: "Update About Section" },
    },
    messages: { added: "About section added", updated: "About section updated" },
  },
  {
    type: "videoSection",
    title: "Video Section",
    cardinality: "singleton",
    fields: [
      img("imageLink", "Image Link"),
      media("videoLink", "Video Link"),
      t("videoSectionTitle", "Video Section Title"),
      long("videoSectionText", "Video Section Text"),
    ],
    api: { list: "/videos", one: "/videos/:id", add: "/add-video", update: "/update-videos/:id" },
    admin: {
      screen: "/edit-video",
      edit: "/videotext-edit/:id",
      heading: "Video Section",
      editLinkText: "Update Video",
    },
    messages: { added: " Video Section is Updated", updated: " Video Section is Updated" },
  },
  {
    type: "videoTeamMember",
    title: "Team Member (video area)",
    cardinality: "list",
    fields: [
      link("facebookLink", "Facebook Link", { optional: true }),
      link("twitterLink", "Twitter Link", { optional: true }),
      link("linkedinLink", "LinkedIn Link", { optional: true }),
      link("youtubeLink", "YouTube Link", { optional: true }),
      img("memberImg", "Member Image"),
      t("membername", "Member Name"),
      t("memberPosition", "Member Position"),
    ],
    heading: "videoSection",
    api: {
      list: "/videos-items",
      one: "/videos-items/:id",
      add: "/add-video-item",
      update: "/videos-items/:id",
    },
    admin: { screen: "/edit-video", edit: "/video/:id", heading: "Team Members" },
    messages: { added: " Team Members Item is Added", updated: "Video Section is Updated" },
  },
  {
    type: "step",
    title: "Step",
    cardinality: "list",
    fields: [t("stepTitle", "Step Title"), long("stepDetails", "Step Details"), t("stepNumber", "Step Number")],
    api: { list: "/steps", one: "/step-item/:id", add: "/add-step", update: "/step-item/:id" },
    admin: {
      screen: "/step-section",
      edit: "/edit-step/:id",
      heading: "Upcoming Events",
      list: { look: "steps", number: "stepNumber", details: "stepDetails" },
    },
    messages: { added: "Step Section is Updated", updated: "Step Section is Updated" },
  },
  {
    type: "workStep",
    title: "Work Step",
    cardinality: "list",
    max: 4,
    maxNotice: "The work section shows four steps, 01 to 04.",
    fields: [
      t("stepNumber", "Step Number"),
      t("stepTitle", "Step Title"),
      long("stepDetails", "Step Details"),
      img("stapIcon", "Step Icon URL"),
    ],
    titleField: "stepTitle",
    api: { list: "/worksec", one: "/worksec/:id", add: "/add-worksec", update: "/update-worksec/:id" },
    admin: {
      screen: "/edit-work",
      edit: "/edit-work/:id",
      heading: "Work Section",
      // Spec 2: "The list shows step numbers 01 to 04 only".
      list: { look: "numbers", number: "stepNumber", only: ["01", "02", "03", "04"] },
    },
    messages: { added: "Work Step is Added", updated: "Work Step is Updated" },
  },
  {
    type: "counter",
    title: "Counters",
    cardinality: "singleton",
    fields: [
      t("happyClientsNumber", "Happy Clients Number"),
      t("happyClientsText", "Happy Clients Text"),
      t("projectCompleteNumber", "Projects Complete Number"),
      t("projectCompleteText", "Projects Complete Text"),
      t("yearofExperienceNumber", "Years of Experience Number"),
      t("yearofExperienceText", "Years of Experience Text"),
      t("winingAwardNumber", "Winning Awards Number"),
      t("winingAwardText", "Winning Awards Text"),
    ],
    api: { list: "/counters", one: "/counters/:id", add: "/add-counter", update: "/update-counters/:id" },
    admin: { screen: "/edit-counter", edit: "/counters/:id", heading: "Counters", editLinkText: "Edit Counters" },
    messages: { added: "Counter is Updated", updated: "Counter is Updated" },
  },
  {
    type: "action",
    title: "Call to Action",
    cardinality: "singleton",
    fields: [
      t("heading", "Heading"),
      long("subHeading", "Sub Heading"),
      t("buttonText", "Button Text", { optional: true }),
      link("buttonLink", "Button Link", { optional: true }),
    ],
    api: { list: "/actions", one: "/actions/:id", add: "/add-action", update: "/update-actions/:id" },
    admin: {
      screen: "/update-calltoaction",
      edit: "/edit-call/:id",
      heading: "Call to Action",
      editLinkText: "Edit Call to Action",
      card: "Call to Setting",
    },
    messages: { added: "Call to Action is Updated", updated: "Call to Action is Updated" },
  },
  {
    type: "pricing",
    title: "Pricing Package",
    cardinality: "list",
    fields: [
      t("packageName", "Package Name"),
      num("packagePrice", "Package Price", { min: 0 }),
      num("packageValidity", "Package Validity (Number only)", { min: 1, integer: true }),
      t("packageButtonText", "Package Button Text"),
      t("packagePointOne", "Package Point One"),
      t("packagePointTwo", "Package Point Two"),
      t("packagePointThree", "Package Point Three"),
      t("packagePointFour", "Package Point Four"),
      t("packagePointFive", "Package Point Five"),
      t("packagePointSix", "Package Point Six"),
      t("packagePointSeven", "Package Point Seven"),
      t("packagePointEight", "Package Point Eight", { optional: true }),
      t("packagePointNine", "Package Point Nine", { optional: true }),
      t("packagePointTen", "Package Point Ten", { optional: true }),
      box("autoRenew", "Renews automatically (PayPal subscription)", { optional: true }),
    ],
    // A package that renews automatically is billed by PayPal each validity (decision 046), as one billing cycle of
    // PayPal's Subscriptions API (decision 070).
    recordCheck: (r) =>
      r.autoRenew === true && typeof r.packageValidity === "number" && !planPeriod(r.packageValidity)
        ? { field: "packageValidity", message: AUTO_RENEW_REFUSED }
        : null,
    api: { list: "/pricings", one: "/pricing/:id", add: "/add-pricing", update: "/pricing/:id" },
    admin: {
      screen: "/add-pricing/",
      edit: "/package-edit/:id",
      heading: "Pricing Packages",
      list: {
        look: "cards",
        lines: ["{packagePrice:price}/month", "Valid for {packageValidity} days"],
        editText: "Edit Pricing",
      },
      card: "Pricing Setting",
    },
    messages: { added: "Pricing is Updated", updated: "Pricing is Updated" },
  },
  {
    type: "faqText",
    title: "FAQ Text",
    cardinality: "singleton",
    fields: [t("faqHeading", "FAQ Heading"), long("faqText", "FAQ Text")],
    api: { list: "/faq", one: "/faq/:id", add: "/add-faq", update: "/faq/:id" },
    admin: { screen: "/edit-faq", edit: "/faqtext-edit/:id", heading: "FAQ Text", editLinkText: "Edit FAQ Text" },
    messages: { added: "FAQ is Updated", updated: "FAQ is Updated" },
  },
  {
    type: "faqItem",
    title: "FAQ Item",
    cardinality: "list",
    fields: [t("accodingTitle", "Question"), long("accodingText", "Answer")],
    heading: "faqText",
    api: { list: "/faq-items", one: "/faq-item/:id", add: "/add-faq-item", update: "/faq-item/:id" },
    admin: { screen: "/edit-faq", edit: "/faq-edit/:id", heading: "FAQ Items" },
    messages: { added: "FAQ Item is Added", updated: "FAQ Item is Updated" },
  },
  {
    type: "testimonialText",
    title: "Testimonial Text",
    cardinality: "singleton",
    fields: [t("testimonialHeading", "Testimonial Heading"), long("testimonialText", "Testimonial Text")],
    api: {
      list: "/testimonialtext",
      one: "/testimonialtext/:id",
      add: "/add-testimonial-text",
      update: "/testimonialtext/:id",
    },
    admin: {
      screen: "/edit-testimonial/",
      edit: "/testimonialtext-edit/:id",
      heading: "Testimonial Text",
      editLinkText: "Edit Testimonial Text",
      card: "Testimonial Setting",
    },
    messages: { added: "Testimonial is Updated", updated: "Testimonial is Updated" },
  },
  {
    type: "testimonial",
    title: "Testimonial",
    cardinality: "list",
    fields: [
      img("image", "Photo"),
      t("personName", "Person Name"),
      t("personTitle", "Person Title"),
      long("desc", "Description"),
    ],
    heading: "testimonialText",
    api: {
      list: "/testimonials",
      one: "/testimonial/:id",
      add: "/add-testimonial",
      update: "/testimonial/:id",
    },
    admin: { screen: "/edit-testimonial/", edit: "/edit-testimonial/:id/", heading: "Testimonials" },
    messages: { added: "Testimonial is Added", updated: "Testimonial is Updated" },
  },
  {
    type: "featuresText",
    title: "Features Text",
    cardinality: "singleton",
    fields: [t("FeaturesHeading", "Features Heading"), long("FeaturesText", "Features Text")],
    api: {
      list: "/featurestext",
      one: "/featurestext/:id",
      add: "/add-feature-text",
      update: "/featurestext/:id",
    },
    admin: {
      screen: "/edit-services-features/",
      edit: "/featurestext-edit/:id",
      heading: "Features Text",
      editLinkText: "Edit Features Text",
    },
    messages: { added: "Features Text is Updated", updated: "Features Text is Updated" },
  },
  {
    type: "featureItem",
    title: "Feature Item",
    cardinality: "list",
    fields: [
      img("FeaturesImg", "Feature Image"),
      img("FeaturesIcon", "Feature Icon"),
      t("FeaturesText", "Feature Title"),
      long("FeaturesDesc", "Feature Description"),
    ],
    heading: "featuresText",
    api: {
      list: "/featureitems",
      one: "/featureitems/:id",
      add: "/add-feature-Item",
      update: "/update-featureitems/:id",
    },
    admin: { screen: "/edit-services-features/", edit: "/edit-feature-items/:id", heading: "Feature Items" },
    messages: { added: "Feature Item is Added", updated: "Feature Item is Updated" },
  },
  {
    type: "teamText",
    title: "Team Text",
    cardinality: "singleton",
    fields: [t("teamHeading", "Team Heading"), long("teamText", "Team Text")],
    api: {
      list: "/teamstext",
      one: "/teamstext/:id",
      add: "/add-teammember-text",
      update: "/teamstext/:id",
    },
    admin: {
      screen: "/edit-team-text/",
      edit: "/team-text-edit/:id/",
      heading: "Team Text",
      editLinkText: "Edit Team Text",
    },
    messages: { added: "Team Text is Updated", updated: "Team Text is Updated" },
  },
  {
    type: "teamMember",
    title: "Team Member",
    cardinality: "list",
    fields: [
      img("teamMemberImg", "Member Image"),
      t("teamMemberName", "Member Name"),
      t("teamMemberTitle", "Member Title"),
    ],
    heading: "teamText",
    api: {
      list: "/teamitems",
      one: "/teamitems/:id",
      add: "/add-team-Item",
      update: "/update-teamitems/:id",
    },
    admin: { screen: "/edit-team-text/", edit: "/edit-team-items/:id/", heading: "Team Members" },
    messages: { added: "Team Member is Added", updated: "Team Member is Updated" },
  },
  {
    type: "experience",
    title: "Experience",
    cardinality: "singleton",
    fields: [
      t("experienceText", "Experience Tagline"),
      t("experienceHeading", "Experience Heading"),
      long("experienceDetails", "Experience Details"),
      t("skillOneText", "Skill One"),
      num("skillOneNumber", "Skill One Percent", { min: 0, integer: true }),
      t("skillTwoText", "Skill Two"),
      num("skillTwoNumber", "Skill Two Percent", { min: 0, integer: true }),
      t("skillThreeText", "Skill Three"),
      num("skillThreeNumber", "Skill Three Percent", { min: 0, integer: true }),
    ],
    api: {
      list: "/experiences",
      one: "/experiences/:id",
      add: "/add-experience",
      update: "/update-experiences/:id",
    },
    admin: {
      screen: "/edit-experience/",
      edit: "/edit-experience/:id",
      heading: "Experience",
      editLinkText: "Edit Experience",
    },
    messages: { added: "Experience is Updated", updated: "Experience is Updated" },
  },
  {
    type: "contactBlock",
    title: "Contact Block",
    cardinality: "list",
    fields: [
      img("contactImg", "Contact Image"),
      t("contactTitle", "Contact Title"),
      long("contactDetails", "Contact Details"),
    ],
    api: { list: "/contacts", one: "/contacts/:id", add: "/add-contact", update: "/contacts/:id" },
    admin: { screen: "/add-contact/", edit: "/edit-contact-page/:id", heading: "Contact Blocks" },
    messages: { added: "Contcat Section is Updated", updated: "Contcat Section is Updated" },
  },
  {
    type: "footerAbout",
    title: "Footer About",
    cardinality: "singleton",
    fields: [t("aboutFooterText", "Footer About Heading"), long("aboutFooterDetails", "Footer About Details")],
    api: {
      list: "/footer-about",
      one: "/footer-about/:id",
      add: "/add-footer-about",
      update: "/footer-about/:id",
    },
    admin: {
      screen: "/add-about-footer/",
      edit: "/edit-about-footer/:id",
      heading: "Footer About",
      editLinkText: "Edit Footer About",
    },
    messages: { added: "Footer About is Updated", updated: "Footer is Updated" },
  },
  {
    type: "footerAddress",
    title: "Footer Address",
    cardinality: "singleton",
    fields: [t("Location", "Location"), t("Phone", "Phone"), email("footerEmail", "Footer Email")],
    api: {
      list: "/footer-address",
      one: "/footer-address/:id",
      add: "/add-footer-address",
      update: "/footer-address/:id",
    },
    admin: {
      screen: "/add-address-footer/",
      edit: "/edit-address-footer/:id",
      heading: "Footer Address",
      editLinkText: "Edit Footer Address",
      card: "Footer Address",
    },
    messages: { added: "Footer Address is Updated", updated: "Footer Address is Updated" },
  },
  {
    type: "footerSocial",
    title: "Footer Social Links",
    cardinality: "singleton",
    fields: [link("fblink", "Facebook Link"), link("inslink", "YouTube Link")],
    api: {
      list: "/footer-social",
      one: "/footer-social/:id",
      add: "/add-footer-social",
      update: "/footer-social/:id",
    },
    admin: {
      screen: "/add-social-footer/",
      edit: "/edit-social-footer/:id",
      heading: "Footer Social Link",
      editLinkText: "Edit Footer Social Links",
      card: "Footer Social Link",
    },
    messages: { added: "Footer Social Link is Updated", updated: "Footer Social Link is Updated" },
  },
  {
    type: "copyright",
    title: "Copyright",
    cardinality: "singleton",
    fields: [t("copyrightText", "Copyright Text")],
    api: {
      list: "/copyrights",
      one: "/copyrights/:id",
      add: "/add-footer-copyright",
      update: "/copyrights/:id",
    },
    admin: {
      screen: "/add-copyright",
      edit: "/edit-copyright/:id",
      heading: "Footer CopyRight",
      editLinkText: "Edit Copyright",
      card: "Footer CopyRight",
    },
    messages: { added: "Copyright is Updated", updated: "Copyright is Updated" },
  },
  // The two documents a person accepts when registering (decision 037): their record's last change is the version
  // accepted. The text is plain: a blank line between paragraphs, a short line of its own a heading, "- " a list item.
  {
    type: "privacy",
    title: "Privacy Notice",
    cardinality: "singleton",
    fields: [
      t("documentHeading", "Heading"),
      t("lastUpdated", "Last Updated"),
      long("documentText", "Text (a blank line between paragraphs; a short line on its own is a heading)"),
    ],
    api: { list: "/privacy", one: "/privacy/:id", add: "/add-privacy", update: "/privacy/:id" },
    admin: {
      screen: "/edit-privacy",
      edit: "/edit-privacy/:id",
      heading: "Privacy Notice",
      editLinkText: "Edit Privacy Notice",
    },
    messages: { added: "Privacy Notice is Updated", updated: "Privacy Notice is Updated" },
  },
  {
    type: "terms",
    title: "Terms",
    cardinality: "singleton",
    fields: [
      t("documentHeading", "Heading"),
      t("lastUpdated", "Last Updated"),
      long("documentText", "Text (a blank line between paragraphs; a short line on its own is a heading)"),
    ],
    api: { list: "/terms", one: "/terms/:id", add: "/add-terms", update: "/terms/:id" },
    admin: {
      screen: "/edit-terms",
      edit: "/edit-terms/:id",
      heading: "Terms",
      editLinkText: "Edit Terms",
    },
    messages: { added: "Terms are Updated", updated: "Terms are Updated" },
  },
  // Search listings: the title, description and share image of each public page (domain/page-seo.ts).
  pageSeo("seoHome", "home", "Home"),
  pageSeo("seoService", "service", "Service page"),
  pageSeo("seoPricing", "pricing", "Pricing page"),
  pageSeo("seoContact", "contact", "Contact page"),
  pageSeo("seoThanks", "thanks", "Thank-you page"),
  pageSeo("seoPrivacy", "privacy", "Privacy notice"),
  pageSeo("seoTerms", "terms", "Terms"),
] as const satisfies readonly SectionDef[];

export type SectionType = (typeof sections)[number]["type"];

type SectionOf<T extends SectionType> = Extract<(typeof sections)[number], { type: T }>;
type FieldValue<F> = F extends { kind: "number" } ? number : F extends { kind: "checkbox" } ? boolean : string;
type RequiredFields<S extends SectionDef> = {
  [F in S["fields"][number] as F extends { optional: true } ? never : F["name"]]: FieldValue<F>;
};
type OptionalFields<S extends SectionDef> = {
  [F in S["fields"][number] as F extends { optional: true } ? F["name"] : never]?: FieldValue<F>;
};

/** The fields of one section's record, typed from the registry. */
export type SectionData<T extends SectionType> = RequiredFields<SectionOf<T>> & OptionalFields<SectionOf<T>>;

/** A stored record as the API and the pages see it: `_id` plus the spec's fields. */
export type SectionRecord<T extends SectionType> = { _id: string } & SectionData<T>;

/** All public content, by section type, each list in display order. */
export type ContentSnapshot = { [T in SectionType]: SectionRecord<T>[] };

/** One record to store, typed from the registry: a missing or misspelled field fails typecheck (demo content). */
export type NewRecord = { [T in SectionType]: { readonly type: T; readonly data: SectionData<T> } }[SectionType];

type Entry = (typeof sections)[number];
/** Singletons that head a list on public pages (see `heading`). */
export type HeadingType = Extract<Entry, { heading: string }>["heading"];
/** The heading singleton of a list section, or never. */
export type HeadingOf<T extends SectionType> = Extract<
  SectionType,
  Extract<SectionOf<T>, { heading: string }>["heading"]
>;
/** Page settings rather than sections drawn on a page: the search listings (their own screens, meta tags). */
export type SettingType = Extract<Entry, { admin: { own: true } }>["type"];
/** The sections a public page lists; a heading comes with its list. */
export type BlockType = Exclude<SectionType, HeadingType | SettingType>;
export type IsSingleton<T extends SectionType> = SectionOf<T>["cardinality"] extends "singleton" ? true : false;

// Typecheck-time guards: every field an entry names in titleField or its admin list look is one of its own fields,
// and every heading is a singleton. A misspelling shows up as an error on the line below.
type FieldName<S extends Entry> = S["fields"][number]["name"];
type Placeholders<L> = L extends `${string}{${infer F}}${infer Rest}`
  ? (F extends `${infer N}:${string}` ? N : F) | Placeholders<Rest>
  : never;
type NamedFields<S extends Entry> =
  | (S extends { titleField: infer N } ? N : never)
  | (S["admin"] extends { list: infer L }
      ? | (L extends { number: infer N } ? N : never)
        | (L extends { details: infer N } ? N : never)
        | (L extends { lines: readonly (infer T)[] } ? Placeholders<T> : never)
      : never);
type UnknownNames = { [S in Entry as S["type"]]: Exclude<NamedFields<S>, FieldName<S>> }[SectionType];
type BadHeadings = Exclude<HeadingType, Extract<Entry, { cardinality: "singleton" }>["type"]>;
const registryIsConsistent: [UnknownNames | BadHeadings] extends [never]
  ? true
  : { unknown: UnknownNames | BadHeadings } = true;
void registryIsConsistent;

const byType = new Map<string, SectionDef>(sections.map((s) => [s.type, s]));

export function getSection(type: string): SectionDef | undefined {
  return byType.get(type);
}

export function isSectionType(type: string): type is SectionType {
  return byType.has(type);
}

export const sectionTypes = sections.map((s) => s.type) as SectionType[];

/** What a person calls a record: its title field's value (the first text field unless the entry names one). */
export function recordTitle(section: SectionDef, record: Record<string, unknown>): string {
  const name = section.titleField ?? section.fields.find((f) => f.kind === "text" || f.kind === "longText")?.name;
  const value = name ? record[name] : undefined;
  return value === undefined || value === null ? "" : String(value);
}

/** The most records a section holds: one for a singleton, its `max` for a capped list, else no limit. */
export const recordLimit = (section: SectionDef): number | undefined =>
  section.cardinality === "singleton" ? 1 : section.max;

/** Why an add is refused once a section holds `recordLimit` records (the service's 409, the preview's refusal). */
export const limitReachedText = (section: SectionDef) =>
  section.maxNotice ?? `${section.title} already exists: edit it instead of adding another.`;

/** The success text of a delete (the spec names none): "FAQ Item deleted". */
export const deletedText = (section: SectionDef) => `${section.title} deleted`;

/** The address of a record's edit screen. */
export const editHref = (section: SectionDef, id: string) => section.admin.edit.replace(":id", encodeURIComponent(id));
