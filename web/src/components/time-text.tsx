import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";

const format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A time in the reader's locale and zone, with the exact UTC time for machines. */
export function TimeText({ time }: { time: Timestamp | undefined }) {
  if (!time) return <span aria-label="never">–</span>;
  const date = timestampDate(time);
  return <time dateTime={date.toISOString()}>{format.format(date)}</time>;
}
