import type { Case, RecordKind } from "@vigil/contract";
import type React from "react";

/**
 * What a record kind's editor receives. `initial` is the data to start from (absent when adding); `onSubmit` gets
 * the whole new data (the contract's parsed `data` of the kind), and the tab sends it as a create or an edit.
 */
export type RecordEditorProps<Data> = {
  caseItem: Case;
  initial?: Data;
  submitLabel: string;
  busy?: boolean;
  onSubmit: (data: Data) => Promise<void> | void;
  onCancel: () => void;
};

/**
 * How one record kind shows in `RecordTab`: its words, its editor and how an item reads. The tab owns loading,
 * the list, add/edit/delete/restore, history with diffs and the stale-edit (409) handling.
 */
export type RecordView<
  Item extends { id: string; revision: number; deleted: boolean; data: Data },
  Data,
  List = unknown,
> = {
  kind: RecordKind;
  title: string;
  noun: string;
  emptyText: string;
  Editor: React.ComponentType<RecordEditorProps<Data>>;
  ItemBody: React.ComponentType<{ item: Item; caseItem: Case }>;
  Summary?: React.ComponentType<{ list: List; caseItem: Case }>;
  ItemActions?: React.ComponentType<{ item: Item; caseItem: Case; list: List }>;
  /** Printable fields (label → value) for history diffs and the conflict comparison. */
  flatten: (data: Data) => Record<string, string>;
  /** false hides Edit/Delete (e.g. a signed interpretation: addenda only). Default true. */
  editable?: (item: Item) => boolean;
  /** Optional extra toolbar (e.g. the time-log timer) above the list. */
  Toolbar?: React.ComponentType<{ list: List; caseItem: Case }>;
};
