import type { PublicConfig } from "../server/http/app";
import type { Services } from "../server/services";

declare module "react-router" {
  interface AppLoadContext {
    services: Services;
    config: PublicConfig;
    clientIp: string;
  }
}

export {};
