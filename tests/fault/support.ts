import { readFileSync } from "node:fs";
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ROOT } from "../support/server";

/** Long runs (FAULT_LONG=1) repeat the fault loops as often as the outside probe did; CI keeps a short default. */
export const LONG = process.env.FAULT_LONG === "1" || process.env.FAULT_LONG === "true";

/** A signed-in session's Cookie header, from a better-auth answer. */
export function cookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

export async function signUp(url: string, email: string, password = "quiet-harbour-71"): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, name: "", acceptTerms: true }),
  });
  if (!res.ok) throw new Error(`sign-up ${email}: ${res.status} ${await res.text()}`);
  return cookieOf(res);
}

export async function signIn(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in ${email}: ${res.status} ${await res.text()}`);
  return cookieOf(res);
}

/** Resident memory of a process, in MB (Linux). */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"))!;
  return Number(line.replace(/\D+/g, "")) / 1024;
}

/** Starts the built server and waits for it to exit, whatever it prints (for starts that must refuse). */
export function runBuiltServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; output: string; child: ChildProcess }> {
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(process.execPath, [path.join(ROOT, "build/server/main.js")], {
      cwd: ROOT,
      env: { ...process.env, HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output, child });
    });
  });
}
