// What a setting's write does beyond its own checks (contract §7.1). Each
// setting checks its payload's shape itself (setting-catalog.ts); the
// capabilities that own what a payload names add rules of their own: checks
// that need their knowledge (roles, identity providers, review rules,
// approval conditions, environments in use) and reactions to a stored change
// (the emergency pause, the maintenance window, the e-mail domain report).
// Each capability lists its rules in one function (e.g. changeSettingRules);
// the process that serves UpdateSetting hands them all to every write, so
// settings imports none of their owners.
import type { Message } from "@bufbuild/protobuf";
import type { CommonQueryMethods } from "slonik";
import type { Logger } from "../../platform/index.ts";
import type { SettingName, SettingPayloads } from "./setting-payloads.ts";

/** The write a hook acts in. */
export interface SaveContext {
  /** The write's transaction (the setting's row is locked in it). */
  tx: CommonQueryMethods;
  /** Who writes (users/<login id>). */
  updater: string;
  /** The --external-url flag, which wins over WORKSPACE_PROFILE.external_url. */
  externalUrlFlag: string | undefined;
  /** The call's log, for what a write finds worth a warning. */
  logger: Logger;
}

/** What a stored write found, added to its bb.settings.set record's detail. */
export type SaveFacts = Record<string, unknown> | undefined | void;

/** The steps of a write, in order: beforeSave, validate, store, afterSave. */
export interface SettingHooks<M extends Message = Message> {
  /** Adjusts (or refuses) the merged payload of a write, before it is validated and stored. */
  beforeSave?(current: M, next: M, context: SaveContext): void | Promise<void>;
  /** Checks a payload about to be stored; may normalize it (durations, role names). */
  validate?(value: M, context: SaveContext): void | Promise<void>;
  /** Acts on a stored write (`before` and `after` effective values). */
  afterSave?(before: M, after: M, context: SaveContext): SaveFacts | Promise<SaveFacts>;
}

export interface SettingRule {
  setting: SettingName;
  hooks: SettingHooks;
}

/** Every capability's rules, as the process composes them. */
export type SettingRules = readonly SettingRule[];

/** A rule for one setting, its hooks typed by that setting's payload. */
export function settingRule<N extends SettingName>(setting: N, hooks: SettingHooks<SettingPayloads[N]>): SettingRule {
  return { setting, hooks: hooks as SettingHooks };
}

/** The setting's own hooks first, then the rules of other capabilities in the order given. */
export function hooksOf(setting: SettingName, own: SettingHooks, rules: SettingRules): SettingHooks[] {
  return [own, ...rules.filter((rule) => rule.setting === setting).map((rule) => rule.hooks)];
}
