// Which ways of signing in the sign-in page offers, from the workspace's
// public facts (contract §15.1, §4.2, §4.8). Password sign-in turned off
// still works for administrators (the break-glass path), so the page keeps
// it behind a button rather than removing it.
import type { ActuatorInfo } from "@gen/svc/v1/actuator_service_pb.js";
import type { IdentityProvider } from "@gen/svc/v1/identity_provider_service_pb.js";

export interface SignInMethods {
  /** "open" for everyone, "administrators" when only they may use it. */
  password: "open" | "administrators";
  emailCode: boolean;
  /** Self-service sign-up: it chooses a password, so it needs password sign-in too. */
  signUp: boolean;
}

/** What to offer; without the facts (not yet read, or unreadable) the password alone. */
export function signInMethods(info: ActuatorInfo | undefined): SignInMethods {
  if (!info) return { password: "open", emailCode: false, signUp: false };
  return {
    password: info.disallowPasswordSignin ? "administrators" : "open",
    emailCode: info.allowEmailCodeSignin,
    signUp: !info.disallowSignup && !info.disallowPasswordSignin,
  };
}

export interface SsoLink {
  key: string;
  title: string;
  href: string;
}

/**
 * A link per identity provider to StartSso's REST form, which answers 303 to
 * the provider; the provider's answer signs in and comes back to `back`.
 * Plain links: a navigation, not a form post to another origin.
 */
export function ssoLinks(providers: readonly IdentityProvider[], back: string): SsoLink[] {
  return providers.map((provider) => {
    const id = provider.name.replace(/^idps\//, "");
    return {
      key: provider.name,
      title: provider.title || id,
      href: `/v1/auth/idps/${encodeURIComponent(id)}:start?redirect=${encodeURIComponent(back)}`,
    };
  });
}
