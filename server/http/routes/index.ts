import type { Services } from "#server/services/index.ts";
import { apiKeyRoutes } from "./api-keys";
import { articleRoutes } from "./articles";
import { blogRoutes } from "./blog";
import { catalogueRoutes } from "./catalogue";
import { contentRoutes } from "./content";
import { customerRoutes } from "./customers";
import { discountRoutes } from "./discounts";
import { importRoutes } from "./imports";
import { inboxRoutes } from "./inbox";
import { invoiceRoutes } from "./invoices";
import { jobRoutes } from "./jobs";
import { mediaRoutes } from "./media";
import { mailEventRoutes, newsletterRoutes } from "./newsletters";
import { orderRoutes } from "./orders";
import { paymentAccountRoutes } from "./payment-accounts";
import { paymentRoutes } from "./payments";
import { privacyRoutes } from "./privacy";
import { reportRoutes } from "./reports";
import { trashRoutes } from "./trash";
import type { ApiRoute } from "./route";
import { userRoutes } from "./users";
import { webhookRoutes } from "./webhooks";

export type { Access, ApiRoute } from "./route";

/** Every call of both spec documents' section 7, with its access rule: the table the router and the tests read. */
export function apiRoutes(services: Services): ApiRoute[] {
  return [
    ...contentRoutes(services),
    ...articleRoutes(services),
    ...inboxRoutes(services),
    ...userRoutes(services),
    ...orderRoutes(services),
    ...invoiceRoutes(services),
    ...paymentAccountRoutes(services),
    ...catalogueRoutes(services),
    ...mediaRoutes(services),
    ...jobRoutes(services),
    ...privacyRoutes(services),
    ...reportRoutes(services),
    ...importRoutes(services),
    ...customerRoutes(services),
    ...trashRoutes(services),
    ...discountRoutes(services),
    ...paymentRoutes(services),
    ...blogRoutes(services),
    ...newsletterRoutes(services),
    ...mailEventRoutes(services),
    ...apiKeyRoutes(services),
    ...webhookRoutes(services),
  ];
}
