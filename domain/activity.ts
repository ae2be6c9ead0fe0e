import { z } from "zod";
import { text } from "./fields";
import { dateTime } from "./dates";
import { categories } from "./vocabulary";
import { day } from "./order-filters";
import { editHref, getSection, recordTitle, sections } from "./registry";
import { SETTINGS, type SettingKey } from "./settings";
import { isMailKind, MAIL_KINDS } from "./mail-kinds";

/**
 * What the activity log says about each kind of record: its name, its fields' labels, what a record is called and
 * where it is edited. Content kinds ("content:{type}") come from the registry; the others are listed here.
 */
export interface ActivityKind {
  /** The stored entity name ("content:faqItem", "order"). */
  entity: string;
  title: string;
  label(field: string): string;
  /** What a person calls the record, from its fields (current ones, or those the log kept). */
  recordTitle(fields: Record<string, unknown>, recordId: string): string;
  /** Its edit screen, if it has one. */
  href?(recordId: string): string;
}

const labels =
  (map: Record<string, string>) =>
  (field: string): string =>
    map[field] ?? field;
const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));

const CONTENT_KINDS: ActivityKind[] = sections.map((s) => ({
  entity: `content:${s.type}`,
  title: s.title,
  label: (field) =>
    field === "position" ? "Position in the list" : (s.fields.find((f) => f.name === field)?.label ?? field),
  recordTitle: (fields) => recordTitle(s, fields),
  href: (id) => editHref(s, id),
}));

const OTHER_KINDS: ActivityKind[] = [
  {
    entity: "order",
    title: "Order",
    label: labels({
      paymentStatus: "Payment Status",
      orderStatus: "Order Status",
      membershipValid: "Membership Valid Until",
      invoiceNumber: "Invoice Number",
      customerDetails: "Customer's name, email and address",
      // A sale made by hand at another price than the package's (issue 35, part 7).
      listPrice: "Package price",
      salePrice: "Price agreed",
      priceReason: "Why the price differs",
    }),
    recordTitle: (f) => [str(f.customerName), str(f.packageName)].filter(Boolean).join(" · "),
    href: (id) => `/admin/payment-status/${id}`,
  },
  {
    entity: "message",
    title: "Message",
    label: labels({
      messageStatus: "Message Status",
      subject: "Subject",
      name: "Name",
      email: "Email",
      archived: "Archived",
    }),
    recordTitle: (f) => [str(f.subject), str(f.name)].filter(Boolean).join(" · from "),
    href: (id) => `/view/${id}`,
  },
  {
    entity: "customer",
    title: "Customer",
    label: labels({
      note: "Private note",
      sessions: "Sessions",
      mailSentAgain: "Mail sent again",
      request: "Personal data erased",
      ordersKept: "Orders kept, anonymised",
    }),
    recordTitle: (_f, id) => `Customer ${id.slice(0, 8)}`,
    href: (id) => `/customers/${id}`,
  },
  {
    entity: "admin_user",
    title: "Admin user",
    label: labels({ userEmail: "User Email", userRole: "User Role" }),
    recordTitle: (f) => str(f.userEmail),
    href: (id) => `/admin-user/${id}`,
  },
  {
    entity: "payment_account",
    title: "Payment account",
    label: labels({ paypalEmail: "PayPal Email" }),
    recordTitle: (f) => str(f.paypalEmail),
    href: (id) => `/paypal-email/${id}`,
  },
  {
    entity: "discount_code",
    title: "Discount code",
    label: labels({
      code: "Code",
      kind: "Kind",
      value: "Value",
      validFrom: "Valid from",
      validTo: "Valid to",
      maxUses: "Maximum uses",
      oncePerCustomer: "Once per customer",
      packageIds: "Packages",
      period: "Subscriptions",
      note: "Note",
      disabled: "Disabled",
    }),
    recordTitle: (f) => str(f.code),
    href: (id) => `/discount-codes/${id}`,
  },
  {
    entity: "api_key",
    title: "API key",
    label: labels({ name: "Name", key: "Key", areas: "Areas", access: "Access", revoked: "Revoked" }),
    recordTitle: (f) => str(f.name),
    href: () => "/api-keys",
  },
  {
    entity: "catalogue_item",
    title: "Catalogue item",
    label: labels({
      itemName: "Item Name",
      itemsDescription: "Item Description",
      itemDatabaseUrl: "Category",
      itemsGuideline: "Guideline",
      itemUrl: "Item URL",
    }),
    recordTitle: (f) => str(f.itemName),
    href: (id) => `/items-management?editor=${id}`,
  },
  {
    entity: "simple_item",
    title: "Item (add item)",
    label: labels({
      format: "Format",
      canvaLink: "Canva Link",
      imageLink: "Image Link",
      category: "Category",
      freeOrPaid: "Paid or Free",
    }),
    recordTitle: (f) => [str(f.format), str(f.category)].filter(Boolean).join(" · "),
    href: () => "/add-item",
  },
  {
    entity: "media",
    title: "Image (media library)",
    label: labels({ alt: "Alt text", fileName: "File name", width: "Width", height: "Height" }),
    recordTitle: (f) => str(f.fileName),
    href: () => "/media-library",
  },
  {
    entity: "article",
    title: "Article",
    label: labels({
      title: "Title",
      slug: "Address (/blog/…)",
      excerpt: "Excerpt",
      coverImage: "Cover image",
      bodyHtml: "Body",
      access: "Who may read it",
      tags: "Tags",
      authorId: "Author's account",
      authorName: "Author",
      seoTitle: "Search listing title",
      seoDescription: "Search listing description",
      seoImage: "Share image",
      state: "State",
      publishAt: "Publish at",
      publishedAt: "Published",
      version: "Version",
    }),
    recordTitle: (f) => str(f.title),
    href: (id) => `/articles/${id}`,
  },
  {
    entity: "newsletter",
    title: "Newsletter",
    label: labels({
      subject: "Subject",
      previewText: "Preview text",
      articleId: "Article",
      bodyHtml: "Message",
      audience: "Audience",
      state: "State",
      sendAt: "Send at",
      retried: "Failed addresses sent again",
    }),
    recordTitle: (f) => str(f.subject),
    href: (id) => `/newsletters/${id}`,
  },
  {
    entity: "suppression",
    title: "Suppressed address",
    label: labels({ reason: "Reason", source: "Listed by", note: "Note" }),
    recordTitle: (_f, address) => address,
    href: () => "/suppressions",
  },
  {
    entity: "setting",
    title: "Setting",
    label: (field) => SETTINGS[field as SettingKey]?.label ?? field,
    recordTitle: (_f, key) => SETTINGS[key as SettingKey]?.label ?? key,
    href: () => "/total-orders",
  },
  {
    entity: "webhook_endpoint",
    title: "Webhook endpoint",
    label: labels({
      url: "Address",
      description: "Description",
      events: "Events",
      state: "State",
      secret: "Signing secret",
      resent: "Delivery sent again",
    }),
    recordTitle: (f) => str(f.url),
    href: (id) => `/webhooks/${id}`,
  },
  {
    entity: "mail",
    title: "Mail",
    label: labels({ enabled: "Sent" }),
    recordTitle: (_f, kind) => (isMailKind(kind) ? MAIL_KINDS[kind].label : kind),
    href: () => "/mail-settings",
  },
  {
    // A member import started (issue 37 part 3, decision 079): its file and what its check found.
    entity: "customer-import",
    title: "Member import",
    label: labels({
      fileName: "File",
      rows: "Rows",
      newCustomers: "New customers",
      existingCustomers: "Existing customers",
      refused: "Refused rows",
    }),
    recordTitle: (f) => str(f.fileName),
    href: (id) => `/customers/import/${id}`,
  },
];

/** Every kind the log knows, site content first (registry order), for the log's "kind of record" filter. */
export const ACTIVITY_KINDS: readonly ActivityKind[] = [...OTHER_KINDS, ...CONTENT_KINDS];

/** The kind of a stored entity name; one the product no longer knows is shown by its raw name. */
export function activityKind(entity: string): ActivityKind {
  return (
    ACTIVITY_KINDS.find((k) => k.entity === entity) ?? {
      entity,
      title: entity.startsWith("content:") ? (getSection(entity.slice(8))?.title ?? entity) : entity,
      label: (field) => field,
      recordTitle: () => "",
    }
  );
}

const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A value as the log shows it: empty is "(empty)", a category its label, a moment in the site's time zone. */
export function shownValue(field: string, value: unknown, timeZone: string): string {
  if (value === null || value === undefined || value === "") return "(empty)";
  if (typeof value === "string" && ISO_MOMENT.test(value)) return dateTime(value, timeZone);
  if (field === "itemDatabaseUrl" && categories.includes(value)) return categories.label(value);
  if (typeof value === "boolean") return value ? "On" : "Off";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The log's filters, from its address: person (email), kind of record (entity), days (site time zone). */
export interface ActivityFilters {
  who?: string;
  kind?: string;
  from?: string;
  to?: string;
}

const fields = { who: text("Person", 254), kind: text("Kind", 100), from: day("From"), to: day("To") } as const;

export function activityFiltersFromSearch(params: URLSearchParams): ActivityFilters {
  const out: ActivityFilters = {};
  for (const key of Object.keys(fields) as (keyof typeof fields)[]) {
    const value = params.get(key);
    if (!value?.trim()) continue;
    const parsed = (fields[key] as z.ZodType<string>).safeParse(value);
    if (parsed.success && parsed.data) out[key] = parsed.data;
  }
  return out;
}
