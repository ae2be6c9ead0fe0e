import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { SimulatorButton, SimulatorCard, SimulatorForm, simulatorMeta } from "./SimulatorCard";

/** A simulator page drawn with the shared pieces, inside a router as the pages are (their forms need one). */
function render(
  answer: { error: string | null; done: string | null } | undefined,
  what: "checkout" | "subscription" = "checkout",
) {
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => (
        <SimulatorCard
          what={what}
          number="0042"
          facts={
            <div>
              <dt>Total</dt>
              <dd>$10.00 USD</dd>
            </div>
          }
          factsData={{ "data-testid": "facts", "data-status": "ACTIVE" }}
          answer={answer}
        >
          <SimulatorForm name="token" value="5O190127TN364715T">
            <SimulatorButton intent="paypal" look="primary">
              Pay with PayPal
            </SimulatorButton>
            <SimulatorButton intent="cancel">Cancel and return to the merchant</SimulatorButton>
          </SimulatorForm>
        </SimulatorCard>
      ),
    },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={["/"]} />);
}

describe("the PayPal simulator's pages' shared pieces", () => {
  it("say it is a test in PayPal's look: no money moves, never indexed", () => {
    const html = render(undefined);
    expect(html).toContain("Built-in test checkout (PAYPAL_MODE=simulator). No money moves.");
    expect(render(undefined, "subscription")).toContain(
      "Built-in test subscription (PAYPAL_MODE=simulator). No money moves.",
    );
    expect(simulatorMeta("the subscription")).toEqual([
      { title: "PayPal simulator: the subscription" },
      { name: "robots", content: "noindex" },
    ]);
  });

  it("list the order's number first, then the page's facts, with the list's data attributes", () => {
    const html = render(undefined);
    expect(html).toContain('<dl class="mt-6 space-y-3 text-sm" data-testid="facts" data-status="ACTIVE">');
    expect(html.indexOf(">0042</dd>")).toBeLessThan(html.indexOf("$10.00 USD"));
  });

  it("say the last answer: a refusal as an alert, what PayPal did as a status, nothing before a button", () => {
    expect(render({ error: "This PayPal order has no return address.", done: null })).toMatch(
      /role="alert">This PayPal order has no return address\.<\/p>/,
    );
    const done = render({ error: null, done: "PayPal took the next period's payment." });
    expect(done).toContain('role="status" data-testid="sim-done"');
    expect(done).toContain("PayPal took the next period&#x27;s payment. Its webhook is on its way to the shop.");
    const none = render(undefined);
    expect(none).not.toContain('role="alert"');
    expect(none).not.toContain('role="status"');
  });

  it("post their form with the PayPal id and the button's intent", () => {
    const html = render(undefined);
    expect(html).toContain('<input type="hidden" name="token" value="5O190127TN364715T"/>');
    /** The attributes of the button that says `text` (React writes them in its own order). */
    const button = (text: string) => {
      const tag = new RegExp(`<button ([^>]*)>${text}</button>`).exec(html)?.[1] ?? "";
      return Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    };
    expect(button("Pay with PayPal")).toEqual({
      type: "submit",
      name: "intent",
      value: "paypal",
      class: "w-full rounded-full py-3 font-semibold bg-[#0070ba] text-white hover:bg-[#005ea6]",
    });
    expect(button("Cancel and return to the merchant")).toEqual({
      type: "submit",
      name: "intent",
      value: "cancel",
      class: "w-full rounded-full py-3 font-semibold text-sm text-[#0070ba] ring-1 ring-[#0070ba] hover:bg-sky-50",
    });
  });
});
