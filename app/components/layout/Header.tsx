import { StrokeIcon } from "../StrokeIcon";
import { useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { CloseButton, useModalDialog } from "../Modal";
import { ContentImage } from "../media/ContentImage";

export const NAV_LINKS = [
  { label: "Home", to: "/" },
  { label: "Our Services", to: "/#service-sec" },
  { label: "Why Choose Us", to: "/#who-sec" },
  { label: "Testimonials", to: "/#testi-sec" },
  { label: "Contact Us", to: "/#contact-sec" },
] as const;

export interface HeaderUser {
  isAdmin: boolean;
}

interface HeaderProps {
  logo: string | undefined;
  siteName: string;
  user: HeaderUser | null;
}

export function Header({ logo, siteName, user }: HeaderProps) {
  const location = useLocation();
  // The menu is open at one location: any navigation (a link in it, the sign-out form) closes it.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.key;

  const accountLinks = user ? (
    <>
      <Link to="/dashboard" className="btn-dark px-4 py-2.5 xl:px-5">
        Dashboard
      </Link>
      {user.isAdmin ? (
        <Link to="/admin" className="btn-outline px-4 py-2.5 xl:px-5">
          Admin
        </Link>
      ) : null}
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

  return (
    <header className="sticky top-0 z-40 border-b border-linen/70 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/80">
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
          {NAV_LINKS.map((l) => (
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
          {accountLinks}
        </div>
        <button
          type="button"
          className="inline-flex h-11 w-11 items-center justify-center rounded-full text-forest ring-1 ring-linen lg:hidden"
          aria-label="Open menu"
          aria-expanded={open}
          aria-controls="mobile-menu"
          onClick={() => setOpenAt(location.key)}
        >
          <StrokeIcon>
            <path d="M4 7h16M4 12h16M4 17h16" />
          </StrokeIcon>
        </button>
      </div>
      <MobileMenu open={open} onClose={() => setOpenAt(null)} siteName={siteName}>
        {accountLinks}
      </MobileMenu>
    </header>
  );
}

/**
 * The overlay menu on small screens (max 400 px, 90% wide): a native modal dialog that closes on a link click,
 * the close button, a click on the backdrop, or Escape.
 */
function MobileMenu({
  open,
  onClose,
  siteName,
  children,
}: {
  open: boolean;
  onClose: () => void;
  siteName: string;
  children: React.ReactNode;
}) {
  const ref = useModalDialog(open);
  return (
    <dialog
      ref={ref}
      id="mobile-menu"
      aria-label="Menu"
      onClose={onClose}
      className="m-0 ml-auto h-dvh max-h-dvh w-[90%] max-w-[400px] bg-transparent p-0 backdrop:backdrop-blur-sm open:animate-page-in"
    >
      <div className="flex h-full flex-col bg-white px-6 py-5 shadow-2xl">
        <div className="flex items-center justify-between">
          <span className="font-serif text-lg text-forest">{siteName}</span>
          <CloseButton onClick={onClose} label="Close menu" />
        </div>
        <nav aria-label="Mobile" className="mt-8 flex flex-col">
          {NAV_LINKS.map((l) => (
            <Link
              key={l.to}
              to={l.to}
              onClick={onClose}
              className="border-b border-linen/70 py-4 font-serif text-xl text-forest hover:text-clay"
            >
              {l.label}
            </Link>
          ))}
        </nav>
        <div className="mt-8 flex flex-wrap gap-3">{children}</div>
      </div>
    </dialog>
  );
}
