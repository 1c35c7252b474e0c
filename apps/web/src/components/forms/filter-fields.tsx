import type { SxProps, Theme } from "@mui/material/styles";
import { useClientIds } from "../../api/list-client-ids";
import { useReviewers } from "../../api/list-reviewers";
import { useTechnologists } from "../../api/list-technologists";
import { useAccess } from "../access/access-context";
import { clientOptions, personOptions, SelectField, type SelectFieldProps } from "./select-field";

/** A list filter held by its page (usually in the URL): the chosen id, "" for all. */
type FilterFieldProps = {
  value: string;
  onChange: (value: string) => void;
  sx?: SxProps<Theme>;
};

/**
 * The "Client" filter of a list: every active client as "Name (CODE)", read (once, by its shared query key) only
 * for users who may read clients; others see just the empty choice, as the server would refuse the list. A page may
 * add choices after the empty one (`children`) and its own message under the box.
 */
export function ClientFilterField({
  emptyLabel = "All clients",
  ...props
}: FilterFieldProps & Pick<SelectFieldProps, "error" | "helperText" | "children"> & { emptyLabel?: string }) {
  const { can } = useAccess();
  const clients = useClientIds({ enabled: can("clients:read") });
  return (
    <SelectField label="Client" size="small" emptyLabel={emptyLabel} options={clientOptions(clients.data)} {...props} />
  );
}

/** The "Technologist" filter of a list: the enabled technologists by name; `emptyLabel` is the no-filter choice. */
export function TechnologistFilterField({ emptyLabel, ...props }: FilterFieldProps & { emptyLabel: string }) {
  const technologists = useTechnologists();
  return (
    <SelectField
      label="Technologist"
      size="small"
      emptyLabel={emptyLabel}
      options={personOptions(technologists.data)}
      {...props}
    />
  );
}

/** The "Reviewer" filter of a list: the enabled reviewers by name, "Anyone" for no filter. */
export function ReviewerFilterField(props: FilterFieldProps) {
  const reviewers = useReviewers();
  return (
    <SelectField label="Reviewer" size="small" emptyLabel="Anyone" options={personOptions(reviewers.data)} {...props} />
  );
}
