import express, { Router } from "express";
import type { Services } from "../services";
import { SIMULATOR_VERIFY_PATH } from "../services/paypal-simulator";
import { BODY_LIMIT_BYTES } from "./body";

/**
 * The IPN simulator's stand-in for PayPal's verification postback (Payments Standard, decision 069): answers VERIFIED
 * only for a message the simulator sent itself, INVALID for anything else. The listener posts here in simulator mode.
 */
export function paypalSimulatorIpnRoutes(services: Services): Router {
  const r = Router({ caseSensitive: true });
  r.post(SIMULATOR_VERIFY_PATH, express.text({ type: () => true, limit: BODY_LIMIT_BYTES }), (req, res, next) => {
    services.paypal.simulator
      .validate(typeof req.body === "string" ? req.body : "")
      .then((answer) => void res.type("text/plain").send(answer), next);
  });
  return r;
}
