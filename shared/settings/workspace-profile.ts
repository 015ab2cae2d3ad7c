// WORKSPACE_PROFILE as the rest of the service reads it: the stored fields
// with the specification's defaults filled in (contract §7.2).
import type { SettingReader } from "./setting-cache.ts";

export interface SignInOptions {
  title: string;
  externalUrl: string;
  require2fa: boolean;
  disallowSignup: boolean;
  disallowPasswordSignin: boolean;
  allowEmailCodeSignin: boolean;
}

const DEFAULTS: SignInOptions = {
  title: "Workspace",
  externalUrl: "",
  require2fa: false,
  disallowSignup: false,
  disallowPasswordSignin: false,
  allowEmailCodeSignin: false,
};

/** The sign-in facts of the workspace profile; stored values over defaults. */
export async function getSignInOptions(settings: SettingReader): Promise<SignInOptions> {
  const stored = (await settings.get("WORKSPACE_PROFILE")) ?? {};
  const pick = <K extends keyof SignInOptions>(key: K): SignInOptions[K] => {
    const value = stored[key];
    return typeof value === typeof DEFAULTS[key] ? (value as SignInOptions[K]) : DEFAULTS[key];
  };
  return {
    title: pick("title"),
    externalUrl: pick("externalUrl"),
    require2fa: pick("require2fa"),
    disallowSignup: pick("disallowSignup"),
    disallowPasswordSignin: pick("disallowPasswordSignin"),
    allowEmailCodeSignin: pick("allowEmailCodeSignin"),
  };
}
