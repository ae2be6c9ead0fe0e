import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { ErrorPanel } from "./ErrorPanel";

/** A route error response as React Router hands it to a boundary. */
const response = (status: number, data: unknown) => ({ status, statusText: "", internal: false, data });
const render = (error: unknown) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <ErrorPanel error={error} />
    </MemoryRouter>,
  );

describe("the error panel", () => {
  it("shows a 500's reference, the request's id the log lines carry", () => {
    const html = render(response(500, { message: "Something went wrong", reference: "Xk3_a9Zq-1f4" }));
    expect(html).toContain("Error 500");
    expect(html).toContain("Reference: <code");
    expect(html).toContain(">Xk3_a9Zq-1f4</code>");
  });

  it("shows none for a refusal, or an error without one", () => {
    expect(render(response(404, { message: "No such page", reference: "x-1" }))).not.toContain("Reference");
    expect(render(response(500, { message: "Something went wrong" }))).not.toContain("Reference");
    expect(render(new Error("thrown while rendering"))).not.toContain("Reference");
  });

  it("speaks to staff in the back office: their refusal and ways, never the public Contact Us (issue 33, item 14)", () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <ErrorPanel
          error={response(403, { message: "Forbidden" })}
          refusal="Your role, Editor, does not open this page."
          ways={[{ to: "/setting", label: "Back to the back office" }]}
        />
      </MemoryRouter>,
    );
    expect(html).toContain("Your role, Editor, does not open this page.");
    expect(html).toContain('href="/setting"');
    expect(html).not.toContain("Contact Us");
    expect(render(response(403, { message: "Forbidden" }))).toContain("Contact Us");
  });
});
