// The buttons of one entry of an ordered list: up, down, remove, each named
// with the entry ("Move rule 2 up") for a screen reader's list of buttons.
import type { ListEdits } from "./list-edits.ts";

interface EntryActionsProps {
  /** The entry as the buttons name it: "rule 2". */
  name: string;
  index: number;
  count: number;
  edits: Pick<ListEdits<never>, "move" | "remove">;
}

export function EntryActions({ name, index, count, edits }: EntryActionsProps) {
  return (
    <div className="entry-actions">
      <button type="button" className="button" disabled={index === 0} onClick={() => edits.move(index, -1)}>
        Move {name} up
      </button>
      <button type="button" className="button" disabled={index === count - 1} onClick={() => edits.move(index, 1)}>
        Move {name} down
      </button>
      <button type="button" className="button" onClick={() => edits.remove(index)}>
        Remove {name}
      </button>
    </div>
  );
}
