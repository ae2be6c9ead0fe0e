/**
 * The one script of the plain public pages (decision 027: no React there; decision 051), bundled and minified by the
 * build into a string (`?inline-script`, scripts/inline-script-plugin.mjs) that the root writes at the end of their
 * body, allowed by its hash in the Content-Security-Policy (server/http/security.ts). Everything it does is an
 * improvement on what already works without it:
 *
 * - a click on a link inside the mobile menu (a native popover) closes the menu, so the landing page's in-page
 *   anchors (Our Services, Why Choose Us …) no longer leave it open over the section they scroll to;
 * - a link to the page itself (Home, the logo, on `/`) scrolls back to the top (smoothly, by the page's CSS, where
 *   motion is allowed) instead of loading the page again;
 * - a form marked `data-in-place` (the contact and newsletter forms) is posted in the background, exactly as the
 *   browser would post it; the form is replaced by the one in the server's answer (its field messages, or its
 *   success text and empty fields), and the focus moves to the answer. When anything goes wrong (no answer, no form
 *   in it), the form is posted the plain way, which is what a browser without scripts does anyway;
 * - a table that scrolls sideways (`data-scroll-x`: the DataTable's scroller, on the customer's plain pages) is marked
 *   `data-overflows` while its content is wider than its box, which shows its "Scroll sideways" hint (CSS), as React's
 *   hook does on the pages it runs; measured at once, when the fonts have arrived, and on every resize.
 *
 * Written for every browser that runs `popover` (2024 on); kept small: the landing page's scripts stay under 2 KB.
 */

document.addEventListener("click", (event) => {
  const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a[href]") : null;
  link?.closest<HTMLElement>("[popover]")?.hidePopover?.();
  if (!link || event.defaultPrevented || event.button || event.metaKey || event.ctrlKey || event.shiftKey) return;
  if (event.altKey || link.target) return;
  const here = location;
  if (link.origin === here.origin && link.pathname === here.pathname && link.search === here.search && !link.hash) {
    event.preventDefault();
    if (here.hash) history.pushState(null, "", link.href);
    scrollTo(0, 0);
  }
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || event.defaultPrevented || !form.hasAttribute("data-in-place")) return;
  event.preventDefault();
  const button = form.querySelector<HTMLButtonElement>("[type=submit]");
  if (button) button.disabled = true;
  form.ariaBusy = "true";
  const body = new URLSearchParams(new FormData(form) as unknown as Record<string, string>);
  fetch(form.action, { method: "POST", body })
    .then((answer) => answer.text())
    .then((html) => {
      const next = new DOMParser().parseFromString(html, "text/html").getElementById(form.id);
      if (!next) throw new Error("no form in the answer");
      form.replaceWith(next);
      const focus = next.querySelector<HTMLElement>("[role=alert],[role=status],[aria-invalid=true]");
      if (focus) {
        focus.tabIndex = -1;
        focus.focus();
      }
    })
    .catch(() => form.submit());
});

const markOverflows = () => {
  for (const scroller of document.querySelectorAll("[data-scroll-x]"))
    scroller.toggleAttribute("data-overflows", scroller.scrollWidth > scroller.clientWidth + 1);
};
markOverflows();
void document.fonts.ready.then(markOverflows);
addEventListener("resize", markOverflows);
