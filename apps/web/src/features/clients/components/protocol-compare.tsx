import Stack from "@mui/material/Stack";
import type { Client, ProtocolRevision } from "@vigil/contract";
import { formatInstantInZone } from "@vigil/contract";
import { SideBySideCompare } from "../../../components/compare/side-by-side-compare";
import { SelectField } from "../../../components/forms/select-field";
import { protocolCompareRows } from "../protocol-model";
import { useContactNames } from "./protocol-recipients";

export type ProtocolCompareProps = {
  client: Client;
  /** Newest first, as the API returns it. */
  history: readonly ProtocolRevision[];
  from: number;
  to: number;
  onChange: (selection: { from: number; to: number }) => void;
};

function revisionTitle(revision: ProtocolRevision, timeZone: string): string {
  return `Revision ${revision.revision} (${formatInstantInZone(revision.createdAt, timeZone)})`;
}

/** Any two revisions side by side: pick them, see which settings and transfer-form fields differ. */
export function ProtocolCompare({ client, history, from, to, onChange }: ProtocolCompareProps) {
  const left = history.find((revision) => revision.revision === from);
  const right = history.find((revision) => revision.revision === to);
  const contactNames = useContactNames(client.id);
  const picker = (label: string, value: number, pick: (revision: number) => void) => (
    <SelectField
      label={label}
      value={String(value)}
      onChange={(revision) => pick(Number(revision))}
      size="small"
      sx={{ minWidth: 220 }}
      options={history.map((revision) => ({
        value: String(revision.revision),
        label: `Revision ${revision.revision}`,
      }))}
    />
  );
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ flexWrap: "wrap", gap: 2 }}>
        {picker("Compare revision", from, (revision) => onChange({ from: revision, to }))}
        {picker("with revision", to, (revision) => onChange({ from, to: revision }))}
      </Stack>
      {left && right ? (
        <SideBySideCompare
          label={`Revision ${left.revision} compared with revision ${right.revision}`}
          leftTitle={revisionTitle(left, client.timezone)}
          rightTitle={revisionTitle(right, client.timezone)}
          rows={protocolCompareRows(left, right, contactNames)}
          changedOnly
        />
      ) : null}
    </Stack>
  );
}
