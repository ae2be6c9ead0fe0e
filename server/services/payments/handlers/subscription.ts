import type { Notice, NoticeType } from "../provider";
import type { Handler } from "./context";

/**
 * Renewals stay on Payments Standard's Subscribe button until the Subscriptions API is wired in (issue 34, part 4):
 * a REST subscription event is stored, verified, and changes nothing yet.
 */
export const subscriptionNotYet =
  <T extends Extract<NoticeType, `subscription.${string}`>>(): Handler<T> =>
  async (notice: Notice) => ({
    outcome: "ignored",
    reason: `${notice.type}: renewals are taken on Payments Standard until the Subscriptions API is wired in`,
    orderId: notice.orderId,
  });
