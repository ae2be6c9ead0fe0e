import type { PublicConfig } from "#server/http/app.ts";
import type { Logger } from "#server/lib/logger.ts";
import type { Services } from "#server/services/index.ts";
import type { Viewer } from "#server/services/accounts.ts";

declare module "react-router" {
  interface AppLoadContext {
    services: Services;
    config: PublicConfig;
    clientIp: string;
    /** Who is asking (null when signed out), looked up at most once per request. */
    viewer: () => Promise<Viewer | null>;
    /** Shipped images (`/images/x.svg`) to their hashed, year-cached copies (server/http/static-images.ts). */
    staticImages: Readonly<Record<string, string>>;
    /** The request's id (X-Request-Id): in its access line, its log lines and a 500 page's "Reference". */
    requestId: string;
    /** The logger of this request: every line carries its id. */
    logger: Logger;
  }
}

export {};
