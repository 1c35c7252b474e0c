import type { CaseSummary, Client } from "@vigil/contract";

export const clientStatusLabels: Record<Client["status"], string> = { active: "Active", inactive: "Inactive" };

export const studyTypeLabels: Record<CaseSummary["studyType"], string> = {
  "icu-ceeg": "ICU cEEG",
  ambulatory: "Ambulatory",
  "emu-video": "EMU video",
};

export const priorityLabels: Record<CaseSummary["priority"], string> = { routine: "Routine", stat: "STAT" };

/** One line of address from the client's address fields, skipping the empty ones. */
export function addressOf(
  client: Pick<Client, "addressLine1" | "addressLine2" | "city" | "region" | "postalCode" | "country">,
): string {
  const cityLine = [client.city, [client.region, client.postalCode].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
  return [client.addressLine1, client.addressLine2, cityLine, client.country].filter(Boolean).join("\n");
}
