import type { InterpretationData, InterpretationItem, InterpretationList } from "@vigil/contract";
import type { RecordView } from "../../components/record-view";
import { InterpretationActions } from "./interpretation-actions";
import { InterpretationEditor } from "./interpretation-editor";
import { flattenInterpretation } from "./interpretation-flatten";
import { InterpretationItemBody, InterpretationSummary } from "./interpretation-item";

export const interpretationView: RecordView<InterpretationItem, InterpretationData, InterpretationList> = {
  kind: "interpretation",
  title: "Interpretations",
  noun: "interpretation",
  emptyText: "No interpretations yet.",
  Editor: InterpretationEditor,
  ItemBody: InterpretationItemBody,
  Summary: InterpretationSummary,
  ItemActions: InterpretationActions,
  flatten: flattenInterpretation,
  // A signed interpretation never changes; addenda are added beside it.
  editable: (item) => item.status === "draft",
};
