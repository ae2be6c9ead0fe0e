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
  }
}

export {};
