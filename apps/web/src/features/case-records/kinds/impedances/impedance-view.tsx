import { electrodes, type ImpedanceData, type ImpedanceItem, type ImpedanceList } from "@vigil/contract";
import type { RecordEditorProps, RecordView } from "../../components/record-view";
import { printableInstant } from "../form-values";
import { ImpedanceEditorForm } from "./impedance-editor";
import { ImpedanceItemBody, ImpedanceSummary } from "./impedance-item";
import { formatKohm } from "./impedance-levels";
import { useImpedanceThreshold } from "./use-impedance-threshold";

function ImpedanceEditor(props: RecordEditorProps<ImpedanceData>) {
  const thresholdKohm = useImpedanceThreshold(props.caseItem.id);
  return <ImpedanceEditorForm {...props} thresholdKohm={thresholdKohm} />;
}

export function flattenImpedance(data: ImpedanceData): Record<string, string> {
  const byElectrode = new Map(data.values.map((value) => [value.electrode, value.kohm]));
  const rows: Record<string, string> = { "Checked at": printableInstant(data.checkedAt) };
  for (const electrode of electrodes) {
    const kohm = byElectrode.get(electrode);
    rows[`${electrode} (kΩ)`] = kohm === undefined ? "" : formatKohm(kohm);
  }
  rows.Notes = data.notes;
  return rows;
}

export const impedanceView: RecordView<ImpedanceItem, ImpedanceData, ImpedanceList> = {
  kind: "impedance",
  title: "Impedance checks",
  noun: "impedance check",
  emptyText: "No impedance checks yet.",
  Editor: ImpedanceEditor,
  ItemBody: ImpedanceItemBody,
  Summary: ImpedanceSummary,
  flatten: flattenImpedance,
};
