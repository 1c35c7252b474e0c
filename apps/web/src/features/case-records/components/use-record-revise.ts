import type { RecordKind } from "@vigil/contract";
import { useState } from "react";
import { apiErrorOf, currentFromDetails } from "../../../components/forms/field-messages";
import type { RecordDataOf, RecordItemOf, RecordRevisionBodyOf } from "../api/record-kinds";
import { recordItemSchemas } from "../api/record-kinds";
import { useReviseRecord } from "../api/revise-record";
import { type ReapplyResult, reapplyChanges } from "../reapply-changes";
import { describeRecordFailure, type RecordFailure } from "./record-labels";

/** A revision refused because someone else appended one first: nothing was saved, the request is kept. */
export type RecordConflict<Item, Body> = {
  /** The item as the user saw it (the base their request named). */
  base: Item;
  /** The item as it is now (`details.current` of the 409). */
  theirs: Item;
  /** What the user sent, without its base: their words, kept. */
  request: Body;
};

export type ItemRevise<Item, Data, Body> = {
  /** Appends `body` on top of `item` (its revision is the base). Resolves with the new item, or null when refused. */
  revise: (item: Item, body: Body) => Promise<Item | null>;
  pending: boolean;
  /** Set after a stale base (409 with the current item). */
  conflict: RecordConflict<Item, Body> | null;
  /** Any other refusal (stage, permission, a field the server did not accept). */
  failure: RecordFailure | null;
  /** The user's changes (relative to their base) put onto their version; undefined for a request without data. */
  reapplied: () => ReapplyResult<Data> | undefined;
  /** Sends the refused request again on their version (with the user's data changes re-applied when it has data). */
  retryOnTheirs: () => Promise<Item | null>;
  /** Forgets the conflict and the failure (discard mine, keep theirs). */
  dismiss: () => void;
};

type RevisableItem = { id: string; revision: number; data: object };

function dataOf<Data>(body: unknown): Data | undefined {
  const data = (body as { data?: Data }).data;
  return data === undefined ? undefined : data;
}

/**
 * The loosely typed core, for code that is generic over a record view (`RecordTab`). Screens of one kind use
 * the typed `useRecordRevise`.
 */
export function useItemRevise<Item extends RevisableItem, Data extends object, Body extends { change: string }>(
  kind: RecordKind,
  caseId: string,
): ItemRevise<Item, Data, Body> {
  const mutation = useReviseRecord(kind, caseId);
  const [conflict, setConflict] = useState<RecordConflict<Item, Body> | null>(null);
  const [failure, setFailure] = useState<RecordFailure | null>(null);

  const revise = async (item: Item, body: Body): Promise<Item | null> => {
    setConflict(null);
    setFailure(null);
    try {
      const request = { ...body, baseRevision: item.revision } as never;
      return (await mutation.mutateAsync({ itemId: item.id, request })) as unknown as Item;
    } catch (error) {
      const current = recordItemSchemas[kind].safeParse(currentFromDetails(error));
      if (apiErrorOf(error)?.status === 409 && current.success) {
        setConflict({ base: item, theirs: current.data as unknown as Item, request: body });
      } else {
        setFailure(describeRecordFailure(error));
      }
      return null;
    }
  };

  const reapplied = (): ReapplyResult<Data> | undefined => {
    if (!conflict) return undefined;
    const mine = dataOf<Data>(conflict.request);
    if (!mine) return undefined;
    return reapplyChanges(conflict.base.data as Data, mine, conflict.theirs.data as Data);
  };

  return {
    revise,
    pending: mutation.isPending,
    conflict,
    failure,
    reapplied,
    retryOnTheirs: () => {
      if (!conflict) return Promise.resolve(null);
      const merged = reapplied();
      const body = (merged ? { ...conflict.request, data: merged.data } : conflict.request) as Body;
      return revise(conflict.theirs, body);
    },
    dismiss: () => {
      setConflict(null);
      setFailure(null);
    },
  };
}

/**
 * Appends revisions of one kind with the stale-edit handling every record shares: the request names the item's
 * revision as its base; a 409 keeps the request and their version (`conflict`) for `RecordConflictPanel`, so the
 * user can compare, re-apply on top (`retryOnTheirs`, or `reapplied()` to prefill an editor) or discard theirs.
 * For the kinds' own revisions too (sign, addendum, clock-out): `revise(item, { change: "sign" })`.
 */
export function useRecordRevise<K extends RecordKind>(
  kind: K,
  caseId: string,
): ItemRevise<RecordItemOf<K>, RecordDataOf<K>, RecordRevisionBodyOf<K>> {
  return useItemRevise<RecordItemOf<K>, RecordDataOf<K>, RecordRevisionBodyOf<K>>(kind, caseId);
}
