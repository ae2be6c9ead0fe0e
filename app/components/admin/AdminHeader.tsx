import { Link } from "react-router";

/** A back-office page's heading with optional actions on the right. */
export function AdminHeader({
  title,
  lead,
  back,
  actions,
}: {
  title: string;
  lead?: React.ReactNode;
  /** The screen this one belongs to, linked under the title. */
  back?: { to: string; label: string };
  actions?: React.ReactNode;
}) {
  return (
    <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-3xl text-forest">{title}</h1>
        {lead ? <p className="mt-2 text-sm text-mist">{lead}</p> : null}
        {back ? (
          <p className="mt-2 text-sm text-mist">
            <Link to={back.to} className="hover:text-clay">
              ← {back.label}
            </Link>
          </p>
        ) : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}
