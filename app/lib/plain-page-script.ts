/**
 * The one script of the plain public pages (decision 027: no React there; decision 051), written inline at the end
 * of their body and allowed by its hash in the Content-Security-Policy (the page handler hashes every inline script
 * it sends: server/http/security.ts). Everything it does is an improvement on what already works without it:
 *
 * - a click on a link inside the mobile menu (a native popover) closes the menu, so the landing page's in-page
 *   anchors (Our Services, Why Choose Us …) no longer leave it open over the section they scroll to;
 * - a link to the page itself (Home, the logo, on `/`) scrolls back to the top (smoothly, by the page's CSS, where
 *   motion is allowed) instead of loading the page again;
 * - a form marked `data-in-place` (the contact and newsletter forms) is posted in the background, exactly as the
 *   browser would post it; the form is replaced by the one in the server's answer (its field messages, or its
 *   success text and empty fields), and the focus moves to the answer. When anything goes wrong (no answer, no form
 *   in it), the form is posted the plain way, which is what a browser without scripts does anyway.
 *
 * - a table that scrolls sideways (`data-scroll-x`: the DataTable's scroller, on the customer's plain pages) is marked
 *   `data-overflows` while its content is wider than its box, which shows its "Scroll sideways" hint (CSS), as React's
 *   hook does on the pages it runs; measured at once, when the fonts have arrived, and on every resize.
 *
 * Written for every browser that runs `popover` (2024 on); kept small: the landing page's scripts stay under 2 KB.
 * The source below is one statement per line; line breaks and indentation are taken out before it is sent.
 */
const SOURCE = `
((d,l)=>{
d.addEventListener("click",e=>{
let a=e.target.closest("a[href]"),m=a&&a.closest("[popover]");
if(m&&m.hidePopover)m.hidePopover();
if(!a||e.defaultPrevented||e.button||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey||a.target)return;
if(a.origin==l.origin&&a.pathname==l.pathname&&a.search==l.search&&!a.hash){
e.preventDefault();
if(l.hash)history.pushState(null,"",a.href);
scrollTo(0,0)
}
});
d.addEventListener("submit",e=>{
let f=e.target,b=f.querySelector("[type=submit]");
if(e.defaultPrevented||!f.hasAttribute("data-in-place"))return;
e.preventDefault();
if(b)b.disabled=true;
f.ariaBusy="true";
fetch(f.action,{method:"POST",body:new URLSearchParams(new FormData(f))}).then(r=>r.text()).then(t=>{
let n=new DOMParser().parseFromString(t,"text/html").getElementById(f.id),x;
if(!n)throw 0;
f.replaceWith(n);
x=n.querySelector("[role=alert],[role=status],[aria-invalid=true]");
if(x){x.tabIndex=-1;x.focus()}
}).catch(()=>f.submit())
});
let o=()=>{for(let e of d.querySelectorAll("[data-scroll-x]"))e.toggleAttribute("data-overflows",e.scrollWidth>e.clientWidth+1)};
o();
d.fonts.ready.then(o);
addEventListener("resize",o)
})(document,location)`;

/** The script as sent: the source without its line breaks and indentation. */
export const PLAIN_PAGE_SCRIPT = SOURCE.replace(/\n\s*/g, "");
