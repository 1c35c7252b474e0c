/**
 * A stale edit (someone else saved a newer revision first) is never lost: the fields the user changed, relative
 * to the revision they started from, are put onto the newer revision. Fields are the top-level keys of a
 * record's `data`, compared by value (deep), so "the notification" or "the CPT code lines" move as one field.
 */
export type ReapplyResult<Data> = {
  /** Their data with the user's changed fields on top. */
  data: Data;
  /** The fields the user changed (taken from the user's version). */
  changed: string[];
  /** Fields both changed, differently: the user's version is kept; they should look before saving. */
  overlapping: string[];
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Structural equality for JSON-like data; an absent key equals `undefined`. */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((value, index) => deepEqual(value, right[index]));
  }
  if (isPlainObject(left) && isPlainObject(right)) {
    const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
    for (const key of keys) if (!deepEqual(left[key], right[key])) return false;
    return true;
  }
  return false;
}

/**
 * `base` is the data the user started editing, `mine` what they submitted, `theirs` the current data. Keys the
 * user did not touch keep their value; keys the user changed take the user's value (removed if the user
 * removed it).
 */
export function reapplyChanges<Data extends object>(base: Data, mine: Data, theirs: Data): ReapplyResult<Data> {
  const baseFields = base as Record<string, unknown>;
  const myFields = mine as Record<string, unknown>;
  const theirFields = theirs as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...theirFields };
  const changed: string[] = [];
  const overlapping: string[] = [];
  for (const key of new Set([...Object.keys(baseFields), ...Object.keys(myFields)])) {
    if (deepEqual(baseFields[key], myFields[key])) continue;
    changed.push(key);
    if (!deepEqual(baseFields[key], theirFields[key]) && !deepEqual(myFields[key], theirFields[key])) {
      overlapping.push(key);
    }
    if (key in myFields) merged[key] = myFields[key];
    else delete merged[key];
  }
  return { data: merged as Data, changed, overlapping };
}
