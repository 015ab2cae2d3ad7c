// Whether a PENDING task run may start now (contract §12.2, §12.7, §12.8),
// and otherwise why not: the Task.waiting_reason GetRollout shows, and what
// the worker does with a run it cannot start yet (wait for retryAt, or for
// the change that lifts the reason to re-enqueue it). Checked in order:
// emergency pause, rollout paused, maintenance window, plan check errors,
// database busy; so the emergency pause wins over the window.
import type { CommonQueryMethods } from "slonik";
import type { ClaimAnswer } from "./store/run-transitions.store.ts";
import { emergencyPauseReason, readSetting, type SettingReader } from "../../governance/index.ts";
import { maintenanceSchedule, nextOpening } from "./maintenance-window.ts";
import { findGateFacts, type GateFacts } from "./start-gate.store.ts";

export type Gate = { open: true } | { open: false; reason: string; retryAt?: Date };

const OPEN: Gate = { open: true };

/**
 * What the settings let a run about to be claimed do: the emergency pause
 * (read again by the statement that starts the run, under its row's lock)
 * and the maintenance window, with its next opening when it is closed.
 */
export async function settingsGateOfClaim(settings: SettingReader, now = new Date()): Promise<Gate> {
  const bySettings = await settingsGate(settings, now);
  if (!bySettings.open) return bySettings;
  return bySettings.opensAt ? windowClosed(bySettings.opensAt) : OPEN;
}

/** Why a run the claim's statement did not start waits, from what that statement read; undefined when it lacks only a slot of its rollout. */
export async function claimWaitReason(answer: ClaimAnswer): Promise<string | undefined> {
  if (answer.paused) return `emergency pause: ${(await emergencyPauseReason({ get: async () => answer.pause })) ?? ""}`;
  const gate = gateOf(answer.facts, undefined);
  return gate.open ? undefined : gate.reason;
}

/** Why each given task (with a PENDING run) waits, in one query; tasks that may start have no entry. */
export async function waitingReasons(db: CommonQueryMethods, settings: SettingReader, taskIds: readonly number[], now = new Date()): Promise<Map<number, string>> {
  const bySettings = await settingsGate(settings, now);
  if (!bySettings.open) return new Map(taskIds.map((id) => [id, bySettings.reason]));
  const facts = await findGateFacts(db, taskIds);
  const reasons = new Map<number, string>();
  for (const id of taskIds) {
    const found = facts.get(id);
    if (!found) throw new Error(`start gate: task ${id} does not exist`);
    const gate = gateOf(found, bySettings.opensAt);
    if (!gate.open) reasons.set(id, gate.reason);
  }
  return reasons;
}

/** What the settings decide for every task: closed by the emergency pause, or open as far as they go, with the maintenance window's next opening when it is closed. */
async function settingsGate(settings: SettingReader, now: Date): Promise<{ open: false; reason: string } | { open: true; opensAt: Date | undefined }> {
  const pause = await emergencyPauseReason(settings);
  if (pause !== undefined) return { open: false, reason: `emergency pause: ${pause}` };
  const schedule = maintenanceSchedule(await readSetting(settings, "MAINTENANCE_WINDOW"));
  return { open: true, opensAt: schedule && nextOpening(schedule, now) };
}

function gateOf(facts: GateFacts, windowOpensAt: Date | undefined): Gate {
  // A CANCELED rollout's runs are being cancelled; until then they wait like a paused one's.
  if (facts.rolloutState === "PAUSED" || facts.rolloutState === "CANCELED") return { open: false, reason: "rollout paused" };
  if (windowOpensAt) return windowClosed(windowOpensAt);
  if (facts.planCheckErrors) return { open: false, reason: "plan check errors" };
  if (facts.databaseBusy) return { open: false, reason: "database busy" };
  return OPEN;
}

function windowClosed(opensAt: Date): Gate {
  return { open: false, reason: `maintenance window opens at ${rfc3339(opensAt)}`, retryAt: opensAt };
}

/** 2024-01-08T22:00:00Z (openings fall on whole minutes). */
function rfc3339(time: Date): string {
  return time.toISOString().replace(/\.000Z$/, "Z");
}
