import { StrokeIcon } from "../StrokeIcon";
import { useEffect, useRef } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { ContentImage } from "../media/ContentImage";

export const NAV_LINKS = [
  { label: "Home", to: "/" },
  { label: "Our Services", to: "/#service-sec" },
  { label: "Why Choose Us", to: "/#who-sec" },
  { label: "Testimonials", to: "/#testi-sec" },
  { label: "Contact Us", to: "/#contact-sec" },
] as const;

/** The Blog link, in the bar and the menu once an article is published (before "Contact Us"). */
export const BLOG_LINK = { label: "Blog", to: "/blog" } as const;

/** The header's links: the fixed ones, with the Blog link when there is a blog. */
export function navLinks(blog: boolean): readonly { label: string; to: string }[] {
  return blog ? [...NAV_LINKS.slice(0, -1), BLOG_LINK, ...NAV_LINKS.slice(-1)] : NAV_LINKS;
}

export interface HeaderUser {
  isAdmin: boolean;
}

interface HeaderProps {
  logo: string | undefined;
  siteName: string;
  user: HeaderUser | null;
  /** Whether an article is published (the root's data). */
  blog?: boolean;
}

/** Dashboard, Admin, My account and Sign Out for a signed-in person; Login for anyone else. In the bar and the menu. */
function AccountLinks({ user }: { user: HeaderUser | null }) {
  return user ? (
    <>
      <Link to="/dashboard" className="btn-dark px-4 py-2.5 xl:px-5">
        Dashboard
      </Link>
      {user.isAdmin ? (
        <Link to="/admin" className="btn-outline px-4 py-2.5 xl:px-5">
          Admin
        </Link>
      ) : null}
      {/* From 1280 px in the bar (below, the header is full: the dashboard links to it); always in the menu. */}
      <Link
        to="/account"
        data-in-menu
        className="hidden px-2 py-2.5 text-sm font-medium text-ink/70 hover:text-clay xl:inline-block"
      >
        My account
      </Link>
      <Form method="post" action="/logout">
        <button type="submit" className="px-2 py-2.5 text-sm font-medium text-ink/70 hover:text-clay">
          Sign Out
        </button>
      </Form>
    </>
  ) : (
    <Link to="/login" className="btn-dark px-5 py-2.5">
      Login
    </Link>
  );
}

export function Header({ logo, siteName, user, blog = false }: HeaderProps) {
  const links = navLinks(blog);

  return (
    <header className="sticky top-0 print:hidden z-40 border-b border-linen/70 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/80">
      <div className="container-page flex h-18 items-center justify-between gap-4 py-3 xl:gap-6">
        <Link to="/" className="flex shrink-0 items-center" aria-label={`${siteName}, home`}>
          {logo ? (
            <ContentImage
              src={logo}
              alt={siteName}
              sizes="180px"
              width={180}
              height={48}
              priority
              className="h-10 w-auto"
            />
          ) : (
            <span className="font-serif text-xl text-forest">{siteName}</span>
          )}
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-4 lg:flex xl:gap-7">
          {links.map((l) => (
            <NavLink
              key={l.to}
              to={l.to}
              end
              className="text-sm font-medium whitespace-nowrap text-ink/80 transition-colors hover:text-clay"
            >
              {l.label}
            </NavLink>
          ))}
        </nav>
        <div className="hidden items-center gap-2 whitespace-nowrap lg:flex xl:gap-3" data-testid="header-account">
          <AccountLinks user={user} />
        </div>
        {/* A native popover: opens, closes (Escape, a tap outside, the close button) and announces its state without
            any script, so it works on the public pages, which are sent without JavaScript. */}
        <button
          type="button"
          className="inline-flex h-11 w-11 items-center justify-center rounded-full text-forest ring-1 ring-linen lg:hidden"
          aria-label="Open menu"
          popoverTarget="mobile-menu"
        >
          <StrokeIcon>
            <path d="M4 7h16M4 12h16M4 17h16" />
          </StrokeIcon>
        </button>
      </div>
      <MobileMenu siteName={siteName} links={links}>
        <AccountLinks user={user} />
      </MobileMenu>
    </header>
  );
}

/**
 * The overlay menu on small screens (max 400 px, 90% wide): a native popover that closes on Escape, a tap outside it,
 * the close button, and any navigation. A link to another page loads that page; where React runs (customer area,
 * back office), it closes when the browser's navigation lands.
 */
function MobileMenu({
  siteName,
  links,
  children,
}: {
  siteName: string;
  links: readonly { label: string; to: string }[];
  children: React.ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const location = useLocation();
  useEffect(() => {
    if (ref.current?.matches(":popover-open")) ref.current.hidePopover();
  }, [location.key]);
  return (
    <div
      ref={ref}
      id="mobile-menu"
      popover="auto"
      role="dialog"
      aria-label="Menu"
      className="fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-dvh w-[90%] max-w-[400px] border-0 bg-transparent p-0 backdrop:bg-ink/10 backdrop:backdrop-blur-sm open:animate-page-in"
    >
      <div className="flex h-full flex-col bg-white px-6 py-5 shadow-2xl">
        <div className="flex items-center justify-between">
          <span className="font-serif text-lg text-forest">{siteName}</span>
          <button
            type="button"
            popoverTarget="mobile-menu"
            popoverTargetAction="hide"
            aria-label="Close menu"
            className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full text-forest ring-1 ring-linen hover:bg-sand"
          >
            <StrokeIcon size={18}>
              <path d="M6 6l12 12M18 6L6 18" />
            </StrokeIcon>
          </button>
        </div>
        <nav aria-label="Mobile" className="mt-8 flex flex-col">
          {links.map((l) => (
            <Link
              key={l.to}
              to={l.to}
              className="border-b border-linen/70 py-4 font-serif text-xl text-forest hover:text-clay"
            >
              {l.label}
            </Link>
          ))}
        </nav>
        <div className="mt-8 flex flex-wrap gap-3 [&_[data-in-menu]]:inline-block">{children}</div>
      </div>
    </div>
  );
}
