import { StrokeIcon } from "./StrokeIcon";
import { useId } from "react";
import { Link } from "react-router";
import type { CatalogueItem, LockedItem } from "#server/services/catalogue.ts";

export type ItemsGridProps = ({ access: true; items: CatalogueItem[] } | { access: false; items: LockedItem[] }) & {
  /** An administrator looks: an empty catalogue says where to stock it. */
  manage?: boolean;
  /** Paid, waiting for the studio's activation: locked cards say the items open soon, with no offer to buy. */
  waiting?: boolean;
};

/**
 * The dashboard's Items: every item's name; members and admins get a Guidelines tooltip and an Access link to the
 * generator, everyone else a locked overlay that leads to the plans (or, for a customer whose payment waits for
 * activation, says the items open then). The server sends nothing usable to the latter.
 */
export function ItemsGrid(props: ItemsGridProps) {
  return (
    <section className="mt-10" aria-labelledby="items-title" data-testid="items-grid" data-access={props.access}>
      <h2 id="items-title" className="font-serif text-2xl text-forest">
        Items
      </h2>
      {props.items.length === 0 ? (
        <p className="mt-4 rounded-2xl bg-white px-6 py-8 text-center text-sm text-mist ring-1 ring-linen">
          No items are available yet.
          {props.manage ? (
            <>
              {" "}
              Add one per category in{" "}
              <Link to="/items-management" className="font-semibold text-clay underline underline-offset-4">
                Items management
              </Link>
              .
            </>
          ) : null}
        </p>
      ) : (
        <ul className="mt-4 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {props.access
            ? props.items.map((item) => <OpenCard key={item._id} item={item} />)
            : props.items.map((item) => <LockedCard key={item._id} item={item} waiting={props.waiting} />)}
        </ul>
      )}
    </section>
  );
}

function EnvelopeIcon() {
  return (
    <span className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-forest/5 text-forest">
      <StrokeIcon strokeWidth={1.8}>
        <rect x="3" y="5" width="18" height="14" rx="2" />
        <path d="M3.5 6.5 12 13l8.5-6.5" />
      </StrokeIcon>
    </span>
  );
}

function OpenCard({ item }: { item: CatalogueItem }) {
  const tipId = useId();
  return (
    <li data-testid="item-card" className="flex flex-col rounded-2xl bg-white p-6 ring-1 ring-linen">
      <div className="flex items-start gap-4">
        <EnvelopeIcon />
        <h3 className="pt-2 font-serif text-xl leading-snug text-forest">{item.itemName}</h3>
      </div>
      <p className="mt-3 line-clamp-3 text-sm leading-relaxed text-mist">{item.itemsDescription}</p>
      <div className="mt-auto flex items-center justify-between gap-3 pt-6">
        <span className="group relative">
          <button
            type="button"
            aria-describedby={tipId}
            className="inline-flex items-center gap-1.5 rounded-full px-3 py-2 text-sm font-semibold text-forest ring-1 ring-linen hover:bg-sand focus-visible:bg-sand"
          >
            <svg
              width="16"
              height="16"
              viewBox="0 0 24 24"
              aria-hidden="true"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <circle cx="12" cy="12" r="9" />
              <path d="M12 11v5M12 8h.01" strokeLinecap="round" />
            </svg>
            Guidelines
          </button>
          <span
            id={tipId}
            role="tooltip"
            className="invisible absolute bottom-full left-0 z-20 mb-2 w-[250px] rounded-xl bg-forest px-4 py-3 text-xs leading-relaxed whitespace-pre-line text-white opacity-0 shadow-lg transition-opacity group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100"
          >
            {item.itemsGuideline}
          </span>
        </span>
        <Link to={`/item/${item._id}`} className="btn-primary px-5 py-2">
          Access
        </Link>
      </div>
    </li>
  );
}

/** What a locked card says to a customer whose paid membership waits for activation. */
export const WAITING_CARD_TEXT = "Your items open when your membership is activated";

function LockedCard({ item, waiting = false }: { item: LockedItem; waiting?: boolean }) {
  return (
    <li
      data-testid="item-card"
      className="relative flex flex-col overflow-hidden rounded-2xl bg-white ring-1 ring-linen"
    >
      <div className="flex items-start gap-4 p-6 pb-0">
        <EnvelopeIcon />
        <h3 className="pt-2 font-serif text-xl leading-snug text-forest">{item.itemName}</h3>
      </div>
      <div className="relative mt-4 min-h-36 flex-1">
        <p aria-hidden="true" className="line-clamp-3 px-6 text-sm leading-relaxed text-mist blur-[3px] select-none">
          {item.itemsDescription}
        </p>
        <div
          data-testid="item-lock"
          className="absolute inset-0 flex flex-col items-center justify-center gap-1 bg-white/70 px-6 py-5 text-center backdrop-blur-[2px]"
        >
          <StrokeIcon className="text-clay">
            <rect x="5" y="11" width="14" height="10" rx="2" />
            <path d="M8 11V8a4 4 0 0 1 8 0v3" />
          </StrokeIcon>
          {waiting ? (
            <p className="mt-1 font-serif text-lg text-forest">{WAITING_CARD_TEXT}</p>
          ) : (
            <>
              <p className="mt-1 font-serif text-lg text-forest">Premium Access Required</p>
              <p className="text-xs text-mist">Purchase a membership to unlock</p>
            </>
          )}
        </div>
      </div>
      {waiting ? null : (
        <div className="relative bg-white px-6 pt-2 pb-6 text-center">
          <Link to="/pricing" className="btn-dark px-5 py-2">
            Upgrade Membership
          </Link>
        </div>
      )}
    </li>
  );
}
