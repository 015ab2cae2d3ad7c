// The notification delivery log (contract §16.1): each event's message to
// each target with its status, attempts and last error, newest first, page
// by page, filtered by channel, event and status; a FAILED one sent again.
import { type NotificationDelivery, NotificationDelivery_Status } from "@gen/svc/v1/notification_delivery_pb.js";
import { SettingService } from "@gen/svc/v1/setting_service_pb.js";
import { useId, useState } from "react";
import { client } from "../../../api/clients.ts";
import { ListFooter } from "../../../components/list-footer.tsx";
import { ListTable } from "../../../components/list-table.tsx";
import { TimeText } from "../../../components/time-text.tsx";
import { useAction } from "../../../hooks/use-action.ts";
import { useDocumentTitle } from "../../../hooks/use-document-title.ts";
import { usePages } from "../../../hooks/use-pages.ts";
import { CHANNELS, type DeliveryCriteria, deliveryFilter } from "./delivery-filter.ts";
import { Field } from "../../../components/field.tsx";

const STATUSES = ["PENDING", "SENT", "FAILED"] as const;

export function DeliveriesPage() {
  useDocumentTitle("Notification deliveries");
  const [criteria, setCriteria] = useState<DeliveryCriteria>({ channel: "", event: "", status: "" });
  const filter = deliveryFilter(criteria);
  const pages = usePages(async (pageToken, signal) => {
    const reply = await client(SettingService).listNotificationDeliveries({ filter, pageToken, pageSize: 50 }, { signal });
    return { items: reply.notificationDeliveries, nextPageToken: reply.nextPageToken };
  }, [filter]);
  return (
    <section aria-labelledby="deliveries-heading" className="page">
      <h1 id="deliveries-heading">Notification deliveries</h1>
      <DeliveryCriteriaForm onSearch={setCriteria} />
      {pages.items.length > 0 && (
        <ListTable columns={["Created", "Channel", "Event", "Target", "Status", "Attempts", "Last error"]}>
          {pages.items.map((delivery) => (
            <DeliveryRow key={delivery.name} delivery={delivery} />
          ))}
        </ListTable>
      )}
      <ListFooter pages={pages} empty="No delivery matches." />
    </section>
  );
}

function DeliveryCriteriaForm({ onSearch }: { onSearch(criteria: DeliveryCriteria): void }) {
  const search = (form: FormData) => onSearch({ channel: String(form.get("channel")), event: String(form.get("event")), status: String(form.get("status")) });
  return (
    <form className="criteria" aria-label="Filter deliveries" onSubmit={(event) => (event.preventDefault(), search(new FormData(event.currentTarget)))}>
      <AnyOrOne label="Channel" name="channel" values={CHANNELS} />
      <Field label="Event" name="event" placeholder="e.g. issue.approved" />
      <AnyOrOne label="Status" name="status" values={STATUSES} />
      <div className="criteria-actions">
        <button type="submit" className="button primary">
          Search
        </button>
      </div>
    </form>
  );
}

/** A criterion that is any value ("") or one of `values`. */
function AnyOrOne({ label, name, values }: { label: string; name: string; values: readonly string[] }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue="">
        <option value="">Any</option>
        {values.map((value) => (
          <option key={value}>{value}</option>
        ))}
      </select>
    </div>
  );
}

function DeliveryRow({ delivery: read }: { delivery: NotificationDelivery }) {
  const [delivery, setDelivery] = useState(read);
  const retry = useAction();
  const failed = delivery.status === NotificationDelivery_Status.FAILED;
  return (
    <tr>
      <td>
        <TimeText time={delivery.createTime} />
      </td>
      <td>{delivery.channel}</td>
      <td>{delivery.event}</td>
      <td className="wrap">{delivery.target}</td>
      <td>
        <span className={`badge ${failed ? "outcome-refused" : delivery.status === NotificationDelivery_Status.SENT ? "outcome-ok" : ""}`}>
          {NotificationDelivery_Status[delivery.status]}
        </span>
      </td>
      <td>{delivery.attempts}</td>
      <td className="wrap">
        {delivery.lastError || "–"}
        {failed && (
          <div className="connection-test">
            <button
              type="button"
              className="button"
              disabled={retry.pending}
              aria-label={`Retry the ${delivery.event} delivery to ${delivery.target}`}
              onClick={() => void retry.run(async () => setDelivery(await client(SettingService).retryNotificationDelivery({ name: delivery.name })))}
            >
              Retry
            </button>
            {retry.error && (
              <span role="alert" className="test-refusal">
                {retry.error}
              </span>
            )}
          </div>
        )}
      </td>
    </tr>
  );
}
