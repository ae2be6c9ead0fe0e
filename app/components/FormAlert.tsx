import type { ReactNode } from "react";

/** A form's answer written in the page: an error (role alert) or a success (role status). */
export function FormAlert({ children, tone = "error" }: { children: ReactNode; tone?: "error" | "success" }) {
  return (
    <p
      role={tone === "error" ? "alert" : "status"}
      className={`mb-6 rounded-xl px-4 py-3 text-sm ${tone === "error" ? "bg-red-50 text-red-800 ring-1 ring-red-200" : "bg-forest/5 text-forest ring-1 ring-forest/15"}`}
    >
      {children}
    </p>
  );
}
