// The delivery log's filter (contract §16.1, grammar §2.3): channel, event and
// status, each a term joined by AND.
import { filterValue } from "../../../api/filter.ts";

export interface DeliveryCriteria {
  channel: string;
  event: string;
  /** "", PENDING, SENT or FAILED. */
  status: string;
}

export const CHANNELS = ["MONITORING", "PROJECT_WEBHOOK", "EMAIL", "SLACK", "FEISHU", "WECOM", "LARK", "DINGTALK", "TEAMS", "TELEGRAM"] as const;

export function deliveryFilter(criteria: DeliveryCriteria): string {
  const terms: string[] = [];
  if (criteria.channel) terms.push(`channel=${criteria.channel}`);
  if (criteria.event.trim()) terms.push(`event=${filterValue(criteria.event.trim())}`);
  if (criteria.status) terms.push(`status=${criteria.status}`);
  return terms.join(" AND ");
}
