import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { type Client, type ClientTab, pages } from "@vigil/contract";
import { type ReactNode, useState } from "react";
import type { FieldValues } from "react-hook-form";
import { useNavigate } from "react-router";
import type { z } from "zod";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { FormActions } from "../../../components/forms/form-actions";
import { applyServerError, type ContractForm, useContractForm } from "../../../components/forms/use-contract-form";
import { PageHeading } from "../../../components/layouts/page-heading";

export type ClientItemCreateProps<V extends FieldValues, S extends z.ZodType> = {
  client: Client;
  /** "New contact". */
  heading: string;
  /** "contact", "link": used in the button and the failure message. */
  noun: string;
  /** The client tab the item lists on, where the form returns to. */
  tab: ClientTab;
  schema: S;
  defaultValues: V;
  toInput: (values: V) => unknown;
  renderFields: (form: ContractForm<V, S>) => ReactNode;
  create: (input: z.output<S>) => Promise<unknown>;
};

/**
 * The page form that adds one item to a client (a contact, a useful link): validates as you type, shows the
 * server's field messages on their fields, and returns to the client's tab once added.
 */
export function ClientItemCreateForm<V extends FieldValues, S extends z.ZodType>({
  client,
  heading,
  noun,
  tab,
  schema,
  defaultValues,
  toInput,
  renderFields,
  create,
}: ClientItemCreateProps<V, S>) {
  const navigate = useNavigate();
  const form = useContractForm({ schema, defaultValues, toInput });
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const backTo = pages["client-detail"].href({ clientId: client.id, tab });

  const submit = form.handleSubmit(async (input) => {
    setPending(true);
    setFailure(null);
    try {
      await create(input);
      form.reset(form.getValues());
      void navigate(backTo);
    } catch (error) {
      if (!applyServerError(form.setError, error)) setFailure(apiErrorOf(error)?.message ?? String(error));
    } finally {
      setPending(false);
    }
  });

  return (
    <>
      <PageHeading>{heading}</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        For {client.name} ({client.code})
      </Typography>
      <Box component="form" noValidate onSubmit={submit} aria-label={heading} sx={{ maxWidth: 900 }}>
        {failure ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            The {noun} was not added: {failure}
          </Alert>
        ) : null}
        {renderFields(form)}
        <FormActions submitLabel={pending ? "Adding…" : `Add ${noun}`} pending={pending} cancelTo={backTo} />
      </Box>
    </>
  );
}
