import { formatInstantInZone } from "@vigil/contract";

/** A time in the client's zone, zone named, worded by the contract as the server's messages word it. */
export function ZonedDateTime({ value, timeZone }: { value: string; timeZone: string }) {
  return <time dateTime={value}>{formatInstantInZone(value, timeZone)}</time>;
}
