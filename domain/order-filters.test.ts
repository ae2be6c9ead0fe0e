import { describe, expect, it } from "vitest";
import { filtersFromSearch, filtersHref, isFiltered, orderFiltersSchema } from "./order-filters";

describe("order filters", () => {
  it("reads every filter from the address, trimmed", () => {
    expect(
      filtersFromSearch(
        new URLSearchParams("q=+nora+&payment=Paid&status=Delivered&from=2026-11-01&to=2026-11-30&page=2"),
      ),
    ).toEqual({ q: "nora", payment: "Paid", status: "Delivered", from: "2026-11-01", to: "2026-11-30" });
  });

  it("ignores what does not parse in an address, and empty values", () => {
    expect(filtersFromSearch(new URLSearchParams("payment=Free&status=&from=11/01/2026&to=2026-02-31x"))).toEqual({});
    expect(isFiltered({})).toBe(false);
  });

  it("the to-deliver view is Paid and Pending whatever else the address says", () => {
    expect(filtersFromSearch(new URLSearchParams("view=to-deliver&payment=UnPaid&q=a"))).toEqual({
      view: "to-deliver",
      payment: "Paid",
      status: "Pending",
      q: "a",
    });
  });

  it("REST: a bad value is an error naming its field; empty is no filter", () => {
    const bad = orderFiltersSchema.safeParse({ payment: "Free" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["payment"]);
    expect(orderFiltersSchema.safeParse({ from: "2026-13-45" }).success).toBe(false);
    expect(orderFiltersSchema.parse({ payment: "", q: "x", other: "y" })).toEqual({ q: "x" });
  });

  it("writes a view back as an address", () => {
    expect(filtersHref("/total-orders", { q: "n o", payment: "Paid" })).toBe("/total-orders?q=n+o&payment=Paid");
    expect(filtersHref("/total-orders", { view: "to-deliver", payment: "Paid", status: "Pending" })).toBe(
      "/total-orders?view=to-deliver",
    );
    expect(filtersHref("/total-orders", {})).toBe("/total-orders");
  });
});
