import { describe, expect, it } from "vitest";
import type { SessionState } from "../features/auth/session-state.ts";
import { guard } from "./guard.ts";
import { safeReturnPath } from "./paths.ts";

const user = { name: "users/ann", loginId: "ann", title: "Ann" } as never;
const signedOut: SessionState = { status: "signed-out" };
const signedIn: SessionState = { status: "signed-in", user };
const mustChange: SessionState = { status: "signed-in", user, restriction: "password-change" };

describe("guard", () => {
  it("waits for the session before deciding a private page, but shows the public ones at once", () => {
    expect(guard({ status: "loading" }, "/issues", "")).toEqual({ kind: "wait" });
    expect(guard({ status: "loading" }, "/auth/password-reset", "?token=t")).toEqual({ kind: "show" });
  });

  it("sends a signed-out visitor to sign in, carrying the page asked for", () => {
    expect(guard(signedOut, "/issues", "?view=mine")).toEqual({ kind: "redirect", to: "/auth/sign-in?redirect=%2Fissues%3Fview%3Dmine" });
    expect(guard(signedOut, "/", "")).toEqual({ kind: "redirect", to: "/auth/sign-in" });
    expect(guard(signedOut, "/auth/sign-in", "?redirect=%2Fissues")).toEqual({ kind: "show" });
    expect(guard(signedOut, "/auth/password-change", "")).toEqual({ kind: "redirect", to: "/auth/sign-in" });
    expect(guard({ status: "signed-out", reason: "expired" }, "/issues", "")).toEqual({ kind: "redirect", to: "/auth/sign-in?redirect=%2Fissues" });
    expect(guard({ status: "signed-out", reason: "signed-out" }, "/issues", "")).toEqual({ kind: "redirect", to: "/auth/sign-in" });
  });

  it("keeps a restricted session on its one page, remembering where it was going", () => {
    expect(guard(mustChange, "/projects", "")).toEqual({ kind: "redirect", to: "/auth/password-change?redirect=%2Fprojects" });
    expect(guard(mustChange, "/auth/sign-in", "?redirect=%2Fissues")).toEqual({
      kind: "redirect",
      to: "/auth/password-change?redirect=%2Fissues",
    });
    expect(guard(mustChange, "/auth/password-change", "")).toEqual({ kind: "show" });
    expect(guard({ ...mustChange, restriction: "mfa-enrollment" }, "/auth/password-change", "")).toEqual({
      kind: "redirect",
      to: "/auth/mfa-enrollment",
    });
  });

  it("moves a whole session off the sign-in pages to where it was going", () => {
    expect(guard(signedIn, "/auth/sign-in", "?redirect=%2Fprojects")).toEqual({ kind: "redirect", to: "/projects" });
    expect(guard(signedIn, "/auth/password-change", "")).toEqual({ kind: "redirect", to: "/" });
    expect(guard(signedIn, "/issues", "")).toEqual({ kind: "show" });
  });

  it("never returns to another site", () => {
    expect(guard(signedIn, "/auth/sign-in", "?redirect=https%3A%2F%2Fevil.example")).toEqual({ kind: "redirect", to: "/" });
    expect(safeReturnPath("//evil.example/x")).toBe("/");
    expect(safeReturnPath("/\\evil.example")).toBe("/");
    expect(safeReturnPath("/issues?x=1")).toBe("/issues?x=1");
  });
});
