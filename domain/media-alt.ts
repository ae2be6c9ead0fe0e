import { z } from "zod";
import { text } from "./fields";
import { MAX_ALT_LENGTH } from "./media";

/** An image's alt text (what a screen reader says; empty for a purely decorative image). */
export const altSchema = z.object({ alt: text("Alt text", MAX_ALT_LENGTH) });
