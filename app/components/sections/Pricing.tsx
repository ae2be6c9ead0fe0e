import { Link, useRouteLoaderData } from "react-router";
import type { Currency } from "#domain/currency.ts";
import type { SectionProps } from "./props";
import { formatPrice, isPopular, visiblePoints } from "#app/lib/pricing.ts";
import { Section } from "./Section";

export function Pricing({ records: packages, titleAs }: SectionProps<"pricing">) {
  const currency = useRouteLoaderData<{ currency?: Currency }>("root")?.currency;
  if (packages.length === 0) return null;
  // Card titles sit one level below the section title (h1 on /pricing, h2 on the landing page).
  const CardTitle = titleAs === "h1" ? "h2" : "h3";
  return (
    <Section
      id="pricing-sec"
      tone="sand"
      eyebrow="Membership plans"
      title="Best Pricing For Business"
      lead="Choose the membership that fits your pipeline. Every plan unlocks our cold-email generators for the length of its validity."
      titleAs={titleAs}
    >
      <ul className="grid items-stretch gap-6 lg:grid-cols-3">
        {packages.map((pkg) => {
          const popular = isPopular(pkg);
          return (
            <li
              key={pkg._id}
              data-testid="pricing-card"
              className={`relative flex flex-col rounded-3xl p-8 ${
                popular
                  ? "bg-forest text-white shadow-2xl shadow-forest/30 lg:-my-4 lg:py-12"
                  : "bg-white ring-1 ring-linen"
              }`}
            >
              {popular ? (
                <span className="absolute top-6 right-6 rounded-full bg-clay px-3 py-1 text-xs font-semibold tracking-wide text-white">
                  Popular
                </span>
              ) : null}
              <CardTitle className={`text-2xl ${popular ? "text-white" : "text-forest"}`}>{pkg.packageName}</CardTitle>
              <p className="mt-5 flex items-baseline gap-1">
                <span className="font-serif text-5xl">{formatPrice(pkg.packagePrice, currency)}</span>
                <span className={popular ? "text-white/70" : "text-mist"}>/month</span>
              </p>
              <p className={`mt-2 text-sm ${popular ? "text-brass" : "text-clay"}`}>
                Valid for {pkg.packageValidity} days
              </p>
              <ul className={`mt-7 flex-1 space-y-3 text-sm ${popular ? "text-white/85" : "text-ink/80"}`}>
                {visiblePoints(pkg).map((point, i) => (
                  <li key={i} className="flex gap-3">
                    <svg
                      className={`mt-0.5 h-4 w-4 shrink-0 ${popular ? "text-brass" : "text-clay"}`}
                      viewBox="0 0 20 20"
                      fill="currentColor"
                      aria-hidden="true"
                    >
                      <path d="M7.6 13.2 4.4 10l-1.2 1.2 4.4 4.4 9.2-9.2-1.2-1.2z" />
                    </svg>
                    {point}
                  </li>
                ))}
              </ul>
              <Link to={`/order-now/${pkg._id}`} className={`${popular ? "btn-primary" : "btn-dark"} mt-9 w-full`}>
                {pkg.packageButtonText}
              </Link>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
