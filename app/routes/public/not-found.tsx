import { data } from "react-router";
import { STATIC_PAGE } from "#app/lib/hydration.ts";

/** Plain server-rendered HTML, no client JavaScript (docs/decisions/027). */
export const handle = STATIC_PAGE;

export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
