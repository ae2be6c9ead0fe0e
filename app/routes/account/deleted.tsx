import { Link } from "react-router";
import type { Route } from "./+types/deleted";
import { AuthCard } from "#app/components/AuthCard.tsx";

export const meta: Route.MetaFunction = () => [{ title: "Account deleted" }, { name: "robots", content: "noindex" }];

/** Where a deleted account lands, signed out: the same words for everyone (nothing here says who it was). */
export default function AccountDeleted() {
  return (
    <AuthCard title="Your account has been deleted" subtitle="You are signed out, and we have erased your data.">
      <p className="text-sm text-ink/80">
        Orders you paid stay in our accounts, without your name, email or address. Thank you for having been with us.
      </p>
      <p className="mt-6">
        <Link to="/" className="btn-dark w-full">
          Back to the home page
        </Link>
      </p>
    </AuthCard>
  );
}
