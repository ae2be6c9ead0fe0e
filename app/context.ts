import type { PublicConfig } from "../server/http/app";
import type { Services } from "../server/services";
import type { Viewer } from "../server/services/accounts";

declare module "react-router" {
  interface AppLoadContext {
    services: Services;
    config: PublicConfig;
    clientIp: string;
    /** Who is asking (null when signed out), looked up at most once per request. */
    viewer: () => Promise<Viewer | null>;
    /** Shipped images (`/images/x.svg`) to their hashed, year-cached copies (server/http/static-images.ts). */
    staticImages: Readonly<Record<string, string>>;
  }
}

export {};
