import type { ReactElement } from "react";
import type { Brand } from "../brand";
import type { MailData, MailKind } from "../kinds";

/** What a template is given besides its data. */
export interface MailContext {
  brand: Brand;
  timeZone: string;
  /** An absolute address on the site for a path ("/pricing"). */
  url(path: string): string;
}

/** A rendered mail before it becomes HTML and text: its subject, the React tree, and the one link it is about. */
export interface Draft {
  subject: string;
  body: ReactElement;
  link?: string;
  /** Where a reply goes, when not to us (a contact message: the visitor). */
  replyTo?: string;
}

export type Template<K extends MailKind> = (data: MailData[K], ctx: MailContext) => Draft;
