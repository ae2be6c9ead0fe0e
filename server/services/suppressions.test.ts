import { describe, expect, it } from "vitest";
import { postmarkEvent, secretMatches, sesEvent } from "./suppressions";

describe("mail provider events", () => {
  it("Postmark: hard bounces and spam complaints suppress; soft bounces and the rest do not", () => {
    expect(postmarkEvent({ RecordType: "Bounce", Type: "HardBounce", Email: "a@x.org" })).toMatchObject({
      reason: "bounce",
      addresses: ["a@x.org"],
    });
    expect(postmarkEvent({ RecordType: "SpamComplaint", Type: "SpamComplaint", Email: "b@x.org" })).toMatchObject({
      reason: "complaint",
    });
    expect(postmarkEvent({ RecordType: "Bounce", Type: "SoftBounce", Email: "c@x.org" })).toBeNull();
    expect(postmarkEvent({ RecordType: "Delivery", Email: "d@x.org" })).toBeNull();
  });

  it("SES: permanent bounces and complaints; transient bounces ignored", () => {
    const bounce = (bounceType: string) => ({
      notificationType: "Bounce",
      bounce: { bounceType, bouncedRecipients: [{ emailAddress: "a@x.org" }, { emailAddress: "b@x.org" }] },
    });
    expect(sesEvent(bounce("Permanent"))).toMatchObject({ reason: "bounce", addresses: ["a@x.org", "b@x.org"] });
    expect(sesEvent(bounce("Transient"))).toBeNull();
    expect(
      sesEvent({ notificationType: "Complaint", complaint: { complainedRecipients: [{ emailAddress: "c@x.org" }] } }),
    ).toMatchObject({ reason: "complaint", addresses: ["c@x.org"] });
    expect(sesEvent({ nonsense: true })).toBeNull();
  });

  it("a webhook secret matches only the configured one, and never when none is configured", () => {
    expect(secretMatches("s3cret-s3cret-s3cret", "s3cret-s3cret-s3cret")).toBe(true);
    expect(secretMatches("s3cret", "s3cret-s3cret-s3cret")).toBe(false);
    expect(secretMatches("", undefined)).toBe(false);
  });
});
