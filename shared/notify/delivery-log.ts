// The delivery log as SettingService shows it (contract §16.1):
// notificationDeliveries/<id>, newest first, filtered by channel, event,
// status and create_time; a FAILED delivery may be sent again (:retry), its
// attempts counted afresh.
import type { CommonQueryMethods } from "slonik";
import { type FilterFields, failedPrecondition, invalidArgument, keysetPage, notFound, type Page, type PageRequest, parseFilter, quoted } from "../platform/index.ts";
import { DELIVERY_STATUSES, type DeliveryRow, findDelivery, listDeliveries, requeueFailed } from "./delivery.store.ts";
import { CHANNELS } from "./publish.ts";

const FILTER_FIELDS: FilterFields = {
  channel: { kind: "enum", values: CHANNELS.map((c) => c.name) },
  event: { kind: "text" },
  status: { kind: "enum", values: DELIVERY_STATUSES },
  create_time: { kind: "time" },
};

const NAME = /^notificationDeliveries\/([1-9]\d{0,17})$/;

export function deliveryName(id: string): string {
  return `notificationDeliveries/${id}`;
}

export interface DeliveryListRequest extends PageRequest {
  filter: string;
}

export async function listDeliveryPage(db: CommonQueryMethods, request: DeliveryListRequest): Promise<Page<DeliveryRow>> {
  const terms = parseFilter(request.filter, FILTER_FIELDS);
  return keysetPage(
    request,
    JSON.stringify(terms),
    ["time", "text"],
    (after, limit) => listDeliveries(db, terms, after, limit),
    (row) => [row.pageTime, row.id],
  );
}

/** Sends a FAILED delivery again; answers it as it now stands (PENDING). */
export async function retryDelivery(tx: CommonQueryMethods, name: string): Promise<DeliveryRow> {
  const id = NAME.exec(name)?.[1];
  if (!id) throw invalidArgument(`name: ${quoted(name)} is not notificationDeliveries/<id>`);
  const found = await findDelivery(tx, Number(id));
  if (!found) throw notFound(`${name} not found`);
  if (!(await requeueFailed(tx, Number(id)))) throw failedPrecondition(`${name} is ${found.status}; only a FAILED delivery can be retried`);
  return (await findDelivery(tx, Number(id)))!;
}
