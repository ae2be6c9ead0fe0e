import type { ReactNode } from "react";
import { useRouteLoaderData } from "react-router";
import type { RootData } from "#app/root.tsx";

/**
 * The back office's frame for a staff member who is not signed in yet (their invitation's page): the back office's
 * colours and name, no marketing header or footer, no customer links (issue 33, item 14).
 */
export function StaffCard({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  const root = useRouteLoaderData<RootData>("root");
  return (
    <main id="main" className="flex min-h-dvh flex-col bg-sand/50">
      <div className="bg-forest px-5 py-4 text-white">
        <p className="font-serif text-lg">
          {root?.siteName ?? "Studio"}
          <span className="ml-2 align-middle font-sans text-xs font-medium text-white/60">Back office</span>
        </p>
      </div>
      <div className="flex flex-1 justify-center px-4 py-12 sm:py-20">
        <div className="w-full max-w-md">
          <div className="rounded-2xl bg-white p-8 ring-1 ring-linen sm:p-10">
            <h1 className="text-3xl text-forest">{title}</h1>
            {lead ? <p className="mt-2 text-sm text-mist">{lead}</p> : null}
            <div className="mt-8">{children}</div>
          </div>
        </div>
      </div>
    </main>
  );
}
