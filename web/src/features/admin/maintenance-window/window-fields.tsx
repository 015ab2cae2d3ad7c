// One maintenance window's inputs: its weekdays, its start and how long it
// stays open.
import { MaintenanceWindowSetting_Weekday as Weekday } from "@gen/svc/v1/setting_operations_pb.js";
import { Field } from "../../../components/field.tsx";
import { EntryActions } from "../settings/entry-actions.tsx";
import type { ListEdits } from "../settings/list-edits.ts";
import { WEEKDAYS, type WindowRow } from "./window-draft.ts";

const dayName = (day: Weekday) => Weekday[day].charAt(0) + Weekday[day].slice(1).toLowerCase();

export function WindowFields({ number, count, row, edits }: { number: number; count: number; row: WindowRow; edits: ListEdits<WindowRow> }) {
  const index = number - 1;
  const toggle = (day: Weekday, on: boolean) => edits.change(index, { weekdays: on ? [...row.weekdays, day] : row.weekdays.filter((d) => d !== day) });
  return (
    <fieldset className="setting-entry">
      <legend>Window {number}</legend>
      <fieldset className="weekdays">
        <legend>Days of window {number}</legend>
        {WEEKDAYS.map((day) => (
          <label key={day} className="check">
            <input type="checkbox" checked={row.weekdays.includes(day)} onChange={(event) => toggle(day, event.target.checked)} /> {dayName(day)}
          </label>
        ))}
      </fieldset>
      <Field label={`Start of window ${number}`} name={`start-${number}`} type="time" required value={row.start} onChange={(event) => edits.change(index, { start: event.target.value })} />
      <Field
        label={`Length of window ${number}`}
        name={`duration-${number}`}
        required
        value={row.duration}
        onChange={(event) => edits.change(index, { duration: event.target.value })}
        hint="A duration such as 90m or 2h."
      />
      <EntryActions name={`window ${number}`} index={index} count={count} edits={edits} />
    </fieldset>
  );
}
