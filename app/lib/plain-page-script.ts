import PLAIN_PAGE_SCRIPT from "./plain-page-inline.ts?inline-script";

/** The plain public pages' one script, as the build bundles and minifies it (app/lib/plain-page-inline.ts). */
export { PLAIN_PAGE_SCRIPT };
