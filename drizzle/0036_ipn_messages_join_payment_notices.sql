ALTER TABLE "payment_notices" ADD COLUMN "notice" jsonb;--> statement-breakpoint
-- Payments Standard's IPN messages join the one store of payment notices (decision 069): every stored message is kept,
-- its outcome in the notices' words, its notice type, subscription and amount read from the message as the listener
-- parses it (payments/paypal/ipn.ts), so the order screen, the refund sums and the sign-up check read them there.
INSERT INTO "payment_notices" ("provider", "claimed_event_id", "event_type", "notice_type", "order_id", "subscription_id",
  "amount", "currency", "verdict", "outcome", "reason", "raw", "headers", "received_at", "updated_at")
SELECT 'paypal-ipn', m.track, coalesce(m.txn_type, e.payment_status),
  CASE WHEN v.verdict = 'accepted' THEN m.notice_type END,
  e.order_id,
  CASE WHEN v.verdict = 'accepted' AND m.notice_type LIKE 'subscription.%' THEN m.subscr_id END,
  CASE WHEN v.verdict = 'accepted' AND m.gross ~ '^-?\d{1,10}(\.\d{1,2})?$' THEN abs(m.gross::numeric) END,
  CASE WHEN v.verdict = 'accepted' AND m.gross ~ '^-?\d{1,10}(\.\d{1,2})?$' THEN m.currency END,
  v.verdict, v.outcome, e.reason, e.raw, '{}'::jsonb, e.received_at, e.received_at
FROM "payment_events" e
CROSS JOIN LATERAL (
  SELECT substring(e.raw from '(?:^|&)ipn_track_id=([^&]*)') AS track,
    substring(e.raw from '(?:^|&)txn_type=([^&]*)') AS txn_type,
    coalesce(substring(e.raw from '(?:^|&)subscr_id=([^&]*)'),
      substring(e.raw from '(?:^|&)recurring_payment_id=([^&]*)')) AS subscr_id,
    substring(e.raw from '(?:^|&)mc_gross=([^&]*)') AS gross,
    substring(e.raw from '(?:^|&)mc_currency=([^&]*)') AS currency,
    CASE
      WHEN substring(e.raw from '(?:^|&)txn_type=([^&]*)') = 'subscr_signup' THEN 'subscription.activated'
      WHEN substring(e.raw from '(?:^|&)txn_type=([^&]*)') IN ('subscr_payment', 'recurring_payment')
        THEN 'subscription.payment'
      WHEN substring(e.raw from '(?:^|&)txn_type=([^&]*)')
        IN ('subscr_failed', 'recurring_payment_failed', 'recurring_payment_skipped') THEN 'subscription.payment-failed'
      WHEN substring(e.raw from '(?:^|&)txn_type=([^&]*)') IN ('subscr_cancel', 'recurring_payment_profile_cancel')
        THEN 'subscription.cancelled'
      WHEN substring(e.raw from '(?:^|&)txn_type=([^&]*)') IN ('subscr_eot', 'recurring_payment_expired')
        THEN 'subscription.expired'
      WHEN e.payment_status = 'Completed' THEN 'payment.completed'
      WHEN e.payment_status = 'Pending' THEN 'payment.pending'
      WHEN e.payment_status = 'Denied' THEN 'payment.denied'
      WHEN e.payment_status = 'Refunded' THEN 'payment.refunded'
      WHEN e.payment_status = 'Reversed' THEN 'payment.reversed'
    END AS notice_type
) m
CROSS JOIN LATERAL (
  SELECT CASE
      WHEN e.outcome = 'invalid' THEN 'forged'
      WHEN e.outcome IN ('received', 'unverified') THEN 'received'
      WHEN e.outcome = 'rejected' AND e.reason LIKE '%NUL character%' THEN 'malformed'
      WHEN e.outcome = 'ignored' OR m.notice_type IS NULL THEN 'ignored'
      ELSE 'accepted'
    END AS verdict,
    CASE
      WHEN e.outcome IN ('applied', 'pending', 'refunded') THEN 'applied'
      WHEN e.outcome = 'invalid' THEN 'rejected'
      WHEN e.outcome = 'rejected' AND e.reason LIKE '%NUL character%' THEN 'rejected'
      WHEN e.outcome = 'rejected' THEN 'refused'
      ELSE e.outcome
    END AS outcome
) v;--> statement-breakpoint
DROP TABLE "payment_events" CASCADE;
